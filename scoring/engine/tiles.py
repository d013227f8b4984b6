"""Tiles: codes, indexes and the properties the fan rules ask about.

A tile is an index 0..33. The suits come in the order characters (m), bamboo (s), dots (p),
then the winds E S W N and the dragons C (red) F (green) P (white). Keeping bamboo before dots
makes the engine walk arrangements in the same order as the reference calculator the project
tests against, which matters only when two arrangements score the same.
"""

from __future__ import annotations

SUIT_LETTERS = ("m", "s", "p")
SUIT_NAMES = {"m": "characters", "s": "bamboo", "p": "dots"}
#: The winds in seat order, East first: the one definition of wind letters (seat winds, the
#: prevailing wind and the wind tiles alike).
WIND_CODES = ("E", "S", "W", "N")
HONOR_CODES = (*WIND_CODES, "C", "F", "P")

#: Index -> code, in engine order.
CODES: tuple[str, ...] = (
    tuple(f"{rank}{suit}" for suit in SUIT_LETTERS for rank in range(1, 10)) + HONOR_CODES
)
#: Code -> index.
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}

#: The 34 tile codes in the order people write them: characters, dots, bamboo, winds, dragons.
TILE_CODES: tuple[str, ...] = (
    tuple(f"{rank}{suit}" for suit in ("m", "p", "s") for rank in range(1, 10)) + HONOR_CODES
)

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN_DRAGON, WHITE = 31, 32, 33
WINDS = frozenset(range(27, 31))
DRAGONS = frozenset(range(31, 34))
HONORS = frozenset(range(27, 34))
SUITED = frozenset(range(27))
TERMINALS = frozenset(i for i in range(27) if i % 9 in (0, 8))
TERMINALS_OR_HONORS = TERMINALS | HONORS
SIMPLES = SUITED - TERMINALS
#: 2 3 4 6 8 bamboo and the green dragon.
GREEN_TILES = frozenset([INDEX[f"{rank}s"] for rank in (2, 3, 4, 6, 8)] + [GREEN_DRAGON])
#: Tiles that look the same upside down: 1234589 dots, 245689 bamboo, white dragon.
REVERSIBLE = frozenset(
    [INDEX[f"{r}p"] for r in (1, 2, 3, 4, 5, 8, 9)]
    + [INDEX[f"{r}s"] for r in (2, 4, 5, 6, 8, 9)]
    + [WHITE]
)


def suit_of(tile: int) -> int:
    """0, 1, 2 for the suits; 3 for honours."""
    return tile // 9 if tile < 27 else 3


def rank_of(tile: int) -> int:
    """1..9 for suited tiles, 0 for honours."""
    return tile % 9 + 1 if tile < 27 else 0


#: The six knitted straights: 147 / 258 / 369 spread over the three suits.
KNITTED_STRAIGHTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        suit * 9 + start + step
        for suit, start in zip((0, 1, 2), starts, strict=True)
        for step in (0, 3, 6)
    )
    for starts in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)
THIRTEEN_ORPHANS = tuple(sorted(TERMINALS | HONORS))
