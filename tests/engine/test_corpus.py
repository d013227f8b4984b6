"""The engine against the shared corpus of 3,000 hands with known answers.

The corpus (``mcr-cases.jsonl``) lives in ``../shared/data`` beside the repository, or under
``$MCR_SHARED_DIR``. Without it these tests run on the sample committed in ``tests/data`` (a few
hundred cases with every fan, every error code and false wins, chosen by
``tests/data/select_sample.py``), so the engine's main evidence never turns into a skip.

Each line of ``mcr-cases.jsonl`` carries ``expected``, the Green Book (wmo-2006) answer; for the
238 cases of ``mcr-cases-greenbook-changes.jsonl`` (the Green Book rows of RULINGS.md) that file's
line replaces the corpus line, with the new ``expected`` and the old one as ``expected_before``.
The committed sample holds its changed cases the same way.  The engine must agree on the error
code and, for a scored hand (no error or ``BELOW_8_FAN``), on ``total``, ``total_excl_flowers``
and the multiset of fans by (Chinese name, points, count).  The same corpus is run under
cn-1998, which keeps the answers from before the Green Book rows, with Two Concealed Kongs
(双暗杠) at 6 instead of 8.

The last two tests check the PyMahjongGB adapter (``oracle.py``) rather than the engine: mapped
to a profile, the oracle must reproduce the corpus exactly, which is what makes it fit to judge
randomly generated hands in ``test_differential.py``.
"""

from __future__ import annotations

import importlib.util
import json

import pytest

from scoring.engine import FANS, score_case

from .oracle import (
    SAMPLE_FILE,
    cn1998_expected,
    corpus_file,
    corpus_or_sample,
    load_cases,
    mismatches,
    oracle_result,
)

SOURCE, CASES = corpus_or_sample()
PARAMS = [pytest.param(case, id=f"{case['id']}-{case['kind']}") for case in CASES]


def report(case: dict, profile: str, problems: list[str]) -> str:
    lines = [f"case {case['id']} ({case['kind']}, {case['pattern']}) of {SOURCE.name}, {profile}:"]
    lines += [f"  {p}" for p in problems]
    inputs = {k: v for k, v in case.items() if k not in ("oracle", "expected", "expected_before")}
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
    problems = mismatches(cn1998_expected(case), got)
    if got["profile"] != "cn-1998":
        problems.append(f"profile: got {got['profile']}")
    assert not problems, report(case, "cn-1998", problems)


@pytest.mark.parametrize("profile", ["wmo-2006", "cn-1998"])
def test_oracle_adapter_reproduces_corpus(profile):
    """Validates oracle.py (not the engine): PyMahjongGB mapped to the profile = the corpus."""
    failures = []
    for case in CASES:
        expected = case["expected"] if profile == "wmo-2006" else cn1998_expected(case)
        problems = mismatches(expected, oracle_result(case, profile))
        if problems:
            failures.append(report(case, profile, problems))
    assert not failures, f"{len(failures)} cases differ:\n" + "\n".join(failures[:20])


def test_cn1998_expectation_has_two_concealed_kongs_at_6():
    """Sanity check of the derived cn-1998 expectation on a hand with two concealed kongs."""
    kongs = [c for c in CASES if any(f[1] == "双暗杠" for f in c["expected"].get("fans") or [])]
    assert kongs
    for case in kongs:
        before, cn = case.get("expected_before", case["expected"]), cn1998_expected(case)
        assert cn["total"] == before["total"] - 2
        assert ("双暗杠", 6, 1) in [(f[1], f[2], f[3]) for f in cn["fans"]]


def test_there_are_cases_to_check():
    assert len(CASES) >= 200, f"{SOURCE} holds {len(CASES)} cases"


def test_the_sample_holds_every_fan_every_error_and_false_wins():
    sample = load_cases(SAMPLE_FILE)
    fans = {fan[1] for case in sample for fan in case["expected"].get("fans") or []}
    errors = [case["expected"]["error"] for case in sample]
    assert fans == {fan.zh for fan in FANS}
    assert set(errors) == {None, "BELOW_8_FAN", "NOT_WIN", "WRONG_TILE_COUNT", "TILE_COUNT_GT_4"}
    assert errors.count("BELOW_8_FAN") >= 20


def test_the_sample_holds_cases_of_every_green_book_row():
    sample = load_cases(SAMPLE_FILE)
    changed = [case for case in sample if "expected_before" in case]
    rows = {key for case in changed for key in case["expected"]["adjusted_from_oracle"]}
    assert {"不求人", "混一色", "双同刻", "四归一", "幺九刻"} <= rows
    assert all(case["expected"] != case["expected_before"] for case in changed)


def test_the_sample_is_what_the_selection_script_picks_from_the_corpus():
    corpus = load_cases()
    if not corpus:
        pytest.skip(f"compares the sample with the full corpus, which is not at {corpus_file()}")
    spec = importlib.util.spec_from_file_location(
        "select_sample", SAMPLE_FILE.with_name("select_sample.py")
    )
    assert spec and spec.loader
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.select(corpus) == load_cases(SAMPLE_FILE)
