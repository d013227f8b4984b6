"""Differential tests: the engine against PyMahjongGB on randomly generated hands.

For every generated hand and both profiles, the engine's verdict must equal the oracle's
(``oracle.py``) mapped to that profile: the same error code and, for a scored hand, the same
``total``, ``total_excl_flowers`` and multiset of fans by (Chinese name, points, count).

Deliberate differences from PyMahjongGB, applied to the oracle's answer before comparing
(``oracle.map_to_profile``), from ``../shared/rules/RULINGS.md``:

- Two Concealed Kongs (双暗杠): "Two Concealed Kongs (双暗杠) | 8 | 6 | 6" — 8 under wmo-2006,
  6 under cn-1998 (the calculator says 6).
- One concealed + one melded kong: "Two Melded Kongs 4 + Concealed Kong 2 = 6" in both profiles,
  where the calculator has a single fan 明暗杠 worth 5.
- The five Green Book rows, under wmo-2006 only (``oracle.GREEN_BOOK_ROWS``, which read the hand
  as well as the fans): a self-drawn Nine Gates, Four Concealed Pungs, Seven Pairs, Seven Shifted
  Pairs, Thirteen Orphans or Honors and Knitted Tiles with no claimed set scores Fully Concealed
  Hand 4 instead of Self-Drawn 1 (added where Last Tile Draw or Out with Replacement Tile
  replaced Self-Drawn); All Green holding the green dragon is also a Half Flush; All Terminals
  scores Double Pung for two pungs of 1s or of 9s; four honours in Seven Pairs are no Tile Hog;
  Nine Gates drops Pung of Terminals or Honors.

Run with ``HYPOTHESIS_PROFILE=long`` for ten times as many examples.  Examples are random unless
the loaded hypothesis profile derandomizes them (the root conftest's ``ci`` profile does), so a
failure prints the hand in the case format of ``../shared/data/README.md``: feed that line to
``score_case`` to reproduce it.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from scoring.engine import score_case

from .oracle import PROFILES, mismatches, oracle_result
from .strategies import SPECIAL, near_miss_cases, winning_cases

EXAMPLES = 30_000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 3_000

differential = settings(
    max_examples=EXAMPLES,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def as_case_line(case: dict) -> str:
    return json.dumps(case, ensure_ascii=False)


def assert_engine_agrees_with_oracle(case: dict) -> None:
    note(f"case: {as_case_line(case)}")
    for profile in PROFILES:
        expected = oracle_result(case, profile)
        got = score_case(case, profile=profile).to_dict()
        problems = mismatches(expected, got)
        assert not problems, (
            f"engine and PyMahjongGB differ under {profile}:\n  "
            + "\n  ".join(problems)
            + f"\n  case: {as_case_line(case)}"
        )


@differential
@given(winning_cases())
def test_winning_hands_score_like_the_oracle(case):
    assert_engine_agrees_with_oracle(case)


@pytest.mark.parametrize("kind", sorted(SPECIAL))
@settings(differential, max_examples=max(EXAMPLES // 10, 100))
@given(data=st.data())
def test_special_shapes_score_like_the_oracle(kind, data):
    assert_engine_agrees_with_oracle(data.draw(SPECIAL[kind](), label=kind))


@settings(differential, max_examples=EXAMPLES // 3)
@given(near_miss_cases())
def test_near_miss_hands_are_judged_like_the_oracle(case):
    """One tile changed: mostly NOT_WIN, sometimes another winning hand or a fifth copy."""
    assert_engine_agrees_with_oracle(case)


@settings(differential, max_examples=EXAMPLES // 10)
@given(winning_cases(), st.randoms(use_true_random=False))
def test_tile_and_set_order_do_not_change_the_verdict(case, rng):
    shuffled = {**case, "concealed": list(case["concealed"]), "melds": list(case["melds"])}
    rng.shuffle(shuffled["concealed"])
    rng.shuffle(shuffled["melds"])
    note(f"shuffled: {as_case_line(shuffled)}")
    for profile in PROFILES:
        ordered = score_case(case, profile=profile).to_dict()
        other = score_case(shuffled, profile=profile).to_dict()
        assert mismatches(ordered, other) == [], as_case_line(case)
