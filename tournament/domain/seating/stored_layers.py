"""Three layers over Z_m with one or three fixed points, from stored base tables.

The base tables were found offline by the tools in tools/seating_designs/ and are checked
before use: damaged tables give None.  The shapes: docs/seating.md, "Stored three-layer
designs"; how each table was found: "Stored data and how it was found".
"""

from __future__ import annotations

from functools import cache

from .starters import Design, Table, develop

#: With a point, for each m: the stored tables, four entries "layer.value" each.
BASE_TABLES = {
    33: (
        "0.1 0.19 1.24 2.25 | 2.7 2.13 0.17 2.20 | 0.6 1.26 1.28 0.30 | 1.5 1.8 1.16 0.23 | "
        "0.4 0.9 2.18 0.21 | 0.11 2.27 2.31 1.32 | 0.3 1.14 1.15 2.22 | 0.2 2.10 0.12 2.29"
    ),
}


#: With three points, for each m: the fixed points' table (three entries), then the others.
THREE_POINT_TABLES = {
    23: (
        "0.18 1.19 2.2 | 0.4 0.6 1.15 0.10 | 0.21 0.22 0.12 1.11 | 2.9 1.13 2.17 2.20 | "
        "2.8 1.5 0.3 1.0 | 2.16 0.14 0.7 1.1"
    ),
    27: (
        "0.2 1.21 2.20 | 2.6 2.22 0.13 2.18 | 0.26 0.24 1.12 2.14 | 2.17 2.7 2.8 0.11 | "
        "2.3 2.16 2.9 1.19 | 0.1 2.5 2.0 0.25 | 0.4 1.10 2.15 0.23"
    ),
    31: (
        "0.11 1.29 2.4 | 2.18 2.6 0.0 2.22 | 2.21 1.24 0.26 2.12 | 2.30 2.2 0.23 0.25 | "
        "1.10 2.1 2.14 1.15 | 1.8 0.28 0.27 0.7 | 1.19 0.3 0.17 0.9 | 1.20 1.13 2.16 0.5"
    ),
    35: (
        "0.9 1.33 2.10 | 1.18 0.17 2.4 0.23 | 1.2 0.19 2.29 0.0 | 0.26 0.14 0.25 1.5 | "
        "2.1 1.27 2.8 2.3 | 1.32 1.24 2.28 1.11 | 1.30 1.12 1.15 0.7 | 1.22 2.16 2.20 1.13 | "
        "2.31 0.6 2.21 1.34"
    ),
    43: (
        "0.1 1.36 2.6 | 0.0 0.2 0.12 0.29 | 0.3 0.4 1.5 2.37 | 0.18 0.24 1.30 2.7 | "
        "0.22 0.15 1.8 2.42 | 0.9 1.13 0.28 2.34 | 0.11 1.35 0.39 2.32 | 0.23 1.38 0.19 2.20 | "
        "0.10 0.31 0.40 2.26 | 0.17 0.14 0.25 2.27 | 0.16 0.41 0.21 2.33"
    ),
    67: (
        "0.1 1.37 2.29 | 0.0 0.2 0.58 0.7 | 0.3 0.4 1.5 2.40 | 0.20 0.49 1.11 2.21 | "
        "0.44 0.14 1.51 2.6 | 0.8 0.60 2.10 0.33 | 0.31 0.65 2.22 0.19 | 0.28 0.9 2.35 0.15 | "
        "0.12 1.25 1.45 2.39 | 0.13 1.55 1.32 2.59 | 0.42 1.54 1.57 2.36 | 0.16 2.63 0.47 0.30 | "
        "0.62 2.18 0.23 0.66 | 0.56 2.53 0.64 0.38 | 0.17 2.27 0.52 1.41 | 0.24 2.46 0.34 1.50 | "
        "0.26 2.61 0.48 1.43"
    ),
    91: (
        "0.1 1.81 2.9 | 0.0 0.2 0.18 0.71 | 0.3 0.4 1.5 0.54 | 0.27 0.36 1.45 0.31 | "
        "0.61 0.51 1.41 0.6 | 0.7 2.8 1.10 1.62 | 0.63 2.72 1.90 1.12 | 0.21 2.11 1.82 1.17 | "
        "0.13 1.35 2.32 0.80 | 0.26 1.42 2.15 0.83 | 0.52 1.14 2.44 0.19 | 0.16 1.20 1.74 1.49 | "
        "0.53 1.89 1.29 1.77 | 0.22 1.73 1.79 1.56 | 0.23 0.84 2.39 2.67 | 0.25 0.28 2.78 2.57 | "
        "0.43 0.70 2.65 2.58 | 0.24 1.55 1.47 0.68 | 0.34 1.40 1.59 0.66 | 0.33 1.87 1.76 0.48 | "
        "0.30 1.37 2.69 1.86 | 0.88 1.60 2.75 1.46 | 0.64 1.85 2.38 1.50"
    ),
}


def parse_tables(text: str) -> list[list[tuple[int, int]]]:
    """'0.1 0.19 1.24 2.25 | ...' -> [[(0, 1), (0, 19), (1, 24), (2, 25)], ...]."""
    return [
        [(int(layer), int(value)) for layer, value in (entry.split(".") for entry in table.split())]
        for table in text.split("|")
    ]


def _turned(table: list[tuple[int, int]], m: int, turn: int) -> tuple[int, ...]:
    """The points of a stored table, its layers rotated `turn` times."""
    return tuple(((layer + turn) % 3) * m + value for layer, value in table)


@cache
def stored_layers_and_a_point(m: int) -> Design | None:
    """The m rounds for 3m + 1 players with a point, or None without stored tables."""
    if m not in BASE_TABLES:
        return None
    base: list[Table] = [(3 * m, 0, m, 2 * m)]
    for turn in range(3):
        base += [_turned(table, m, turn) for table in parse_tables(BASE_TABLES[m])]
    return develop(base, m, 3 * m + 1)


@cache
def stored_layers_and_three_points(m: int) -> Design | None:
    """The m rounds for 3m + 3 players with three points, or None without stored tables."""
    if m not in THREE_POINT_TABLES:
        return None
    fixed, *tables = parse_tables(THREE_POINT_TABLES[m])
    if [layer for layer, _ in fixed] != [0, 1, 2]:  # P0 with one value of each layer
        return None
    base: list[Table] = []
    for turn in range(3):
        base.append((3 * m + turn, *_turned(fixed, m, turn)))
        base += [_turned(table, m, turn) for table in tables]
    if any(len(table) != 4 for table in base):
        return None
    return develop(base, m, 3 * m + 3)
