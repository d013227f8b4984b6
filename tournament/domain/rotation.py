"""Seat winds and the prevailing wind of every deal of a game (rules/TOURNAMENT.md).

Plain Python. The four players are named by the seat they start the game at: index 0..3 for
the starting seats East, South, West, North (the players A, B, C, D of TOURNAMENT.md). Winds are
0..3 for East, South, West, North as well.

Inside a wind round the deal passes to the right (under MCR after every hand; under other
presets when the dealer does not keep it: `scoring.engine.flow`), so each table position deals
in turn. Between wind rounds the players may change position, following the tournament's
scheme. A deal's seat winds follow from its wind round and its dealer's turn.
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


def seat_wind_at(*, scheme: str, starting_seat: int, wind_round: int, dealer_turn: int) -> str:
    """The seat wind of the player who started at `starting_seat`, in a deal of `wind_round`
    (0..3) dealt by the player at table position `dealer_turn` (0..3)."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown seat rotation {scheme!r}; choose one of {', '.join(SCHEMES)}")
    if not 0 <= starting_seat < 4:
        raise ValueError("starting_seat must be 0..3 (East, South, West, North)")
    if not (0 <= wind_round < 4 and 0 <= dealer_turn < 4):
        raise ValueError("wind_round and dealer_turn are 0..3")
    position = SCHEMES[scheme][wind_round].index(starting_seat)
    return WINDS[(position - dealer_turn) % 4]


def dealer_at(*, scheme: str, wind_round: int, dealer_turn: int) -> int:
    """The starting seat of the player who deals at `dealer_turn` of `wind_round`."""
    return SCHEMES[scheme][wind_round][dealer_turn]


def seat_wind(*, scheme: str, starting_seat: int, number: int) -> str:
    """The seat wind, as a letter, of the player who started at `starting_seat` in hand `number`
    of a game whose deal passes after every hand (MCR)."""
    return seat_wind_at(
        scheme=scheme,
        starting_seat=starting_seat,
        wind_round=wind_round(number),
        dealer_turn=(number - 1) % HANDS_PER_WIND_ROUND,
    )


def seat_winds(*, scheme: str, number: int) -> tuple[str, str, str, str]:
    """The seat winds in hand `number` of the players who started at E, S, W and N."""

    def wind(seat: int) -> str:
        return seat_wind(scheme=scheme, starting_seat=seat, number=number)

    return wind(0), wind(1), wind(2), wind(3)


def seat_winds_at(*, scheme: str, wind_round: int, dealer_turn: int) -> tuple[str, str, str, str]:
    """The seat winds of the players who started at E, S, W and N, in a deal of `wind_round`
    dealt at `dealer_turn`."""

    def wind(seat: int) -> str:
        return seat_wind_at(
            scheme=scheme, starting_seat=seat, wind_round=wind_round, dealer_turn=dealer_turn
        )

    return wind(0), wind(1), wind(2), wind(3)
