"""The player list import with hostile or broken files: each is refused with a message naming
its line, never with an exception of another kind, and never half imported."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament.domain.player_csv import MAX_CSV_CELL, MAX_CSV_CHARACTERS, MAX_CSV_PLAYERS
from tournament.models import Player
from tournament.services import add_player, import_players_csv, update_player


def refusal(tournament, text: str) -> ValidationError:
    with pytest.raises(ValidationError) as error:
        import_players_csv(tournament=tournament, text=text)
    assert not Player.objects.filter(tournament=tournament).exists()
    return error.value


def test_lines_ending_in_cr_alone_are_read(tournament):
    import_players_csv(tournament=tournament, text="key,name\r1,Anna Berg\r2,Bo Chen\r")
    assert list(tournament.players.values_list("key", "name")) == [
        ("1", "Anna Berg"),
        ("2", "Bo Chen"),
    ]


def test_lines_ending_in_crlf_are_read(tournament):
    import_players_csv(tournament=tournament, text="key;name\r\n1;Anna Berg\r\n")
    assert tournament.players.get().name == "Anna Berg"


def test_a_cell_over_the_csv_module_limit_is_refused_by_line(tournament):
    text = "key,name\n1,Anna\n2," + "x" * 131_073 + "\n"
    error = refusal(tournament, text)
    assert error.code == "csv_rows"
    assert f"line 3: a cell is longer than {MAX_CSV_CELL:,} characters" in error.messages[0]


def test_a_cell_over_the_cell_limit_is_refused_by_line(tournament):
    error = refusal(tournament, "key,name\n1,Anna\n2," + "x" * (MAX_CSV_CELL + 1) + "\n")
    assert "line 3: a cell is longer than" in error.messages[0]


def test_an_unbalanced_quote_does_not_swallow_the_next_line(tournament):
    text = 'key,name\n1,"Anna Berg\n2,Bo Chen\n3,Carla"\n4,Dora\n'
    error = refusal(tournament, text)
    assert "lines 2 to 4 are read as one" in error.messages[0]
    assert "quote" in error.messages[0]


def test_a_quote_never_closed_is_refused_by_line(tournament):
    error = refusal(tournament, 'key,name\n1,Anna\n2,"Bo Chen')
    assert "line 3 cannot be read as CSV" in error.messages[0]


def test_text_after_a_closing_quote_is_refused_by_line(tournament):
    error = refusal(tournament, 'key,name\n1,"Anna" Berg\n')
    assert "line 2 cannot be read as CSV" in error.messages[0]


def test_a_quote_inside_a_name_is_kept(tournament):
    import_players_csv(tournament=tournament, text='key,name\n1,Anna "Bee" Berg\n2,"Bo ""B"""\n')
    assert list(tournament.players.values_list("name", flat=True)) == [
        'Anna "Bee" Berg',
        'Bo "B"',
    ]


@pytest.mark.parametrize("character", ["\x00", "\ud800"])
def test_a_character_the_database_cannot_store_is_refused_by_line(tournament, character):
    error = refusal(tournament, f"key,name\n1,Anna\n2,Bo{character}\n")
    assert "line 3:" in error.messages[0]
    assert "not allowed" in error.messages[0]


def test_a_list_over_the_size_limit_is_refused(tournament):
    error = refusal(tournament, "key,name\n" + "1," + "x" * MAX_CSV_CHARACTERS)
    assert error.code == "csv_too_large"


def test_a_list_of_too_many_players_is_refused(tournament):
    lines = "".join(f"{n},P{n}\n" for n in range(1, MAX_CSV_PLAYERS + 2))
    error = refusal(tournament, "key,name\n" + lines)
    assert error.code == "csv_too_large"
    assert f"{MAX_CSV_PLAYERS:,}" in error.messages[0]


def test_a_list_of_the_most_players_is_read(tournament):
    lines = "".join(f"{n},P{n}\n" for n in range(1, MAX_CSV_PLAYERS + 1))
    assert len(import_players_csv(tournament=tournament, text="key,name\n" + lines)) == (
        MAX_CSV_PLAYERS
    )


def test_many_wrong_lines_are_listed_up_to_twenty(tournament):
    lines = "".join(f"{n},\n" for n in range(1, 31))
    message = refusal(tournament, "key,name\n" + "1,x\n" + lines).messages[0]
    assert "line 22:" in message and "line 23:" not in message
    assert "and 10 more" in message


def test_a_duplicate_ema_number_in_the_list_is_named_as_such(tournament):
    text = "key,name,ema_number\n1,Anna,04010001\n2,Bo,04010001\n"
    message = refusal(tournament, text).messages[0]
    assert "line 3: EMA number 04010001 is taken" in message
    assert "key" not in message.split("line 3:")[1]


def test_adding_a_player_with_a_taken_ema_number_names_the_ema_number(tournament):
    add_player(tournament=tournament, key="1", name="Anna", ema_number="04010001")
    with pytest.raises(ValidationError) as error:
        add_player(tournament=tournament, key="2", name="Bo", ema_number="04010001")
    assert error.value.message_dict == {
        "ema_number": ["Another player of this tournament has this EMA number."]
    }
    assert tournament.players.count() == 1


def test_changing_a_player_to_a_taken_ema_number_names_the_ema_number(tournament):
    add_player(tournament=tournament, key="1", name="Anna", ema_number="04010001")
    bo = add_player(tournament=tournament, key="2", name="Bo")
    with pytest.raises(ValidationError) as error:
        update_player(player=bo, ema_number="04010001")
    assert list(error.value.message_dict) == ["ema_number"]
    assert error.value.error_dict["ema_number"][0].code == "taken"


# Text shaped like a player list often enough to reach past the header: a header that names
# the columns, then lines mixing fair cells with quotes, separators, line ends and odd text.
cells = st.one_of(
    st.text(max_size=12),
    st.sampled_from(['"', '""', ",", ";", "\t", "\r", "\n", "\r\n", "\x00", "yes", "maybe"]),
    st.from_regex(r"[0-9]{1,8}", fullmatch=True),
)
lines = st.lists(cells, min_size=0, max_size=7).map(",".join)
lists = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300).map(lambda data: data.decode("utf-8", "surrogateescape")),
    st.tuples(
        st.sampled_from(["key,name", "key;name;ema_number;substitute", "key\tname\tclub"]),
        st.lists(lines, max_size=12),
        st.sampled_from(["\n", "\r\n", "\r"]),
    ).map(lambda parts: parts[2].join([parts[0], *parts[1]])),
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=lists)
def test_any_text_is_imported_whole_or_refused_with_nothing_saved(tournament, text):
    before = Player.objects.count()
    with transaction.atomic():
        try:
            imported = import_players_csv(tournament=tournament, text=text)
        except ValidationError as error:
            assert error.messages and all(error.messages)
            assert Player.objects.count() == before
        else:
            assert Player.objects.count() == before + len(imported) > before
        transaction.set_rollback(True)
