"""Search base tables for tournament/domain/seating/stored_layers.py and print them, checked.

A developer's tool, not part of the app.  It compiles layer_tables.c beside it (a tabu search
in plain C; it needs a C compiler such as `cc` or `gcc`), runs it for one m, develops the tables
it prints into the whole design with the module's own code and prints the line to store:

    python tools/seating_designs/find_layer_tables.py M [--points 1|3] [--seed S] [--steps N]

--points 3 (the default when m = 3 mod 4) is for 3m + 3 players, --points 1 (m = 1 mod 4) for
3m + 1.  A run that gives up prints nothing and exits 1: try another seed.  Times grow fast
with m; tools/seating_designs/README.md says what the stored searches took.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # the repository, for tournament

from tournament.domain.seating import stored_layers as module  # noqa: E402


def compile_search(directory: str) -> str:
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise SystemExit("no C compiler found (set CC)")
    program = str(Path(directory) / "layer_tables")
    subprocess.run(
        [compiler, "-O2", "-std=c99", "-o", program, str(HERE / "layer_tables.c")], check=True
    )
    return program


def develop(m: int, points: int, text: str) -> bool:
    """Whether the tables develop into a repeat-free design of m rounds."""
    if points == 3:
        module.THREE_POINT_TABLES = {**module.THREE_POINT_TABLES, m: text}
        module.stored_layers_and_three_points.cache_clear()
        return module.stored_layers_and_three_points(m) is not None
    module.BASE_TABLES = {**module.BASE_TABLES, m: text}
    module.stored_layers_and_a_point.cache_clear()
    return module.stored_layers_and_a_point(m) is not None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("m", type=int, help="the group Z_m")
    parser.add_argument("--points", type=int, choices=(1, 3), help="fixed points (default by m)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=1_000_000_000, help="give up after")
    options = parser.parse_args()
    points = options.points or (3 if options.m % 4 == 3 else 1)
    if options.m < 5 or options.m % 4 != (3 if points == 3 else 1):
        parser.error("m must be 3 mod 4 for three points, 1 mod 4 for one, and at least 5")
    with tempfile.TemporaryDirectory() as directory:
        program = compile_search(directory)
        run = subprocess.run(
            [program, str(options.m), str(points), str(options.seed), str(options.steps)],
            stdout=subprocess.PIPE,
            text=True,
        )
    if run.returncode != 0:
        return 1
    return report(options.m, points, run.stdout.strip())


def report(m: int, points: int, text: str) -> int:
    """Print the line to store if the tables develop into a repeat-free design: exit code."""
    if not develop(m, points, text):
        print("the developed rounds have a repeat", file=sys.stderr)
        return 1
    print(f'    {m}: "{text}",')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
