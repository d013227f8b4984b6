"""The EMA results rows: shared places, base rank, names split in two, substitutes left out."""

from __future__ import annotations

from fractions import Fraction

import pytest
from factories import seated_round

from tournament.reads.ema import HEADERS, base_rank, decimal_text, ema_csv, ema_rows, split_name
from tournament.reads.selectors import standings
from tournament.services import (
    DealInput,
    add_player,
    confirm_submitted_games,
    end_game,
    record_deal,
)

NAMES = [
    "Anna van der Berg",  # A
    "Ben Baker",  # B
    "Cai Chen",  # C
    "Dora Diaz",  # D
    "Chen, Mei",  # E
    "Finn Fox",  # F
    "Gus Gray",  # G
]


@pytest.mark.parametrize(
    ("name", "last", "first"),
    [
        ("Ann Archer", "Archer", "Ann"),
        ("  Ann   Archer ", "Archer", "Ann"),
        ("Jean-Luc de la Fontaine", "de la Fontaine", "Jean-Luc"),
        ("Anna van der Berg", "van der Berg", "Anna"),
        ("Chen, Mei", "Chen", "Mei"),
        ("van der Berg, Anna Maria", "van der Berg", "Anna Maria"),
        ("Madonna", "Madonna", ""),
        ("de Groot", "de Groot", ""),
        ("Van Morrison", "Morrison", "Van"),
    ],
)
def test_names_split_into_last_and_first(name, last, first):
    assert split_name(name) == (last, first)


def test_base_rank_runs_from_1000_for_the_first_to_0_for_the_last():
    # N = 5: 1000 × (5 − place) / 4
    assert [base_rank(place, 5) for place in range(1, 6)] == [1000, 750, 500, 250, 0]
    # N = 7: 1000 × 5 / 6 = 833.3, 1000 × 4 / 6 = 666.7 (rounded up), 1000 × 3 / 6 = 500
    assert [base_rank(place, 7) for place in (2, 3, 4)] == [833, 667, 500]
    # N = 9, place 5: 1000 × 4 / 8 = 500; N = 3, place 2: 500
    assert base_rank(5, 9) == 500 and base_rank(2, 3) == 500
    assert base_rank(1, 1) == 1000


def test_table_points_are_decimals_without_trailing_zeros():
    assert decimal_text(Fraction(7, 3)) == "2.33"
    assert decimal_text(Fraction(3, 2)) == "1.5"
    assert decimal_text(Fraction(7, 4)) == "1.75"
    assert decimal_text(Fraction(20)) == "20"
    assert decimal_text(Fraction(0)) == "0"


@pytest.fixture
def cup(tournament, organiser):
    """One round, two tables, ended by time after one hand each and confirmed.

    Table 1 (A E, B S, C W, D N): A wins self-drawn with 8 fan: A +48, B, C, D −16 each.
      Table points A 4; B, C, D level on second to fourth: (2 + 1 + 0) / 3 = 1 each.
    Table 2 (E E, F S, G W, substitute N): E wins on F's discard with 8 fan: E +32, F −16,
      G −8, substitute −8. Table points E 4; G and the substitute level on second and third:
      (2 + 1) / 2 = 1.5 each; F 0.
    Ranking (the substitute is never ranked): A (4, 48) 1st, E (4, 32) 2nd, G (1.5, −8) 3rd,
    B, C, D (1, −16, same best game) share 4th, F (0, −16) 7th. N = 7.
    """
    players = [
        add_player(
            tournament=tournament,
            key=str(number),
            name=name,
            country="Germany" if number % 2 else "France",
            ema_number=f"0400{number:04d}",
        )
        for number, name in enumerate(NAMES, start=1)
    ]
    substitute = add_player(tournament=tournament, key="S1", name="Sam Sub", substitute=True)
    round, (first, second) = seated_round(
        tournament, organiser, [players[:4], [*players[4:], substitute]]
    )
    record_deal(
        table=first,
        number=1,
        deal=DealInput(result="win", winner=players[0], fan=8),
        entered_by=organiser,
    )
    record_deal(
        table=second,
        number=1,
        deal=DealInput(result="win", winner=players[4], discarder=players[5], fan=8),
        entered_by=organiser,
    )
    for table in (first, second):
        end_game(table=table, ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=round, confirmed_by=organiser)
    return players


def test_rows_share_places_and_leave_out_the_substitute(tournament, cup):
    rows = ema_rows(standings(tournament))
    assert [
        (row.place, row.player.key, row.last_name, row.first_name, row.table_points_text,
         row.score, row.base_rank)
        for row in rows
    ] == [
        (1, "1", "van der Berg", "Anna", "4", 48, 1000),
        (2, "5", "Chen", "Mei", "4", 32, 833),
        (3, "7", "Gray", "Gus", "1.5", -8, 667),
        (4, "2", "Baker", "Ben", "1", -16, 500),
        (4, "3", "Chen", "Cai", "1", -16, 500),
        (4, "4", "Diaz", "Dora", "1", -16, 500),
        (7, "6", "Fox", "Finn", "0", -16, 0),
    ]  # fmt: skip


def test_csv_has_the_header_and_one_line_per_ranked_player(tournament, cup):
    text = ema_csv(ema_rows(standings(tournament)))
    lines = text.split("\r\n")
    assert lines[0] == ",".join(HEADERS)
    assert lines[0] == "Place,EMA number,Last name,First name,Country,Table points,Score,Base rank"
    assert lines[1] == "1,04000001,van der Berg,Anna,DE,4,48,1000"
    assert lines[3] == "3,04000007,Gray,Gus,DE,1.5,-8,667"
    assert lines[7] == "7,04000006,Fox,Finn,FR,0,-16,0"
    assert lines[8:] == [""]  # seven players, the substitute left out
    assert "Sam" not in text


def test_csv_keeps_spreadsheets_from_reading_a_name_as_a_formula(tournament, organiser):
    player = add_player(tournament=tournament, key="1", name="=HYPERLINK(1), Eve")
    text = ema_csv(ema_rows(standings(tournament)))
    assert text.split("\r\n")[1] == "1,,'=HYPERLINK(1),Eve,,0,0,1000"
    assert player.name.startswith("=")  # the stored name is untouched
