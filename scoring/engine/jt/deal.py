"""The payments of a JT deal given in the case format (`deal` facts, section 8): the win is
scored here, the money is `settlement.deal_payments` under the JT preset."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .. import errors
from ..presets import JAPANESE_TRANSITIONAL, RulePreset
from ..settlement import DRAW, FAULTY_OUT, WIN, Deal, Win, deal_payments
from ..tiles import WIND_CODES
from .scoring import JtResult, score_jt_case

#: The case format's `kind` of a deal.
KINDS = ("win", "draw", "faulty_out")


@dataclass(frozen=True, slots=True)
class DealVerdict:
    """A case's hand (None for a draw or a faulty out) and its payments by seat wind (None
    when the facts of the deal do not allow them: a hand that could not be read, or facts
    that contradict each other)."""

    hand: JtResult | None
    payments: dict[str, int] | None


class DealFactsError(ValueError):
    """Facts of a deal that cannot be settled."""


def _seat(value: Any, name: str) -> int:
    if isinstance(value, str) and value in WIND_CODES:
        return WIND_CODES.index(value)
    raise DealFactsError(f"{name} must be one of E, S, W, N, not {value!r}")


def _seats(facts: Mapping, name: str) -> tuple[int, ...]:
    value = facts.get(name) or []
    if not isinstance(value, list):
        raise DealFactsError(f"{name} must be a list of seats")
    return tuple(_seat(item, name) for item in value)


def _whole(facts: Mapping, name: str, default: int) -> int:
    value = facts.get(name, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DealFactsError(f"{name} must be a whole number, not {value!r}")
    return value


def preset_for(facts: Mapping) -> RulePreset:
    """The JT preset with the deal's own bonus step and ready pool, when it names them."""
    values = {}
    if facts.get("extra_hand_bonus") is not None:
        values["deal.extra_hand_bonus"] = _whole(facts, "extra_hand_bonus", 100)
    if facts.get("ready_pool") is not None:
        values["deal.ready_pool"] = _whole(facts, "ready_pool", 600)
    try:
        return JAPANESE_TRANSITIONAL.configured(values)
    except ValueError as exc:
        raise DealFactsError(str(exc)) from exc


def deal_of_case(case: Mapping, hand: JtResult | None) -> Deal:
    """The settlement's Deal for a case: a win (worth the hand's F, or a faulty out by the
    claimer when the tiles are no winning hand), a draw or a faulty out. The dealer is East."""
    facts = case.get("deal") or {}
    if not isinstance(facts, Mapping):
        raise DealFactsError("deal must be an object")
    kind = case.get("kind", "win")
    riichi = _seats(facts, "riichi")
    if kind == "draw":
        return Deal(
            result=DRAW,
            dealer=0,
            riichi=riichi,
            ready=_seats(facts, "ready"),
            faulty_riichi=_seats(facts, "faulty_riichi"),
        )
    if kind == "faulty_out":
        return Deal(result=FAULTY_OUT, dealer=0, offender=_seat(facts.get("offender"), "offender"))
    if kind != "win":
        raise DealFactsError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    assert hand is not None and hand.hand is not None
    winner = hand.hand.seat_wind
    if hand.error == errors.NOT_WIN:
        # Tiles that are no winning hand: a faulty out by the claimer (section 5, step 1).
        return Deal(result=FAULTY_OUT, dealer=0, offender=winner)
    assert hand.final is not None
    discarder = facts.get("discarder")
    if hand.hand.self_drawn == (discarder is not None):
        raise DealFactsError("a win on a discard names its discarder; a self-drawn one does not")
    return Deal(
        result=WIN,
        dealer=0,
        wins=(Win(winner, hand.final),),
        discarder=None if discarder is None else _seat(discarder, "discarder"),
        riichi=riichi,
        faulty_claims=_seats(facts, "faulty_claims"),
        extra_hands=_whole(facts, "extra_hands", 0),
    )


def settle_jt_case(case: Any) -> DealVerdict:
    """Score a case's win (if it is one) and pay its deal. Never raises for bad data."""
    if not isinstance(case, Mapping):
        return DealVerdict(score_jt_case(case), None)
    kind = case.get("kind", "win")
    hand = score_jt_case(case) if kind == "win" else None
    if hand is not None and hand.error not in (None, errors.NOT_WIN):
        return DealVerdict(hand, None)
    try:
        facts = case.get("deal") or {}
        deal = deal_of_case(case, hand)
        pays = deal_payments(deal, preset_for(facts if isinstance(facts, Mapping) else {}))
    except (DealFactsError, ValueError):
        return DealVerdict(hand, None)
    return DealVerdict(hand, dict(zip(WIND_CODES, pays, strict=True)))
