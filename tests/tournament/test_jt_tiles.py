"""A Japanese Transitional win entered with its tiles: the engine's final score F is recorded."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournament.models import Deal
from tournament.services import DealInput, record_deal

pytestmark = pytest.mark.django_db

# JT-03 of the shared cases: on a discard, seat North, round East: F 60 (30 points, 1 double).
NO_POINTS = {
    "concealed": ["3m", "4m", "5p", "6p", "7p", "3s", "4s", "5s", "6s", "7s", "8s", "9m", "9m"],
    "melds": [],
    "win_tile": "2m",
}
NOT_A_WIN = {**NO_POINTS, "win_tile": "1p"}


@pytest.fixture
def jt(tournament):
    tournament.preset = "japanese-transitional"
    tournament.seat_rotation = "none"
    tournament.save()
    return tournament


def win(table, referee, players, **facts):
    east, _south, _west, north = players[:4]
    return record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=north, discarder=east, **facts),
        entered_by=referee,
    )


def test_a_japanese_win_from_tiles_is_recorded_at_the_engines_final_score(
    jt, table, referee, players
):
    hand = win(table, referee, players, tiles=NO_POINTS)

    assert hand.value == 60
    assert (hand.tiles["seat_wind"], hand.tiles["prevalent_wind"]) == ("N", "E")
    assert hand.tiles["self_drawn"] is False
    # The discarder pays for all: 3 x 60, East double for himself.
    assert hand.payments == [-240, 0, 0, 240]


def test_the_winners_riichi_in_the_deal_doubles_the_tiles_score(jt, table, referee, players):
    north = players[3]
    hand = win(table, referee, players, tiles=NO_POINTS, riichi=[north])

    assert hand.value == 120
    assert hand.tiles["riichi"] is True


def test_a_value_given_with_the_tiles_must_be_the_engines(jt, table, referee, players):
    assert win(table, referee, players, tiles=NO_POINTS, value=60).value == 60


def test_a_value_that_disagrees_with_the_tiles_is_refused_and_nothing_saved(
    jt, table, referee, players
):
    with pytest.raises(ValidationError) as refusal:
        win(table, referee, players, tiles=NO_POINTS, value=80)

    assert refusal.value.code == "value_disagrees_with_tiles"
    assert "60" in refusal.value.messages[0]
    assert not Deal.objects.filter(table=table).exists()


def test_tiles_that_are_no_win_are_refused_with_the_engines_message(jt, table, referee, players):
    with pytest.raises(ValidationError) as refusal:
        win(table, referee, players, tiles=NOT_A_WIN, value=60)

    assert refusal.value.code == "invalid_tiles"
    assert "winning" in refusal.value.messages[0].lower()
    assert not Deal.objects.filter(table=table).exists()


def test_the_referee_can_still_record_a_faulty_out_for_tiles_that_are_no_win(
    jt, table, referee, players
):
    hand = record_deal(
        table=table,
        number=1,
        deal=DealInput(result="faulty_out", offender=players[3]),
        entered_by=referee,
    )

    assert hand.result == "faulty_out"


def test_the_tiles_are_scored_for_the_seat_wind_of_the_deal_after_the_deal_passed(
    jt, table, referee, players
):
    east, south, _west, north = players[:4]
    record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=south, discarder=east, value=20),
        entered_by=referee,
    )
    hand = record_deal(
        table=table,
        number=2,
        deal=DealInput(result="win", winner=north, discarder=east, tiles=NO_POINTS),
        entered_by=referee,
    )

    assert (hand.dealer, hand.tiles["seat_wind"], hand.tiles["prevalent_wind"]) == ("S", "W", "E")
