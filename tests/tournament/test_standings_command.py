"""`manage.py standings SLUG [--json]`: the ranking from the standings selector."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from factories import seated_round

from tournament.services import (
    DealInput,
    confirm_submitted_games,
    end_game,
    record_deal,
    record_penalty,
    update_player,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament, organiser, players):
    """One round, both games ended by time and confirmed. Player 8 is a substitute.

    Table 1 (players 1-4): player 4 is docked 10 for slow play, nothing else: scores 0, 0, 0,
    -10, so players 1, 2 and 3 share first place: (4 + 2 + 1) / 3 = 7/3 table points each.
    Table 2 (players 5-8): player 5 wins 8 fan on player 6's discard: 32, -16, -8, -8; players
    7 and 8 share second place: (2 + 1) / 2 = 3/2 each.
    """
    p1, p2, p3, p4, p5, p6, p7, p8 = players
    update_player(player=p8, substitute=True)
    round, (table1, table2) = seated_round(
        tournament, organiser, [[p1, p2, p3, p4], [p5, p6, p7, p8]]
    )
    record_penalty(
        table=table1,
        player=p4,
        points=10,
        distributed=False,
        reason="Slow play",
        entered_by=organiser,
    )
    record_deal(
        table=table2,
        number=1,
        deal=DealInput(result="win", winner=p5, discarder=p6, fan=8),
        entered_by=organiser,
    )
    for table in (table1, table2):
        end_game(table=table, ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=round, confirmed_by=organiser)
    return tournament


def run(*args):
    out = StringIO()
    call_command("standings", *args, stdout=out)
    return out.getvalue()


def test_json_lists_ranked_players_in_order_then_substitutes(played):
    rows = json.loads(run("spring-cup", "--json"))

    assert [(row["rank"], row["player"]) for row in rows] == [
        (1, "5"),
        (2, "1"),
        (2, "2"),
        (2, "3"),
        (5, "7"),
        (6, "4"),
        (7, "6"),
        (None, "8"),
    ]


def test_json_rows_have_the_documented_fields(played):
    rows = json.loads(run("spring-cup", "--json"))

    assert rows[0] == {
        "rank": 1,
        "player": "5",
        "name": "Player 5",
        "table_points": 4,
        "table_points_exact": "4",
        "score": 32,
        "substitute": False,
        "provisional_games": 0,
        "stage": None,
        "score_exact": "32",
        "carried_table_points": None,
        "carried_score": None,
    }
    assert rows[-1] == {
        "rank": None,
        "player": "8",
        "name": "Player 8",
        "table_points": 1.5,
        "table_points_exact": "3/2",
        "score": -8,
        "substitute": True,
        "provisional_games": 0,
        "stage": None,
        "score_exact": "-8",
        "carried_table_points": None,
        "carried_score": None,
    }


def test_json_table_points_are_whole_numbers_or_rounded_with_the_exact_fraction(played):
    rows = {row["player"]: row for row in json.loads(run("spring-cup", "--json"))}

    assert (rows["1"]["table_points"], rows["1"]["table_points_exact"]) == (2.33, "7/3")
    assert isinstance(rows["5"]["table_points"], int)
    assert (rows["4"]["table_points"], rows["4"]["score"]) == (0, -10)
    assert (rows["6"]["table_points"], rows["6"]["score"]) == (0, -16)


def test_text_table_shows_rank_points_and_score(played):
    lines = run("spring-cup").splitlines()

    assert lines[0] == "Spring Cup"
    assert lines[1].split() == ["Rank", "Key", "Name", "Table", "points", "Score"]
    assert [line.split() for line in lines[3:]] == [
        ["1", "5", "Player", "5", "4", "32"],
        ["2", "1", "Player", "1", "2", "1/3", "0"],
        ["2", "2", "Player", "2", "2", "1/3", "0"],
        ["2", "3", "Player", "3", "2", "1/3", "0"],
        ["5", "7", "Player", "7", "1", "1/2", "-8"],
        ["6", "4", "Player", "4", "0", "-10"],
        ["7", "6", "Player", "6", "0", "-16"],
        ["sub", "8", "Player", "8", "1", "1/2", "-8"],
    ]


def test_withdrawn_players_are_marked_in_the_text_table(played, players):
    update_player(player=players[5], withdrawn_from_round=2)

    assert "Player 6 (withdrawn)" in run("spring-cup")


def test_games_still_in_play_do_not_count(tournament, players):
    rows = json.loads(run("spring-cup", "--json"))

    assert {row["table_points"] for row in rows} == {0}
    assert {row["rank"] for row in rows} == {1}


def test_unknown_slug_is_an_error(db):
    with pytest.raises(CommandError, match="No tournament has the slug 'nope'"):
        run("nope", "--json")


@pytest.mark.parametrize(
    ("preset", "deal", "scores"),
    [
        # JT: player 2 (South) wins F = 60 on the dealer's (player 1's) discard. A non-dealer's
        # win is worth F from each non-dealer and 2F from the dealer, and the discarder pays
        # for all: 60 + 60 + 120 = 240, from player 1.
        ("japanese-transitional", {"value": 60}, {"1": -240, "2": 240, "3": 0, "4": 0}),
        # WA: the discarder pays 1.5 x 40 = 60 to the winner and nobody else pays.
        ("wilmington-12-tile", {"value": 40}, {"1": -60, "2": 60, "3": 0, "4": 0}),
    ],
)
def test_json_scores_of_a_points_preset_are_final_points_minus_initial_points(
    tournament, organiser, players, preset, deal, scores
):
    tournament.preset = preset
    tournament.save()
    p1, p2, p3, p4 = players[:4]
    round, (table, other) = seated_round(tournament, organiser, [[p1, p2, p3, p4], players[4:]])
    record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=p2, discarder=p1, **deal),
        entered_by=organiser,
    )
    for game in (table, other):  # nothing happens at the other table
        end_game(table=game, ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=round, confirmed_by=organiser)

    rows = {row["player"]: row for row in json.loads(run("spring-cup", "--json"))}

    assert {key: row["score"] for key, row in rows.items() if key in scores} == scores
    assert rows["2"]["rank"] == 1 and rows["2"]["table_points"] == 4
    assert rows["1"]["table_points"] == 0
