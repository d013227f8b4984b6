"""The order of deals in a game: who deals, in which wind round, with which extra-hand number,
and when the game is over. Plain data in, plain data out.

A game starts with the player at the East seat dealing in the East wind round. After each deal
the preset's `deal.passing` says whether the dealer keeps the deal; when the deal passes, the
next player deals, and after four passes the wind round changes. The game ends when the deal
passes from the fourth dealer of the last wind round (or, under a preset of a fixed number of
hands, after that many hands).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .presets import EVERY_HAND, UNLESS_DEALER_CONTINUES, UNLESS_DEALER_WINS, RulePreset
from .settlement import DRAW, FAULTY_OUT, WIN

DEALERS_PER_WIND_ROUND = 4


@dataclass(frozen=True)
class Position:
    """Where a deal stands in its game.

    - `number`: the deal's number in the game, from 1.
    - `wind_round`: 0 for the East wind round, 1 South, 2 West, 3 North (the prevailing wind).
    - `dealer_turn`: 0..3, how often the deal has passed within the wind round: the dealer is
      the player at the table position the turn names (the seat winds follow from it).
    - `extra_hands`: the dealer's extra-hand number n, 0 for his first deal.
    - `continued`: dealt by the same dealer as the deal before it.
    """

    number: int = 1
    wind_round: int = 0
    dealer_turn: int = 0
    extra_hands: int = 0
    continued: bool = False


FIRST = Position()


@dataclass(frozen=True)
class Outcome:
    """What of a deal decides who deals next: its result, whether the dealer won it (alone or
    among several winners), and for a faulty out whether the dealer was the offender."""

    result: str
    dealer_won: bool = False
    dealer_offended: bool = False


def dealer_keeps(preset: RulePreset, position: Position, outcome: Outcome) -> bool:
    """Whether the dealer deals again after `outcome`."""
    passing = preset.deal.passing
    if passing == EVERY_HAND:
        return False
    if outcome.result == WIN:
        return outcome.dealer_won
    if outcome.result == FAULTY_OUT:
        return not outcome.dealer_offended  # JT: the same dealer deals again, n unchanged
    assert outcome.result == DRAW
    return passing == UNLESS_DEALER_CONTINUES and position.continued


def next_position(
    preset: RulePreset, position: Position, outcome: Outcome, *, wind_rounds: int
) -> Position | None:
    """The position of the deal after the one at `position`, or None when the game is over.

    `wind_rounds` is the game's length in wind rounds (the preset's, or the tournament's
    setting); a preset with a fixed number of hands ends after that many instead.
    """
    if preset.deal.passing not in (EVERY_HAND, UNLESS_DEALER_WINS, UNLESS_DEALER_CONTINUES):
        raise ValueError(f"unknown deal passing {preset.deal.passing!r}")
    number = position.number + 1
    if preset.hands_per_game is not None and number > preset.hands_per_game:
        return None
    if dealer_keeps(preset, position, outcome):
        extra = position.extra_hands + (0 if outcome.result == FAULTY_OUT else 1)
        return replace(position, number=number, extra_hands=extra, continued=True)
    turn, wind_round = position.dealer_turn + 1, position.wind_round
    if turn == DEALERS_PER_WIND_ROUND:
        turn, wind_round = 0, wind_round + 1
    if preset.hands_per_game is None and wind_round >= wind_rounds:
        return None
    return Position(number=number, wind_round=wind_round, dealer_turn=turn)


def positions(
    preset: RulePreset, outcomes: list[Outcome], *, wind_rounds: int
) -> list[Position | None]:
    """The position of each deal of a game whose deals had `outcomes`, plus the position of the
    next deal (None when the game is over). Raises ValueError when a deal is recorded after the
    game was over."""
    found: list[Position | None] = [FIRST]
    for index, outcome in enumerate(outcomes):
        current = found[-1]
        if current is None:
            raise ValueError(f"deal {index + 1} comes after the end of the game")
        found.append(next_position(preset, current, outcome, wind_rounds=wind_rounds))
    return found
