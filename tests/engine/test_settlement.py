"""Hand payments and false-win penalties from the preset's payment scheme."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import PRESETS, get_preset
from scoring.engine.settlement import false_win_points, hand_payments, penalty_payments


def test_discard_win_discarder_pays_eight_plus_value_others_eight():
    assert hand_payments(winner=0, discarder=1, value=12) == [36, -20, -8, -8]


def test_self_drawn_win_each_other_player_pays_eight_plus_value():
    assert hand_payments(winner=2, discarder=None, value=12) == [-20, -20, 60, -20]


def test_false_win_pays_ten_to_each():
    points = false_win_points(invalid_hand=False)
    assert penalty_payments(offender=3, points=points, distributed=True) == [10, 10, 10, -30]


def test_false_win_with_invalid_hand_pays_twenty_to_each():
    points = false_win_points(invalid_hand=True)
    assert penalty_payments(offender=0, points=points, distributed=True) == [-60, 20, 20, 20]


def test_a_deduction_is_given_to_nobody():
    assert penalty_payments(offender=1, points=15, distributed=False) == [0, -15, 0, 0]


def test_a_distributed_penalty_must_split_in_three():
    with pytest.raises(ValueError, match="three equal parts"):
        penalty_payments(offender=1, points=10, distributed=True)


@given(
    winner=st.integers(0, 3),
    discarder=st.one_of(st.none(), st.integers(0, 3)),
    value=st.integers(8, 400),
    preset=st.sampled_from(sorted(PRESETS)),
)
def test_hand_payments_sum_to_zero(winner, discarder, value, preset):
    if discarder == winner:
        discarder = None
    payments = hand_payments(
        winner=winner, discarder=discarder, value=value, preset=get_preset(preset)
    )
    assert sum(payments) == 0
    assert payments[winner] > 0 or value == 0


def test_wilmington_discarder_is_sole_loser_paying_half_more():
    wilmington = get_preset("wilmington-12-tile")
    assert hand_payments(winner=0, discarder=2, value=20, preset=wilmington) == [30, 0, -30, 0]


def test_discarder_cannot_be_the_winner():
    with pytest.raises(ValueError, match="another seat"):
        hand_payments(winner=1, discarder=1, value=8)


def test_unknown_preset_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="mcr"):
        get_preset("riichi")


def test_every_presets_hands_are_scored_from_their_tiles():
    scorers = {key: preset.scorer for key, preset in PRESETS.items()}
    assert scorers == {"mcr": "mcr", "japanese-transitional": "jt", "wilmington-12-tile": "wa"}


def test_presets_differ_as_data():
    mcr, wilmington = get_preset("mcr"), get_preset("wilmington-12-tile")
    assert (mcr.minimum, mcr.flowers, mcr.hands_per_game) == (8, True, 16)
    assert (wilmington.minimum, wilmington.flowers) == (15, False)
