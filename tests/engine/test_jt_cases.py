"""Japanese Transitional from tiles against the 32 worked examples of its specification:
`final`, `error` and `payments` exactly, patterns as a set of (key, value, count), and the
points, doubles, raw score and limit flag of the case format."""

from __future__ import annotations

import pytest

from scoring.engine.jt import settle_jt_case

from .jt_cases import jt_cases, jt_cases_file, pattern_set

CASES = jt_cases()


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_a_worked_example_scores_and_pays_as_the_specification_says(case):
    verdict = settle_jt_case(case)
    expected = case["expected"]

    assert verdict.payments == expected["payments"]
    if "hand" not in expected:
        assert verdict.hand is None
        return
    assert verdict.hand is not None
    got = verdict.hand.case_hand()
    want = expected["hand"]
    assert (got["error"], got["final"]) == (want["error"], want["final"])
    assert pattern_set(got["patterns"]) == pattern_set(want["patterns"])
    for name in ("points", "doubles", "raw", "limit"):
        assert got[name] == want[name], name


def test_every_worked_example_is_there():
    assert len(CASES) == 32, jt_cases_file()


def test_the_examples_reach_every_kind_of_deal():
    assert {case["kind"] for case in CASES} == {"win", "draw", "faulty_out"}
