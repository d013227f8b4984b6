"""A Wilmington win entered with its tiles: each winner's hand value F from the engine."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournament.models import Deal, ExtraWin
from tournament.services import DealInput, record_deal

pytestmark = pytest.mark.django_db

# WA-22 of the shared cases: South goes out on West's discard, round East: F 45.
DRAGONS = {
    "concealed": ["C", "C", "C", "F", "F", "F", "5p", "6p", "2m", "3m", "4m", "P", "J"],
    "melds": [],
    "win_tile": "7p",
}
# East on the same discard: a pure straight with a red-dragon pung, the joker paired: F 21.
STRAIGHT = {
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "C", "C", "C", "J"],
    "melds": [],
    "win_tile": "7p",
}
# WA-01 of the shared cases: worth 9, below the 15-point minimum.
SMALL = {
    "concealed": ["2m", "3m", "4m", "5p", "6p", "7p", "3s", "4s", "5s", "6s", "7s", "J", "C"],
    "melds": [],
    "win_tile": "C",
}


@pytest.fixture
def wa(tournament):
    tournament.preset = "wilmington-12-tile"
    tournament.seat_rotation = "none"
    tournament.save()
    return tournament


def test_each_winner_on_one_discard_is_recorded_at_the_engines_value(wa, table, referee, players):
    east, south, west = players[:3]
    hand = record_deal(
        table=table,
        number=1,
        deal=DealInput(
            result="win",
            winner=south,
            discarder=west,
            tiles=DRAGONS,
            extra_tiles=[(east, STRAIGHT)],
        ),
        entered_by=referee,
    )

    assert hand.value == 45
    assert hand.tiles["seat_wind"] == "S"
    extra = ExtraWin.objects.get(deal=hand)
    assert (extra.winner.player, extra.value, extra.tiles["seat_wind"]) == (east, 21, "E")
    # The discarder pays each winner 1.5 F, rounded halves up: 68 and 32.
    assert hand.payments == [32, 68, -100, 0]


def test_a_value_beside_an_extra_winners_tiles_must_agree(wa, table, referee, players):
    east, south, west = players[:3]
    with pytest.raises(ValidationError) as refusal:
        record_deal(
            table=table,
            number=1,
            deal=DealInput(
                result="win",
                winner=south,
                discarder=west,
                tiles=DRAGONS,
                extra_winners=[(east, 20)],
                extra_tiles=[(east, STRAIGHT)],
            ),
            entered_by=referee,
        )

    assert refusal.value.code == "value_disagrees_with_tiles"
    assert not Deal.objects.exists() and not ExtraWin.objects.exists()


def test_tiles_below_the_minimum_are_a_faulty_out_not_a_win(wa, table, referee, players):
    west = players[2]
    with pytest.raises(ValidationError) as refusal:
        record_deal(
            table=table,
            number=1,
            deal=DealInput(result="win", winner=west, tiles=SMALL),
            entered_by=referee,
        )

    assert refusal.value.code == "below_minimum"
    assert "worth 9 points" in refusal.value.messages[0]
    assert not Deal.objects.exists()


def test_wilmington_tiles_that_are_no_hand_are_refused_with_the_engines_message(
    wa, table, referee, players
):
    east, south, west = players[:3]
    with pytest.raises(ValidationError) as refusal:
        record_deal(
            table=table,
            number=1,
            deal=DealInput(
                result="win",
                winner=south,
                discarder=west,
                tiles={**DRAGONS, "concealed": DRAGONS["concealed"][:-1] + ["C"]},
            ),
            entered_by=referee,
        )

    assert refusal.value.code == "invalid_tiles"
    assert not Deal.objects.exists()
