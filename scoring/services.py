"""Scoring one hand sent as data: the body of POST /api/score, the calculator's form without
JavaScript, a referee's tiles. Each gets the same verdict from `score_request`, under the
rules the request names ("preset": "mcr", the default, or "jt").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring import engine
from scoring.engine import errors, jt
from scoring.engine_messages import engine_message

# Situation fields accepted next to "compact"; the engine checks their values.
SITUATION_FIELDS = (
    "self_drawn",
    "seat_wind",
    "prevalent_wind",
    "flowers",
    "last_tile_of_kind",
    "kong_related",
    "last_wall_tile",
)
# Asks for the verdict of the other ruling profile on the same tiles (`engine.compare_profiles`).
COMPARE_FIELD = "compare_profiles"
# The same for a Japanese Transitional win: its winds and flags.
JT_SITUATION_FIELDS = ("seat_wind", "prevalent_wind", *jt.FLAGS)
#: The rules a hand may be scored under, by the request's "preset".
PRESETS = ("mcr", "jt")
# Verdicts of a hand that was read and scored: BELOW_8_FAN is a false win, with its total and
# fans like any other hand. Every other error code is a refusal.
SCORED_ERRORS = frozenset({errors.BELOW_8_FAN})


@dataclass(frozen=True)
class Refusal:
    """A request that cannot be scored: a stable code (`scoring.engine.errors`) and a
    sentence for people, in the active language where it comes from the engine."""

    code: str
    message: str


def score_request(request: Any) -> engine.ScoreResult | jt.JtResult | Refusal:
    """Score a hand given as a dict: the case format, or {"compact": ...} with the situation
    fields; either may name the "preset" (mcr or jt) and, for MCR, a ruling "profile" and ask to
    compare it with the other one ("compare_profiles", read by the caller). Returns the engine's
    result for a scored hand (a win, or an MCR false win below 8 fan), else the refusal."""
    if not isinstance(request, dict):
        return Refusal(errors.BAD_INPUT, "The request body must be a JSON object.")
    preset = request.get("preset")
    if preset is None:
        preset = "mcr"
    if preset not in PRESETS:
        return Refusal(errors.BAD_INPUT, f"Unknown preset; choose one of: {', '.join(PRESETS)}.")
    if preset == "jt":
        return score_jt_request(request)
    profile = request.get("profile")
    if profile is None:
        profile = engine.DEFAULT_PROFILE
    if not isinstance(profile, str) or profile not in engine.PROFILES:
        choices = ", ".join(engine.PROFILES)
        return Refusal(errors.BAD_INPUT, f"Unknown profile; choose one of: {choices}.")
    if not isinstance(request.get(COMPARE_FIELD, False), bool):
        return Refusal(errors.BAD_INPUT, f"{COMPARE_FIELD} must be true or false.")
    if "compact" in request:
        situation = {name: request[name] for name in SITUATION_FIELDS if name in request}
        try:
            hand = engine.parse_compact(request["compact"], **situation)
        except engine.HandError as error:
            return Refusal(error.code, engine_message(error))
        result = engine.score_hand(hand, profile=profile)
    else:
        result = engine.score_case(request, profile=profile)
    if result.error is not None and result.error not in SCORED_ERRORS:
        return Refusal(result.error, engine_message(result))
    return result


def score_jt_request(request: dict[str, Any]) -> jt.JtResult | Refusal:
    """A Japanese Transitional win: the case format or {"compact": ...} with its situation."""
    if "compact" in request:
        situation = {name: request[name] for name in JT_SITUATION_FIELDS if name in request}
        try:
            hand = jt.parse_jt_compact(request["compact"], **situation)
        except engine.HandError as error:
            return Refusal(error.code, engine_message(error))
        result = jt.score_jt_hand(hand)
    else:
        result = jt.score_jt_case(request)
    if result.error is not None:
        return Refusal(result.error, engine_message(result))
    return result
