"""Where the deals of a game stand and what they pay: the engine's order of deals
(`scoring.engine.flow`) and settlement (`scoring.engine.settlement`) applied to recorded deals.

A deal stores its position (prevailing wind, dealer, extra-hand number) and its payments; both
follow from the deals before it and are set by the services through `place` and `replay`,
never by hand. Seats are the starting seats 0..3 (East, South, West, North).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import QuerySet

from scoring.engine import RulePreset, flow
from scoring.engine.presets import EVERY_HAND
from scoring.engine.settlement import Deal as EngineDeal
from scoring.engine.settlement import Win, deal_payments
from tournament.domain.rotation import SCHEMES, WINDS, dealer_at, seat_winds_at
from tournament.models import Deal, ExtraWin, Table, Tournament


@dataclass(frozen=True)
class DealAt:
    """A deal's place in its game, as the table and the referee see it."""

    position: flow.Position
    dealer: int  # the starting seat of the player who deals
    seat_winds: tuple[str, str, str, str]  # of the players who started at E, S, W, N

    @property
    def number(self) -> int:
        return self.position.number

    @property
    def prevailing_wind(self) -> str:
        return WINDS[self.position.wind_round]

    @property
    def extra_hands(self) -> int:
        return self.position.extra_hands


def deal_at(position: flow.Position, scheme: str) -> DealAt:
    turn, wind_round = position.dealer_turn, position.wind_round
    return DealAt(
        position=position,
        dealer=dealer_at(scheme=scheme, wind_round=wind_round, dealer_turn=turn),
        seat_winds=seat_winds_at(scheme=scheme, wind_round=wind_round, dealer_turn=turn),
    )


def passing_every_hand(number: int, scheme: str) -> DealAt:
    """Deal `number` of a game whose deal passes after every hand (MCR): known ahead, before
    any deal is played (a blank game sheet)."""
    wind_round, turn = divmod(number - 1, flow.DEALERS_PER_WIND_ROUND)
    return deal_at(flow.Position(number=number, wind_round=wind_round, dealer_turn=turn), scheme)


def position_of(hand: Deal, scheme: str, preset: RulePreset) -> flow.Position:
    """The position of a recorded deal: where the deal passes after every hand (MCR), its
    number says it; otherwise the position it has stored."""
    if preset.deal.passing == EVERY_HAND:
        wind_round, turn = divmod(hand.number - 1, flow.DEALERS_PER_WIND_ROUND)
        return flow.Position(number=hand.number, wind_round=wind_round, dealer_turn=turn)
    wind_round = WINDS.index(hand.prevailing_wind)
    return flow.Position(
        number=hand.number,
        wind_round=wind_round,
        dealer_turn=SCHEMES[scheme][wind_round].index(hand.dealer_index),
        extra_hands=hand.extra_hands,
        continued=hand.extra_hands > 0,
    )


def winner_seats(hand: Deal, preset: RulePreset) -> list[int]:
    """The starting seats of the deal's winners, the first in turn first (the further winners
    are read only where the preset has them)."""
    if hand.winner is None:
        return []
    extra = _extra_wins(hand) if preset.deal.several_winners else ()
    return [hand.winner.index, *(win.winner.index for win in extra)]


def _extra_wins(hand: Deal) -> Sequence[ExtraWin]:
    """The further winners of a deal: read with it, or those a deal built in memory and not
    saved yet was given in its prefetch cache (an import builds a game so)."""
    cache = getattr(hand, "_prefetched_objects_cache", {})
    if hand.pk is None and "extra_wins" in cache:
        return list(cache["extra_wins"])
    return list(hand.extra_wins.all())


def outcome_of(hand: Deal, preset: RulePreset) -> flow.Outcome:
    dealer = hand.dealer_index
    return flow.Outcome(
        result=hand.result,
        dealer_won=dealer in winner_seats(hand, preset),
        dealer_offended=hand.offender is not None and hand.offender.index == dealer,
    )


def following(tournament: Tournament, last: Deal | None) -> DealAt | None:
    """The deal after `last` (the first deal of the game when None), or None when the game is
    over after it."""
    scheme = tournament.seat_rotation
    if last is None:
        return deal_at(flow.FIRST, scheme)
    preset = tournament.rules
    after = flow.next_position(
        preset,
        position_of(last, scheme, preset),
        outcome_of(last, preset),
        wind_rounds=preset.wind_rounds,
    )
    return None if after is None else deal_at(after, scheme)


def with_facts(hands: QuerySet[Deal], preset: RulePreset) -> QuerySet[Deal]:
    """`hands` with what placing and paying them reads, in a fixed number of queries (the
    further winners only where the preset has them)."""
    hands = hands.select_related("winner__player", "discarder__player", "offender__player")
    if preset.deal.several_winners:
        hands = hands.prefetch_related("extra_wins__winner__player")
    return hands


def last_deal(table: Table) -> Deal | None:
    """The last deal recorded at `table`, with what placing the next one reads."""
    preset = table.round.tournament.rules
    return with_facts(table.deals.order_by("-number"), preset).first()


def next_deal(table: Table) -> DealAt | None:
    """The deal in play at `table` (the round and tournament loaded), or None when the game is
    over: all its hands, or its last wind round, are played."""
    return following(table.round.tournament, last_deal(table))


def value_of(hand: Deal) -> int:
    """What a win is worth for its payments: MCR fan and flowers, else its value."""
    if hand.value is not None:
        return hand.value
    assert hand.fan is not None
    return hand.fan + hand.flowers


def facts_of(hand: Deal, extra_wins: Sequence[ExtraWin] | None = None) -> EngineDeal:
    """The engine's facts of a deal (winners and offender loaded; its extra wins given, or
    read from the recorded deal)."""
    seat = WINDS.index
    wins: list[Win] = []
    if hand.winner is not None:
        if extra_wins is None:
            extra_wins = list(hand.extra_wins.all())
        wins.append(Win(hand.winner.index, value_of(hand)))
        wins += [Win(win.winner.index, win.value) for win in extra_wins]
    return EngineDeal(
        result=hand.result,
        dealer=hand.dealer_index,
        wins=tuple(wins),
        discarder=hand.discarder.index if hand.discarder else None,
        riichi=tuple(seat(wind) for wind in hand.riichi),
        faulty_claims=tuple(seat(wind) for wind in hand.faulty_claims),
        extra_hands=hand.extra_hands,
        ready=tuple(seat(wind) for wind in hand.ready),
        faulty_riichi=tuple(seat(wind) for wind in hand.faulty_riichi),
        offender=hand.offender.index if hand.offender else None,
    )


def place(
    hand: Deal, at: DealAt, preset: RulePreset, extra_wins: Sequence[ExtraWin] | None = None
) -> None:
    """Give `hand` the position `at` and the payments its facts make there (a new deal's
    further winners given as `extra_wins`)."""
    hand.number = at.number
    hand.prevailing_wind = at.prevailing_wind
    hand.dealer = WINDS[at.dealer]
    hand.extra_hands = at.extra_hands
    payments = deal_payments(facts_of(hand, extra_wins), preset)
    hand.east_points, hand.south_points, hand.west_points, hand.north_points = payments


POSITIONED = ["prevailing_wind", "dealer", "extra_hands"]
PAID = ["east_points", "south_points", "west_points", "north_points"]


class AfterTheEnd(Exception):
    """A recorded deal comes after the end of its game (a correction ended it sooner)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def replay(tournament: Tournament, hands: Sequence[Deal]) -> tuple[list[Deal], DealAt | None]:
    """Every deal of a game placed again in order, from its facts: the deals whose position or
    payments changed (to save), and the deal after the last (None: the game is over).

    Raises AfterTheEnd when a deal would come after the end of the game."""
    preset = tournament.rules
    changed: list[Deal] = []
    last: Deal | None = None
    for hand in hands:
        at = following(tournament, last)
        if at is None:
            raise AfterTheEnd(hand.number)
        before = [getattr(hand, name) for name in POSITIONED + PAID]
        place(hand, at, preset)
        if [getattr(hand, name) for name in POSITIONED + PAID] != before:
            changed.append(hand)
        last = hand
    return changed, following(tournament, last)


def seat_winds_of(hand: Deal, tournament: Tournament) -> tuple[str, str, str, str]:
    """The seat winds of a recorded deal, by starting seat."""
    scheme = tournament.seat_rotation
    return deal_at(position_of(hand, scheme, tournament.rules), scheme).seat_winds
