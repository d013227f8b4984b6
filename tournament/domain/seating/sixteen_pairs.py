"""32 players over 10 rounds with no repeat: sixteen pairs of players who never meet.

Ten rounds developed from four stored base rounds on sixteen pairs of players, checked before
use.  The construction: docs/seating.md, "Sixteen pairs"; how the base rounds were found
(tools/seating_designs/find_sixteen_pairs.py): "Stored data and how it was found".
"""

from __future__ import annotations

from functools import cache

from .starters import Design, Round, Table, is_repeat_free

PLAYERS = 32
ROUNDS = 10

#: Base rounds: four blocks of four pairs; ' marks bit 1.  The first three are turned by the
#: order-3 symmetry, the last is used once.
BASE_ROUNDS = (
    "0 10' 13' 15 | 2' 5' 6' 12 | 1' 7 8' 11' | 3 4' 9 14'",
    "0 2 4' 7 | 6 8 14' 15' | 5 9 10 11 | 1 3' 12 13",
    "0 4 8' 11 | 2' 7 9 14 | 3' 5' 6 13' | 1 10 12' 15",
    "0 1' 2' 3' | 6 9 11' 15 | 4 7 12' 13 | 5 8 10' 14",
)
TURNED = 3


def turn(pair: int, k: int) -> int:
    """The order-3 symmetry applied k times to a pair number."""
    if pair == 0:
        return 0
    layer, j = divmod(pair - 1, 3)
    return 1 + 3 * layer + (j + k) % 3


def parse_round(text: str) -> list[list[tuple[int, int]]]:
    """'0 10' 13' 15 | ...' -> [[(0, 0), (10, 1), (13, 1), (15, 0)], ...]."""
    return [
        [(int(entry.rstrip("'")), int(entry.endswith("'"))) for entry in block.split()]
        for block in text.split("|")
    ]


def seat(blocks: list[list[tuple[int, int]]], k: int) -> Round:
    tables: list[Table] = []
    for block in blocks:
        moved = [(turn(pair, k), bit) for pair, bit in block]
        tables.append(tuple(sorted(2 * pair + bit for pair, bit in moved)))
        tables.append(tuple(sorted(2 * pair + 1 - bit for pair, bit in moved)))
    return tuple(tables)


@cache
def sixteen_pairs() -> Design | None:
    """The ten rounds for 32 players (None only if the data were damaged)."""
    rounds = [
        seat(parse_round(text), k)
        for index, text in enumerate(BASE_ROUNDS)
        for k in (range(TURNED) if index < len(BASE_ROUNDS) - 1 else (0,))
    ]
    design = tuple(rounds)
    return design if len(design) == ROUNDS and is_repeat_free(design, PLAYERS) else None
