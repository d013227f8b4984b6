"""`manage.py standings SLUG --provisional`: sheets submitted but not confirmed count too."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from sheets_world import build_sheets_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting(tournament, organiser, players):
    """One round: table 1 (players 1-4) confirmed with player 1 self-drawn for 8 (+48, -16 x 3);
    table 2 (players 5-8) submitted, player 5 self-drawn for 8 too, awaiting confirmation."""
    one, _two = build_sheets_round(tournament, organiser, players)
    return one.round


def run(*args):
    out = StringIO()
    call_command("standings", *args, stdout=out)
    return out.getvalue()


def test_unconfirmed_sheets_do_not_count_by_default(waiting):
    rows = {row["player"]: row for row in json.loads(run("spring-cup", "--json"))}

    assert (rows["1"]["score"], rows["5"]["score"]) == (48, 0)
    assert {row["provisional_games"] for row in rows.values()} == {0}


def test_provisional_json_counts_them_and_says_how_many_games(waiting):
    rows = {row["player"]: row for row in json.loads(run("spring-cup", "--provisional", "--json"))}

    assert (rows["1"]["score"], rows["5"]["score"]) == (48, 48)
    assert (rows["1"]["rank"], rows["5"]["rank"]) == (1, 1)
    assert [rows[key]["provisional_games"] for key in "12345678"] == [0, 0, 0, 0, 1, 1, 1, 1]


def test_text_table_says_what_is_not_counted(waiting):
    lines = run("spring-cup").splitlines()

    assert lines[-1] == (
        "Not counted: 1 game whose sheets wait for confirmation (--provisional counts them)."
    )
    assert not any("*" in line.split() for line in lines)


def test_provisional_text_table_marks_the_players_concerned(waiting):
    lines = run("spring-cup", "--provisional").splitlines()

    rows = [line.split() for line in lines[3 : lines.index("")]]
    marked = [cells[1] for cells in rows if "*" in cells]
    assert marked == ["5", "6", "7", "8"]
    assert lines[-1] == "* Provisional: counts 1 game whose sheets are not confirmed yet."


def test_text_table_counts_the_games_still_being_played(waiting, organiser):
    from tournament.services import reopen_game

    reopen_game(table=waiting.tables.get(number=2), entered_by=organiser)

    assert run("spring-cup").splitlines()[-1] == "Not counted: 1 game still being played."
