"""Three-point layer tables with an extra symmetry, for tournament/domain/seating/stored_layers.py.

A developer's tool, not part of the app.  For m = 7 (mod 12) whose prime factors are all
1 (mod 3) (m = 31, 43, 67, 79, 91, ...), Z_m has a multiplier t of order 3 with t - 1 a unit.
Then the base round can be kept by nu: (i, x) -> (i, t x) as well as by the rotation of the
layers, as long as the fixed points' table rotates with it:

- the fixed points' table holds a, t^2 a and t a in layers 0, 1 and 2 (a = 1: multiplying
  every value by a unit turns tables into tables);
- one table {(0, 0), (l, z), (l, t z), (l, t^2 z)} is kept by nu;
- every other table comes with its images under nu, and (m - 7) / 12 of them are chosen.

Values fall into orbits {x, t x, t^2 x} and so do the classes of pairs; the chosen tables must
hold every orbit of classes once, and their values must come from distinct orbits of values.
That is a small search (a depth-first search with the most constrained table first), which
this script runs and then prints the tables in the module's notation, developed under nu:

    python tools/seating_designs/find_layer_orbits.py M [--seconds T]

It checks the result with the module's own code, as find_layer_tables.py does.
"""

from __future__ import annotations

import argparse
import sys
import time
from math import gcd
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for tournament

from find_layer_tables import report  # noqa: E402


def multiplier(m: int) -> int | None:
    """t with t^3 = 1 (mod m) and t - 1 a unit, or None."""
    for t in range(2, m):
        if pow(t, 3, m) == 1 and gcd(t - 1, m) == 1:
            return t
    return None


def search(m: int, seconds: float) -> str | None:
    t = multiplier(m)
    if t is None or m % 12 != 7:
        return None
    orbit_of = {}
    for x in range(1, m):
        orbit_of.setdefault(x, min(x, t * x % m, t * t * x % m))

    def pair_class(a: tuple[int, int], b: tuple[int, int]) -> tuple[str, int] | None:
        step, d = (b[0] - a[0]) % 3, (b[1] - a[1]) % m
        if step == 2:
            step, d = 1, (-d) % m
        if d == 0:
            return None  # one value in two layers: a group, never to meet
        if step == 0:
            return ("pure", min(orbit_of[d], orbit_of[(-d) % m]))
        return ("mixed", orbit_of[d])

    def pair_classes(table: list[tuple[int, int]]) -> list[tuple[str, int]] | None:
        """The classes of a table's pairs, or None if two of its points must never meet."""
        found = [pair_class(a, b) for i, a in enumerate(table) for b in table[i + 1 :]]
        return None if None in found else found  # type: ignore[return-value]

    def classes(table: list[tuple[int, int]]) -> list[tuple[str, int]] | None:
        found = pair_classes(table)
        return found if found is not None and len(set(found)) == len(found) else None

    def kept_classes_of(table: list[tuple[int, int]], orbits: int) -> set | None:
        """The classes of a table kept by nu: its pairs fall into orbits of three under nu,
        each holding one orbit of classes, so `orbits` distinct ones."""
        found = pair_classes(table)
        return set(found) if found is not None and len(set(found)) == orbits else None

    fixed = [(0, 1), (1, t * t % m), (2, t)]
    fixed_classes = kept_classes_of(fixed, 1)
    free_orbits = sorted(set(orbit_of.values()) - {1})
    general = (m - 7) // 12
    deadline = time.monotonic() + seconds

    def extend(tables, used_classes, used_orbits) -> list | None:
        if time.monotonic() > deadline:
            return None
        if len(tables) == general:
            return tables
        first = min(o for o in free_orbits if o not in used_orbits)  # tables are unordered
        rest = [o for o in free_orbits if o not in used_orbits and o != first]
        choices = [
            (layer, orbit * s % m)
            for orbit in rest
            for s in (1, t, t * t % m)
            for layer in range(3)
        ]

        def grow(table, taken):
            if len(table) == 4:
                found = classes(table)
                if found is None or used_classes & set(found):
                    return None
                return extend(tables + [table], used_classes | set(found), used_orbits | taken)
            for layer, value in choices:
                if orbit_of[value] in taken or orbit_of[value] <= max(
                    orbit_of[v] for _, v in table[1:] or [(0, first)]
                ):
                    continue
                candidate = table + [(layer, value)]
                found = classes(candidate)
                if found is None or used_classes & set(found):
                    continue
                answer = grow(candidate, taken | {orbit_of[value]})
                if answer is not None:
                    return answer
            return None

        return grow([(0, first)], {first})

    for z_orbit in free_orbits:
        for layer in range(3):
            kept = [
                (0, 0),
                (layer, z_orbit),
                (layer, t * z_orbit % m),
                (layer, t * t * z_orbit % m),
            ]
            kept_classes = kept_classes_of(kept, 2)
            if fixed_classes is None or kept_classes is None or kept_classes & fixed_classes:
                continue
            tables = extend([], fixed_classes | kept_classes, {1, z_orbit})
            if tables is not None and len(tables) == general:
                rows = [fixed, kept]
                for table in tables:
                    for power in range(3):
                        rows.append([(i, x * pow(t, power, m) % m) for i, x in table])
                return " | ".join(" ".join(f"{i}.{x}" for i, x in row) for row in rows)
            if time.monotonic() > deadline:
                return None
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("m", type=int, help="the group Z_m: 3m + 3 players")
    parser.add_argument("--seconds", type=float, default=600)
    options = parser.parse_args()
    if options.m % 12 != 7 or multiplier(options.m) is None:
        parser.error("m must be 7 mod 12 with every prime factor 1 mod 3")
    started = time.process_time()
    text = search(options.m, options.seconds)
    print(f"m={options.m}: {time.process_time() - started:.1f} s", file=sys.stderr)
    if text is None:
        print("nothing found", file=sys.stderr)
        return 1
    return report(options.m, 3, text)


if __name__ == "__main__":
    raise SystemExit(main())
