"""Table points, table results, score sheets and standings."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.engine.ranking import share_table_points
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.reads.selectors import format_points, score_sheet, standings, table_results
from tournament.services import DealInput, confirm_game, end_game, record_deal, record_false_win

POINTS = [4, 2, 1, 0]


def test_table_points_go_four_two_one_zero_by_score():
    assert share_table_points([10, -30, 40, -20], POINTS) == [2, 0, 4, 1]


def test_two_tied_first_share_three_each():
    assert share_table_points([20, 20, -10, -30], POINTS) == [3, 3, 1, 0]


def test_three_tied_first_share_seven_thirds_each():
    assert share_table_points([10, 10, 10, -30], POINTS) == [Fraction(7, 3)] * 3 + [0]


def test_all_four_tied_share_seven_quarters_each():
    assert share_table_points([0, 0, 0, 0], POINTS) == [Fraction(7, 4)] * 4


def test_two_tied_last_share_half_each():
    assert share_table_points([30, 10, -20, -20], POINTS) == [4, 2, Fraction(1, 2), Fraction(1, 2)]


@pytest.mark.parametrize(
    ("points", "text"), [(Fraction(3), "3"), (Fraction(7, 3), "2 1/3"), (Fraction(1, 2), "1/2")]
)
def test_table_points_are_shown_as_mixed_numbers(points, text):
    assert format_points(points) == text


@pytest.mark.django_db
def test_penalties_count_in_the_score_for_table_points(table, referee, east, south):
    record_deal(
        table=table, number=1, deal=DealInput(result="win", winner=east, fan=8), entered_by=referee
    )
    record_false_win(table=table, number=2, offender=south, invalid_hand=True, entered_by=referee)
    results = table_results(table)
    assert [(r.seat.player, r.score, r.table_points) for r in results] == [
        (east, 68, 4),
        (table.seats.get(starting_wind="W").player, 4, Fraction(3, 2)),
        (table.seats.get(starting_wind="N").player, 4, Fraction(3, 2)),
        (south, -76, 0),
    ]


@pytest.mark.django_db
def test_score_sheet_shows_seat_winds_payments_and_running_scores(table, referee, east, west):
    record_deal(
        table=table, number=1, deal=DealInput(result="win", winner=east, fan=8), entered_by=referee
    )
    record_deal(
        table=table,
        number=2,
        deal=DealInput(result="win", winner=west, discarder=east, fan=8),
        entered_by=referee,
    )
    first, second = score_sheet(table)
    assert (second.number, second.prevailing_wind, second.seat_winds) == (
        2,
        "E",
        ("N", "E", "S", "W"),
    )
    assert second.payments == (-16, -8, 32, -8)
    assert second.running == (32, -24, 16, -24)


def finish_game(round, number, players, scores_by_seat):
    """A game that ended with these scores, its sheet confirmed (a shortcut past hand entry)."""
    table = Table.objects.create(round=round, number=number)
    for wind, player, score in zip("ESWN", players, scores_by_seat, strict=True):
        Seat.objects.create(
            table=table, round=round, player=player, starting_wind=wind, score=score
        )
    Table.objects.filter(pk=table.pk).update(
        ended_at="2026-05-01T12:00Z", confirmed_at="2026-05-01T12:05Z"
    )
    return table


@pytest.mark.django_db
def test_standings_rank_by_table_points_then_score(tournament, players):
    one = Round.objects.create(tournament=tournament, number=1)
    finish_game(one, 1, players[:4], [50, 10, -20, -40])
    finish_game(one, 2, players[4:], [30, 20, -10, -40])
    ranking = [
        (row.rank, row.player.key, row.table_points, row.score) for row in standings(tournament)
    ]
    assert ranking == [
        (1, "1", 4, 50),
        (2, "5", 4, 30),
        (3, "6", 2, 20),
        (4, "2", 2, 10),
        (5, "7", 1, -10),
        (6, "3", 1, -20),
        (7, "4", 0, -40),
        (7, "8", 0, -40),
    ]


@pytest.mark.django_db
def test_best_single_game_breaks_a_tie_in_table_points_and_score(tournament, players):
    one = Round.objects.create(tournament=tournament, number=1)
    two = Round.objects.create(tournament=tournament, number=2)
    finish_game(one, 1, players[:4], [60, 0, -20, -40])
    finish_game(one, 2, players[4:], [40, 0, -10, -30])
    finish_game(two, 1, [players[4], *players[1:4]], [40, 0, -10, -30])
    finish_game(two, 2, [players[0], *players[5:]], [20, 0, -10, -10])
    top = standings(tournament)[:2]
    assert [(row.rank, row.player.key, row.table_points, row.score) for row in top] == [
        (1, "1", 8, 80),
        (2, "5", 8, 80),
    ]


@pytest.mark.django_db
def test_substitutes_are_listed_last_without_a_rank(tournament, players):
    Player.objects.filter(pk=players[0].pk).update(substitute=True)
    one = Round.objects.create(tournament=tournament, number=1)
    finish_game(one, 1, players[:4], [50, 10, -20, -40])
    rows = standings(tournament)
    assert (rows[-1].rank, rows[-1].player.key, rows[-1].table_points) == (None, "1", 4)
    assert rows[0].rank == 1 and rows[0].player.key == "2"


@pytest.mark.django_db
def test_withdrawn_player_keeps_earlier_results(tournament, players):
    Player.objects.filter(pk=players[0].pk).update(withdrawn_from_round=2)
    one = Round.objects.create(tournament=tournament, number=1)
    finish_game(one, 1, players[:4], [50, 10, -20, -40])
    first = standings(tournament)[0]
    assert (first.rank, first.player.key, first.table_points, first.score) == (1, "1", 4, 50)


@pytest.mark.django_db
def test_games_count_once_their_sheet_is_confirmed(tournament, table, referee, organiser, east):
    record_deal(
        table=table, number=1, deal=DealInput(result="win", winner=east, fan=8), entered_by=referee
    )
    assert {row.score for row in standings(tournament)} == {0}
    end_game(table=table, ended_by_time=True, entered_by=referee)
    assert {row.score for row in standings(tournament)} == {0}
    confirm_game(table=table, confirmed_by=organiser)
    assert standings(tournament)[0].score == 48


@pytest.mark.django_db
@pytest.mark.parametrize("size", [8, 48])
def test_standings_take_two_queries_whatever_the_size(size, django_assert_num_queries):
    tournament = Tournament.objects.create(name=f"Cup {size}", slug=f"cup-{size}")
    players = [
        Player.objects.create(tournament=tournament, key=str(n), name=f"P{n}") for n in range(size)
    ]
    for number in (1, 2):
        round = Round.objects.create(tournament=tournament, number=number)
        for table in range(size // 4):
            group = players[table * 4 : table * 4 + 4]
            finish_game(round, table + 1, group, [30, 10, -10, -30])
    with django_assert_num_queries(2):
        rows = standings(tournament)
    assert len(rows) == size
