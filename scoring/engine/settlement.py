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


def false_win_payments(*, offender: int, invalid_hand: bool, preset: RulePreset = MCR) -> list[int]:
    """A false win: the offender pays each other player (zero-sum)."""
    if not 0 <= offender < 4:
        raise ValueError("offender must be a seat 0..3")
    each = (
        preset.false_win.invalid_hand_each if invalid_hand else preset.false_win.below_minimum_each
    )
    pays = [each] * 4
    pays[offender] = -3 * each
    return pays
