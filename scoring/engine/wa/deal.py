"""A whole WA deal in the case format: every winner's hand scored apart, then the payments.

The payments come from the settlement every preset shares (`scoring.engine.settlement`): the
winners whose hands reach the minimum are paid as a deal (the discarder pays each of them
1.5 times his hand's value), and a claimer whose hand is below the minimum or no winning hand
at all makes a faulty out and pays the preset's amount to each other player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import errors
from ..errors import HandError
from ..messages import render
from ..notation import parse_wind
from ..presets import WILMINGTON_12_TILE
from ..settlement import DRAW, WIN, Deal, Win, deal_payments, faulty_out_payments
from ..tiles import WIND_CODES
from .hand import DEALER, WaHand, parse_wa_case
from .scoring import WaResult, failure, score_wa_hand

PRESET = WILMINGTON_12_TILE
KINDS = ("win", "draw", "faulty_out")


@dataclass(frozen=True)
class WaDealResult:
    """The verdict on one deal: one result per winner (main winner first), the net payments
    by seat wind (None when the deal cannot be settled), and why not (`error`, with its message
    key and parameters) when the deal itself is at fault."""

    hands: tuple[WaResult, ...] = ()
    payments: dict[str, int] | None = None
    error: str | None = None
    message_key: str | None = None
    message_params: dict[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        """Why the deal cannot be settled, in English ("" when it can)."""
        return render(self.message_key, self.message_params) if self.message_key else ""

    def to_case(self) -> dict[str, Any]:
        """`expected.hands` and `expected.payments` of the case format."""
        return {"hands": [hand.to_case() for hand in self.hands], "payments": self.payments}


def _refused(error: HandError, hands: tuple[WaResult, ...] = ()) -> WaDealResult:
    return WaDealResult(
        hands=hands,
        error=error.code,
        message_key=error.message_key,
        message_params=dict(error.message_params),
    )


def _by_wind(pays: list[int]) -> dict[str, int]:
    return {wind: pays[seat] for seat, wind in enumerate(WIND_CODES)}


def score_wa_case(case: Any) -> WaDealResult:
    """Score every hand of a deal in the case format and settle it. Never raises for bad input:
    the result carries the error."""
    if not isinstance(case, Mapping):
        return _refused(HandError(errors.BAD_INPUT, "hand_not_object"))
    kind = case.get("kind", "win")
    deal = case.get("deal")
    if deal is None:
        deal = {}
    try:
        if kind not in KINDS:
            raise HandError(errors.BAD_INPUT, "bad_deal_kind", value=kind)
        if not isinstance(deal, Mapping):
            raise HandError(errors.BAD_INPUT, "deal_not_object")
        if kind == "draw":
            return WaDealResult(payments=_by_wind(deal_payments(Deal(DRAW, DEALER), PRESET)))
        if kind == "faulty_out":
            offender = parse_wind(deal.get("offender"), "offender")
            return WaDealResult(
                payments=_by_wind(faulty_out_payments(offender=offender, preset=PRESET))
            )
        return _settle_win(case, deal)
    except HandError as error:
        return _refused(error)


def _winner_hands(case: Mapping) -> tuple[list[WaHand | None], list[WaResult]]:
    """Each winner's hand (None where it cannot be read) and its verdict."""
    raws: list[Any] = [case]
    extra = case.get("extra_winners")
    if extra is None:
        extra = []
    if not isinstance(extra, list):
        raise HandError(errors.BAD_INPUT, "extra_winners_not_list")
    raws.extend(extra)
    hands: list[WaHand | None] = []
    results: list[WaResult] = []
    for raw in raws:
        try:
            hand = parse_wa_case(raw, prevailing_wind=case.get("prevalent_wind"))
        except HandError as error:
            hands.append(None)
            results.append(failure(error))
            continue
        hands.append(hand)
        results.append(score_wa_hand(hand))
    return hands, results


def _settle_win(case: Mapping, deal: Mapping) -> WaDealResult:
    hands, results = _winner_hands(case)
    verdicts = tuple(results)
    unreadable = next(
        (r for r in results if r.error in errors.WA_STRUCTURAL - {errors.NOT_WIN}), None
    )
    if unreadable is not None:
        return WaDealResult(
            hands=verdicts,
            error=unreadable.error,
            message_key=unreadable.message_key,
            message_params=dict(unreadable.message_params or {}),
        )
    try:
        discarder = _discarder(deal, hands)
    except HandError as error:
        return _refused(error, verdicts)
    total = [0] * 4
    wins: list[Win] = []
    for hand, result in zip(hands, results, strict=True):
        assert hand is not None
        if result.is_win:
            assert result.final is not None
            wins.append(Win(hand.seat_wind, result.final))
        else:
            # A faulty out: below the minimum, or no winning hand at all.
            pays = faulty_out_payments(offender=hand.seat_wind, preset=PRESET)
            total = [a + b for a, b in zip(total, pays, strict=True)]
    if wins:
        paid = deal_payments(Deal(WIN, DEALER, wins=tuple(wins), discarder=discarder), PRESET)
        total = [a + b for a, b in zip(total, paid, strict=True)]
    return WaDealResult(hands=verdicts, payments=_by_wind(total))


def _discarder(deal: Mapping, hands: list[WaHand | None]) -> int | None:
    """The discarder's seat (None for a self-drawn win), checked against the winners."""
    main = hands[0]
    assert main is not None
    seats = [hand.seat_wind for hand in hands if hand is not None]
    if len(set(seats)) != len(seats):
        raise HandError(errors.BAD_INPUT, "winner_twice")
    raw = deal.get("discarder")
    if main.self_drawn:
        if raw is not None:
            raise HandError(errors.CONTRADICTORY_SITUATION, "discarder_of_self_drawn")
        if len(hands) > 1:
            raise HandError(errors.CONTRADICTORY_SITUATION, "several_winners_self_drawn")
        return None
    if raw is None:
        raise HandError(errors.BAD_INPUT, "discarder_missing")
    discarder = parse_wind(raw, "discarder")
    if discarder in seats:
        raise HandError(errors.CONTRADICTORY_SITUATION, "discarder_is_winner")
    for hand in hands:
        assert hand is not None
        if hand.self_drawn:
            raise HandError(errors.CONTRADICTORY_SITUATION, "several_winners_self_drawn")
        if hand.earthly and discarder != DEALER:
            raise HandError(errors.CONTRADICTORY_SITUATION, "earthly_not_on_first_discard")
    return discarder
