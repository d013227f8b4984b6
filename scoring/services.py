"""Scoring one hand sent as data: the body of POST /api/score, the calculator's form without
JavaScript, a referee's tiles. Each gets the same verdict from `score_request`, under the
rules the request names ("preset": "mcr", the default, "jt" or "wa").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring import engine
from scoring.engine import errors, jt, wa
from scoring.engine.rulebook import RULEBOOKS, McrRulebook, rulebook_named
from scoring.engine_messages import engine_message

# Asks for the verdict of the other ruling profile on the same tiles (`engine.compare_profiles`).
COMPARE_FIELD = "compare_profiles"
#: The rules a hand may be scored under, by the request's "preset": each rulebook's key.
PRESETS = tuple(RULEBOOKS)
# Verdicts of an MCR hand that was read and scored: BELOW_8_FAN is a false win, with its total
# and fans like any other hand (the API's schema names it).
SCORED_ERRORS = frozenset({errors.BELOW_8_FAN})


@dataclass(frozen=True)
class Refusal:
    """A request that cannot be scored: a stable code (`scoring.engine.errors`) and a
    sentence for people, in the active language where it comes from the engine."""

    code: str
    message: str


def score_request(request: Any) -> engine.ScoreResult | jt.JtResult | wa.WaResult | Refusal:
    """Score a hand given as a dict: the case format, or {"compact": ...} with the situation
    fields of its preset (`Rulebook.compact_fields`); either may name the "preset" (mcr, jt or
    wa) and, for MCR, a ruling "profile" and ask to compare it with the other one
    ("compare_profiles", read by the caller). Returns the engine's result for a scored hand
    (a win, or one below the minimum: an MCR false win, a WA faulty out), else the refusal."""
    if not isinstance(request, dict):
        return Refusal(errors.BAD_INPUT, "The request body must be a JSON object.")
    key = request.get("preset")
    if key is None:
        key = McrRulebook.key
    if key not in PRESETS:
        return Refusal(errors.BAD_INPUT, f"Unknown preset; choose one of: {', '.join(PRESETS)}.")
    rules = rulebook_named(key)
    profile = request.get("profile")
    if profile is None or not rules.uses_ruling_profile:
        profile = engine.DEFAULT_PROFILE
    if not isinstance(profile, str) or profile not in engine.PROFILES:
        choices = ", ".join(engine.PROFILES)
        return Refusal(errors.BAD_INPUT, f"Unknown profile; choose one of: {choices}.")
    if rules.uses_ruling_profile and not isinstance(request.get(COMPARE_FIELD, False), bool):
        return Refusal(errors.BAD_INPUT, f"{COMPARE_FIELD} must be true or false.")
    try:
        if "compact" in request:
            situation = {name: request[name] for name in rules.compact_fields if name in request}
            scored = rules.score_compact(request["compact"], profile=profile, **situation)
        else:
            scored = rules.score(request, profile=profile)
    except engine.HandError as error:
        return Refusal(error.code, engine_message(error))
    if scored.refused:
        return Refusal(scored.verdict.error or errors.BAD_INPUT, engine_message(scored.verdict))
    return scored.verdict
