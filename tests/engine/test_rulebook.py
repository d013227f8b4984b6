"""The rulebook of each preset: the one object the edges ask. It scores a win's tiles as the
preset's own engine does, says a hand below the minimum in one way for every preset, and
answers what the edges need without their naming a preset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.engine import get_preset
from scoring.engine.rulebook import (
    BELOW_MINIMUM,
    HAND,
    JtRulebook,
    McrRulebook,
    WaRulebook,
    rulebook_for,
    rulebook_named,
)

DATA = Path(__file__).resolve().parents[1] / "data"
MCR, JT, WA = "mcr", "japanese-transitional", "wilmington-12-tile"


def wins(name: str) -> list[dict]:
    lines = (DATA / name).read_text().splitlines()
    return [case for case in map(json.loads, filter(None, lines)) if case["kind"] == "win"]


def test_each_preset_has_its_rulebook():
    assert isinstance(rulebook_for(get_preset(MCR)), McrRulebook)
    assert isinstance(rulebook_for(get_preset(JT)), JtRulebook)
    assert isinstance(rulebook_for(get_preset(WA)), WaRulebook)
    assert rulebook_named("jt").preset.key == JT
    with pytest.raises(ValueError):
        rulebook_named("riichi")


@pytest.mark.parametrize("case", wins("jt-cases.jsonl"), ids=lambda case: case["id"])
def test_the_jt_rulebook_scores_each_shared_win_as_its_worked_example(case):
    scored = rulebook_for(get_preset(JT)).score(case, profile="wmo-2006")
    expected = case["expected"]["hand"]

    if expected["error"] is None:
        assert (scored.error, scored.value) == (None, expected["final"])
    else:
        assert scored.refused and scored.value is None


@pytest.mark.parametrize("case", wins("wa-cases.jsonl"), ids=lambda case: case["id"])
def test_the_wa_rulebook_scores_each_winner_as_its_worked_example(case):
    rules = rulebook_for(get_preset(WA))
    further = [{**case, **win} for win in case.get("extra_winners", [])]
    for tiles, hand in zip([case, *further], case["expected"]["hands"], strict=True):
        scored = rules.score(tiles, profile="wmo-2006")
        if hand.get("error") == "BELOW_MINIMUM":
            assert scored.below_minimum and scored.value == hand["final"]
            assert scored.error == BELOW_MINIMUM and not scored.refused
        else:
            assert (scored.error, scored.value) == (None, hand["final"])


def test_an_mcr_hand_below_8_fan_is_below_the_minimum_with_its_fan():
    rules = rulebook_for(get_preset(MCR))
    small = rules.score_compact("234m 456p 78s [WWW] 99s 6s", profile="wmo-2006",
                                seat_wind="W", prevalent_wind="E")  # fmt: skip
    assert small.below_minimum and small.value == 2 and not small.refused
    flowers = rules.score_compact("2245667888999p 2p", profile="wmo-2006", flowers=2)
    assert (flowers.error, flowers.value, flowers.flowers) == (None, 27, 2)
    wrong = rules.score_compact("2245667888999p 3s", profile="wmo-2006")
    assert wrong.refused and wrong.value is None


def test_what_the_edges_ask():
    mcr, jt, wa = (rulebook_for(get_preset(key)) for key in (MCR, JT, WA))
    assert (mcr.deal_noun, mcr.counts_fan, mcr.uses_ruling_profile) == (HAND, True, True)
    assert not jt.counts_fan and not wa.counts_fan
    assert mcr.false_win_penalty and wa.false_win_penalty and not jt.false_win_penalty
    assert jt.faulty_out_result and not mcr.faulty_out_result
    assert wa.several_winners and not jt.several_winners
    assert jt.penalty_scale.allows(1500) and not jt.penalty_scale.allows(1501)
    assert not jt.penalty_scale.allows(7) and mcr.penalty_scale.allows(7)
    assert not mcr.penalty_scale.allows(61)
    assert wa.extra_tile_codes == ("J",) and mcr.extra_tile_codes == ()
    assert "riichi" not in jt.situation_flags and "self_drawn" not in wa.situation_flags


def test_the_situation_is_the_deals():
    jt = rulebook_for(get_preset(JT))
    tiles = {"concealed": [], "seat_wind": "E", "deal": {"discarder": "W"}}
    case = jt.situation(tiles, seat_wind="N", prevailing_wind="S", self_drawn=True, riichi=True)
    assert case == {"concealed": [], "seat_wind": "N", "prevalent_wind": "S",
                    "self_drawn": True, "riichi": True}  # fmt: skip
    mcr = rulebook_for(get_preset(MCR))
    assert "riichi" not in mcr.situation({}, seat_wind="E", prevailing_wind="E",
                                         self_drawn=False, riichi=True)  # fmt: skip
