"""Paying a deal: plain arithmetic driven by the preset's data.

Seats are 0..3, in any fixed order (the tournament uses the starting seats East, South, West,
North); `dealer` says which of them deals. Every function answers what each of the four seats
gains (positive) or pays (negative), and the four numbers always sum to zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .presets import MCR, RulePreset

SEATS = range(4)


def half_up(amount: Fraction) -> int:
    """To the nearest whole number, halves up (22.5 -> 23)."""
    return int((amount + Fraction(1, 2)) // 1)


def _check_seat(seat: int, what: str) -> None:
    if seat not in SEATS:
        raise ValueError(f"{what} must be a seat 0..3, not {seat!r}")


def _factor(preset: RulePreset, dealer: int | None, *seats: int) -> int:
    """The dealer's factor when the dealer is one of `seats`, else 1."""
    return preset.payment.dealer_factor if dealer in seats else 1


def hand_payments(
    *,
    winner: int,
    discarder: int | None,
    value: int,
    preset: RulePreset = MCR,
    dealer: int | None = None,
) -> list[int]:
    """What one win worth `value` pays (MCR: fan and flowers; JT: F; WA: points), before any
    extra of the deal. `discarder` None means self-drawn; `dealer` matters only where the
    preset doubles the dealer's payments."""
    _check_seat(winner, "winner")
    if discarder is not None:
        _check_seat(discarder, "discarder")
        if discarder == winner:
            raise ValueError("discarder must be another seat than the winner, or None")
    if value < 0:
        raise ValueError("a hand's value cannot be negative")
    scheme = preset.payment
    owed = {
        seat: scheme.base + value * _factor(preset, dealer, winner, seat)
        for seat in SEATS
        if seat != winner
    }
    pays = [0] * 4
    if discarder is None:
        for seat, amount in owed.items():
            pays[seat] = -amount
    elif scheme.discarder_pays_for_all:
        pays[discarder] = -sum(owed.values())
    else:
        pays[discarder] = -half_up(scheme.base + value * scheme.discarder_share)
        for seat in owed:
            if seat != discarder and scheme.others_pay_base_on_discard:
                pays[seat] = -scheme.base
    pays[winner] = -sum(pays)
    return pays


def faulty_out_payments(
    *,
    offender: int,
    preset: RulePreset = MCR,
    dealer: int | None = None,
    invalid_hand: bool = False,
) -> list[int]:
    """A declared win that is not one: the offender pays the preset's amount to each other
    player, doubled where the dealer pays or receives (JT)."""
    _check_seat(offender, "offender")
    rules = preset.faulty_out
    each = rules.invalid_hand_each if invalid_hand else rules.each
    pays = [0] * 4
    for seat in SEATS:
        if seat != offender:
            pays[seat] = each * _factor(preset, dealer, offender, seat)
    pays[offender] = -sum(pays)
    return pays


def penalty_payments(*, offender: int, points: int, distributed: bool) -> list[int]:
    """A penalty of `points` on seat `offender`: shared in equal thirds by the other three
    seats when `distributed` (the table stays zero-sum), else given to nobody."""
    _check_seat(offender, "offender")
    if distributed and points % 3:
        raise ValueError("a distributed penalty is paid in three equal parts")
    pays = [points // 3 if distributed else 0] * 4
    pays[offender] = -points
    return pays


def false_win_points(*, invalid_hand: bool, preset: RulePreset = MCR) -> int:
    """What a false win costs its offender in all where the preset pays every other player
    alike (MCR, WA): three times the amount each receives, for a distributed penalty."""
    rules = preset.faulty_out
    return 3 * (rules.invalid_hand_each if invalid_hand else rules.each)


# --- A whole deal ---------------------------------------------------------------------------

WIN = "win"
DRAW = "draw"
FAULTY_OUT = "faulty_out"
RESULTS = (WIN, DRAW, FAULTY_OUT)


@dataclass(frozen=True)
class Win:
    """One winner of a deal and what the hand is worth."""

    seat: int
    value: int


@dataclass(frozen=True)
class Deal:
    """The facts of one deal that its payments depend on.

    - `result`: WIN (one winner, or several on one discard where the preset allows it), DRAW
      (the wall ran out), or FAULTY_OUT (where a faulty out ends the deal: JT).
    - `wins` and `discarder` (None: self-drawn; robbing a kong: the player robbed).
    - `riichi`: seats that declared riichi; `faulty_claims`: one seat per faulty claim.
    - `extra_hands`: the dealer's extra-hand number n (0 for the dealer's first deal).
    - After a draw: `ready` seats, and `faulty_riichi` declarers whose hand was not ready.
    - `offender` of a FAULTY_OUT.
    """

    result: str
    dealer: int
    wins: tuple[Win, ...] = ()
    discarder: int | None = None
    riichi: tuple[int, ...] = ()
    faulty_claims: tuple[int, ...] = ()
    extra_hands: int = 0
    ready: tuple[int, ...] = ()
    faulty_riichi: tuple[int, ...] = ()
    offender: int | None = None


def deal_payments(deal: Deal, preset: RulePreset) -> list[int]:
    """Every payment of `deal` under `preset`: the winning hands, then riichi stakes, faulty
    claims and the dealer's extra-hand bonus (a win); payments for ready hands and faulty riichi
    (a draw); or the offender's payments (a faulty out that ends the deal). Raises ValueError
    for facts that contradict each other or the preset."""
    _check_deal(deal, preset)
    if deal.result == WIN:
        return _win(deal, preset)
    if deal.result == DRAW:
        return _draw(deal, preset)
    assert deal.offender is not None
    return faulty_out_payments(offender=deal.offender, preset=preset, dealer=deal.dealer)


def _add(total: list[int], more: list[int]) -> None:
    for seat in SEATS:
        total[seat] += more[seat]


def _win(deal: Deal, preset: RulePreset) -> list[int]:
    rules = preset.deal
    total = [0] * 4
    for win in deal.wins:
        _add(
            total,
            hand_payments(
                winner=win.seat,
                discarder=deal.discarder,
                value=win.value,
                preset=preset,
                dealer=deal.dealer,
            ),
        )
    # The extras go to the winner of the deal: with several winners (WA has no extras) the
    # first one named, who is the player first in turn after the discarder.
    winner = deal.wins[0].seat
    for seat in deal.riichi:
        if seat != winner:
            total[seat] -= rules.riichi_stake
            total[winner] += rules.riichi_stake
    for seat in deal.faulty_claims:
        total[seat] -= rules.faulty_claim
        total[winner] += rules.faulty_claim
    bonus = rules.extra_hand_bonus * deal.extra_hands
    if bonus:
        losers = [seat for seat in SEATS if seat != winner]
        for seat in losers:
            payer = deal.discarder if deal.discarder is not None else seat
            total[payer] -= bonus
            total[winner] += bonus
    return total


def _draw(deal: Deal, preset: RulePreset) -> list[int]:
    total = [0] * 4
    for seat in deal.faulty_riichi:
        _add(total, faulty_out_payments(offender=seat, preset=preset, dealer=deal.dealer))
    pool = preset.deal.ready_pool
    ready = [seat for seat in SEATS if seat in deal.ready and seat not in deal.faulty_riichi]
    if pool and 0 < len(ready) < 4:
        receive, pay = pool // len(ready), pool // (4 - len(ready))
        for seat in SEATS:
            total[seat] += receive if seat in ready else -pay
    return total


def _check_deal(deal: Deal, preset: RulePreset) -> None:
    """Facts that cannot go together, or that the preset does not have."""
    rules = preset.deal
    if deal.result not in RESULTS:
        raise ValueError(f"a deal's result is one of {', '.join(RESULTS)}, not {deal.result!r}")
    _check_seat(deal.dealer, "dealer")
    for seat in (*deal.riichi, *deal.faulty_claims, *deal.ready, *deal.faulty_riichi):
        _check_seat(seat, "a seat of the deal")
    if deal.extra_hands < 0:
        raise ValueError("the extra-hand number cannot be negative")
    if (deal.riichi or deal.faulty_riichi) and not rules.riichi_stake:
        raise ValueError(f"{preset.name} has no riichi")
    if deal.faulty_claims and not rules.faulty_claim:
        raise ValueError(f"{preset.name} has no faulty claims")
    if not set(deal.faulty_riichi) <= set(deal.riichi):
        raise ValueError("a faulty riichi is a riichi declaration that was not ready")
    if deal.result == WIN:
        _check_win(deal, preset)
    elif deal.wins or deal.discarder is not None or deal.faulty_claims:
        raise ValueError("only a win has winners, a discarder and faulty claims")
    if deal.result == FAULTY_OUT:
        _check_faulty_out(deal, preset)
    elif deal.result == DRAW and deal.offender is not None:
        raise ValueError("only a faulty out has an offender")


def _check_win(deal: Deal, preset: RulePreset) -> None:
    if not deal.wins:
        raise ValueError("a win needs a winner")
    seats = [win.seat for win in deal.wins]
    if len(set(seats)) != len(seats):
        raise ValueError("a player wins a deal once")
    if len(seats) > 1 and (deal.discarder is None or not preset.deal.several_winners):
        raise ValueError("several players win only on the same discard, where the preset allows it")
    if deal.discarder in seats:
        raise ValueError("the discarder cannot be a winner")
    if deal.ready or deal.faulty_riichi or deal.offender is not None:
        raise ValueError("ready hands, faulty riichi and an offender belong to other results")


def _check_faulty_out(deal: Deal, preset: RulePreset) -> None:
    if deal.offender is None:
        raise ValueError("a faulty out needs its offender")
    _check_seat(deal.offender, "offender")
    if not preset.faulty_out.ends_deal:
        raise ValueError(f"under {preset.name} a faulty out does not end the deal: it is a penalty")
    if deal.ready or deal.faulty_riichi:
        raise ValueError("ready hands and faulty riichi belong to a drawn deal")
