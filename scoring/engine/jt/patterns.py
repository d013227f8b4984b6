"""The patterns of Japanese Transitional (rules/japanese-transitional.md, section 4), as data.

Each pattern has its stable key (the name in data, the API and the case format), its English
name, its unit and value: points added before doubling ("pts"), doubles ("dbl"), or a share of
the limit ("%", 100 = the whole limit). An `a/b*` pattern has two values: `value` when one of
the sets forming it is melded, `concealed_value` when all of them are concealed. `excludes`
names the patterns it implies, which are not scored beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

PTS, DBL, LIMIT = "pts", "dbl", "%"


@dataclass(frozen=True, slots=True)
class Pattern:
    key: str
    en: str
    unit: str
    value: int
    concealed_value: int | None = None  # the b of an a/b* pattern
    excludes: tuple[str, ...] = ()


PATTERNS: tuple[Pattern, ...] = (
    # 4.1 Basic points
    Pattern("winning", "Winning", PTS, 20),
    Pattern("set_points", "Basic tile points (sets)", PTS, 0),  # value: the sum of the sets
    Pattern("pair_points", "Basic tile points (pair)", PTS, 0),  # value: the pair's points
    Pattern("self_drawn", "Self-drawn last tile", PTS, 2),
    Pattern("one_chance_chow", "Out on a one-chance Chow", PTS, 2),
    Pattern("out_on_pair", "Out on a pair", PTS, 2),
    Pattern("concealed_hand", "Concealed hand (last tile discarded)", PTS, 10),
    # 4.2 Doubles: basic sets
    Pattern("dragon_pung", "Pung/Kong of Dragons", DBL, 1),
    Pattern("own_wind_pung", "Pung/Kong of own Wind", DBL, 1),
    Pattern("round_wind_pung", "Pung/Kong of Wind of the Round", DBL, 1),
    # Chows
    Pattern("same_chow_three_suits", "Same Chow from all suits", DBL, 1, 1),
    Pattern("two_identical_chows", "Two identical Chows", DBL, 0, 1),
    Pattern(
        "three_identical_chows",
        "Three identical Chows",
        DBL,
        1,
        2,
        excludes=("two_identical_chows",),
    ),
    Pattern("pure_straight", "3 Chows of 1 suit, step 3", DBL, 1, 2),
    # Pungs and kongs
    Pattern("little_three_dragons", "Little Three Dragons", DBL, 4, excludes=("dragon_pung",)),
    Pattern("three_same_number_pungs", "Three triplets of the same number", DBL, 1),
    Pattern("three_kongs", "Three Kongs", DBL, 2),
    Pattern("three_concealed_triplets", "Three concealed triplets", DBL, 2),
    Pattern("four_triplets_one_concealed", "Four triplets, one concealed", DBL, 2),
    Pattern("four_triplets_two_concealed", "Four triplets, two concealed", DBL, 2),
    Pattern(
        "four_triplets_three_concealed",
        "Four triplets, three concealed",
        DBL,
        3,
        excludes=("three_concealed_triplets",),
    ),
    # The whole hand
    Pattern("fully_concealed", "Fully concealed hand", DBL, 1, excludes=("concealed_hand",)),
    Pattern("no_points_hand", "No-points hand", DBL, 1),
    Pattern("all_simples", "All Simples", DBL, 1),
    Pattern("terminal_or_honor_each_set", "Terminal or Honor in all sets", DBL, 1),
    Pattern(
        "all_terminals_honors",
        "All Terminals and Honors",
        DBL,
        2,
        excludes=("terminal_or_honor_each_set",),
    ),
    Pattern("one_suit_with_honors", "One suit with Honors", DBL, 1),
    Pattern("one_suit_only", "One suit only", DBL, 4),
    # Situations
    Pattern("last_wall_tile", "Out on the last tile of the Wall", DBL, 1),
    Pattern("last_discard", "Out on the last tile discard", DBL, 1),
    Pattern("supplement_tile", "Out on a supplement tile", DBL, 1),
    Pattern("robbing_kong", "Out by robbing a Kong", DBL, 1),
    Pattern("riichi", "Declaration of Ready (Riichi)", DBL, 1),
    # 4.3 Limit hands
    Pattern("hidden_treasure", "Hidden Treasure", LIMIT, 100),
    Pattern("three_great_scholars", "Three Great Scholars", LIMIT, 100),
    Pattern("little_four_winds", "Little Four Winds", LIMIT, 100),
    Pattern("big_four_winds", "Big Four Winds", LIMIT, 100),
    Pattern("all_honors", "All Honors", LIMIT, 100),
    Pattern("all_terminals", "All Terminals", LIMIT, 100),
    Pattern("nine_gates", "Nine Gates", LIMIT, 100),
    Pattern("thirteen_orphans", "Thirteen Orphans", LIMIT, 100),
    Pattern("heavenly_hand", "Heavenly hand", LIMIT, 100),
    Pattern("earthly_hand", "Earthly hand", LIMIT, 100),
    # 4.4 Seven pairs
    Pattern("seven_pairs", "Seven pairs", PTS, 100),
)

BY_KEY: dict[str, Pattern] = {pattern.key: pattern for pattern in PATTERNS}

#: The doubles that seven pairs may add to its fixed 100 points (section 4.4).
SEVEN_PAIRS_DOUBLES = frozenset(
    {
        "riichi",
        "all_simples",
        "all_terminals_honors",
        "one_suit_with_honors",
        "one_suit_only",
        "last_wall_tile",
        "last_discard",
        "robbing_kong",
    }
)

#: Tile points of a set (section 4.1): (kind, terminal or honour, concealed) -> points.
SET_POINTS: dict[tuple[str, bool, bool], int] = {
    ("chow", False, False): 0,
    ("chow", False, True): 0,
    ("pung", False, False): 2,
    ("pung", False, True): 4,
    ("pung", True, False): 4,
    ("pung", True, True): 8,
    ("kong", False, False): 8,
    ("kong", False, True): 16,
    ("kong", True, False): 16,
    ("kong", True, True): 32,
}
#: Points of the pair: of a dragon, of the own wind, of the round wind (both: 4).
PAIR_POINTS = 2
