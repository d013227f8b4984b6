"""Paying a hand: plain arithmetic driven by the preset's payment scheme."""

from __future__ import annotations

from fractions import Fraction

from .presets import MCR, RulePreset


def hand_payments(
    *, winner: int, discarder: int | None, value: int, preset: RulePreset = MCR
) -> list[int]:
    """What each of the four seats gains (positive) or pays (negative) for one win.

    `value` is the hand's fan including flowers; `discarder` None means self-drawn. The four
    numbers always sum to zero.
    """
    if not 0 <= winner < 4:
        raise ValueError("winner must be a seat 0..3")
    if discarder is not None and (not 0 <= discarder < 4 or discarder == winner):
        raise ValueError("discarder must be another seat 0..3, or None for a self-drawn win")
    if value < 0:
        raise ValueError("a hand's value cannot be negative")
    scheme = preset.payment
    pays = [0] * 4
    for seat in range(4):
        if seat == winner:
            continue
        if discarder is None:
            amount = scheme.base + Fraction(value) * Fraction(scheme.self_drawn_each)
        elif seat == discarder:
            amount = scheme.base + Fraction(value) * Fraction(scheme.discarder_share)
        else:
            amount = Fraction(scheme.base if scheme.others_pay_base_on_discard else 0)
        rounded = int(amount.__round__())
        pays[seat] = -rounded
    pays[winner] = -sum(pays)
    return pays


def penalty_payments(*, offender: int, points: int, distributed: bool) -> list[int]:
    """A penalty of `points` on seat `offender`: shared in equal thirds by the other three
    seats when `distributed` (the table stays zero-sum), else given to nobody."""
    if not 0 <= offender < 4:
        raise ValueError("offender must be a seat 0..3")
    if distributed and points % 3:
        raise ValueError("a distributed penalty is paid in three equal parts")
    pays = [points // 3 if distributed else 0] * 4
    pays[offender] = -points
    return pays


def false_win_points(*, invalid_hand: bool, preset: RulePreset = MCR) -> int:
    """What a false win costs its offender in all: the preset's amount to each other player,
    three times (`penalty_payments` with `distributed` shares it out again)."""
    rules = preset.false_win
    return 3 * (rules.invalid_hand_each if invalid_hand else rules.below_minimum_each)
