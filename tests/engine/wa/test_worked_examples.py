"""The engine against the 29 worked examples of the Wilmington specification
(`wa-cases.jsonl`, from the shared folder or the copy in tests/data): every winner's `error`,
`total`, `final` and `limit`, the patterns as a set of (key, points, count), the joker's value
where the case gives one, and the deal's payments exactly."""

from __future__ import annotations

import json

import pytest

from scoring.engine.wa import score_wa_case

from .helpers import cases_file, load_cases

CASES = load_cases()


def pattern_set(entry: dict) -> set[tuple[str, int, int]]:
    return {(key, points, count) for key, _name, points, _unit, count in entry["patterns"]}


def test_all_worked_examples_are_there():
    assert len(CASES) == 29, cases_file()


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_worked_example(case):
    expected = case["expected"]
    got = score_wa_case(case).to_case()
    context = json.dumps({k: v for k, v in case.items() if k != "expected"})

    assert got["payments"] == expected["payments"], context
    assert len(got["hands"]) == len(expected.get("hands", [])), context
    for want, have in zip(expected.get("hands", []), got["hands"], strict=True):
        for key in ("error", "total", "final", "limit"):
            assert have[key] == want[key], (key, context)
        assert pattern_set(have) == pattern_set(want), context
        if "joker_as" in want:
            assert have["joker_as"] == want["joker_as"], context
        # Each pattern's name is the specification's English one.
        assert {(p[0], p[1]) for p in have["patterns"]} == {(p[0], p[1]) for p in want["patterns"]}
