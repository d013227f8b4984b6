"""The patterns of Wilmington Advanced 12-Tile as data: key, English name, points, what each
one excludes, and which are limit hands.

The keys are the stable names of `rules/wilmington-12-tile.md` section 4 (used in data, the API
and the case format); the names are the specification's English ones (the presentation layer
translates them, see `scoring/pattern_names.py`).

`limit` says how a limit hand counts: "" for an ordinary pattern, COMPONENTS for a limit value
added to the hand's other patterns, DIRECT for a limit that is the hand's whole value (only
`heavenly_hand` and `earthly_hand` may be added to it).
"""

from __future__ import annotations

from dataclasses import dataclass

COMPONENTS = "components"
DIRECT = "direct"


@dataclass(frozen=True, slots=True)
class Pattern:
    key: str
    en: str
    points: int
    excludes: tuple[str, ...] = ()
    limit: str = ""


_HEAD_NUMBERS = ("head_number_3", "head_number_4", "head_number_5")
_WIND_SETS = ("big_three_winds", "little_three_winds", "one_suit_with_honors")

PATTERNS: tuple[Pattern, ...] = (
    # 4.1 Basic sets (per set)
    Pattern("dragon_pung", "Pung/Kong of Dragons", 2),
    Pattern("own_wind_pung", "Pung/Kong of Own Wind", 2),
    Pattern("round_wind_pung", "Pung/Kong of Wind of the Round", 2),
    Pattern("double_wind_pung", "Pung/Kong of Double Wind", 3),
    # 4.2 Chows
    Pattern("same_chow_three_suits", "Same Chow from all suits", 9),
    Pattern("two_identical_chows", "Two identical Chows", 3),
    Pattern(
        "two_identical_chows_twice",
        "Two identical Chows twice",
        80,
        ("two_identical_chows", "three_identical_chows"),
    ),
    Pattern("three_identical_chows", "Three identical Chows", 15, ("two_identical_chows",)),
    Pattern("terminal_chows", "123789 of the same suit", 2),
    Pattern(
        "terminal_chows_twice_one_suit",
        "123789 twice of the same suit",
        120,
        ("terminal_chows", "two_identical_chows", "two_identical_chows_twice"),
    ),
    Pattern("terminal_chows_two_suits", "123789 of twice of two suits", 40, ("terminal_chows",)),
    Pattern("pure_straight", "3 Chows of 1 suit, step 3", 12, ("terminal_chows",)),
    # 4.3 Pungs and kongs
    Pattern("terminal_pungs", "Triplets 111 and 999 of the same suit", 3),
    Pattern(
        "terminal_pungs_twice",
        "Triplets 111 and 999 of the same suit twice",
        100,
        ("terminal_pungs", "pung_hand", "three_numbers", "three_numbers_with_honors"),
    ),
    Pattern("two_pungs_pair_same_number", "Two Pungs/Kongs and a pair of the same number", 3),
    Pattern(
        "three_same_number_pungs",
        "Three Pungs/Kongs of the same number",
        15,
        ("two_pungs_pair_same_number",),
    ),
    Pattern("two_pungs_of_chow_set", "2 Pungs of a Chow set", 15),
    Pattern("pungs_pair_in_sequence", "2 Pungs and a pair in sequence of 1 suit", 3),
    Pattern(
        "three_pungs_in_sequence",
        "3 Pungs/Kongs in sequence of 1 suit",
        15,
        ("pungs_pair_in_sequence",),
    ),
    Pattern(
        "four_pungs_in_sequence",
        "4 Pungs/Kongs in sequence of 1 suit",
        240,
        ("three_pungs_in_sequence", "pungs_pair_in_sequence", "pung_hand"),
    ),
    Pattern("two_kongs", "Two Kongs", 5),
    Pattern("three_kongs", "Three Kongs", 40, ("two_kongs",)),
    Pattern(
        "four_concealed_triplets",
        "Four concealed triplets",
        80,
        ("pung_hand", "concealed_hand", "fully_concealed"),
    ),
    Pattern("little_three_dragons", "Little Three Dragons", 40, ("dragon_pung",)),
    Pattern("little_three_winds", "Little Three Winds", 3),
    Pattern("big_three_winds", "Big Three Winds", 30, ("little_three_winds",)),
    # 4.4 The whole hand
    Pattern("exposed_hand", "Exposed hand", 5, ("self_drawn", "out_on_pair")),
    Pattern("fully_exposed", "Fully exposed hand", 7, ("out_on_pair",)),
    Pattern("concealed_hand", "Concealed hand", 3),
    Pattern("fully_concealed", "Fully concealed hand", 7, ("concealed_hand", "self_drawn")),
    Pattern("chow_hand", "Chow hand", 2),
    Pattern("pung_hand", "Pung hand", 12),
    Pattern("no_fives", "No fives", 2),
    Pattern(
        "all_258",
        "All 2's, 5's and/or 8's",
        80,
        ("all_simples", "pung_hand", "pair_258", "three_numbers"),
    ),
    Pattern("all_simples", "All Simples", 2),
    Pattern("terminal_or_honor_each_set", "Terminal or Honor in each set", 9, ("no_fives",)),
    Pattern(
        "terminal_in_each_set",
        "Terminal in each set",
        15,
        ("terminal_or_honor_each_set", "no_fives"),
    ),
    Pattern(
        "all_terminals_honors",
        "All Terminals and Honors",
        80,
        ("terminal_or_honor_each_set", "pung_hand", "no_fives"),
    ),
    Pattern(
        "terminal_1_or_9_each_set",
        "Terminal 1(9) in each set",
        160,
        (
            "terminal_in_each_set",
            "terminal_or_honor_each_set",
            "no_fives",
            *_HEAD_NUMBERS,
            "three_numbers",
        ),
    ),
    Pattern("head_number_5", "Head number in each set across 5", 40),
    Pattern("head_number_4", "Head number in each set across 4", 60, ("head_number_5",)),
    Pattern(
        "head_number_3",
        "Head number in each set across 3",
        120,
        ("head_number_4", "head_number_5", "three_numbers"),
    ),
    Pattern("three_numbers", "All of three numbers", 60),
    Pattern("three_numbers_with_honors", 'All of three "numbers"', 60, ("pung_hand",)),
    Pattern("two_numbers", "All of two numbers", 200, ("three_numbers", "pung_hand")),
    Pattern(
        "two_numbers_with_honors",
        'All of two "numbers"',
        160,
        ("three_numbers_with_honors", "pung_hand"),
    ),
    Pattern("all_types", "All suits, Dragons and Winds", 12),
    Pattern("two_suits_only", "Two suits only", 2),
    Pattern("one_suit_with_honors", "One Suit with Honors", 12, ("two_suits_only",)),
    Pattern("one_suit_only", "One Suit only", 80, ("two_suits_only",)),
    # 4.5 Miscellaneous (four and five same: per tile)
    Pattern("pair_258", "Pair of 2's, 5's or 8's", 1),
    Pattern("fives_all_suits", "Fives of all suits", 2),
    Pattern("four_same_two_sets", "Four same in two sets", 3),
    Pattern("four_same_three_sets", "Four same in three sets", 9),
    Pattern("four_same_four_sets", "Four same in four sets", 80),
    Pattern("five_same_two_sets", "Five same in two sets", 15),
    Pattern("five_same_three_sets", "Five same in three sets", 30),
    Pattern("five_same_four_sets", "Five same in four sets", 60),
    # 4.6 Scores for winning
    Pattern("self_drawn", "Self-drawn last tile", 1),
    Pattern("out_on_pair", "Out on a pair", 2),
    Pattern("one_chance_chow", "Out on a one-chance Chow", 2),
    Pattern(
        "last_of_one_chance_chow",
        "Out on last of a one-chance Chow",
        3,
        ("one_chance_chow",),
    ),
    Pattern("last_of_multi_chance_chow", "Out on last of a multi-chance Chow", 9),
    Pattern("five_in_456", "Out on 5 in a Chow 4-5-6", 1),
    Pattern("last_wall_tile", "Out on the last tile of the Wall", 3),
    Pattern("last_discard", "Out on the last discarded tile", 3),
    Pattern("supplement_tile", "Out on a supplement tile", 3),
    Pattern("robbing_kong", "Out by robbing a Kong", 3),
    # 4.7 Limit hands
    Pattern("four_kongs", "Four Kongs", 400, (), DIRECT),
    Pattern(
        "three_great_scholars",
        "Three Great Scholars",
        80,
        ("dragon_pung", "little_three_dragons"),
        COMPONENTS,
    ),
    Pattern("little_four_winds", "Little Four Winds", 200, _WIND_SETS, COMPONENTS),
    Pattern(
        "big_four_winds",
        "Big Four Winds",
        400,
        (*_WIND_SETS, "little_four_winds", "pung_hand"),
        COMPONENTS,
    ),
    Pattern(
        "all_honors",
        "All Honors",
        240,
        ("all_terminals_honors", "terminal_or_honor_each_set", "pung_hand", "no_fives"),
        COMPONENTS,
    ),
    Pattern(
        "all_terminals",
        "All Terminals",
        300,
        (
            "all_terminals_honors",
            "terminal_in_each_set",
            "terminal_or_honor_each_set",
            "pung_hand",
            "no_fives",
            "terminal_pungs",
            "two_numbers",
            "three_numbers",
        ),
        COMPONENTS,
    ),
    Pattern(
        "nine_gates",
        "Nine Gates",
        300,
        ("one_suit_only", "two_suits_only", "concealed_hand", "fully_concealed"),
        COMPONENTS,
    ),
    Pattern("thirteen_orphans", "Thirteen Orphans", 160, (), DIRECT),
    Pattern(
        "heavenly_hand", "Heavenly Hand", 120, ("concealed_hand", "fully_concealed"), COMPONENTS
    ),
    Pattern("earthly_hand", "Earthly Hand", 120, ("concealed_hand", "fully_concealed"), COMPONENTS),
    Pattern("thirteen_discarded_orphans", "Thirteen Discarded Orphans", 300, (), DIRECT),
)

BY_KEY: dict[str, Pattern] = {pattern.key: pattern for pattern in PATTERNS}
#: Each key's place in the table, the order a breakdown lists patterns in.
TABLE_ORDER: dict[str, int] = {pattern.key: place for place, pattern in enumerate(PATTERNS)}
#: Limit hands that may be added to a direct limit (section 5, step 3).
BESIDE_DIRECT = frozenset({"heavenly_hand", "earthly_hand"})
DIRECT_KEYS = frozenset(p.key for p in PATTERNS if p.limit == DIRECT)
#: The order exclusions are applied in: highest value first, then the order of the table.
EXCLUSION_ORDER: tuple[Pattern, ...] = tuple(sorted(PATTERNS, key=lambda p: -p.points))
_RANK: dict[str, int] = {pattern.key: rank for rank, pattern in enumerate(EXCLUSION_ORDER)}


def kept_patterns(found: dict[str, int]) -> list[tuple[Pattern, int]]:
    """The patterns of `found` (key -> count) that are scored, in exclusion order: a direct
    limit keeps only direct limits and Heavenly / Earthly Hand, then a pattern is dropped when
    a pattern kept before it excludes it (section 5, steps 3 and 4)."""
    if not DIRECT_KEYS.isdisjoint(found):
        found = {k: n for k, n in found.items() if k in DIRECT_KEYS or k in BESIDE_DIRECT}
    kept: list[tuple[Pattern, int]] = []
    excluded: set[str] = set()
    for key in sorted(found, key=_RANK.__getitem__):
        count = found[key]
        if count and key not in excluded:
            pattern = BY_KEY[key]
            kept.append((pattern, count))
            excluded.update(pattern.excludes)
    return kept
