"""Hands recorded with tiles under older rulings: their recorded fan is history, never rewritten.

The two hands below were scored before the Green Book rulings of the wmo-2006 profile: a Nine
Gates won on a 5 with a Pung of Terminals (91 fan, 90 today) and a self-drawn Seven Pairs with
Self-Drawn (31 fan, 34 today with Fully Concealed Hand).
"""

from __future__ import annotations

import copy
import json
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from scoring.engine import get_preset
from scoring.engine.rulebook import rulebook_for
from tournament.archive import export_tournament, import_tournament
from tournament.models import Deal, Tournament
from tournament.reads.statistics import WinPatterns
from tournament.services import DealInput, correct_deal, record_deal

pytestmark = pytest.mark.django_db

NINE_GATES_ON_5 = {
    "concealed": ["1p", "1p", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "9p", "9p"],
    "melds": [],
    "win_tile": "5p",
}
SEVEN_PAIRS = {
    "concealed": ["1m", "1m", "3m", "3m", "5p", "5p", "9s", "9s", "E", "E", "C", "C", "3p"],
    "melds": [],
    "win_tile": "3p",
}
RESCORED = (
    "round 1, table 1, hand 1: recorded 91 fan, the tiles now score 90",
    "round 1, table 1, hand 2: recorded 31 fan, the tiles now score 34",
)


def document(nine_gates_fan=91, seven_pairs_fan=31):
    """One table in play: D wins the Nine Gates on A's discard, then C self-draws Seven Pairs."""
    return {
        "format": "mcr-tournament-archive",
        "version": 1,
        "tournament": {"name": "Old Cup", "slug": "old-cup", "profile": "wmo-2006"},
        "players": [{"key": key, "name": f"Player {key}"} for key in "ABCD"],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    {
                        "number": 1,
                        "seats": {"E": "A", "S": "B", "W": "C", "N": "D"},
                        "hands": [
                            {
                                "number": 1,
                                "result": "win",
                                "winner": "D",
                                "discarder": "A",
                                "fan": nine_gates_fan,
                                "tiles": copy.deepcopy(NINE_GATES_ON_5),
                            },
                            {
                                "number": 2,
                                "result": "win",
                                "winner": "C",
                                "fan": seven_pairs_fan,
                                "tiles": copy.deepcopy(SEVEN_PAIRS),
                            },
                        ],
                    }
                ],
            }
        ],
    }


def hands(slug="old-cup"):
    return list(Deal.objects.filter(table__round__tournament__slug=slug).order_by("number"))


def test_an_archive_whose_tiles_now_score_differently_is_refused_listing_the_hands(organiser):
    with pytest.raises(ValidationError) as error:
        import_tournament(document(), actor=organiser)

    message = error.value.messages[0]
    assert error.value.code == "fan_rescored"
    assert message.startswith("The tiles of 2 hands now score a different fan")
    assert all(line in message for line in RESCORED)
    assert "--keep-recorded-fan" in message
    assert not Tournament.objects.filter(slug="old-cup").exists()


def test_keeping_the_recorded_fan_imports_the_hands_as_recorded_and_lists_them(organiser):
    warnings: list[str] = []

    tournament = import_tournament(
        document(), actor=organiser, keep_recorded_fan=True, warnings=warnings
    )

    nine_gates, seven_pairs = hands()
    assert (nine_gates.fan, seven_pairs.fan) == (91, 31)
    assert nine_gates.tiles["win_tile"] == "5p" and seven_pairs.tiles["self_drawn"] is True
    # Paid from the recorded fan: A pays 8 + 91, B and C 8 each; then C takes 8 + 31 from each.
    assert nine_gates.payments == [-99, -8, -8, 115]
    assert seven_pairs.payments == [-39, -39, 117, -39]
    assert tournament.slug == "old-cup"
    [warning] = warnings
    assert warning.startswith("Kept the recorded fan of 2 hands")
    assert all(line in warning for line in RESCORED)


def test_tiles_that_still_score_their_recorded_fan_import_without_a_word(organiser):
    warnings: list[str] = []

    import_tournament(document(90, 34), actor=organiser, warnings=warnings)

    assert [hand.fan for hand in hands()] == [90, 34]
    assert warnings == []


def test_keeping_the_recorded_fan_still_checks_the_tiles(organiser):
    broken = document()
    broken["rounds"][0]["tables"][0]["hands"][0]["tiles"]["win_tile"] = "E"

    with pytest.raises(ValidationError, match="round 1, table 1, hand 1: These tiles do not"):
        import_tournament(broken, actor=organiser, keep_recorded_fan=True)


def test_a_recorded_fan_is_never_rewritten_by_later_changes_to_the_game(organiser):
    tournament = import_tournament(document(), actor=organiser, keep_recorded_fan=True)
    table = tournament.rounds.get().tables.get()
    players = {player.key: player for player in tournament.players.all()}
    third = record_deal(
        table=table,
        number=3,
        deal=DealInput(result="win", winner=players["A"], discarder=players["B"], fan=8),
        entered_by=organiser,
    )

    correct_deal(
        hand=third,
        deal=DealInput(result="win", winner=players["A"], discarder=players["C"], fan=12),
        entered_by=organiser,
    )

    assert [hand.fan for hand in hands()] == [91, 31, 12]
    exported = export_tournament(tournament)
    recorded = exported["rounds"][0]["tables"][0]["hands"]
    assert [(hand["fan"], "tiles" in hand) for hand in recorded] == [
        (91, True),
        (31, True),
        (12, False),
    ]


def test_statistics_name_no_fans_for_a_hand_whose_tiles_now_score_another_fan(organiser):
    """The names would not add up to the recorded fan: the hand counts as one without tiles."""
    import_tournament(document(91, 34), actor=organiser, keep_recorded_fan=True)
    nine_gates, seven_pairs = hands()
    names = WinPatterns(rulebook_for(get_preset("mcr")), "wmo-2006")

    assert names.of(nine_gates) is None
    assert [fan.key for fan in names.of(seven_pairs) or ()] == [
        "seven_pairs",
        "all_types",
        "fully_concealed_hand",
    ]


def test_an_export_of_kept_hands_is_refused_again_without_the_option(organiser):
    """The archive keeps the history: reading it back asks again."""
    tournament = import_tournament(document(), actor=organiser, keep_recorded_fan=True)
    exported = export_tournament(tournament)

    with pytest.raises(ValidationError) as error:
        import_tournament(exported, actor=organiser, slug="old-cup-copy")

    assert all(line in error.value.messages[0] for line in RESCORED)


# --- manage.py import_tournament -----------------------------------------------------------


def run_import(tmp_path, *options):
    path = tmp_path / "old-cup.json"
    path.write_text(json.dumps(document()), encoding="utf-8")
    out, err = StringIO(), StringIO()
    call_command("import_tournament", str(path), *options, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_command_refuses_the_archive_and_names_the_hands_and_the_option(tmp_path):
    with pytest.raises(CommandError) as error:
        run_import(tmp_path)

    message = str(error.value)
    assert message.startswith("Nothing was imported.")
    assert all(line in message for line in RESCORED)
    assert "--keep-recorded-fan" in message
    assert not Tournament.objects.filter(slug="old-cup").exists()


def test_the_command_keeps_the_recorded_fan_when_told_to(tmp_path):
    out, err = run_import(tmp_path, "--keep-recorded-fan")

    assert "Imported 'Old Cup' (old-cup)" in out
    assert "Kept the recorded fan of 2 hands" in err
    assert all(line in err for line in RESCORED)
    assert [hand.fan for hand in hands()] == [91, 31]
