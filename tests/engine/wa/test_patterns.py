"""Each pattern of section 4 of the Wilmington specification in a hand that holds it, and the
exclusions between them. Hands are won on a discard by South in an East round unless a test
says otherwise (see `helpers.case`); the worked examples cover the rest in context."""

from __future__ import annotations

import pytest

from scoring.engine.wa import BY_KEY, PATTERNS

from .helpers import meld, patterns, score

# (pattern key, count, standing tiles, winning tile, declared sets, flags)
HOLDING = [
    ("dragon_pung", 1, "C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s J", "N", (), {}),
    ("own_wind_pung", 1, "W W W 1m 2m 3m 4p 5p 6p 7s 8s 9s J", "C", (), {"seat_wind": "W"}),
    ("round_wind_pung", 1, "E E E 1m 2m 3m 4p 5p 6p 7s 8s 9s J", "C", (), {}),
    (
        "double_wind_pung",
        1,
        "S S S 1m 2m 3m 4p 5p 6p 7s 8s 9s J",
        "C",
        (),
        {"prevalent_wind": "S"},
    ),
    ("same_chow_three_suits", 1, "4m 5m 6m 4p 5p 6p 4s 5s 6s 1m 1m 1m J", "C", (), {}),
    ("two_identical_chows", 1, "2p 3p 4p 2p 3p 4p 7m 8m 9m N N N J", "C", (), {}),
    ("two_identical_chows_twice", 1, "1m 2m 3m 1m 2m 3m 6s 7s 8s 6s 7s 8s J", "C", (), {}),
    (
        "three_identical_chows",
        1,
        "3s 4s 5s 3s 4s 5s 7m 8m 9m J",
        "C",
        (meld("[3s 4s 5s]"),),
        {},
    ),
    ("terminal_chows", 1, "1p 2p 3p 7p 8p 9p 4m 5m 6m C C C J", "N", (), {}),
    ("terminal_chows_twice_one_suit", 1, "1p 2p 3p 1p 2p 3p 7p 8p 9p 7p 8p 9p J", "C", (), {}),
    ("terminal_chows_two_suits", 1, "1m 2m 3m 7m 8m 9m 1s 2s 3s 7s 8s 9s J", "C", (), {}),
    ("pure_straight", 1, "1s 2s 3s 4s 5s 6s 7s 8s 9s N N N J", "C", (), {}),
    ("terminal_pungs", 1, "1p 1p 1p 9p 9p 9p 2m 3m 4m 6s 7s 8s J", "C", (), {}),
    ("terminal_pungs_twice", 1, "1m 1m 1m 9m 9m 9m 1p 1p 1p 9p 9p 9p J", "C", (), {}),
    ("two_pungs_pair_same_number", 1, "4m 4m 4m 4p 4p 4p 4s 1m 2m 3m 7s 8s J", "9s", (), {}),
    ("three_same_number_pungs", 1, "7m 7m 7m 7p 7p 7p 7s 7s 7s 2m 3m 4m J", "C", (), {}),
    ("two_pungs_of_chow_set", 1, "3s 4s 5s 3s 3s 3s 5s 5s 5s 1m 2m 3m J", "C", (), {}),
    (
        "pungs_pair_in_sequence",
        1,
        "4m 6p 7p 8p 6s 7s J",
        "8s",
        (meld("[2m 2m 2m]"), meld("[3m 3m 3m]")),
        {},
    ),
    (
        "three_pungs_in_sequence",
        1,
        "7p 7p 7p 1m 2m 3m J",
        "C",
        (meld("[5p 5p 5p]"), meld("[6p 6p 6p]")),
        {},
    ),
    (
        "four_pungs_in_sequence",
        1,
        "J",
        "C",
        (meld("[2s 2s 2s]"), meld("[3s 3s 3s]"), meld("[4s 4s 4s]"), meld("[5s 5s 5s]")),
        {},
    ),
    (
        "two_kongs",
        1,
        "1m 2m 3m 4p 5p 6p J",
        "C",
        (meld("{E E E E}"), meld("(9s 9s 9s 9s)")),
        {},
    ),
    (
        "three_kongs",
        1,
        "1m 2m 3m J",
        "C",
        (meld("{E E E E}"), meld("(9s 9s 9s 9s)"), meld("{2p 2p 2p 2p}")),
        {},
    ),
    ("four_concealed_triplets", 1, "2m 2m 2m 5p 5p 5p 8s 8s 8s E E E J", "C", (), {}),
    ("little_three_dragons", 1, "C C C F F F J 2p 3p 4p 6m 7m 8m", "P", (), {}),
    ("little_three_winds", 1, "E E E S S S W 1m 2m 3m 5p 6p J", "7p", (), {"seat_wind": "N"}),
    ("big_three_winds", 1, "E E E S S S W W W 1m 2m 3m J", "C", (), {"seat_wind": "N"}),
    (
        "exposed_hand",
        1,
        "J",
        "6m",
        (meld("[C C C]"), meld("[F F F]"), meld("[2p 3p 4p]"), meld("[E E E]")),
        {"self_drawn": True},
    ),
    (
        "fully_exposed",
        1,
        "J",
        "6m",
        (meld("[C C C]"), meld("[F F F]"), meld("[2p 3p 4p]"), meld("[E E E]")),
        {},
    ),
    ("concealed_hand", 1, "C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s J", "N", (), {}),
    ("fully_concealed", 1, "C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s J", "N", (), {"self_drawn": True}),
    ("chow_hand", 1, "1m 2m 3m 1p 2p 3p 4s 5s 6s 6m 7m 8m J", "5s", (), {}),
    ("pung_hand", 1, "1m 1m 1m 4p 4p 4p 7s 7s 7s J", "9m", (meld("[C C C]"),), {}),
    ("no_fives", 1, "C C C 1m 2m 3m 4p 4p 4p 7s 8s 9s J", "N", (), {}),
    ("all_258", 1, "2m 2m 2m 5p 5p 5p 8s 8s J 2s 2s 2s 5m", "5m", (), {}),
    ("all_simples", 1, "2m 3m 4m 4p 5p 6p 6s 7s 8s 3s 3s 3s J", "5m", (), {}),
    ("terminal_or_honor_each_set", 1, "1m 2m 3m 7m 8m 9m 1p 1p 1p W W J 9s", "9s", (), {}),
    ("terminal_in_each_set", 1, "1m 2m 3m 7m 8m 9m 1p 1p 1p 9s 9s 9s J", "9p", (), {}),
    ("all_terminals_honors", 1, "1m 1m 1m 9p 9p 9p E E E C C C J", "9s", (), {}),
    ("terminal_1_or_9_each_set", 1, "1m 2m 3m 1p 2p 3p 1s 2s 3s 1m 1m 1m J", "1p", (), {}),
    ("head_number_5", 1, "3m 4m 5m 5p 6p 7p 5s 5s 5s 4p 5p 6p J", "5m", (), {}),
    ("head_number_4", 1, "3m 4m 5m 4p 5p 6p 4s 4s 4s 4p 5p 6p J", "4m", (), {}),
    ("head_number_3", 1, "3p 4p 5p 4s 4s 4s 3m 4m 5m 4m 4m 5p J", "4p", (), {}),
    ("three_numbers", 1, "1m 1m 1m 2p 2p 2p 3s 3s 3s 1p 2p 3p J", "1s", (), {}),
    ("three_numbers_with_honors", 1, "2m 2m 2m 2p 2p J 7s 7s 7s E E E 7m", "7m", (), {}),
    ("two_numbers", 1, "3m 3m 3m 8p 8p 8p 3s 3s J 8m 8m 8m 3p", "3p", (), {}),
    ("two_numbers_with_honors", 1, "2m 2m 2m 2m 2p 2p 2p 2s 2s 2s E E J", "E", (), {}),
    ("all_types", 1, "4m J 6m 6p 7p 8p 7s 7s S S", "7s", (meld("[P P P]"),), {}),
    ("two_suits_only", 1, "C C C 1m 2m 3m 4p 5p 6p 7p 8p 9p J", "N", (), {}),
    ("one_suit_with_honors", 1, "1s 2s 3s 4s 5s 6s 7s 8s 9s N N N J", "C", (), {}),
    ("one_suit_only", 1, "1s 2s 3s 4s J 6s 7s 8s 9s 2s 2s 2s 9s", "9s", (), {}),
    ("pair_258", 1, "C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s J", "8m", (), {}),
    ("fives_all_suits", 1, "C C C 4m 5m 6m 4p 5p 6p 4s 5s 6s J", "N", (), {}),
    ("four_same_two_sets", 1, "1s 2s 3s 4s J 6s 7s 8s 9s 2s 2s 2s 9s", "9s", (), {}),
    (
        "four_same_three_sets",
        1,
        "1m 2m 3m 2m 3m 4m 2m 2m E E",
        "E",
        (meld("[6p J 8p]", "7p"),),
        {},
    ),
    ("four_same_four_sets", 2, "1m 2m 3m 2m 3m 4m 2m 3m 4m 1m 2m 3m J", "N", (), {}),
    ("five_same_two_sets", 1, "5m 5m 5m 5m J 2p 3p 4p 6s 7s 8s C C", "C", (), {}),
    ("five_same_three_sets", 1, "4s 4s 4s 4s 3s 5s 2s 3s 7m 8m 9m N J", "N", (), {}),
    ("five_same_four_sets", 1, "3p 3p 3p 3p J 1p 2p 2p 4p 4p 5p E E", "E", (), {}),
    (
        "self_drawn",
        1,
        "C C C 1m 2m 3m 4p 5p 6p J",
        "N",
        (meld("[F F F]"),),
        {"self_drawn": True},
    ),
    ("out_on_pair", 1, "C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s J", "N", (), {}),
    ("one_chance_chow", 1, "C C C 1m 3m 4p 5p 6p 7s 8s 9s N J", "2m", (), {}),
    (
        "last_of_one_chance_chow",
        1,
        "C C C 1m 2m 4p 5p 6p 7s 8s 9s N J",
        "3m",
        (),
        {"last_available": True},
    ),
    (
        "last_of_multi_chance_chow",
        1,
        "C C C 2m 3m 4p 5p 6p 7s 8s 9s N J",
        "4m",
        (),
        {"last_available": True},
    ),
    ("five_in_456", 1, "C C C 4m 6m 1p 2p 3p 7s 8s 9s N J", "5m", (), {}),
    (
        "last_wall_tile",
        1,
        "C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s J",
        "N",
        (),
        {"self_drawn": True, "last_wall_tile": True},
    ),
    ("last_discard", 1, "C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s J", "N", (), {"last_discard": True}),
    (
        "supplement_tile",
        1,
        "1m 2m 3m 4p 5p 6p 7s 8s 9s J",
        "N",
        (meld("(C C C C)"),),
        {"self_drawn": True, "supplement_tile": True},
    ),
    ("robbing_kong", 1, "C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s J", "N", (), {"robbing_kong": True}),
    (
        "four_kongs",
        1,
        "J",
        "5p",
        (meld("{2m 2m 2m 2m}"), meld("(7s 7s 7s 7s)"), meld("{N N N N}"), meld("(5p 5p 5p 5p)")),
        {"self_drawn": True, "four_kongs_immediate": True},
    ),
    ("three_great_scholars", 1, "C C C F F F P P P 1m 2m 3m J", "9s", (), {}),
    ("little_four_winds", 1, "E E E S S S W W W N 1m 2m J", "3m", (), {}),
    ("big_four_winds", 1, "E E E S S S W W J N N N C", "C", (), {}),
    ("all_honors", 1, "E E E S S S C C C F F J P", "P", (), {}),
    ("all_terminals", 1, "1m 1m 1m 9m 9m 9m 1s 1s 1s 9p 9p J 1p", "1p", (), {}),
    ("nine_gates", 1, "1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m J", "5m", (), {}),
    ("thirteen_orphans", 1, "1m 9m 1p 9p 1s 9s E S W N C F J", "P", (), {}),
    (
        "heavenly_hand",
        1,
        "C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s J",
        "N",
        (),
        {"self_drawn": True, "heavenly": True, "seat_wind": "E"},
    ),
    ("earthly_hand", 1, "C C C 1m 2m 3m 4p 5p 6p 7s 8s 9s J", "N", (), {"earthly": True}),
    (
        "thirteen_discarded_orphans",
        1,
        "",
        None,
        (),
        {"self_drawn": True, "thirteen_discarded_orphans": True},
    ),
]


@pytest.mark.parametrize(
    ("key", "count", "tiles", "win", "melds", "flags"), HOLDING, ids=[row[0] for row in HOLDING]
)
def test_pattern_is_scored(key, count, tiles, win, melds, flags):
    result = score(tiles, win, *melds, **flags)

    assert result.scored, result.message
    assert patterns(result).get(key) == count, patterns(result)
    line = next(line for line in result.patterns if line.key == key)
    assert (line.en, line.points) == (BY_KEY[key].en, BY_KEY[key].points)


def test_every_pattern_has_a_hand_that_holds_it():
    assert {row[0] for row in HOLDING} == {pattern.key for pattern in PATTERNS}


def test_there_are_79_patterns_with_unique_keys():
    assert len(PATTERNS) == len(BY_KEY) == 79
