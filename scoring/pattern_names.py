"""Japanese Transitional and Wilmington pattern names in the reader's language.

The engines name each pattern in English (`scoring.engine.jt.PATTERNS`,
`scoring.engine.wa.patterns`) and know nothing of Django; the key is the stable name in data and
the API. Pages show the name from these tables, marked for translation (the same English words;
tests keep the two alike). The Wilmington names carry the context "Wilmington pattern", since
some English names are shared with Japanese Transitional patterns of other values.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.engine.rulebook import (
    DOUBLES,
    FAN,
    LIMIT_SHARE,
    POINTS,
    JtRulebook,
    Pattern,
    Rulebook,
    WaRulebook,
)
from scoring.engine.wa import BY_KEY

JT_PATTERN_NAMES: dict[str, Promise] = {
    "winning": _("Winning"),
    "set_points": _("Basic tile points (sets)"),
    "pair_points": _("Basic tile points (pair)"),
    "self_drawn": _("Self-drawn last tile"),
    "one_chance_chow": _("Out on a one-chance Chow"),
    "out_on_pair": _("Out on a pair"),
    "concealed_hand": _("Concealed hand (last tile discarded)"),
    "dragon_pung": _("Pung/Kong of Dragons"),
    "own_wind_pung": _("Pung/Kong of own Wind"),
    "round_wind_pung": _("Pung/Kong of Wind of the Round"),
    "same_chow_three_suits": _("Same Chow from all suits"),
    "two_identical_chows": _("Two identical Chows"),
    "three_identical_chows": _("Three identical Chows"),
    "pure_straight": _("3 Chows of 1 suit, step 3"),
    "little_three_dragons": _("Little Three Dragons"),
    "three_same_number_pungs": _("Three triplets of the same number"),
    "three_kongs": _("Three Kongs"),
    "three_concealed_triplets": _("Three concealed triplets"),
    "four_triplets_one_concealed": _("Four triplets, one concealed"),
    "four_triplets_two_concealed": _("Four triplets, two concealed"),
    "four_triplets_three_concealed": _("Four triplets, three concealed"),
    "fully_concealed": _("Fully concealed hand"),
    "no_points_hand": _("No-points hand"),
    "all_simples": _("All Simples"),
    "terminal_or_honor_each_set": _("Terminal or Honor in all sets"),
    "all_terminals_honors": _("All Terminals and Honors"),
    "one_suit_with_honors": _("One suit with Honors"),
    "one_suit_only": _("One suit only"),
    "last_wall_tile": _("Out on the last tile of the Wall"),
    "last_discard": _("Out on the last tile discard"),
    "supplement_tile": _("Out on a supplement tile"),
    "robbing_kong": _("Out by robbing a Kong"),
    "riichi": _("Declaration of Ready (Riichi)"),
    "hidden_treasure": _("Hidden Treasure"),
    "three_great_scholars": _("Three Great Scholars"),
    "little_four_winds": _("Little Four Winds"),
    "big_four_winds": _("Big Four Winds"),
    "all_honors": _("All Honors"),
    "all_terminals": _("All Terminals"),
    "nine_gates": _("Nine Gates"),
    "thirteen_orphans": _("Thirteen Orphans"),
    "heavenly_hand": _("Heavenly hand"),
    "earthly_hand": _("Earthly hand"),
    "seven_pairs": _("Seven pairs"),
}


def jt_pattern_name(key: str) -> str:
    """The name of JT pattern `key` in the active language (the key itself if unknown)."""
    name = JT_PATTERN_NAMES.get(key)
    return str(name) if name is not None else key


WA_PATTERN_NAMES: dict[str, Promise] = {
    "dragon_pung": pgettext_lazy("Wilmington pattern", "Pung/Kong of Dragons"),
    "own_wind_pung": pgettext_lazy("Wilmington pattern", "Pung/Kong of Own Wind"),
    "round_wind_pung": pgettext_lazy("Wilmington pattern", "Pung/Kong of Wind of the Round"),
    "double_wind_pung": pgettext_lazy("Wilmington pattern", "Pung/Kong of Double Wind"),
    "same_chow_three_suits": pgettext_lazy("Wilmington pattern", "Same Chow from all suits"),
    "two_identical_chows": pgettext_lazy("Wilmington pattern", "Two identical Chows"),
    "two_identical_chows_twice": pgettext_lazy("Wilmington pattern", "Two identical Chows twice"),
    "three_identical_chows": pgettext_lazy("Wilmington pattern", "Three identical Chows"),
    "terminal_chows": pgettext_lazy("Wilmington pattern", "123789 of the same suit"),
    "terminal_chows_twice_one_suit": pgettext_lazy(
        "Wilmington pattern", "123789 twice of the same suit"
    ),
    "terminal_chows_two_suits": pgettext_lazy("Wilmington pattern", "123789 of twice of two suits"),
    "pure_straight": pgettext_lazy("Wilmington pattern", "3 Chows of 1 suit, step 3"),
    "terminal_pungs": pgettext_lazy("Wilmington pattern", "Triplets 111 and 999 of the same suit"),
    "terminal_pungs_twice": pgettext_lazy(
        "Wilmington pattern", "Triplets 111 and 999 of the same suit twice"
    ),
    "two_pungs_pair_same_number": pgettext_lazy(
        "Wilmington pattern", "Two Pungs/Kongs and a pair of the same number"
    ),
    "three_same_number_pungs": pgettext_lazy(
        "Wilmington pattern", "Three Pungs/Kongs of the same number"
    ),
    "two_pungs_of_chow_set": pgettext_lazy("Wilmington pattern", "2 Pungs of a Chow set"),
    "pungs_pair_in_sequence": pgettext_lazy(
        "Wilmington pattern", "2 Pungs and a pair in sequence of 1 suit"
    ),
    "three_pungs_in_sequence": pgettext_lazy(
        "Wilmington pattern", "3 Pungs/Kongs in sequence of 1 suit"
    ),
    "four_pungs_in_sequence": pgettext_lazy(
        "Wilmington pattern", "4 Pungs/Kongs in sequence of 1 suit"
    ),
    "two_kongs": pgettext_lazy("Wilmington pattern", "Two Kongs"),
    "three_kongs": pgettext_lazy("Wilmington pattern", "Three Kongs"),
    "four_concealed_triplets": pgettext_lazy("Wilmington pattern", "Four concealed triplets"),
    "little_three_dragons": pgettext_lazy("Wilmington pattern", "Little Three Dragons"),
    "little_three_winds": pgettext_lazy("Wilmington pattern", "Little Three Winds"),
    "big_three_winds": pgettext_lazy("Wilmington pattern", "Big Three Winds"),
    "exposed_hand": pgettext_lazy("Wilmington pattern", "Exposed hand"),
    "fully_exposed": pgettext_lazy("Wilmington pattern", "Fully exposed hand"),
    "concealed_hand": pgettext_lazy("Wilmington pattern", "Concealed hand"),
    "fully_concealed": pgettext_lazy("Wilmington pattern", "Fully concealed hand"),
    "chow_hand": pgettext_lazy("Wilmington pattern", "Chow hand"),
    "pung_hand": pgettext_lazy("Wilmington pattern", "Pung hand"),
    "no_fives": pgettext_lazy("Wilmington pattern", "No fives"),
    "all_258": pgettext_lazy("Wilmington pattern", "All 2's, 5's and/or 8's"),
    "all_simples": pgettext_lazy("Wilmington pattern", "All Simples"),
    "terminal_or_honor_each_set": pgettext_lazy(
        "Wilmington pattern", "Terminal or Honor in each set"
    ),
    "terminal_in_each_set": pgettext_lazy("Wilmington pattern", "Terminal in each set"),
    "all_terminals_honors": pgettext_lazy("Wilmington pattern", "All Terminals and Honors"),
    "terminal_1_or_9_each_set": pgettext_lazy("Wilmington pattern", "Terminal 1(9) in each set"),
    "head_number_5": pgettext_lazy("Wilmington pattern", "Head number in each set across 5"),
    "head_number_4": pgettext_lazy("Wilmington pattern", "Head number in each set across 4"),
    "head_number_3": pgettext_lazy("Wilmington pattern", "Head number in each set across 3"),
    "three_numbers": pgettext_lazy("Wilmington pattern", "All of three numbers"),
    "three_numbers_with_honors": pgettext_lazy("Wilmington pattern", 'All of three "numbers"'),
    "two_numbers": pgettext_lazy("Wilmington pattern", "All of two numbers"),
    "two_numbers_with_honors": pgettext_lazy("Wilmington pattern", 'All of two "numbers"'),
    "all_types": pgettext_lazy("Wilmington pattern", "All suits, Dragons and Winds"),
    "two_suits_only": pgettext_lazy("Wilmington pattern", "Two suits only"),
    "one_suit_with_honors": pgettext_lazy("Wilmington pattern", "One Suit with Honors"),
    "one_suit_only": pgettext_lazy("Wilmington pattern", "One Suit only"),
    "pair_258": pgettext_lazy("Wilmington pattern", "Pair of 2's, 5's or 8's"),
    "fives_all_suits": pgettext_lazy("Wilmington pattern", "Fives of all suits"),
    "four_same_two_sets": pgettext_lazy("Wilmington pattern", "Four same in two sets"),
    "four_same_three_sets": pgettext_lazy("Wilmington pattern", "Four same in three sets"),
    "four_same_four_sets": pgettext_lazy("Wilmington pattern", "Four same in four sets"),
    "five_same_two_sets": pgettext_lazy("Wilmington pattern", "Five same in two sets"),
    "five_same_three_sets": pgettext_lazy("Wilmington pattern", "Five same in three sets"),
    "five_same_four_sets": pgettext_lazy("Wilmington pattern", "Five same in four sets"),
    "self_drawn": pgettext_lazy("Wilmington pattern", "Self-drawn last tile"),
    "out_on_pair": pgettext_lazy("Wilmington pattern", "Out on a pair"),
    "one_chance_chow": pgettext_lazy("Wilmington pattern", "Out on a one-chance Chow"),
    "last_of_one_chance_chow": pgettext_lazy(
        "Wilmington pattern", "Out on last of a one-chance Chow"
    ),
    "last_of_multi_chance_chow": pgettext_lazy(
        "Wilmington pattern", "Out on last of a multi-chance Chow"
    ),
    "five_in_456": pgettext_lazy("Wilmington pattern", "Out on 5 in a Chow 4-5-6"),
    "last_wall_tile": pgettext_lazy("Wilmington pattern", "Out on the last tile of the Wall"),
    "last_discard": pgettext_lazy("Wilmington pattern", "Out on the last discarded tile"),
    "supplement_tile": pgettext_lazy("Wilmington pattern", "Out on a supplement tile"),
    "robbing_kong": pgettext_lazy("Wilmington pattern", "Out by robbing a Kong"),
    "four_kongs": pgettext_lazy("Wilmington pattern", "Four Kongs"),
    "three_great_scholars": pgettext_lazy("Wilmington pattern", "Three Great Scholars"),
    "little_four_winds": pgettext_lazy("Wilmington pattern", "Little Four Winds"),
    "big_four_winds": pgettext_lazy("Wilmington pattern", "Big Four Winds"),
    "all_honors": pgettext_lazy("Wilmington pattern", "All Honors"),
    "all_terminals": pgettext_lazy("Wilmington pattern", "All Terminals"),
    "nine_gates": pgettext_lazy("Wilmington pattern", "Nine Gates"),
    "thirteen_orphans": pgettext_lazy("Wilmington pattern", "Thirteen Orphans"),
    "heavenly_hand": pgettext_lazy("Wilmington pattern", "Heavenly Hand"),
    "earthly_hand": pgettext_lazy("Wilmington pattern", "Earthly Hand"),
    "thirteen_discarded_orphans": pgettext_lazy("Wilmington pattern", "Thirteen Discarded Orphans"),
}


def wa_pattern_name(key: str) -> str:
    """The name of the Wilmington pattern `key` in the active language (its English name from the
    engine when the key has no entry)."""
    name = WA_PATTERN_NAMES.get(key)
    return str(name) if name is not None else BY_KEY[key].en


#: How a pattern's value reads, by its unit (the calculator's too).
UNIT_FORMATS: dict[str, Promise] = {
    POINTS: _("%(value)s pts"),
    DOUBLES: _("%(value)s dbl"),
    LIMIT_SHARE: _("limit"),
}

#: The catalogue naming the patterns of each rulebook whose engine gives English names only
#: (MCR's engine keeps both names of every fan).
_NAMERS: dict[type[Rulebook], Callable[[str], str]] = {
    JtRulebook: jt_pattern_name,
    WaRulebook: wa_pattern_name,
}


def pattern_value(value: int, unit: str) -> str:
    """A pattern's value with its unit: "10 pts", "1 dbl", "limit"; an MCR fan's as a number."""
    if unit == FAN:
        return str(value)
    return str(UNIT_FORMATS[unit]) % {"value": value}


def pattern_names(rulebook: Rulebook) -> Callable[[Pattern], tuple[str, str]]:
    """For the patterns `rulebook` scores: a pattern's English and Chinese names, the engine's
    (MCR) or the catalogue's in either language, whatever language is active."""
    namer = _NAMERS.get(type(rulebook))
    if namer is None:
        return lambda pattern: (pattern.en, pattern.zh)
    known: dict[str, tuple[str, str]] = {}

    def names(pattern: Pattern) -> tuple[str, str]:
        if pattern.key not in known:
            with translation.override("en"):
                english = namer(pattern.key)
            with translation.override("zh-hans"):
                chinese = namer(pattern.key)
            known[pattern.key] = (english, chinese)
        return known[pattern.key]

    return names
