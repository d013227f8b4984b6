"""The engine against the shared corpus of 3,000 hands with known answers.

Each line of ``mcr-cases.jsonl`` carries ``expected``, the Green Book (wmo-2006) answer.  The
engine must agree on the error code and, for a scored hand (no error or ``BELOW_8_FAN``), on
``total``, ``total_excl_flowers`` and the multiset of fans by (Chinese name, points, count).
The same corpus is run under cn-1998, where Two Concealed Kongs (双暗杠) is 6 instead of 8.

The last two tests check the PyMahjongGB adapter (``oracle.py``) rather than the engine: mapped
to a profile, the oracle must reproduce the corpus exactly, which is what makes it fit to judge
randomly generated hands in ``test_differential.py``.
"""

from __future__ import annotations

import json

import pytest

from scoring.engine import score_case

from .oracle import cn1998_expected, corpus_file, load_cases, mismatches, oracle_result

CASES = load_cases()
MISSING = f"case corpus not found at {corpus_file()} (set MCR_SHARED_DIR)"
NO_CORPUS = pytest.mark.skip(reason=MISSING)
PARAMS = [pytest.param(case, id=f"{case['id']}-{case['kind']}") for case in CASES] or [
    pytest.param(None, id="no-corpus", marks=NO_CORPUS)
]


def report(case: dict, profile: str, problems: list[str]) -> str:
    lines = [f"case {case['id']} ({case['kind']}, {case['pattern']}) under {profile}:"]
    lines += [f"  {p}" for p in problems]
    inputs = {k: v for k, v in case.items() if k not in ("oracle", "expected")}
    lines.append(f"  case: {json.dumps(inputs, ensure_ascii=False)}")
    return "\n".join(lines)


def engine_verdict(case: dict, profile: str) -> dict:
    return score_case(case, profile=profile).to_dict()


@pytest.mark.parametrize("case", PARAMS)
def test_engine_matches_green_book_expectation(case):
    got = engine_verdict(case, "wmo-2006")
    problems = mismatches(case["expected"], got)
    if got["profile"] != "wmo-2006":
        problems.append(f"profile: got {got['profile']}")
    assert not problems, report(case, "wmo-2006", problems)


@pytest.mark.parametrize("case", PARAMS)
def test_engine_matches_cn1998_expectation(case):
    got = engine_verdict(case, "cn-1998")
    problems = mismatches(cn1998_expected(case["expected"]), got)
    if got["profile"] != "cn-1998":
        problems.append(f"profile: got {got['profile']}")
    assert not problems, report(case, "cn-1998", problems)


@pytest.mark.skipif(not CASES, reason=MISSING)
@pytest.mark.parametrize("profile", ["wmo-2006", "cn-1998"])
def test_oracle_adapter_reproduces_corpus(profile):
    """Validates oracle.py (not the engine): PyMahjongGB mapped to the profile = the corpus."""
    failures = []
    for case in CASES:
        expected = case["expected"] if profile == "wmo-2006" else cn1998_expected(case["expected"])
        problems = mismatches(expected, oracle_result(case, profile))
        if problems:
            failures.append(report(case, profile, problems))
    assert not failures, f"{len(failures)} cases differ:\n" + "\n".join(failures[:20])


def test_cn1998_differs_from_green_book_only_in_two_concealed_kongs():
    """Sanity check of the derived cn-1998 expectation on a hand with two concealed kongs."""
    kongs = [c for c in CASES if any(f[1] == "双暗杠" for f in c["expected"].get("fans") or [])]
    if not kongs:
        pytest.skip("no Two Concealed Kongs case in the corpus")
    for case in kongs:
        green, cn = case["expected"], cn1998_expected(case["expected"])
        assert cn["total"] == green["total"] - 2
        assert ("双暗杠", 6, 1) in [(f[1], f[2], f[3]) for f in cn["fans"]]
