"""Choose the sample of the MCR case corpus that is committed beside the tests.

    .venv/bin/python tests/data/select_sample.py [mcr-cases.jsonl [greenbook-changes.jsonl]]

The full corpus (3,000 hands, ``shared/data/mcr-cases.jsonl`` beside the repository) is not part
of a clone; the sample lets the corpus tests run without it. The choice is greedy and
deterministic: while some quota below is unmet, take the case that meets the most unmet quotas
(the lowest id on a tie). The quotas:

- every fan of the expected answers at least ``FAN_QUOTA`` times (or every case with it, if the
  corpus has fewer),
- every expected error code (and the valid wins) at least ``ERROR_QUOTA[code]`` times, so the
  sample holds false wins (BELOW_8_FAN) and hands that are no win at all,
- every kind and every generator pattern of the corpus a few times,
- every situation flag (last tile, kong-related and last wall tile, each self-drawn and on a
  discard) a few times,
- every case whose expected answer was adjusted from the oracle's (a ruling of RULINGS.md).

The quotas read the expectations from before the Green Book rows of RULINGS.md
(``expected_before`` where ``mcr-cases-greenbook-changes.jsonl`` gave a new answer), so those
rows did not change the choice. The chosen lines are copied, in corpus order, to
``mcr-cases-sample.jsonl``: a changed case as its line of the changes file (the case with the
new ``expected`` and the old ``expected_before``), every other case unchanged.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "mcr-cases-sample.jsonl"

FAN_QUOTA = 4
ERROR_QUOTA = {None: 40, "BELOW_8_FAN": 40, "NOT_WIN": 15, "WRONG_TILE_COUNT": 10}
OTHER_ERROR_QUOTA = 8
KIND_QUOTA = 5
PATTERN_QUOTA = 3
FLAG_QUOTA = 5
FLAGS = ("last_tile_of_kind", "kong_related", "last_wall_tile")


def features(case: dict) -> set[tuple]:
    """What a case shows, as the keys of the quotas it can count towards."""
    expected = case.get("expected_before", case["expected"])
    found = {
        ("error", expected["error"]),
        ("kind", case["kind"]),
        ("pattern", case["pattern"]),
    }
    found |= {("fan", fan[1]) for fan in expected.get("fans") or []}
    found |= {("flag", flag, case["self_drawn"]) for flag in FLAGS if case.get(flag)}
    if expected.get("adjusted_from_oracle"):
        found.add(("ruling", case["id"]))
    return found


def quota(key: tuple) -> int:
    kind = key[0]
    if kind == "fan":
        return FAN_QUOTA
    if kind == "error":
        return ERROR_QUOTA.get(key[1], OTHER_ERROR_QUOTA)
    if kind == "kind":
        return KIND_QUOTA
    if kind == "pattern":
        return PATTERN_QUOTA
    if kind == "flag":
        return FLAG_QUOTA
    return 1  # a ruling: that very case


def select(cases: Iterable[dict]) -> list[dict]:
    """The sample, in corpus order."""
    pool = [(case, features(case)) for case in cases]
    available = Counter(key for _, keys in pool for key in keys)
    wanted = {key: min(quota(key), n) for key, n in available.items()}
    chosen: list[dict] = []
    while True:
        best, best_gain = None, 0
        for index, (_, keys) in enumerate(pool):
            gain = sum(1 for key in keys if wanted[key] > 0)
            if gain > best_gain:
                best, best_gain = index, gain
        if best is None:
            break
        case, keys = pool.pop(best)
        for key in keys:
            wanted[key] -= 1
        chosen.append(case)
    return sorted(chosen, key=lambda case: case["id"])


def read_lines(path: Path) -> dict[int, str]:
    """Case id -> the line of the file, as it is written there."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return {json.loads(line)["id"]: line for line in lines}


def main() -> None:
    sys.path.insert(0, str(HERE.parents[1]))
    from tests.engine.oracle import changes_file, corpus_file

    source = Path(sys.argv[1]) if len(sys.argv) > 1 else corpus_file()
    changes = Path(sys.argv[2]) if len(sys.argv) > 2 else changes_file()
    by_id = read_lines(source) | read_lines(changes)
    sample = select(json.loads(line) for line in by_id.values())
    SAMPLE.write_text("".join(by_id[case["id"]] + "\n" for case in sample), encoding="utf-8")
    print(f"{len(sample)} of {len(by_id)} cases written to {SAMPLE.name}")


if __name__ == "__main__":
    main()
