"""Three layers over Z_m and a point, from stored base tables (3m + 1 players, m rounds).

Where m is not a prime power, ``three_layers_and_a_point`` in ``constructions`` has no field to
work in, yet a resolvable (3m + 1, 4, 1) design exists for every m = 1 (mod 4).  The same
shape still works over the integers mod m, with base tables found by a search:

- Points (i, x) with layer i in 0..2 and x in Z_m, and a point P.  Round g moves every point
  (i, x) to (i, x + g) and keeps P: m rounds.
- The base round is kept by the rotation (i, x) -> (i + 1, x): the table
  {P, (0, 0), (1, 0), (2, 0)}, and each stored table with its two rotations.  The stored
  tables hold every value 1 .. m - 1 once, in some layer.
- Two points of one layer at distance +-d (d = 1 .. (m - 1) / 2), and two points (i, x),
  (i + 1, x + d) (d in Z_m, d = 0 being the table of P), are the classes of pairs that the
  rounds move into one another.  The stored tables hold one pair of every class, so everyone
  meets everyone exactly once over the m rounds.

We found the tables with a constraint solver (CP-SAT); ``scripts/find_layer_round.py`` repeats
the search (it needs ``ortools``, which the app does not).  The design is checked before use.
"""

from __future__ import annotations

from functools import cache

from .starters import Design, Table, is_repeat_free

#: For each m: the stored tables, four entries "layer.value" each.
BASE_TABLES = {
    33: (
        "0.1 0.19 1.24 2.25 | 2.7 2.13 0.17 2.20 | 0.6 1.26 1.28 0.30 | 1.5 1.8 1.16 0.23 | "
        "0.4 0.9 2.18 0.21 | 0.11 2.27 2.31 1.32 | 0.3 1.14 1.15 2.22 | 0.2 2.10 0.12 2.29"
    ),
}


def parse_tables(text: str) -> list[list[tuple[int, int]]]:
    """'0.1 0.19 1.24 2.25 | ...' -> [[(0, 1), (0, 19), (1, 24), (2, 25)], ...]."""
    return [
        [(int(layer), int(value)) for layer, value in (entry.split(".") for entry in table.split())]
        for table in text.split("|")
    ]


@cache
def stored_layers_and_a_point(m: int) -> Design | None:
    """The m rounds for 3m + 1 players described above, or None without stored tables."""
    if m not in BASE_TABLES:
        return None
    point = 3 * m
    base: list[Table] = [(point, 0, m, 2 * m)]
    for turn in range(3):
        for table in parse_tables(BASE_TABLES[m]):
            base.append(tuple(((layer + turn) % 3) * m + value for layer, value in table))  # type: ignore[arg-type]
    design = tuple(
        tuple(
            tuple(p if p == point else p - p % m + (p % m + g) % m for p in table)  # type: ignore[misc]
            for table in base
        )
        for g in range(m)
    )
    return design if is_repeat_free(design, 3 * m + 1) else None
