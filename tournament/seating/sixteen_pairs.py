"""32 players over 10 rounds with no repeat: sixteen pairs of players who never meet.

Over 10 rounds each of 32 players meets 30 others, so everyone misses exactly one player; the
misses pair the field into sixteen pairs (a resolvable 4-GDD of type 2^16, the social golfer
instance 8-4-10).  No algebraic family here covers it, and our local search on the whole
schedule stopped at 16 repeats, so it is built from a smaller object:

- Pair x (x in 0..15) holds the players 2x and 2x + 1.  A *block* is four pairs, each with a
  bit; it seats two tables: the players 2x + bit, and their partners 2x + 1 - bit.  A round
  is four blocks that split the sixteen pairs, so eight tables that seat everyone.
- Two pairs x, y in one block meet as (2x + a, 2y + b) for the two choices with a + b equal
  to the sum of their bits (mod 2), and never in the other two.  So if every two pairs share a block
  in exactly two rounds, once with equal bits and once with different bits, all four of
  their meetings happen exactly once: ten repeat-free rounds.
- The rounds below carry a symmetry of order 3: pair 0 stays, and pair 1 + 3i + j
  (i in 0..4, j in 0..2) becomes 1 + 3i + (j + k) mod 3.  The first three base rounds are
  each turned by k = 0, 1, 2 (nine rounds); the last is used as it is.

We found these base rounds with a constraint solver (CP-SAT) on that reduced model, with the
symmetry imposed; ``scripts/find_sixteen_pairs.py`` repeats the search, which takes a few
seconds and finds other, equally good base rounds for other seeds (it needs ``ortools``,
which the app does not).  ``sixteen_pairs`` checks the developed schedule before returning it.
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
        tables.append(tuple(sorted(2 * pair + bit for pair, bit in moved)))  # type: ignore[arg-type]
        tables.append(tuple(sorted(2 * pair + 1 - bit for pair, bit in moved)))  # type: ignore[arg-type]
    return tuple(tables)


@cache
def sixteen_pairs() -> Design | None:
    """The ten rounds for 32 players described above (None only if the data were damaged)."""
    rounds = [
        seat(parse_round(text), k)
        for index, text in enumerate(BASE_ROUNDS)
        for k in (range(TURNED) if index < len(BASE_ROUNDS) - 1 else (0,))
    ]
    design = tuple(rounds)
    return design if len(design) == ROUNDS and is_repeat_free(design, PLAYERS) else None
