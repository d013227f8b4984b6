"""Archives with values out of range, text the database cannot store, documents too large or
nested too deep: each is refused with an ArchiveError (or the command's error) that names its
place, before the database sees it, and nothing is saved."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tournament.archive import ArchiveError, import_tournament
from tournament.archive import parse as parse_archive
from tournament.archive.schema import MOST_HANDS, MOST_PLAYERS, MOST_ROUNDS
from tournament.models import AuditEntry, Deal, Penalty, Player, Round, Table, Tournament

pytestmark = pytest.mark.django_db


def document():
    """Four players, one round in play, one hand: D self-draws 8 fan."""
    return {
        "format": "mcr-tournament-archive",
        "version": 2,
        "tournament": {"name": "Club Night", "slug": "club-night"},
        "players": [{"key": key, "name": f"Player {key}"} for key in "ABCD"],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    {
                        "number": 1,
                        "seats": {"E": "A", "S": "B", "W": "C", "N": "D"},
                        "hands": [{"number": 1, "result": "win", "winner": "D", "fan": 8}],
                    }
                ],
            }
        ],
    }


def counts() -> dict[str, int]:
    models = (Tournament, Player, Round, Table, Deal, Penalty, AuditEntry, get_user_model())
    return {model.__name__: model.objects.count() for model in models}


def refusal(data, organiser) -> str:
    before = counts()
    with pytest.raises(ArchiveError) as error:
        import_tournament(data, actor=organiser)
    assert counts() == before
    return error.value.messages[0]


def with_hand(**fields):
    data = document()
    data["rounds"][0]["tables"][0]["hands"][0].update(fields)
    return data


def test_the_bare_document_imports(organiser):
    import_tournament(document(), actor=organiser)
    assert Deal.objects.get().fan == 8


@pytest.mark.parametrize("fan", [10**6, 2**63, -1])
def test_a_fan_out_of_range_is_refused_by_its_hand(organiser, fan):
    message = refusal(with_hand(fan=fan), organiser)
    assert message.startswith("round 1, table 1, hand 1: fan must be 0 to 32767, not ")


def test_a_number_of_a_thousand_digits_is_shown_by_its_length(organiser):
    message = refusal(with_hand(fan=10**1000), organiser)
    assert message == (
        "round 1, table 1, hand 1: fan must be 0 to 32767, not a number of 1001 digits."
    )


@pytest.mark.parametrize("field", ["flowers", "value", "extra_hands"])
def test_other_numbers_of_a_deal_are_bounded(organiser, field):
    assert "must be 0 to 32767" in refusal(with_hand(**{field: 2**63}), organiser)


def test_payments_are_bounded(organiser):
    payments = {"E": 2**63, "S": -(2**63), "W": 0, "N": 0}
    message = refusal(with_hand(payments=payments), organiser)
    assert message.startswith("round 1, table 1, hand 1, payments: E must be -2147483648 to")


def test_a_table_number_out_of_range_is_refused_by_its_table(organiser):
    data = document()
    data["rounds"][0]["tables"][0]["number"] = 70000
    assert refusal(data, organiser) == (
        "round 1, table 70000: number must be 1 to 32767, not 70000."
    )


def test_a_long_penalty_reason_is_refused_by_its_hand(organiser):
    penalty = {"player": "A", "points": 10, "distributed": False, "reason": "x" * 10_000}
    message = refusal(with_hand(penalties=[penalty]), organiser)
    assert message == (
        "round 1, table 1, hand 1, penalty 1, reason: the text is 10,000 characters long; "
        "at most 300."
    )


def test_penalty_points_are_bounded(organiser):
    penalty = {"player": "A", "points": 2**63, "distributed": False, "reason": "Late"}
    assert "points must be 0 to 32767" in refusal(with_hand(penalties=[penalty]), organiser)


@pytest.mark.parametrize("character", ["\x00", "\ud800", "\udfff"])
def test_a_name_with_a_character_the_database_cannot_store_is_refused(organiser, character):
    data = document()
    data["players"][1]["name"] = f"Bo{character}"
    assert refusal(data, organiser) == (
        "player 2 (key 'B'), name: the text holds a NUL character or a lone surrogate, which "
        "cannot be stored."
    )


def test_a_long_key_is_refused_and_shown_cut_short(organiser):
    data = document()
    data["players"][0]["key"] = "k" * 10_000
    message = refusal(data, organiser)
    assert message.startswith("player 1 (key 'kkkk")
    assert "(10,000 characters)), key: the text is 10,000 characters long; at most 20." in (message)
    assert len(message) < 300


def test_tiles_with_a_nul_are_refused(organiser):
    tiles = {"concealed": ["1m\x00"], "melds": [], "win_tile": "1m"}
    message = refusal(with_hand(tiles=tiles), organiser)
    assert message.startswith("round 1, table 1, hand 1, tiles: the text holds a NUL")


def test_deeply_nested_tiles_are_refused_without_recursion(organiser):
    nested: list = []
    for _ in range(100_000):
        nested = [nested]
    message = refusal(with_hand(tiles={"melds": nested}), organiser)
    assert message == "round 1, table 1, hand 1, tiles: it is nested more than 6 deep."


def test_null_optional_text_reads_as_empty(organiser):
    data = document()
    data["players"][0].update(team=None, club=None, country=None, ema_id=None)
    data["tournament"]["venue"] = None
    import_tournament(data, actor=organiser)
    anna = Player.objects.get(key="A")
    assert (anna.team, anna.club, anna.country, anna.ema_number) == ("", "", "", "")


def test_a_duplicate_ema_number_is_named_as_such(organiser):
    data = document()
    data["players"][0]["ema_id"] = data["players"][1]["ema_id"] = "04010001"
    message = refusal(data, organiser)
    assert message == (
        "player 2 (key 'B'): ema_number: Another player of this tournament has this EMA number."
    )


def test_more_players_than_an_archive_holds_are_refused_at_once(organiser):
    data = document()
    data["players"] += [{"key": f"x{n}", "name": "Extra"} for n in range(20_000)]
    message = refusal(data, organiser)
    assert message == f'archive: "players" has at most {MOST_PLAYERS} entries, not 20004.'


def test_more_rounds_than_an_archive_holds_are_refused(organiser):
    data = document()
    data["rounds"] += [{"number": n} for n in range(2, MOST_ROUNDS + 2)]
    assert f"at most {MOST_ROUNDS} entries" in refusal(data, organiser)


def test_more_hands_than_an_archive_holds_are_refused(organiser, monkeypatch):
    monkeypatch.setattr("tournament.archive.schema.MOST_HANDS", 0)
    assert MOST_HANDS > 0
    message = refusal(document(), organiser)
    assert message == "rounds: the games hold 1 hands in all; an archive holds at most 0."


# --- The command reads the file ---------------------------------------------------------------


def import_text(text: str) -> str:
    before = counts()
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", "-", stdin=StringIO(text), stdout=StringIO())
    assert counts() == before
    return str(error.value)


def test_the_command_refuses_a_deeply_nested_file_plainly():
    text = "[" * 100_000 + "]" * 100_000
    assert import_text(text) == "- is nested too deeply to be an archive."


def test_the_command_refuses_a_number_of_too_many_digits_plainly():
    text = json.dumps(with_hand()).replace('"fan": 8', '"fan": ' + "9" * 5000)
    assert import_text(text).startswith("- cannot be read: ")


def test_the_command_refuses_a_file_over_the_size_limit(monkeypatch):
    monkeypatch.setattr("tournament.management.commands.import_tournament.MOST_CHARACTERS", 100)
    assert "is longer than 100 characters" in import_text(json.dumps(document()))


def test_the_command_refuses_a_lone_surrogate_written_as_an_escape():
    text = json.dumps(document()).replace("Player B", "Player \\ud800")
    assert import_text(text) == (
        "Nothing was imported. player 2 (key 'B'), name: the text holds a NUL character or a "
        "lone surrogate, which cannot be stored."
    )


def test_parse_alone_refuses_without_touching_the_database(django_assert_num_queries):
    with django_assert_num_queries(0), pytest.raises(ArchiveError):
        parse_archive(with_hand(fan=2**63))
