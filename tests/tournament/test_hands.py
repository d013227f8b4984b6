"""Recording hands: payments, the 8-fan minimum, order, and scoring from tiles."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournament.models import AuditEntry, Deal
from tournament.services import DealInput, end_game, record_deal

pytestmark = pytest.mark.django_db

# 27 fan + 1 flower when won on a discard (Full Flush, Pure Shifted Chows, ...).
PURE_DOTS = {
    "concealed": ["2p", "2p", "4p", "5p", "6p", "6p", "7p", "8p", "8p", "8p", "9p", "9p", "9p"],
    "melds": [],
    "win_tile": "2p",
    "flowers": 1,
}
SEVEN_FAN = {
    "concealed": ["1m", "2m", "3m", "5p", "5p", "5p", "7s", "8s", "9s", "C", "C", "C", "4s"],
    "melds": [],
    "win_tile": "4s",
}


def win(table, referee, number=1, **fields):
    return record_deal(
        table=table, number=number, deal=DealInput(result="win", **fields), entered_by=referee
    )


def test_discard_win_discarder_pays_eight_plus_value_others_eight(table, referee, east, south):
    hand = win(table, referee, winner=east, discarder=south, fan=10, flowers=2)
    assert hand.payments == [36, -20, -8, -8]


def test_self_drawn_win_each_other_pays_eight_plus_value(table, referee, west):
    hand = win(table, referee, winner=west, fan=8, flowers=1)
    assert hand.payments == [-17, -17, 51, -17]


def test_hand_payments_sum_to_zero(table, referee, north, east):
    hand = win(table, referee, winner=north, discarder=east, fan=13, flowers=3)
    assert sum(hand.payments) == 0


def test_drawn_hand_pays_nothing(table, referee, scores):
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=referee)
    assert scores(table) == [0, 0, 0, 0]


def test_game_scores_are_the_sum_of_hand_payments(table, referee, east, south, scores):
    win(table, referee, 1, winner=east, discarder=south, fan=8)
    win(table, referee, 2, winner=south, fan=8)
    assert scores(table) == [32 - 16, -16 + 48, -8 - 16, -8 - 16]


def test_win_under_eight_fan_is_refused(table, referee, east):
    with pytest.raises(ValidationError) as error:
        win(table, referee, winner=east, fan=7, flowers=3)
    assert error.value.code == "below_minimum"
    assert not Deal.objects.exists()


def test_hands_are_entered_in_order(table, referee, east):
    with pytest.raises(ValidationError) as error:
        win(table, referee, 2, winner=east, fan=8)
    assert error.value.code == "out_of_order"


def test_winner_must_be_seated_at_the_table(table, referee, players):
    with pytest.raises(ValidationError) as error:
        win(table, referee, winner=players[5], fan=8)
    assert error.value.code == "not_seated"


def test_winner_cannot_be_the_discarder(table, referee, east):
    with pytest.raises(ValidationError) as error:
        win(table, referee, winner=east, discarder=east, fan=8)
    assert error.value.code == "discarder_is_winner"


def test_same_hand_entered_twice_is_a_conflict(table, referee, east):
    win(table, referee, winner=east, fan=8)
    with pytest.raises(ValidationError) as error:
        win(table, referee, winner=east, fan=9)
    assert error.value.code == "conflict"
    assert "already entered by bob" in error.value.messages[0]


def test_tiles_fill_in_fan_and_flowers(table, referee, east, south):
    hand = win(table, referee, winner=east, discarder=south, tiles=PURE_DOTS)
    assert (hand.fan, hand.flowers) == (27, 1)
    assert hand.tiles["seat_wind"] == "E"
    assert hand.tiles["prevalent_wind"] == "E"


def test_tiles_that_disagree_with_the_fan_are_refused(table, referee, east, south):
    with pytest.raises(ValidationError) as error:
        win(table, referee, winner=east, discarder=south, fan=30, tiles=PURE_DOTS)
    assert error.value.code == "fan_mismatch"


def test_tiles_under_eight_fan_are_refused(table, referee, east, south):
    with pytest.raises(ValidationError) as error:
        win(table, referee, winner=east, discarder=south, tiles=SEVEN_FAN)
    assert error.value.code == "below_minimum"


def test_tiles_are_scored_with_the_winners_seat_wind(table, referee, south, players):
    for number in range(1, 5):
        record_deal(table=table, number=number, deal=DealInput(result="draw"), entered_by=referee)
    hand = win(table, referee, 5, winner=south, tiles=PURE_DOTS)
    assert (hand.tiles["seat_wind"], hand.tiles["prevalent_wind"]) == ("E", "S")


def test_recording_a_hand_writes_an_audit_entry(table, referee, east):
    win(table, referee, winner=east, fan=8)
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.actor, entry.before) == ("hand_recorded", referee, None)
    assert entry.after["payments"] == [48, -16, -16, -16]


def test_game_ends_after_sixteen_hands(table, referee):
    for number in range(1, 17):
        record_deal(table=table, number=number, deal=DealInput(result="draw"), entered_by=referee)
    end_game(table=table, ended_by_time=False, entered_by=referee)
    table.refresh_from_db()
    assert table.ended_at is not None
    assert not table.ended_by_time


def test_a_seventeenth_mcr_hand_is_refused(table, referee):
    for number in range(1, 17):
        record_deal(table=table, number=number, deal=DealInput(result="draw"), entered_by=referee)

    with pytest.raises(ValidationError) as error:
        record_deal(table=table, number=17, deal=DealInput(result="draw"), entered_by=referee)

    assert error.value.code == "game_complete"


def test_game_ends_early_only_when_time_is_called(table, referee):
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=referee)
    with pytest.raises(ValidationError) as error:
        end_game(table=table, ended_by_time=False, entered_by=referee)
    assert error.value.code == "hands_missing"
    end_game(table=table, ended_by_time=True, entered_by=referee)
    table.refresh_from_db()
    assert table.ended_by_time


def test_no_hand_is_entered_after_the_game_ended(table, referee, east):
    end_game(table=table, ended_by_time=True, entered_by=referee)
    with pytest.raises(ValidationError) as error:
        win(table, referee, winner=east, fan=8)
    assert error.value.code == "game_ended"
