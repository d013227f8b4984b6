"""Seat winds and prevailing winds of all 16 hands under each seat rotation scheme."""

from __future__ import annotations

import pytest

from scoring.engine import PRESETS
from tournament.domain.rotation import CHART_HANDS, SCHEMES, prevailing_wind, seat_wind, seat_winds
from tournament.models import Tournament

# Seat winds of the players who started at E, S, W, N, hand by hand (hands 1..16).
WMO = [
    "ESWN", "NESW", "WNES", "SWNE",  # East round: A B C D at E S W N
    "SENW", "ENWS", "NWSE", "WSEN",  # South round: B A D C
    "NWES", "WSNE", "SEWN", "ENSW",  # West round: C D B A
    "WNSE", "SWEN", "ESNW", "NEWS",  # North round: D C A B
]  # fmt: skip
NONE = ["ESWN", "NESW", "WNES", "SWNE"] * 4
HALF = ["ESWN", "NESW", "WNES", "SWNE"] * 2 + ["SENW", "ENWS", "NWSE", "WSEN"] * 2


@pytest.mark.parametrize(("scheme", "expected"), [("wmo", WMO), ("none", NONE), ("half", HALF)])
def test_seat_winds_of_all_sixteen_hands(scheme, expected):
    assert ["".join(seat_winds(scheme=scheme, number=n)) for n in range(1, 17)] == expected


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_every_hand_has_each_seat_wind_once(scheme):
    for number in range(1, 17):
        assert sorted(seat_winds(scheme=scheme, number=number)) == ["E", "N", "S", "W"]


@pytest.mark.parametrize("scheme", sorted(SCHEMES))
def test_every_player_deals_once_in_every_wind_round(scheme):
    for first in (1, 5, 9, 13):
        dealers = [seat_winds(scheme=scheme, number=n).index("E") for n in range(first, first + 4)]
        assert sorted(dealers) == [0, 1, 2, 3]


def test_prevailing_wind_changes_every_four_hands():
    assert [prevailing_wind(n) for n in range(1, 17)] == list("EEEESSSSWWWWNNNN")


@pytest.mark.parametrize("number", [0, 17])
def test_hand_number_outside_the_game_is_refused(number):
    with pytest.raises(ValueError):
        prevailing_wind(number)


def test_unknown_scheme_is_refused():
    with pytest.raises(ValueError):
        seat_wind(scheme="spiral", starting_seat=0, number=1)


def test_the_charts_cover_a_game_of_every_preset_that_passes_the_deal_every_hand():
    for preset in PRESETS.values():
        if preset.deal.passing == "every_hand":
            assert preset.hands_per_game == CHART_HANDS


def test_every_seat_rotation_a_tournament_offers_has_a_chart():
    assert set(Tournament.SeatRotation.values) == set(SCHEMES)
