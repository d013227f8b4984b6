"""Japanese Transitional pattern names in the reader's language.

The engine names each pattern in English (`scoring.engine.jt.PATTERNS`) and knows nothing of
Django; the key is the stable name in data and the API. Pages show the name from this table,
marked for translation (the same English words; a test keeps the two alike).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

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
