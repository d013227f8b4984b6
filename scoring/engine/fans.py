"""The 81 MCR fan as data: English name (as in rules/mcr-scoring-rules.txt), Chinese name and
Green Book value. Flower Tiles is the 81st; it never counts toward the 8-fan minimum.

Ruling profiles (profiles.py) may change a value; nothing else in the engine holds a number.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Fan:
    id: int
    key: str
    en: str
    zh: str
    points: int


_TABLE = (
    # 88
    ("big_four_winds", "Big Four Winds", "大四喜", 88),
    ("big_three_dragons", "Big Three Dragons", "大三元", 88),
    ("all_green", "All Green", "绿一色", 88),
    ("nine_gates", "Nine Gates", "九莲宝灯", 88),
    ("four_kongs", "Four Kongs", "四杠", 88),
    ("seven_shifted_pairs", "Seven Shifted Pairs", "连七对", 88),
    ("thirteen_orphans", "Thirteen Orphans", "十三幺", 88),
    # 64
    ("all_terminals", "All Terminals", "清幺九", 64),
    ("little_four_winds", "Little Four Winds", "小四喜", 64),
    ("little_three_dragons", "Little Three Dragons", "小三元", 64),
    ("all_honors", "All Honors", "字一色", 64),
    ("four_concealed_pungs", "Four Concealed Pungs", "四暗刻", 64),
    ("pure_terminal_chows", "Pure Terminal Chows", "一色双龙会", 64),
    # 48
    ("quadruple_chow", "Quadruple Chow", "一色四同顺", 48),
    ("four_pure_shifted_pungs", "Four Pure Shifted Pungs", "一色四节高", 48),
    # 32
    ("four_shifted_chows", "Four Shifted Chows", "一色四步高", 32),
    ("three_kongs", "Three Kongs", "三杠", 32),
    ("all_terminals_and_honors", "All Terminals and Honors", "混幺九", 32),
    # 24
    ("seven_pairs", "Seven Pairs", "七对", 24),
    ("greater_honors_and_knitted_tiles", "Greater Honors and Knitted Tiles", "七星不靠", 24),
    ("all_even_pungs", "All Even Pungs", "全双刻", 24),
    ("full_flush", "Full Flush", "清一色", 24),
    ("pure_triple_chow", "Pure Triple Chow", "一色三同顺", 24),
    ("pure_shifted_pungs", "Pure Shifted Pungs", "一色三节高", 24),
    ("upper_tiles", "Upper Tiles", "全大", 24),
    ("middle_tiles", "Middle Tiles", "全中", 24),
    ("lower_tiles", "Lower Tiles", "全小", 24),
    # 16
    ("pure_straight", "Pure Straight", "清龙", 16),
    ("three_suited_terminal_chows", "Three-Suited Terminal Chows", "三色双龙会", 16),
    ("pure_shifted_chows", "Pure Shifted Chows", "一色三步高", 16),
    ("all_fives", "All Fives", "全带五", 16),
    ("triple_pung", "Triple Pung", "三同刻", 16),
    ("three_concealed_pungs", "Three Concealed Pungs", "三暗刻", 16),
    # 12
    ("lesser_honors_and_knitted_tiles", "Lesser Honors and Knitted Tiles", "全不靠", 12),
    ("knitted_straight", "Knitted Straight", "组合龙", 12),
    ("upper_four", "Upper Four", "大于五", 12),
    ("lower_four", "Lower Four", "小于五", 12),
    ("big_three_winds", "Big Three Winds", "三风刻", 12),
    # 8
    ("mixed_straight", "Mixed Straight", "花龙", 8),
    ("reversible_tiles", "Reversible Tiles", "推不倒", 8),
    ("mixed_triple_chow", "Mixed Triple Chow", "三色三同顺", 8),
    ("mixed_shifted_pungs", "Mixed Shifted Pungs", "三色三节高", 8),
    ("chicken_hand", "Chicken Hand", "无番和", 8),
    ("last_tile_draw", "Last Tile Draw", "妙手回春", 8),
    ("last_tile_claim", "Last Tile Claim", "海底捞月", 8),
    ("out_with_replacement_tile", "Out with Replacement Tile", "杠上开花", 8),
    ("robbing_the_kong", "Robbing the Kong", "抢杠和", 8),
    ("two_concealed_kongs", "Two Concealed Kongs", "双暗杠", 8),
    # 6
    ("all_pungs", "All Pungs", "碰碰和", 6),
    ("half_flush", "Half Flush", "混一色", 6),
    ("mixed_shifted_chows", "Mixed Shifted Chows", "三色三步高", 6),
    ("all_types", "All Types", "五门齐", 6),
    ("melded_hand", "Melded Hand", "全求人", 6),
    ("two_dragon_pungs", "Two Dragon Pungs", "双箭刻", 6),
    # 4
    ("outside_hand", "Outside Hand", "全带幺", 4),
    ("fully_concealed_hand", "Fully Concealed Hand", "不求人", 4),
    ("two_melded_kongs", "Two Melded Kongs", "双明杠", 4),
    ("last_tile", "Last of its Kind", "和绝张", 4),
    # 2
    ("dragon_pung", "Dragon Pung", "箭刻", 2),
    ("prevalent_wind", "Prevalent Wind", "圈风刻", 2),
    ("seat_wind", "Seat Wind", "门风刻", 2),
    ("concealed_hand", "Concealed Hand", "门前清", 2),
    ("all_chows", "All Chows", "平和", 2),
    ("tile_hog", "Tile Hog", "四归一", 2),
    ("double_pung", "Double Pung", "双同刻", 2),
    ("two_concealed_pungs", "Two Concealed Pungs", "双暗刻", 2),
    ("concealed_kong", "Concealed Kong", "暗杠", 2),
    ("all_simples", "All Simples", "断幺", 2),
    # 1
    ("pure_double_chow", "Pure Double Chow", "一般高", 1),
    ("mixed_double_chow", "Mixed Double Chow", "喜相逢", 1),
    ("short_straight", "Short Straight", "连六", 1),
    ("two_terminal_chows", "Two Terminal Chows", "老少副", 1),
    ("pung_of_terminals_or_honors", "Pung of Terminals or Honors", "幺九刻", 1),
    ("melded_kong", "Melded Kong", "明杠", 1),
    ("one_voided_suit", "One Voided Suit", "缺一门", 1),
    ("no_honors", "No Honor Tiles", "无字", 1),
    ("edge_wait", "Edge Wait", "独听・边张", 1),
    ("closed_wait", "Closed Wait", "独听・嵌张", 1),
    ("single_wait", "Pair Wait", "独听・单钓", 1),
    ("self_drawn", "Self Drawn", "自摸", 1),
    ("flower_tiles", "Flower Tiles", "花牌", 1),
)

FANS: tuple[Fan, ...] = tuple(Fan(i, *row) for i, row in enumerate(_TABLE))
BY_KEY: dict[str, Fan] = {fan.key: fan for fan in FANS}
BY_ZH: dict[str, Fan] = {fan.zh: fan for fan in FANS}
COUNT = len(FANS)

assert COUNT == 81, COUNT
assert all(fan.id == index for index, fan in enumerate(FANS))

# Fan ids as constants, so the hot path indexes a list instead of hashing strings.
BIG_FOUR_WINDS = 0
BIG_THREE_DRAGONS = 1
ALL_GREEN = 2
NINE_GATES = 3
FOUR_KONGS = 4
SEVEN_SHIFTED_PAIRS = 5
THIRTEEN_ORPHANS = 6
ALL_TERMINALS = 7
LITTLE_FOUR_WINDS = 8
LITTLE_THREE_DRAGONS = 9
ALL_HONORS = 10
FOUR_CONCEALED_PUNGS = 11
PURE_TERMINAL_CHOWS = 12
QUADRUPLE_CHOW = 13
FOUR_PURE_SHIFTED_PUNGS = 14
FOUR_SHIFTED_CHOWS = 15
THREE_KONGS = 16
ALL_TERMINALS_AND_HONORS = 17
SEVEN_PAIRS = 18
GREATER_HONORS_AND_KNITTED_TILES = 19
ALL_EVEN_PUNGS = 20
FULL_FLUSH = 21
PURE_TRIPLE_CHOW = 22
PURE_SHIFTED_PUNGS = 23
UPPER_TILES = 24
MIDDLE_TILES = 25
LOWER_TILES = 26
PURE_STRAIGHT = 27
THREE_SUITED_TERMINAL_CHOWS = 28
PURE_SHIFTED_CHOWS = 29
ALL_FIVES = 30
TRIPLE_PUNG = 31
THREE_CONCEALED_PUNGS = 32
LESSER_HONORS_AND_KNITTED_TILES = 33
KNITTED_STRAIGHT = 34
UPPER_FOUR = 35
LOWER_FOUR = 36
BIG_THREE_WINDS = 37
MIXED_STRAIGHT = 38
REVERSIBLE_TILES = 39
MIXED_TRIPLE_CHOW = 40
MIXED_SHIFTED_PUNGS = 41
CHICKEN_HAND = 42
LAST_TILE_DRAW = 43
LAST_TILE_CLAIM = 44
OUT_WITH_REPLACEMENT_TILE = 45
ROBBING_THE_KONG = 46
TWO_CONCEALED_KONGS = 47
ALL_PUNGS = 48
HALF_FLUSH = 49
MIXED_SHIFTED_CHOWS = 50
ALL_TYPES = 51
MELDED_HAND = 52
TWO_DRAGON_PUNGS = 53
OUTSIDE_HAND = 54
FULLY_CONCEALED_HAND = 55
TWO_MELDED_KONGS = 56
LAST_TILE = 57
DRAGON_PUNG = 58
PREVALENT_WIND = 59
SEAT_WIND = 60
CONCEALED_HAND = 61
ALL_CHOWS = 62
TILE_HOG = 63
DOUBLE_PUNG = 64
TWO_CONCEALED_PUNGS = 65
CONCEALED_KONG = 66
ALL_SIMPLES = 67
PURE_DOUBLE_CHOW = 68
MIXED_DOUBLE_CHOW = 69
SHORT_STRAIGHT = 70
TWO_TERMINAL_CHOWS = 71
PUNG_OF_TERMINALS_OR_HONORS = 72
MELDED_KONG = 73
ONE_VOIDED_SUIT = 74
NO_HONORS = 75
EDGE_WAIT = 76
CLOSED_WAIT = 77
SINGLE_WAIT = 78
SELF_DRAWN = 79
FLOWER_TILES = 80
