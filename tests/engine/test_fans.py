"""One test per fan, and one per "does not combine with" rule.

Hands are written in the compact notation of ENGINE_CONTRACT.md (the last tile outside brackets
is the winning tile, ``[...]`` a declared set, ``(...)`` a concealed kong).  Each expectation runs
twice: against the engine and against PyMahjongGB through ``oracle.py``, so a test states what
the oracle states (under the wmo-2006 profile unless it says otherwise).

Exclusions come from ../shared/rules/mcr-scoring-rules.txt ("Does not combine with") and the
"These points are not counted" lines of mcr-fan-definitions.txt.  Where the calculator, which
the corpus follows, reads a rule differently, the test says so.
"""

from __future__ import annotations

import pytest

from scoring.engine import FANS, parse_compact, score_hand

from .oracle import compact_to_case, oracle_result


def engine_score(text: str, profile: str = "wmo-2006", **situation) -> dict:
    return score_hand(parse_compact(text, **situation), profile=profile).to_dict()


def oracle_score(text: str, profile: str = "wmo-2006", **situation) -> dict:
    return oracle_result(compact_to_case(text, **situation), profile)


@pytest.fixture(params=["engine", "oracle"])
def score(request):
    return engine_score if request.param == "engine" else oracle_score


def fans_by_zh(result: dict) -> dict[str, tuple[int, int]]:
    """``{zh: (points, count)}`` from an engine dict or an oracle result."""
    out = {}
    for fan in result["fans"]:
        if isinstance(fan, dict):
            out[fan["zh"]] = (fan["points"], fan["count"])
        else:
            out[fan[1]] = (fan[2], fan[3])
    return out


def fan(key: str, zh: str, points: int, hand: str, **situation):
    return pytest.param(zh, points, hand, situation, id=key)


FAN_HANDS = [
    fan("big_four_winds", "大四喜", 88, "EEE SSS WWW NNN 5m 5m"),
    fan("big_three_dragons", "大三元", 88, "CCC FFF PPP 234m 5p 5p"),
    fan("all_green", "绿一色", 88, "234s 234s 666s 88s FF F"),
    fan("nine_gates", "九莲宝灯", 88, "1112345678999m 5m"),
    fan("four_kongs", "四杠", 88, "[1111m] [2222p] [3333s] [EEEE] N N"),
    fan("seven_shifted_pairs", "连七对", 88, "2233445566778p 8p"),
    fan("thirteen_orphans", "十三幺", 88, "19m 19p 19s ESWNCFP 1m"),
    fan("all_terminals", "清幺九", 64, "111m 999m 111p 999p 1s 1s"),
    fan("little_four_winds", "小四喜", 64, "EEE SSS WWW 234m N N"),
    fan("little_three_dragons", "小三元", 64, "CCC FFF 234m 567p P P"),
    fan("all_honors", "字一色", 64, "EEE SSS CCC FFF P P"),
    fan("four_concealed_pungs", "四暗刻", 64, "111m 333p 555s 777m 9p 9p", self_drawn=True),
    fan("pure_terminal_chows", "一色双龙会", 64, "1122335577889m 9m"),
    fan("quadruple_chow", "一色四同顺", 48, "123123123123m 5p 5p"),
    fan("four_pure_shifted_pungs", "一色四节高", 48, "111m 222m 333m 444m 9p 9p"),
    fan("four_shifted_chows", "一色四步高", 32, "123m 234m 345m 456m 9p 9p"),
    fan("three_kongs", "三杠", 32, "[1111m] [2222p] [3333s] 456m 9p 9p"),
    fan("all_terminals_and_honors", "混幺九", 32, "111m 999p EEE CCC 9s 9s"),
    fan("seven_pairs", "七对", 24, "1133m 5577p 99s EE C C"),
    fan("greater_honors_and_knitted_tiles", "七星不靠", 24, "147m 25p 36s ESWNCF P"),
    fan("all_even_pungs", "全双刻", 24, "222m 444p 666s 888m 2s 2s"),
    fan("full_flush", "清一色", 24, "123m 456m 789m 234m 5m 5m"),
    fan("pure_triple_chow", "一色三同顺", 24, "[234m] [234m] [234m] 567p 9s 9s"),
    fan("pure_shifted_pungs", "一色三节高", 24, "222m 333m 444m 567p 9s 9s"),
    fan("upper_tiles", "全大", 24, "789m 789p 888s 999m 7p 7p"),
    fan("middle_tiles", "全中", 24, "456m 456p 456s 555m 4p 4p"),
    fan("lower_tiles", "全小", 24, "123m 123p 123s 111m 2p 2p"),
    fan("pure_straight", "清龙", 16, "123m 456m 789m 234p 9s 9s"),
    fan("three_suited_terminal_chows", "三色双龙会", 16, "123m 789m 123p 789p 5s 5s"),
    fan("pure_shifted_chows", "一色三步高", 16, "123m 234m 345m 678p 9s 9s"),
    fan("all_fives", "全带五", 16, "345m 456p 567s 555m 5p 5p"),
    fan("triple_pung", "三同刻", 16, "222m 222p 222s 567m 9s 9s"),
    fan("three_concealed_pungs", "三暗刻", 16, "111m 333p 555s 678m 9s 9s"),
    fan("lesser_honors_and_knitted_tiles", "全不靠", 12, "147m 258p 36s ESWNC F"),
    fan("knitted_straight", "组合龙", 12, "147m 258p 369s EEE 5m 5m"),
    fan("upper_four", "大于五", 12, "678m 789p 678s 999s 6p 6p"),
    fan("lower_four", "小于五", 12, "123m 234p 234s 444m 1p 1p"),
    fan("big_three_winds", "三风刻", 12, "EEE SSS WWW 234m 5p 5p"),
    fan("mixed_straight", "花龙", 8, "123m 456p 789s 234m 5s 5s"),
    fan("reversible_tiles", "推不倒", 8, "123p 456s 888s 999p P P"),
    fan("mixed_triple_chow", "三色三同顺", 8, "234m 234p 234s 567m 9s 9s"),
    fan("mixed_shifted_pungs", "三色三节高", 8, "222m 333p 444s 567m 9s 9s"),
    fan("chicken_hand", "无番和", 8, "[234m] [666p] 56s 789p EE 4s"),
    fan(
        "last_tile_draw",
        "妙手回春",
        8,
        "[234m] 666p 56s 789p EE 4s",
        self_drawn=True,
        last_wall_tile=True,
    ),
    fan("last_tile_claim", "海底捞月", 8, "[234m] 666p 56s 789p EE 4s", last_wall_tile=True),
    fan(
        "out_with_replacement_tile",
        "杠上开花",
        8,
        "[2222m] 666p 56s 789p EE 4s",
        self_drawn=True,
        kong_related=True,
    ),
    fan("robbing_the_kong", "抢杠和", 8, "[234m] 666p 56s 789p EE 4s", kong_related=True),
    fan("all_pungs", "碰碰和", 6, "[222m] 444p 666s 888m 9s 9s"),
    fan("half_flush", "混一色", 6, "234m 456m 789m EEE S S"),
    fan("mixed_shifted_chows", "三色三步高", 6, "123m 234p 345s 678m 9s 9s"),
    fan("all_types", "五门齐", 6, "123m 456p 789s EEE C C"),
    fan("melded_hand", "全求人", 6, "[123m] [456p] [789s] [EEE] C C"),
    fan("two_concealed_kongs", "双暗杠", 8, "(1111m) (2222p) 345s 678m 9s 9s"),
    fan("two_dragon_pungs", "双箭刻", 6, "CCC FFF 234m 567p 9s 9s"),
    fan("outside_hand", "全带幺", 4, "123m 789p 111s EEE 9s 9s"),
    fan("fully_concealed_hand", "不求人", 4, "123m 456p 789s 234m 5s 5s", self_drawn=True),
    fan("two_melded_kongs", "双明杠", 4, "[1111m] [2222p] 345s 678m 9s 9s"),
    fan("last_tile", "和绝张", 4, "123m 456p 78s 234m 55s 9s", last_tile_of_kind=True),
    fan("dragon_pung", "箭刻", 2, "CCC 234m 567p 789s 9s 9s"),
    fan("prevalent_wind", "圈风刻", 2, "SSS 234m 567p 789s 5s 5s", prevalent_wind="S"),
    fan("seat_wind", "门风刻", 2, "WWW 234m 567p 789s 5s 5s", seat_wind="W"),
    fan("concealed_hand", "门前清", 2, "234m 567p 789s 345m 5s 5s"),
    fan("all_chows", "平和", 2, "234m 567p 345s 678s 2p 2p"),
    fan("tile_hog", "四归一", 2, "123m 333m 456p 789s 5s 5s"),
    fan("double_pung", "双同刻", 2, "222m 222p 456s 789m 5s 5s"),
    fan("two_concealed_pungs", "双暗刻", 2, "222m 444p 456s 789m 5s 5s"),
    fan("concealed_kong", "暗杠", 2, "(2222m) 456p 456s 789m 5s 5s"),
    fan("all_simples", "断幺", 2, "234m 456p 678s 345m 5s 5s"),
    fan("pure_double_chow", "一般高", 1, "234m 234m 567p 789s 5s 5s"),
    fan("mixed_double_chow", "喜相逢", 1, "234m 234p 567p 789s 5s 5s"),
    fan("short_straight", "连六", 1, "234m 567m 345p 789s 5s 5s"),
    fan("two_terminal_chows", "老少副", 1, "123m 789m 345p 567s 5s 5s"),
    fan("pung_of_terminals_or_honors", "幺九刻", 1, "111m 234p 567s 789s 5s 5s"),
    fan("melded_kong", "明杠", 1, "[2222m] 456p 456s 789m 5s 5s"),
    fan("one_voided_suit", "缺一门", 1, "234m 456p 678p 345m 5p 5p"),
    fan("no_honors", "无字", 1, "123m 456p 789s 555m 9s 9s"),
    fan("edge_wait", "独听・边张", 1, "12m 456p 789s 789m 99s 3m"),
    fan("closed_wait", "独听・嵌张", 1, "13m 456p 789s 789m 99s 2m"),
    fan("single_wait", "独听・单钓", 1, "123m 456p 789s 555m E E"),
    fan("self_drawn", "自摸", 1, "[123m] 456p 789s 789m 9s 9s", self_drawn=True),
    fan("flower_tiles", "花牌", 1, "[123m] 456p 789s 789m 9s 9s", flowers=3),
]


@pytest.mark.parametrize(("zh", "points", "hand", "situation"), FAN_HANDS)
def test_fan_is_scored(score, zh, points, hand, situation):
    result = score(hand, **situation)
    assert result["error"] in (None, "BELOW_8_FAN"), result
    assert fans_by_zh(result).get(zh, (None,))[0] == points, fans_by_zh(result)


def test_every_fan_has_a_hand_with_its_green_book_value():
    values = {p.values[0]: p.values[1] for p in FAN_HANDS}
    assert {f.zh: f.points for f in FANS} == values


def excludes(behaviour: str, hand: str, present: str, absent: str, **situation):
    return pytest.param(hand, situation, present, absent, id=behaviour)


EXCLUSIONS = [
    excludes("all_chows_excludes_no_honors", "234m 567p 345s 678s 2p 2p", "平和", "无字"),
    excludes("all_simples_excludes_no_honors", "[234m] 555p 666s 345m 2p 2p", "断幺", "无字"),
    excludes(
        "two_melded_kongs_exclude_melded_kong", "[1111m] [2222p] 345s 678m 9s 9s", "双明杠", "明杠"
    ),
    excludes("half_flush_excludes_one_voided_suit", "234m 456m 789m EEE S S", "混一色", "缺一门"),
    excludes(
        "melded_hand_excludes_single_wait", "[123m] [456p] [789s] [EEE] C C", "全求人", "独听・单钓"
    ),
    excludes("two_dragon_pungs_exclude_dragon_pung", "CCC FFF 234m 567p 9s 9s", "双箭刻", "箭刻"),
    excludes(
        "reversible_tiles_excludes_one_voided_suit", "123p 456s 888s 999p P P", "推不倒", "缺一门"
    ),
    excludes(
        "mixed_triple_chow_excludes_mixed_double_chow",
        "234m 234p 234s 567m 9s 9s",
        "三色三同顺",
        "喜相逢",
    ),
    excludes(
        "two_concealed_kongs_exclude_two_concealed_pungs",
        "(1111m) (2222p) 345s 678m 9s 9s",
        "双暗杠",
        "双暗刻",
    ),
    excludes(
        "two_concealed_kongs_exclude_concealed_kong",
        "(1111m) (2222p) 345s 678m 9s 9s",
        "双暗杠",
        "暗杠",
    ),
    excludes(
        "last_tile_draw_excludes_self_drawn",
        "[234m] 666p 56s 789p EE 4s",
        "妙手回春",
        "自摸",
        self_drawn=True,
        last_wall_tile=True,
    ),
    excludes(
        "out_with_replacement_tile_excludes_self_drawn",
        "[2222m] 666p 56s 789p EE 4s",
        "杠上开花",
        "自摸",
        self_drawn=True,
        kong_related=True,
    ),
    excludes(
        "robbing_the_kong_excludes_last_tile",
        "[234m] 666p 56s 789p EE 4s",
        "抢杠和",
        "和绝张",
        kong_related=True,
        last_tile_of_kind=True,
    ),
    excludes(
        "lesser_honors_and_knitted_excludes_concealed_hand",
        "147m 258p 36s ESWNC F",
        "全不靠",
        "门前清",
    ),
    excludes(
        "lesser_honors_and_knitted_excludes_all_types", "147m 258p 36s ESWNC F", "全不靠", "五门齐"
    ),
    excludes(
        "lesser_honors_and_knitted_excludes_single_wait",
        "147m 258p 369s ESWN C",
        "全不靠",
        "独听・单钓",
    ),
    excludes("upper_four_excludes_no_honors", "678m 789p 678s 999s 6p 6p", "大于五", "无字"),
    excludes("lower_four_excludes_no_honors", "123m 234p 234s 444m 1p 1p", "小于五", "无字"),
    excludes(
        "big_three_winds_excludes_pung_of_terminals_or_honors",
        "EEE SSS WWW 234m 5p 5p",
        "三风刻",
        "幺九刻",
        seat_wind="N",
        prevalent_wind="N",
    ),
    excludes("pure_straight_excludes_short_straight", "123m 456m 789m 234p 9s 9s", "清龙", "连六"),
    excludes(
        "pure_straight_excludes_two_terminal_chows", "123m 456m 789m 234p 9s 9s", "清龙", "老少副"
    ),
    excludes(
        "three_suited_terminal_chows_excludes_mixed_double_chow",
        "123m 789m 123p 789p 5s 5s",
        "三色双龙会",
        "喜相逢",
    ),
    excludes(
        "three_suited_terminal_chows_excludes_two_terminal_chows",
        "123m 789m 123p 789p 5s 5s",
        "三色双龙会",
        "老少副",
    ),
    excludes(
        "three_suited_terminal_chows_excludes_no_honors",
        "123m 789m 123p 789p 5s 5s",
        "三色双龙会",
        "无字",
    ),
    excludes(
        "three_suited_terminal_chows_excludes_all_chows",
        "123m 789m 123p 789p 5s 5s",
        "三色双龙会",
        "平和",
    ),
    excludes("all_fives_excludes_all_simples", "345m 456p 567s 555m 5p 5p", "全带五", "断幺"),
    excludes("all_fives_excludes_no_honors", "345m 456p 567s 555m 5p 5p", "全带五", "无字"),
    excludes("triple_pung_excludes_double_pung", "222m 222p 222s 567m 9s 9s", "三同刻", "双同刻"),
    excludes(
        "three_concealed_pungs_exclude_two_concealed_pungs",
        "111m 333p 555s 678m 9s 9s",
        "三暗刻",
        "双暗刻",
    ),
    excludes("seven_pairs_excludes_single_wait", "1133m 5577p 99s EE C C", "七对", "独听・单钓"),
    excludes("seven_pairs_excludes_concealed_hand", "1133m 5577p 99s EE C C", "七对", "门前清"),
    excludes(
        "greater_honors_and_knitted_excludes_concealed_hand",
        "147m 25p 36s ESWNCF P",
        "七星不靠",
        "门前清",
    ),
    excludes(
        "greater_honors_and_knitted_excludes_all_types",
        "147m 25p 36s ESWNCF P",
        "七星不靠",
        "五门齐",
    ),
    excludes(
        "greater_honors_and_knitted_excludes_lesser", "147m 25p 36s ESWNCF P", "七星不靠", "全不靠"
    ),
    excludes("all_even_pungs_excludes_no_honors", "222m 444p 666s 888m 2s 2s", "全双刻", "无字"),
    excludes("all_even_pungs_excludes_all_simples", "222m 444p 666s 888m 2s 2s", "全双刻", "断幺"),
    excludes("all_even_pungs_excludes_all_pungs", "222m 444p 666s 888m 2s 2s", "全双刻", "碰碰和"),
    excludes(
        "full_flush_excludes_one_voided_suit", "123m 456m 789m 234m 5m 5m", "清一色", "缺一门"
    ),
    excludes("full_flush_excludes_no_honors", "123m 456m 789m 234m 5m 5m", "清一色", "无字"),
    excludes(
        "pure_triple_chow_excludes_pure_double_chow",
        "[234m] [234m] [234m] 567p 9s 9s",
        "一色三同顺",
        "一般高",
    ),
    excludes("upper_tiles_excludes_no_honors", "789m 789p 888s 999m 7p 7p", "全大", "无字"),
    excludes("upper_tiles_excludes_upper_four", "789m 789p 888s 999m 7p 7p", "全大", "大于五"),
    excludes("middle_tiles_excludes_no_honors", "456m 456p 456s 555m 4p 4p", "全中", "无字"),
    excludes("middle_tiles_excludes_all_simples", "456m 456p 456s 555m 4p 4p", "全中", "断幺"),
    excludes("lower_tiles_excludes_no_honors", "123m 123p 123s 111m 2p 2p", "全小", "无字"),
    excludes("lower_tiles_excludes_lower_four", "123m 123p 123s 111m 2p 2p", "全小", "小于五"),
    excludes(
        "four_shifted_chows_excludes_short_straight",
        "123m 234m 345m 456m 9p 9p",
        "一色四步高",
        "连六",
    ),
    excludes(
        "four_shifted_chows_excludes_pure_shifted_chows",
        "123m 234m 345m 456m 9p 9p",
        "一色四步高",
        "一色三步高",
    ),
    excludes(
        "four_shifted_chows_excludes_two_terminal_chows",
        "[123m] [345m] [567m] [789m] 5p 5p",
        "一色四步高",
        "老少副",
    ),
    excludes(
        "three_kongs_excludes_melded_kong", "[1111m] [2222p] [3333s] 456m 9p 9p", "三杠", "明杠"
    ),
    excludes(
        "three_kongs_excludes_two_melded_kongs",
        "[1111m] [2222p] [3333s] 456m 9p 9p",
        "三杠",
        "双明杠",
    ),
    excludes(
        "all_terminals_and_honors_excludes_pung_of_terminals_or_honors",
        "111m 999p EEE CCC 9s 9s",
        "混幺九",
        "幺九刻",
        seat_wind="S",
        prevalent_wind="S",
    ),
    excludes(
        "all_terminals_and_honors_excludes_outside_hand",
        "111m 999p EEE CCC 9s 9s",
        "混幺九",
        "全带幺",
    ),
    excludes(
        "all_terminals_and_honors_excludes_all_pungs", "111m 999p EEE CCC 9s 9s", "混幺九", "碰碰和"
    ),
    excludes(
        "quadruple_chow_excludes_pure_double_chow", "123123123123m 5p 5p", "一色四同顺", "一般高"
    ),
    excludes("quadruple_chow_excludes_tile_hog", "123123123123m 5p 5p", "一色四同顺", "四归一"),
    excludes(
        "quadruple_chow_excludes_pure_triple_chow",
        "123123123123m 5p 5p",
        "一色四同顺",
        "一色三同顺",
    ),
    excludes(
        "four_pure_shifted_pungs_excludes_all_pungs",
        "[111m] [222m] [333m] [444m] 9p 9p",
        "一色四节高",
        "碰碰和",
    ),
    excludes(
        "four_pure_shifted_pungs_excludes_pure_shifted_pungs",
        "[111m] [222m] [333m] [444m] 9p 9p",
        "一色四节高",
        "一色三节高",
    ),
    excludes(
        "all_terminals_excludes_pung_of_terminals_or_honors",
        "[111m] [999m] [111p] [999p] 1s 1s",
        "清幺九",
        "幺九刻",
    ),
    excludes(
        "all_terminals_excludes_no_honors", "[111m] [999m] [111p] [999p] 1s 1s", "清幺九", "无字"
    ),
    excludes(
        "all_terminals_excludes_outside_hand",
        "[111m] [999m] [111p] [999p] 1s 1s",
        "清幺九",
        "全带幺",
    ),
    excludes(
        "all_terminals_excludes_all_pungs", "[111m] [999m] [111p] [999p] 1s 1s", "清幺九", "碰碰和"
    ),
    excludes(
        "all_terminals_excludes_all_terminals_and_honors",
        "[111m] [999m] [111p] [999p] 1s 1s",
        "清幺九",
        "混幺九",
    ),
    excludes(  # the Green Book lets them combine: test_green_book_rulings.py
        "all_terminals_excludes_double_pung_under_cn_1998",
        "[111m] [999m] [111p] [999p] 1s 1s",
        "清幺九",
        "双同刻",
        profile="cn-1998",
    ),
    excludes(
        "all_honors_excludes_pung_of_terminals_or_honors",
        "[EEE] [SSS] [CCC] [FFF] N N",
        "字一色",
        "幺九刻",
        seat_wind="W",
        prevalent_wind="W",
    ),
    excludes(
        "all_honors_excludes_one_voided_suit", "[EEE] [SSS] [CCC] [FFF] N N", "字一色", "缺一门"
    ),
    excludes("all_honors_excludes_outside_hand", "[EEE] [SSS] [CCC] [FFF] N N", "字一色", "全带幺"),
    excludes("all_honors_excludes_all_pungs", "[EEE] [SSS] [CCC] [FFF] N N", "字一色", "碰碰和"),
    excludes(
        "all_honors_excludes_all_terminals_and_honors",
        "[EEE] [SSS] [CCC] [FFF] N N",
        "字一色",
        "混幺九",
    ),
    excludes(
        "little_four_winds_excludes_pung_of_terminals_or_honors",
        "[EEE] [SSS] [WWW] 234m N N",
        "小四喜",
        "幺九刻",
        seat_wind="N",
        prevalent_wind="N",
    ),
    excludes(
        "little_four_winds_excludes_big_three_winds",
        "[EEE] [SSS] [WWW] 234m N N",
        "小四喜",
        "三风刻",
    ),
    excludes(
        "little_three_dragons_excludes_dragon_pung", "[CCC] [FFF] 234m 567p P P", "小三元", "箭刻"
    ),
    excludes(
        "little_three_dragons_excludes_two_dragon_pungs",
        "[CCC] [FFF] 234m 567p P P",
        "小三元",
        "双箭刻",
    ),
    excludes(
        "four_concealed_pungs_excludes_concealed_hand",
        "111m 333p 555s 777m 9p 9p",
        "四暗刻",
        "门前清",
    ),
    excludes(
        "four_concealed_pungs_excludes_two_concealed_pungs",
        "111m 333p 555s 777m 9p 9p",
        "四暗刻",
        "双暗刻",
    ),
    excludes(
        "four_concealed_pungs_excludes_three_concealed_pungs",
        "111m 333p 555s 777m 9p 9p",
        "四暗刻",
        "三暗刻",
    ),
    excludes(
        "four_concealed_pungs_excludes_all_pungs", "111m 333p 555s 777m 9p 9p", "四暗刻", "碰碰和"
    ),
    excludes(
        "pure_terminal_chows_excludes_pure_double_chow", "1122335577889m 9m", "一色双龙会", "一般高"
    ),
    excludes(
        "pure_terminal_chows_excludes_two_terminal_chows",
        "1122335577889m 9m",
        "一色双龙会",
        "老少副",
    ),
    excludes(
        "pure_terminal_chows_excludes_full_flush", "1122335577889m 9m", "一色双龙会", "清一色"
    ),
    excludes("pure_terminal_chows_excludes_all_chows", "1122335577889m 9m", "一色双龙会", "平和"),
    excludes("pure_terminal_chows_excludes_seven_pairs", "1122335577889m 9m", "一色双龙会", "七对"),
    excludes(
        "big_four_winds_excludes_pung_of_terminals_or_honors",
        "[EEE] [SSS] [WWW] [NNN] 5m 5m",
        "大四喜",
        "幺九刻",
        seat_wind="E",
        prevalent_wind="E",
    ),
    excludes(
        "big_four_winds_excludes_prevalent_wind",
        "[EEE] [SSS] [WWW] [NNN] 5m 5m",
        "大四喜",
        "圈风刻",
        prevalent_wind="S",
    ),
    excludes(
        "big_four_winds_excludes_seat_wind",
        "[EEE] [SSS] [WWW] [NNN] 5m 5m",
        "大四喜",
        "门风刻",
        seat_wind="W",
    ),
    excludes(
        "big_four_winds_excludes_all_pungs", "[EEE] [SSS] [WWW] [NNN] 5m 5m", "大四喜", "碰碰和"
    ),
    excludes(
        "big_four_winds_excludes_big_three_winds",
        "[EEE] [SSS] [WWW] [NNN] 5m 5m",
        "大四喜",
        "三风刻",
    ),
    excludes(
        "big_three_dragons_excludes_dragon_pung", "[CCC] [FFF] [PPP] 234m 5p 5p", "大三元", "箭刻"
    ),
    excludes(
        "big_three_dragons_excludes_two_dragon_pungs",
        "[CCC] [FFF] [PPP] 234m 5p 5p",
        "大三元",
        "双箭刻",
    ),
    excludes(  # the Green Book lets them combine: test_green_book_rulings.py
        "all_green_excludes_half_flush_under_cn_1998",
        "[234s] [234s] [666s] FFF 8s 8s",
        "绿一色",
        "混一色",
        profile="cn-1998",
    ),
    excludes("nine_gates_excludes_full_flush", "1112345678999m 5m", "九莲宝灯", "清一色"),
    excludes("nine_gates_excludes_concealed_hand", "1112345678999m 5m", "九莲宝灯", "门前清"),
    excludes("nine_gates_excludes_no_honors", "1112345678999m 5m", "九莲宝灯", "无字"),
    excludes(
        "four_kongs_excludes_three_kongs", "[1111m] [2222p] [3333s] [EEEE] N N", "四杠", "三杠"
    ),
    excludes(
        "four_kongs_excludes_melded_kong", "[1111m] [2222p] [3333s] [EEEE] N N", "四杠", "明杠"
    ),
    excludes(
        "four_kongs_excludes_two_melded_kongs",
        "[1111m] [2222p] [3333s] [EEEE] N N",
        "四杠",
        "双明杠",
    ),
    excludes(
        "four_kongs_excludes_all_pungs", "[1111m] [2222p] [3333s] [EEEE] N N", "四杠", "碰碰和"
    ),
    excludes(
        "four_kongs_excludes_single_wait",
        "[1111m] [2222p] [3333s] [EEEE] N N",
        "四杠",
        "独听・单钓",
    ),
    excludes("seven_shifted_pairs_excludes_seven_pairs", "2233445566778p 8p", "连七对", "七对"),
    excludes("seven_shifted_pairs_excludes_full_flush", "2233445566778p 8p", "连七对", "清一色"),
    excludes(
        "seven_shifted_pairs_excludes_concealed_hand", "2233445566778p 8p", "连七对", "门前清"
    ),
    excludes(
        "seven_shifted_pairs_excludes_single_wait", "2233445566778p 8p", "连七对", "独听・单钓"
    ),
    excludes("seven_shifted_pairs_excludes_no_honors", "2233445566778p 8p", "连七对", "无字"),
    excludes(
        "seven_shifted_pairs_excludes_one_voided_suit", "2233445566778p 8p", "连七对", "缺一门"
    ),
    excludes("thirteen_orphans_excludes_all_types", "19m 19p 19s ESWNCFP 1m", "十三幺", "五门齐"),
    excludes(
        "thirteen_orphans_excludes_concealed_hand", "19m 19p 19s ESWNCFP 1m", "十三幺", "门前清"
    ),
    excludes(
        "thirteen_orphans_excludes_single_wait", "19m 19p 19s ESWNCF 1m P", "十三幺", "独听・单钓"
    ),
    excludes(
        "thirteen_orphans_excludes_all_terminals_and_honors",
        "19m 19p 19s ESWNCFP 1m",
        "十三幺",
        "混幺九",
    ),
    excludes(
        "fully_concealed_hand_excludes_self_drawn",
        "123m 456p 789s 234m 5s 5s",
        "不求人",
        "自摸",
        self_drawn=True,
    ),
    excludes(
        "fully_concealed_hand_excludes_concealed_hand",
        "123m 456p 789s 234m 5s 5s",
        "不求人",
        "门前清",
        self_drawn=True,
    ),
    excludes(
        "chicken_hand_only_without_other_fans",
        "[234m] [666p] 56s 789p EE 4s",
        "自摸",
        "无番和",
        self_drawn=True,
    ),
]


@pytest.mark.parametrize(("hand", "situation", "present", "absent"), EXCLUSIONS)
def test_fan_excludes(score, hand, situation, present, absent):
    fans = fans_by_zh(score(hand, **situation))
    assert present in fans and absent not in fans, fans


def test_nine_gates_absorbs_one_of_two_terminal_pungs_under_cn_1998(score):
    """Won on 2m, 1112345678999m+2m holds pungs 111m and 999m; the calculator (and cn-1998)
    count one Pung of Terminals; the Green Book none (test_green_book_rulings.py)."""
    fans = fans_by_zh(score("1112345678999m 2m", profile="cn-1998"))
    assert fans["九莲宝灯"] == (88, 1)
    assert fans["幺九刻"] == (1, 1)


def test_big_three_winds_keeps_pung_of_terminals_for_a_fourth_pung():
    """Big Three Winds drops the wind pungs' Pung of Terminals or Honors, not the 999m one's."""
    for score in (engine_score, oracle_score):
        fans = fans_by_zh(
            score("[EEE] [SSS] [WWW] [999m] 5p 5p", seat_wind="N", prevalent_wind="N")
        )
        assert fans["三风刻"] == (12, 1)
        assert fans["幺九刻"] == (1, 1)


def test_pung_of_terminals_or_honors_counts_each_pung(score):
    fans = fans_by_zh(score("111m 999p 234s 567s N N", seat_wind="E", prevalent_wind="E"))
    assert fans["幺九刻"] == (1, 2)


@pytest.mark.parametrize(("profile", "points"), [("wmo-2006", 8), ("cn-1998", 6)])
def test_two_concealed_kongs_value_depends_on_profile(score, profile, points):
    result = score("(1111m) (2222p) 345s 678m 9s 9s", profile=profile)
    assert fans_by_zh(result)["双暗杠"] == (points, 1)
    assert result["profile"] == profile


@pytest.mark.parametrize("profile", ["wmo-2006", "cn-1998"])
def test_concealed_and_melded_kong_score_two_melded_kongs_plus_concealed_kong(score, profile):
    """RULINGS.md: "Two Melded Kongs 4 + Concealed Kong 2 = 6", never the calculator's 明暗杠 5."""
    fans = fans_by_zh(score("(1111m) [2222p] 345s 678m 9s 9s", profile=profile))
    assert fans["双明杠"] == (4, 1)
    assert fans["暗杠"] == (2, 1)
    assert "明暗杠" not in fans


def test_flowers_count_in_total_but_not_toward_the_minimum(score):
    result = score("[234m] 456p 678s 555m E E", flowers=4)
    assert result["error"] == "BELOW_8_FAN"
    assert fans_by_zh(result)["花牌"] == (1, 4)
    assert result["total"] == result["total_excl_flowers"] + 4


def test_chicken_hand_scores_eight_and_meets_the_minimum(score):
    result = score("[234m] [666p] 56s 789p EE 4s")
    assert result["error"] is None
    assert fans_by_zh(result) == {"无番和": (8, 1)}
    assert result["total"] == 8
