"""Which patterns of section 4 one reading of a WA hand holds.

A reading is the hand's five units (four sets and the pair; no pair with Four Kongs going out
at once), the joker counting as the tile it stands for, and the unit the winning tile
completed. `TileFacts` holds what depends on the tiles alone, worked out once per joker value;
`reading_patterns` adds what depends on the units.
"""

from __future__ import annotations

from ..tiles import DRAGONS, HONORS, TERMINALS, TERMINALS_OR_HONORS, WINDS

CHOW, PUNG, KONG, PAIR = 0, 1, 2, 3
#: A unit: (kind, tile, declared). `tile` is a chow's lowest tile; `declared` is true for a
#: chow or pung claimed and declared (a kong never counts as declared: section 2.2).
Unit = tuple[int, int, bool]

_FOUR_SAME = {2: "four_same_two_sets", 3: "four_same_three_sets", 4: "four_same_four_sets"}
_FIVE_SAME = {2: "five_same_two_sets", 3: "five_same_three_sets", 4: "five_same_four_sets"}


def _suit(tile: int) -> int:
    return tile // 9


def _rank(tile: int) -> int:
    return tile % 9 + 1


class TileFacts:
    """The patterns and facts that depend only on which tiles the hand holds (the joker's value
    included), whatever the reading."""

    __slots__ = ("counts", "found", "ranks", "honours", "span", "many")

    def __init__(self, counts: list[int]) -> None:
        self.counts = counts
        present = [tile for tile in range(34) if counts[tile]]
        suited = [tile for tile in present if tile < 27]
        honours = [tile for tile in present if tile >= 27]
        ranks = {_rank(tile) for tile in suited}
        suits = {_suit(tile) for tile in suited}
        self.ranks = ranks
        self.honours = honours
        self.span = max(ranks) - min(ranks) + 1 if ranks else 0
        #: Tiles held four or five times (four / five same, unless a kong holds four).
        self.many = [tile for tile in present if counts[tile] >= 4]
        found: dict[str, int] = {}
        if 5 not in ranks:
            found["no_fives"] = 1
        if honours:
            if not suited:
                found["all_honors"] = 1
            names = len(ranks) + len(honours)
            if names == 3:
                found["three_numbers_with_honors"] = 1
            elif names == 2:
                found["two_numbers_with_honors"] = 1
        else:
            if ranks <= {2, 5, 8}:
                found["all_258"] = 1
            if not ranks & {1, 9}:
                found["all_simples"] = 1
            if ranks <= {1, 9}:
                found["all_terminals"] = 1
            if len(ranks) == 3:
                found["three_numbers"] = 1
            elif len(ranks) == 2:
                found["two_numbers"] = 1
        if all(tile in TERMINALS_OR_HONORS for tile in present):
            found["all_terminals_honors"] = 1
        if len(suits) == 2:
            found["two_suits_only"] = 1
        elif len(suits) == 1:
            found["one_suit_with_honors" if honours else "one_suit_only"] = 1
        if counts[4] and counts[13] and counts[22]:
            found["fives_all_suits"] = 1
        self.found = found


def _holds(unit: Unit, tile: int) -> bool:
    kind, first, _ = unit
    if kind == CHOW:
        return first <= tile <= first + 2
    return first == tile


def reading_patterns(  # noqa: C901 - one test per pattern of the WA spec's 4.1-4.6, flat
    units: list[Unit],
    win_unit: int | None,
    facts: TileFacts,
    *,
    seat_wind: int,
    prevailing_wind: int,
    self_drawn: bool,
    win_tile: int | None,
    last_available: bool,
    concealed_triplet_units: int,
) -> dict[str, int]:
    """Every pattern of sections 4.1 to 4.6 that this reading holds (before exclusions), with
    its count. `win_unit` indexes the unit the winning tile completed (None: no wait counts);
    `concealed_triplet_units` is how many triplets count as concealed for Four concealed
    triplets."""
    found = dict(facts.found)
    chows: list[int] = []
    triplets: list[int] = []
    kongs = 0
    declared = 0
    pair = -1
    for kind, tile, is_declared in units:
        if kind == CHOW:
            chows.append(tile)
        elif kind == PAIR:
            pair = tile
        else:
            triplets.append(tile)
            if kind == KONG:
                kongs += 1
        if is_declared:
            declared += 1

    # 4.1 Value sets.
    seat, prevailing = 27 + seat_wind, 27 + prevailing_wind
    dragons = winds = 0
    for tile in triplets:
        if tile in DRAGONS:
            dragons += 1
        elif tile in WINDS:
            winds += 1
            if tile == seat and tile == prevailing:
                found["double_wind_pung"] = found.get("double_wind_pung", 0) + 1
            elif tile == seat:
                found["own_wind_pung"] = 1
            elif tile == prevailing:
                found["round_wind_pung"] = 1
    if dragons:
        found["dragon_pung"] = dragons
        if dragons == 3:
            found["three_great_scholars"] = 1
        elif dragons == 2 and pair in DRAGONS:
            found["little_three_dragons"] = 1
    if winds >= 2:
        wind_pair = pair in WINDS
        if winds == 4:
            found["big_four_winds"] = 1
        elif winds == 3:
            found["little_four_winds" if wind_pair else "big_three_winds"] = 1
        if wind_pair:
            found["little_three_winds"] = 1
        if winds >= 3:
            found["big_three_winds"] = 1

    if chows:
        _chow_patterns(sorted(chows), found)
    if len(triplets) >= 2:
        _triplet_patterns(sorted(triplets), chows, pair, found)
    if kongs == 4:
        found["four_kongs"] = 1
    elif kongs == 3:
        found["three_kongs"] = 1
    elif kongs == 2:
        found["two_kongs"] = 1
    if concealed_triplet_units == 4:
        found["four_concealed_triplets"] = 1

    # 4.4 The whole hand.
    if declared == 4:
        found["exposed_hand" if self_drawn else "fully_exposed"] = 1
    elif declared == 0:
        found["fully_concealed" if self_drawn else "concealed_hand"] = 1
    if len(chows) == 4 and pair not in DRAGONS and pair != seat and pair != prevailing:
        found["chow_hand"] = 1
    if len(triplets) == 4:
        found["pung_hand"] = 1
    if pair >= 0:
        _unit_patterns(units, facts, found)
        if pair < 27 and _rank(pair) in (2, 5, 8):
            found["pair_258"] = 1
        if len({_category(unit[1]) for unit in units}) == 5:
            found["all_types"] = 1

    # 4.5 Four and five same, per tile.
    for tile in facts.many:
        holding = [unit for unit in units if _holds(unit, tile)]
        if facts.counts[tile] == 4:
            if any(kind == KONG for kind, _, _ in holding):
                continue
            key = _FOUR_SAME.get(len(holding))
        else:
            key = _FIVE_SAME.get(len(holding))
        if key:
            found[key] = found.get(key, 0) + 1

    # 4.6 The winning tile.
    if self_drawn:
        found["self_drawn"] = 1
    if win_unit is not None and win_tile is not None:
        kind, first, _ = units[win_unit]
        if kind == PAIR:
            found["out_on_pair"] = 1
        elif kind == CHOW:
            position = win_tile - first
            rank = _rank(first)
            if position == 1 or (position == 2 and rank == 1) or (position == 0 and rank == 7):
                found["last_of_one_chance_chow" if last_available else "one_chance_chow"] = 1
                if position == 1 and rank == 4:
                    found["five_in_456"] = 1
            elif last_available:
                found["last_of_multi_chance_chow"] = 1
    return found


def _category(tile: int) -> int:
    """0, 1, 2 for the suits, 3 for winds, 4 for dragons."""
    if tile < 27:
        return tile // 9
    return 3 if tile in WINDS else 4


def _chow_patterns(chows: list[int], found: dict[str, int]) -> None:
    n = len(chows)
    if n >= 2:
        same: dict[int, int] = {}
        for tile in chows:
            same[tile] = same.get(tile, 0) + 1
        doubles = sum(1 for count in same.values() if count >= 2)
        most = max(same.values())
        if most == 4 or doubles == 2:
            found["two_identical_chows_twice"] = 1
        if most >= 3:
            found["three_identical_chows"] = 1
        if most >= 2:
            found["two_identical_chows"] = 1
        terminal_suits = 0
        for suit in range(3):
            low, high = same.get(suit * 9, 0), same.get(suit * 9 + 6, 0)
            if low and high:
                terminal_suits += 1
                if low >= 2 and high >= 2:
                    found["terminal_chows_twice_one_suit"] = 1
                if same.get(suit * 9 + 3):
                    found["pure_straight"] = 1
        if terminal_suits:
            found["terminal_chows"] = terminal_suits
            if terminal_suits == 2:
                found["terminal_chows_two_suits"] = 1
    if n >= 3:
        for tile in chows:
            if tile < 9 and tile + 9 in chows and tile + 18 in chows:
                found["same_chow_three_suits"] = 1


def _triplet_patterns(  # noqa: C901 - one test per triplet pattern of the WA spec, flat
    triplets: list[int], chows: list[int], pair: int, found: dict[str, int]
) -> None:
    suited = [tile for tile in triplets if tile < 27]
    if len(suited) < 2:
        return
    held = set(suited)
    terminal_suits = sum(1 for suit in range(3) if suit * 9 in held and suit * 9 + 8 in held)
    if terminal_suits:
        found["terminal_pungs"] = terminal_suits
        if terminal_suits == 2:
            found["terminal_pungs_twice"] = 1
    by_rank: dict[int, set[int]] = {}
    for tile in suited:
        by_rank.setdefault(_rank(tile), set()).add(_suit(tile))
    for rank, suits in by_rank.items():
        if len(suits) == 3:
            found["three_same_number_pungs"] = 1
        elif len(suits) == 2 and 0 <= pair < 27 and _rank(pair) == rank:
            if _suit(pair) not in suits:
                found["two_pungs_pair_same_number"] = 1
    for tile in chows:
        if sum(1 for step in range(3) if tile + step in held) >= 2:
            found["two_pungs_of_chow_set"] = 1
    longest = 1
    for tile in suited:
        run = 1
        while tile + run in held and _suit(tile + run) == _suit(tile):
            run += 1
        longest = max(longest, run)
    if longest >= 4:
        found["four_pungs_in_sequence"] = 1
    if longest >= 3:
        found["three_pungs_in_sequence"] = 1
    if 0 <= pair < 27:
        for low in (pair - 2, pair - 1, pair):
            if low < 0 or _suit(low) != _suit(pair) or _suit(low + 2) != _suit(pair):
                continue
            if all(low + step in held for step in range(3) if low + step != pair):
                found["pungs_pair_in_sequence"] = 1


def _unit_patterns(  # noqa: C901 - one pass over the units, one flag per pattern of the spec
    units: list[Unit], facts: TileFacts, found: dict[str, int]
) -> None:
    """Terminal or honour / terminal / 1 or 9 / a head number in every unit."""
    every_terminal_or_honour = True
    every_terminal = True
    every_one = every_nine = True
    common: set[int] | None = None
    for kind, tile, _ in units:
        if kind == CHOW:
            numbers = {_rank(tile), _rank(tile) + 1, _rank(tile) + 2}
            has_terminal = 1 in numbers or 9 in numbers
        elif tile in HONORS:
            numbers = set()
            has_terminal = False
        else:
            numbers = {_rank(tile)}
            has_terminal = tile in TERMINALS
        if not has_terminal and tile not in HONORS:
            every_terminal_or_honour = False
        if not has_terminal:
            every_terminal = False
        if 1 not in numbers:
            every_one = False
        if 9 not in numbers:
            every_nine = False
        common = numbers if common is None else common & numbers
    if every_terminal_or_honour:
        found["terminal_or_honor_each_set"] = 1
    if facts.honours:
        return
    if every_terminal:
        found["terminal_in_each_set"] = 1
    if every_one or every_nine:
        found["terminal_1_or_9_each_set"] = 1
    if common:
        span = facts.span
        if span <= 3:
            found["head_number_3"] = 1
        elif span == 4:
            found["head_number_4"] = 1
        elif span == 5:
            found["head_number_5"] = 1
