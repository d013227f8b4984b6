"""Seat winds and the prevailing wind of every hand of a game (rules/TOURNAMENT.md).

Plain Python. The four players are named by the seat they start the game at: index 0..3 for
the starting seats East, South, West, North (the players A, B, C, D of TOURNAMENT.md). Winds are
0..3 for East, South, West, North as well.

The deal passes to the right after every hand, so inside a wind round each position deals once.
Between wind rounds the players may change position, following the tournament's scheme.
"""

from __future__ import annotations

from scoring.engine.tiles import WIND_CODES

#: The four winds by their letters, in seat order (the engine's wind codes).
WINDS = WIND_CODES
#: The deal passes after every hand, so each of the four seats deals once in a wind round...
HANDS_PER_WIND_ROUND = len(WINDS)
#: ... and the seat rotation charts cover four wind rounds, for a preset whose game is that long.
CHART_HANDS = len(WINDS) * HANDS_PER_WIND_ROUND

# For each wind round (East, South, West, North): which starting seat sits at the E, S, W and N
# positions of the table.
SCHEMES: dict[str, tuple[tuple[int, int, int, int], ...]] = {
    "wmo": ((0, 1, 2, 3), (1, 0, 3, 2), (2, 3, 1, 0), (3, 2, 0, 1)),
    "none": ((0, 1, 2, 3),) * 4,
    "half": ((0, 1, 2, 3), (0, 1, 2, 3), (1, 0, 3, 2), (1, 0, 3, 2)),
}


def _check_hand(number: int) -> None:
    if not 1 <= number <= CHART_HANDS:
        raise ValueError(f"hand number must be 1..{CHART_HANDS}, not {number!r}")


def wind_round(number: int) -> int:
    """The wind round of hand `number` (0 East for hands 1-4 ... 3 North for 13-16)."""
    _check_hand(number)
    return (number - 1) // HANDS_PER_WIND_ROUND


def prevailing_wind(number: int) -> str:
    """The prevailing wind of hand `number` as a letter E, S, W or N."""
    return WINDS[wind_round(number)]


def seat_wind(*, scheme: str, starting_seat: int, number: int) -> str:
    """The seat wind, as a letter, of the player who started at `starting_seat` in hand `number`."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown seat rotation {scheme!r}; choose one of {', '.join(SCHEMES)}")
    if not 0 <= starting_seat < 4:
        raise ValueError("starting_seat must be 0..3 (East, South, West, North)")
    positions = SCHEMES[scheme][wind_round(number)]
    position = positions.index(starting_seat)
    dealer_position = (number - 1) % HANDS_PER_WIND_ROUND
    return WINDS[(position - dealer_position) % 4]


def seat_winds(*, scheme: str, number: int) -> tuple[str, str, str, str]:
    """The seat winds in hand `number` of the players who started at E, S, W and N."""

    def wind(seat: int) -> str:
        return seat_wind(scheme=scheme, starting_seat=seat, number=number)

    return wind(0), wind(1), wind(2), wind(3)
