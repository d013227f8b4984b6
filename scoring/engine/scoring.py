"""The one entry point every interface uses: hand in, verdict out."""

from __future__ import annotations

from typing import Any

from . import errors
from .calculator import evaluate
from .errors import HandError
from .fans import FLOWER_TILES
from .hand import Hand
from .notation import parse_case
from .presets import MCR
from .profiles import DEFAULT_PROFILE, RulingProfile, get_profile
from .result import ScoreResult, failure, fan_lines

_EXCL_FLOWERS_MINIMUM = MCR.minimum


def score_hand(hand: Hand, profile: str | RulingProfile = DEFAULT_PROFILE) -> ScoreResult:
    """Score a parsed hand. Never raises for a bad hand: the result carries the error."""
    prof = get_profile(profile)
    rulings = prof.rulings
    values = rulings.values
    minimum = _EXCL_FLOWERS_MINIMUM
    try:
        verdict = evaluate(hand, rulings)
    except HandError as error:
        return failure(error, prof.key, minimum, hand)
    table = verdict.table
    fan_total = verdict.points
    flowers = hand.flowers
    total = fan_total + flowers * values[FLOWER_TILES]
    fans = fan_lines(table, values, flowers)
    result = ScoreResult(
        error=None,
        profile=prof.key,
        total=total,
        total_excl_flowers=fan_total,
        minimum=minimum,
        fans=fans,
        hand=hand,
        verdict=verdict,
    )
    if fan_total < minimum:
        # A false win keeps its full breakdown; only the verdict changes.
        result.error = errors.BELOW_8_FAN
        result.message_key = "below_minimum"
        result.message_params = {"fan": fan_total, "minimum": minimum}
    return result


def score_case(case: Any, profile: str | RulingProfile = DEFAULT_PROFILE) -> ScoreResult:
    """Parse a hand in the case format and score it; a bad hand gives a result with its error."""
    prof = get_profile(profile)
    try:
        hand = parse_case(case)
    except HandError as error:
        return failure(error, prof.key, _EXCL_FLOWERS_MINIMUM)
    return score_hand(hand, prof)
