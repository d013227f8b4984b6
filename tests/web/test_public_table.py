"""The public score sheet of a table."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from test_public_scenario import body_rows, build_field, table_rows

from tournament.models import Round
from tournament.services import (
    DealInput,
    add_player,
    create_round,
    end_game,
    record_deal,
    set_round_status,
    set_seating,
)


def url(round, table):
    return reverse("public:table", args=["spring-cup", round, table])


def test_score_sheet_hand_by_hand_with_winds_payments_and_running_scores(client, cup):
    html = client.get(url(1, 1)).content.decode()

    rows = table_rows(html, "score-sheet")
    assert rows[0] == [
        "Hand", "Wind", "E: Ann Archer", "S: Ben Baker", "W: Cai Chen", "N: Dora Diaz",
        "What happened",
    ]  # fmt: skip
    assert rows[1] == ["Seat", "+/−", "Total"] * 4
    # Under the wmo rotation the deal passes to the right: in hand 2 Ben deals (East), Ann
    # sits North; in hand 4 Dora deals.
    assert rows[2:] == [
        ["1", "E",
         "E", "+48", "48", "S", "-16", "-16", "W", "-16", "-16", "N", "-16", "-16",
         "Ann Archer wins self-drawn, 8 fan"],
        ["2", "E",
         "N", "-8", "40", "E", "+36", "20", "S", "-20", "-36", "W", "-8", "-24",
         "Ben Baker wins on Cai Chen’s discard, 10 fan + 2 flowers"],
        ["3", "E",
         "W", "0", "40", "N", "0", "20", "E", "0", "-36", "S", "0", "-24",
         "Drawn hand"],
        ["4", "E",
         "S", "+10", "50", "W", "+10", "30", "N", "+10", "-26", "E", "-30", "-54",
         "No result entered False win: Dora Diaz -30, 10 to each other player"],
        ["Game", "",
         "", "0", "50", "", "0", "30", "", "-10", "-36", "", "0", "-54",
         "Deduction: Cai Chen -10 (late return)"],
        ["Game score", "50", "30", "-36", "-54", ""],
    ]  # fmt: skip


def test_marks_the_winner_and_the_discarder(client, cup):
    html = client.get(url(1, 1)).content.decode()

    hand_two = html.split('id="hand-2"')[1].split("</tr>")[0]
    # The prevailing wind, then the seat wind cells of Ann, Ben (won), Cai (discarded), Dora.
    assert re.findall(r'<td class="(wind[^"]*)"', hand_two) == [
        "wind",
        "wind",
        "wind won",
        "wind discarded",
        "wind",
    ]


def test_results_with_places_and_table_points(client, cup):
    html = client.get(url(1, 1)).content.decode()

    assert body_rows(html, "results") == [
        ["1", "Ann Archer", "50", "4", "E"],
        ["2", "Ben Baker", "30", "2", "S"],
        ["3", "Cai Chen", "-36", "1", "W"],
        ["4", "Dora Diaz", "-54", "0", "N"],
    ]
    assert "Game ended by time" in html
    assert "after 3 hands" in html


def test_a_shared_first_place_shares_table_points(client, cup):
    html = client.get(url(1, 2)).content.decode()

    assert body_rows(html, "results") == [
        ["1", "Eve Evans", "16", "2 1/3", "E"],
        ["1", "Fay Fox", "16", "2 1/3", "S"],
        ["1", "Gus Green", "16", "2 1/3", "W"],
        ["4", "Hal Hill", "-48", "0", "N"],
    ]


def test_a_game_in_progress(client, cup):
    html = client.get(url(2, 1)).content.decode()

    assert "Game in progress" in html
    assert "Standing so far" in html
    assert body_rows(html, "results")[0] == ["1", "Ivy Ito", "32", "4", "W"]
    assert table_rows(html, "score-sheet")[2][-1] == "Ivy Ito wins on Ann Archer’s discard, 8 fan"


def test_a_game_not_started(client, cup):
    html = client.get(url(2, 2)).content.decode()

    assert "No hands entered yet." in html
    assert 'class="results"' not in html


def test_a_game_played_to_the_end_is_not_marked_ended_by_time(client, tournament, organiser):
    players = [add_player(tournament=tournament, key=str(n), name=f"P{n}") for n in range(1, 5)]
    round = create_round(tournament=tournament, actor=organiser)
    (table,) = set_seating(round=round, tables=[players], actor=organiser)
    set_round_status(round=round, status=Round.Status.SEATED, actor=organiser)
    set_round_status(round=round, status=Round.Status.PLAYING, actor=organiser)
    for number in range(1, 17):
        record_deal(table=table, number=number, deal=DealInput(result="draw"), entered_by=organiser)
    end_game(table=table, ended_by_time=False, entered_by=organiser)

    html = client.get(url(1, 1)).content.decode()

    assert "Game ended after 16 hands" in html
    assert "by time" not in html
    rows = table_rows(html, "score-sheet")
    assert [row[1] for row in rows[2:18]] == ["E"] * 4 + ["S"] * 4 + ["W"] * 4 + ["N"] * 4
    # Hand 16 under wmo: Dora, Cai, Ann, Ben sit at the E, S, W, N positions and the fourth
    # position (Ben) deals, so the starting E, S, W, N players have seat winds N, E, W, S.
    assert rows[17][2:14:3] == ["N", "E", "W", "S"]


@pytest.mark.parametrize("tables", [2, 6])
def test_query_count_does_not_grow(
    client, tournament, organiser, tables, django_assert_max_num_queries
):
    build_field(tournament, organiser, tables=tables)

    with django_assert_max_num_queries(7):
        response = client.get(url(1, tables))
    assert response.status_code == 200


def test_no_query_sorts_by_the_tournament(client, tournament, organiser):
    """The models' default order sorts a hand, a seat or a penalty by its table's round and
    tournament, which costs each query a join of both: a table's page, polled by its players
    after every hand, reads one table's rows and asks for no such order (an ORDER BY of
    the tournament's columns would be its trace)."""
    build_field(tournament, organiser, tables=2)

    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url(1, 2), **headers)
        assert response.status_code == 200
        sorts = [q["sql"] for q in queries if 'ORDER BY "tournament_tournament"' in q["sql"]]
        assert sorts == []
