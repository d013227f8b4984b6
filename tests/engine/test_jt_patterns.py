"""Japanese Transitional scoring, pattern by pattern (section 4), the exclusions, seven pairs,
the limit hands and rounding; the validation errors are in test_jt_validation.py."""

from __future__ import annotations

import pytest

from scoring.engine.jt import PATTERNS, parse_jt_compact, score_jt_hand
from scoring.engine.jt.scoring import all_readings


def score(text: str, **situation):
    result = score_jt_hand(parse_jt_compact(text, **situation))
    assert result.error is None, result.message
    return result


def found(result) -> dict[str, tuple[int, int]]:
    return {p.key: (p.value, p.count) for p in result.patterns}


DRAWN = {"self_drawn": True}
# (pattern, compact hand with the winning tile last, situation, (value, count))
EXAMPLES = [
    ("winning", "123m 456p 789s 234s 5p 5p", {}, (20, 1)),
    ("set_points", "222m 456p 789s 234s 5p 5p", {}, (4, 1)),
    ("pair_points", "123m 456p 789s 234s C C", {}, (2, 1)),
    ("self_drawn", "123m 456p 789s 234s 5p 5p", DRAWN, (2, 1)),
    ("one_chance_chow", "12m 456p 789s 234s 55p 3m", {}, (2, 1)),
    ("out_on_pair", "123m 456p 789s 234s 1p 1p", {}, (2, 1)),
    ("concealed_hand", "123m 456p 789s 234s 5p 5p", {}, (10, 1)),
    ("dragon_pung", "CCC FFF 789s 234s 5p 5p", {}, (1, 2)),
    ("own_wind_pung", "SSS 456p 789s 234s 5p 5p", {"seat_wind": "S"}, (1, 1)),
    ("round_wind_pung", "SSS 456p 789s 234s 5p 5p", {"prevalent_wind": "S"}, (1, 1)),
    ("same_chow_three_suits", "345m 345p 345s 789s 1p 1p", {}, (1, 1)),
    ("two_identical_chows", "456p 456p 234s 789m 1m 1m", {}, (1, 1)),
    ("three_identical_chows", "234s 234s 678m 5p [234s] 5p", {}, (1, 1)),
    ("pure_straight", "123m 456m 789m 234s 5p 5p", {}, (2, 1)),
    ("little_three_dragons", "CCC FFF 234s 789m P P", {}, (4, 1)),
    ("three_same_number_pungs", "444m 444p 444s 789m 5p 5p", {}, (1, 1)),
    ("three_kongs", "789m 1p (2222m) (5555p) [8888s] 1p", {}, (2, 1)),
    ("three_concealed_triplets", "222m 555p 888s 789m 1p 1p", {}, (2, 1)),
    ("four_triplets_one_concealed", "222m 1p [555p] [888s] [999m] 1p", {}, (2, 1)),
    ("four_triplets_two_concealed", "222m 555p 1p [888s] [999m] 1p", {}, (2, 1)),
    ("four_triplets_three_concealed", "222m 555p 888s 1p [999m] 1p", {}, (3, 1)),
    ("fully_concealed", "123m 456p 789s 234s 5p 5p", DRAWN, (1, 1)),
    ("no_points_hand", "34m 567p 345s 678s 99m 2m", {}, (1, 1)),
    ("all_simples", "234m 456p 678s 345s 5p 5p", {}, (1, 1)),
    ("terminal_or_honor_each_set", "123m 789p 999s NNN C C", {}, (1, 1)),
    ("all_terminals_honors", "111m 999p EEE 9s [CCC] 9s", {}, (2, 1)),
    ("one_suit_with_honors", "123m 456m 777m EEE N N", {}, (1, 1)),
    ("one_suit_only", "123m 456m 777m 999m 5m 5m", {}, (4, 1)),
    ("last_wall_tile", "123m 456p 789s 234s 5p 5p", {**DRAWN, "last_wall_tile": True}, (1, 1)),
    ("last_discard", "123m 456p 789s 234s 5p 5p", {"last_discard": True}, (1, 1)),
    ("supplement_tile", "456p 789s 234s 5p [2222m] 5p", {**DRAWN, "supplement_tile": True}, (1, 1)),
    ("robbing_kong", "12m 456p 789s 234s 55p 3m", {"robbing_kong": True}, (1, 1)),
    ("riichi", "123m 456p 789s 234s 5p 5p", {"riichi": True}, (1, 1)),
    ("hidden_treasure", "222m 555p 888s 999m 1p 1p", {}, (100, 1)),
    ("three_great_scholars", "CCC FFF PPP 234m 5p 5p", {}, (100, 1)),
    ("little_four_winds", "EEE SSS WWW 234m N N", {}, (100, 1)),
    ("big_four_winds", "EEE SSS WWW NNN 5p 5p", {}, (100, 1)),
    ("all_honors", "EE SS WW NN CC FF P P", {}, (100, 1)),
    ("all_terminals", "111m 999m 111p 999s 1s 1s", {}, (100, 1)),
    ("nine_gates", "1112345678999m 5m", {}, (100, 1)),
    ("thirteen_orphans", "19m 19p 19s ESWNCFF P", {}, (100, 1)),
    ("heavenly_hand", "123m 456p 789s 234s 5p 5p", {**DRAWN, "heavenly": True}, (100, 1)),
    ("earthly_hand", "123m 456p 789s 234s 5p 5p", {"seat_wind": "S", "earthly": True}, (100, 1)),
    ("seven_pairs", "22m 33p 44s 66s 77m 88p 5s 5s", {}, (100, 1)),
]


def test_every_pattern_has_an_example():
    assert [row[0] for row in EXAMPLES] == [pattern.key for pattern in PATTERNS]


@pytest.mark.parametrize(
    ("key", "text", "situation", "value"), EXAMPLES, ids=[r[0] for r in EXAMPLES]
)
def test_pattern(key, text, situation, value):
    assert found(score(text, **situation))[key] == value


# --- values that depend on the hand ----------------------------------------------------------


def test_set_points_by_kind_size_and_concealment():
    # concealed pung of terminals 8, melded pung of simples 2, melded kong of honours 16,
    # concealed kong of simples 16
    result = score("999m 5s [444p] [EEEE] (6666s) 5s", seat_wind="S", prevalent_wind="S")
    assert found(result)["set_points"] == (8 + 2 + 16 + 16, 1)


def test_a_pung_completed_by_a_discard_counts_as_melded():
    on_discard = score("222m 456p 789m 55p 33s 3s")
    drawn = score("222m 456p 789m 55p 33s 3s", self_drawn=True)
    assert found(on_discard)["set_points"] == (4 + 2, 1)
    assert found(drawn)["set_points"] == (4 + 4, 1)


def test_a_pair_of_own_wind_in_its_own_round_is_worth_four():
    assert found(score("123m 456p 789s 234s E E"))["pair_points"] == (4, 1)


def test_a_pair_of_another_wind_is_worth_nothing():
    assert "pair_points" not in found(score("123m 456p 789s 234s N N"))


def test_a_middle_wait_is_a_one_chance_chow():
    assert found(score("13m 456p 789s 234s 55p 2m"))["one_chance_chow"] == (2, 1)


def test_a_two_sided_wait_scores_no_wait_points():
    result = found(score("23m 456p 789s 234s 55p 1m"))
    assert "one_chance_chow" not in result and "out_on_pair" not in result


def test_a_winning_tile_completing_a_pung_gives_no_wait_points():
    result = found(score("55m 123p 456p 789m 88s 8s"))
    assert "one_chance_chow" not in result and "out_on_pair" not in result


def test_own_wind_in_its_own_round_gives_both_doubles():
    result = found(score("EEE 456p 789s 234s 5p 5p"))
    assert result["own_wind_pung"] == (1, 1) and result["round_wind_pung"] == (1, 1)


def test_two_identical_chows_with_one_melded_are_listed_at_zero():
    assert found(score("456p 234s 789m 1m [456p] 1m"))["two_identical_chows"] == (0, 1)


def test_two_identical_chows_won_on_a_discard_into_one_of_them_are_worth_zero():
    # the winning chow is melded (section 2), so one of the two is melded
    assert found(score("456p 45p 234s 789m 11m 6p"))["two_identical_chows"] == (0, 1)


def test_three_identical_chows_all_concealed_are_worth_two_in_their_reading():
    hand = parse_jt_compact("234s 234s 234s 678m 5p 5p", self_drawn=True)
    values = [
        line.value
        for reading in all_readings(hand)
        for line in reading.lines
        if line.key == "three_identical_chows"
    ]
    assert values == [2]


def test_pure_straight_with_a_melded_chow_is_worth_one():
    assert found(score("456m 789m 234s 5p [123m] 5p"))["pure_straight"] == (1, 1)


def test_same_chow_from_all_suits_is_one_double_melded_or_not():
    assert found(score("345p 345s 789s 1p [345m] 1p"))["same_chow_three_suits"] == (1, 1)


def test_no_points_hand_allows_melded_chows():
    assert found(score("34m 567p 345s 99m [678s] 2m"))["no_points_hand"] == (1, 1)


def test_no_points_hand_needs_a_worthless_pair():
    assert "no_points_hand" not in found(score("34m 567p 345s 678s CC 2m"))


def test_no_points_hand_needs_a_two_sided_wait():
    assert "no_points_hand" not in found(score("24m 567p 345s 678s 99m 3m"))


def test_four_triplets_with_none_concealed_is_no_pattern():
    result = found(score("1p [222m] [555p] [888s] [999m] 1p"))
    assert not any(key.startswith("four_triplets") for key in result)


def test_hidden_treasure_on_a_discard_needs_the_pair_wait():
    result = score("222m 555p 888s 99m 11p 9m")
    assert "hidden_treasure" not in found(result)
    assert found(result)["four_triplets_three_concealed"] == (3, 1)


def test_nine_gates_on_any_tile_of_the_suit():
    assert found(score("1112345678899m 9m"))["nine_gates"] == (100, 1)


# --- exclusions ------------------------------------------------------------------------------


def test_little_three_dragons_replaces_the_dragon_pungs():
    result = found(score("CCC FFF 234s 789m P P"))
    assert "dragon_pung" not in result


def test_three_identical_chows_replace_two_identical_chows():
    result = found(score("234s 234s 678m 5p [234s] 5p"))
    assert "two_identical_chows" not in result


def test_four_triplets_three_concealed_replaces_three_concealed_triplets():
    assert "three_concealed_triplets" not in found(score("222m 555p 888s 1p [999m] 1p"))


def test_all_terminals_and_honors_replaces_terminal_or_honor_in_all_sets():
    assert "terminal_or_honor_each_set" not in found(score("111m 999p EEE 9s [CCC] 9s"))


def test_fully_concealed_replaces_the_concealed_hand_points():
    result = found(score("123m 456p 789s 234s 5p 5p", self_drawn=True))
    assert "concealed_hand" not in result and result["self_drawn"] == (2, 1)


def test_a_limit_hand_lists_only_limit_patterns():
    result = score("222m 555p 888s 999m 1p 1p", self_drawn=True, riichi=True)
    assert {p.unit for p in result.patterns} == {"%"}
    assert (result.final, result.points, result.doubles, result.raw) == (1500, 0, 0, 1500)
    assert result.limit


# --- seven pairs, rounding, the limit -------------------------------------------------------


def test_seven_pairs_are_a_fixed_hundred_without_self_drawn_or_fully_concealed():
    result = score("22m 33p 44s 66s 77m 88p 5s 5s", self_drawn=True, riichi=True)
    assert found(result) == {
        "seven_pairs": (100, 1),
        "all_simples": (1, 1),
        "riichi": (1, 1),
    }
    assert (result.points, result.doubles, result.final) == (100, 2, 400)


def test_seven_pairs_take_no_identical_pairs():
    result = score_jt_hand(parse_jt_compact("22m 22m 44s 66s 77m 88p 5s 5s"))
    assert result.error == "NOT_WIN"


def test_rounding_is_to_the_nearest_ten_after_doubles():
    # P = 22 (winning, one-chance chow), no doubles: 22 -> 20
    assert score("12m 456p 789s [234s] 55p 3m").final == 20
    # P = 34, two doubles (JT-09): 136 -> 140
    assert score("345p 345s NNN C [345m] C", self_drawn=True, seat_wind="N").final == 140


def test_doubles_reaching_the_limit_give_the_limit():
    result = score("123m 456m 789m EEE N N", self_drawn=True, riichi=True)
    assert result.raw > 1500
    assert (result.final, result.limit) == (1500, True)


def test_the_pung_reading_beats_the_chow_reading_when_it_scores_more():
    result = score("234s 234s 234s 678m 5p 5p", riichi=True)
    assert result.shape == "regular"
    assert "three_concealed_triplets" in found(result)
    assert result.final == 700


def test_the_reading_names_its_sets_and_the_winning_one():
    result = score("12m 456p 789s 234s 55p 3m")
    winning = [s for s in result.reading if s.winning]
    assert [(s.kind, s.codes) for s in winning] == [("chow", ("1m", "2m", "3m"))]
    assert not winning[0].concealed
    line = next(p for p in result.patterns if p.key == "one_chance_chow")
    assert [result.reading[i] for i in line.sets] == winning
