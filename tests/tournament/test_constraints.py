"""The database itself refuses records that break the game's invariants."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from tournament.models import Deal, Penalty, Seat, Table
from tournament.services import DealInput

pytestmark = pytest.mark.django_db


def make_hand(table, number, referee, **fields):
    return Deal.objects.create(
        table=table, number=number, result=Deal.Result.DRAW, entered_by=referee, **fields
    )


def test_duplicate_hand_number_is_refused(table, referee):
    make_hand(table, 1, referee)
    with pytest.raises(IntegrityError):
        make_hand(table, 1, referee)


def test_hand_zero_is_refused(table, referee):
    with pytest.raises(IntegrityError):
        make_hand(table, 0, referee)


def test_hand_payments_that_do_not_sum_to_zero_are_refused(table, referee):
    with pytest.raises(IntegrityError):
        make_hand(table, 1, referee, east_points=8)


def test_win_without_winner_is_refused(table, referee):
    with pytest.raises(IntegrityError):
        Deal.objects.create(table=table, number=1, result="win", fan=8, entered_by=referee)


def test_same_player_twice_at_a_table_is_refused(round, players):
    table = Table.objects.create(round=round, number=2)
    Seat.objects.create(table=table, round=round, player=players[4], starting_wind="E")
    with pytest.raises(IntegrityError):
        Seat.objects.create(table=table, round=round, player=players[4], starting_wind="S")


def test_two_players_in_one_seat_are_refused(round, players):
    table = Table.objects.create(round=round, number=2)
    Seat.objects.create(table=table, round=round, player=players[4], starting_wind="E")
    with pytest.raises(IntegrityError):
        Seat.objects.create(table=table, round=round, player=players[5], starting_wind="E")


def test_player_at_two_tables_in_a_round_is_refused(round, table, east):
    other = Table.objects.create(round=round, number=2)
    with pytest.raises(IntegrityError):
        Seat.objects.create(table=other, round=round, player=east, starting_wind="E")


def test_distributed_penalty_not_divisible_by_three_is_refused(table, referee):
    seat = table.seats.first()
    with pytest.raises(IntegrityError):
        Penalty.objects.create(
            table=table,
            seat=seat,
            kind=Penalty.Kind.DISTRIBUTED,
            points=10,
            distributed=True,
            reason="Exposed hand",
            entered_by=referee,
        )


def test_a_tournament_with_results_can_be_deleted_whole(table, referee, east, south):
    from tournament.models import Deal, Penalty, Seat, Tournament
    from tournament.services import record_deal, record_false_win

    record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=east, discarder=south, fan=8),
        entered_by=referee,
    )
    record_false_win(table=table, number=2, offender=south, invalid_hand=False,
                     entered_by=referee)  # fmt: skip
    table.round.tournament.delete()
    assert not Tournament.objects.exists()
    assert not (Seat.objects.exists() or Deal.objects.exists() or Penalty.objects.exists())


def test_a_player_with_results_cannot_be_deleted_alone(table, referee, east):
    from django.db.models import RestrictedError

    from tournament.services import record_deal

    record_deal(
        table=table, number=1, deal=DealInput(result="win", winner=east, fan=8), entered_by=referee
    )
    with pytest.raises(RestrictedError):
        east.delete()
