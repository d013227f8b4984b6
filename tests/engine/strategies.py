"""Hypothesis strategies for MCR hands in the case format of ``../shared/data/README.md``.

``winning_cases()`` draws complete 14-tile hands that are valid shapes: four sets and a pair
(chows, pungs, kongs, each declared or standing, kongs melded or concealed), seven pairs, seven
shifted pairs, thirteen orphans, lesser and greater honors and knitted tiles, knitted straight
(with or without a declared set) and nine gates.  Regular hands are biased toward rare
patterns: a structure (straights, shifted and triple sets, terminal chows, wind and dragon
pungs, kongs) is placed first and the rest is filled from a theme (one suit, honours, terminals,
green or reversible tiles, rank ranges, fives...).  Never more than four copies of a tile.

The situation (self-drawn, winds, flowers, Last Tile, kong-related, last wall tile) is always
consistent, using only combinations that PyMahjongGB scores as stated (see ``oracle.py``):

- Robbing the Kong: won on a discard and the winning tile appears nowhere else in the hand.
- Out with Replacement Tile: self-drawn and the hand has a kong.
- Last Tile (last of its kind): the winning tile is not among the standing tiles.
- A kong-related win is never also on the last wall tile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

SUITS = "mps"
WINDS = "ESWN"
DRAGONS = "CFP"
HONORS = WINDS + DRAGONS
SUITED = tuple(f"{r}{s}" for s in SUITS for r in range(1, 10))
ALL_TILES = SUITED + tuple(HONORS)
TERMINALS = tuple(t for t in SUITED if t[0] in "19")
GREEN = ("2s", "3s", "4s", "6s", "8s", "F")
REVERSIBLE = ("1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s", "6s", "8s", "9s", "P")

Set = tuple[str, tuple[str, ...]]  # ("chow" | "pung" | "kong", tiles)


def tile_order(tile: str) -> tuple[int, int]:
    if tile in HONORS:
        return (3, HONORS.index(tile))
    return (SUITS.index(tile[1]), int(tile[0]))


def chow(suit: str, start: int) -> Set:
    return ("chow", tuple(f"{start + i}{suit}" for i in range(3)))


def pung(tile: str) -> Set:
    return ("pung", (tile,) * 3)


def kong(tile: str) -> Set:
    return ("kong", (tile,) * 4)


def rank(tile: str) -> int:
    return int(tile[0]) if tile not in HONORS else 0


CHOWS = tuple(chow(s, n) for s in SUITS for n in range(1, 8))
PUNGS = tuple(pung(t) for t in ALL_TILES)

# ---- themes: which sets and pairs may fill the rest of a hand ----

Theme = tuple[Callable[[tuple[str, ...]], bool], Callable[[str], bool]]


def tile_pool_theme(pool: tuple[str, ...] | set[str]) -> Theme:
    allowed = set(pool)
    return (lambda tiles: all(t in allowed for t in tiles), lambda t: t in allowed)


def suit_theme(suit: str, honours: bool) -> Theme:
    pool = {t for t in SUITED if t[1] == suit} | (set(HONORS) if honours else set())
    return tile_pool_theme(pool)


def ranks_theme(ranks: str) -> Theme:
    return tile_pool_theme({t for t in SUITED if t[0] in ranks})


FIXED_THEMES: dict[str, Theme] = {
    "any": (lambda tiles: True, lambda t: True),
    "honours": tile_pool_theme(HONORS),
    "winds": tile_pool_theme(WINDS),
    "terminals": tile_pool_theme(TERMINALS),
    "terminals_and_honours": tile_pool_theme(TERMINALS + tuple(HONORS)),
    "outside": (
        lambda tiles: any(t in HONORS or t[0] in "19" for t in tiles),
        lambda t: t in HONORS or t[0] in "19",
    ),
    "fives": (lambda tiles: any(t[0] == "5" for t in tiles), lambda t: t[0] == "5"),
    "green": tile_pool_theme(GREEN),
    "reversible": tile_pool_theme(REVERSIBLE),
    "upper_tiles": ranks_theme("789"),
    "middle_tiles": ranks_theme("456"),
    "lower_tiles": ranks_theme("123"),
    "upper_four": ranks_theme("6789"),
    "lower_four": ranks_theme("1234"),
    "simples": ranks_theme("2345678"),
    "even_pungs": (
        lambda tiles: len(set(tiles)) == 1 and tiles[0] in SUITED and rank(tiles[0]) % 2 == 0,
        lambda t: t in SUITED and rank(t) % 2 == 0,
    ),
    "pungs_only": (lambda tiles: len(set(tiles)) == 1, lambda t: True),
    "chows_no_honours": (lambda tiles: len(set(tiles)) == 3, lambda t: t in SUITED),
}


@st.composite
def themes(draw: st.DrawFn, suit: str | None = None) -> tuple[str, Theme]:
    """A theme name and its set/pair filters; ``suit`` favours flushes in that suit."""
    suit = suit or draw(st.sampled_from(SUITS))
    kind = draw(
        st.sampled_from(
            ["full_flush", "half_flush", "two_suits", "two_suits_honours"] * 2 + list(FIXED_THEMES)
        )
    )
    if kind == "full_flush":
        return kind, suit_theme(suit, honours=False)
    if kind == "half_flush":
        return kind, suit_theme(suit, honours=True)
    if kind.startswith("two_suits"):
        other = draw(st.sampled_from([s for s in SUITS if s != suit]))
        pool = {t for t in SUITED if t[1] in (suit, other)}
        if kind.endswith("honours"):
            pool |= set(HONORS)
        return kind, tile_pool_theme(pool)
    return kind, FIXED_THEMES[kind]


# ---- structures: sets placed before the theme fills the hand ----


@st.composite
def structures(draw: st.DrawFn) -> tuple[str, list[Set], str | None, str | None]:
    """``(name, sets, pair or None, suit or None)`` for a rare pattern."""
    name = draw(st.sampled_from(STRUCTURE_NAMES))
    s = draw(st.sampled_from(SUITS))
    three = draw(st.permutations(SUITS))
    pair: str | None = None
    if name == "none":
        sets: list[Set] = []
    elif name == "pure_straight":
        sets = [chow(s, 1), chow(s, 4), chow(s, 7)]
    elif name == "mixed_straight":
        sets = [chow(three[0], 1), chow(three[1], 4), chow(three[2], 7)]
    elif name in ("pure_double_chow", "pure_triple_chow", "quadruple_chow"):
        copies = {"pure_double_chow": 2, "pure_triple_chow": 3, "quadruple_chow": 4}[name]
        sets = [chow(s, draw(st.integers(1, 7)))] * copies
    elif name in ("mixed_double_chow", "mixed_triple_chow"):
        n = draw(st.integers(1, 7))
        sets = [chow(x, n) for x in three[: 2 if name == "mixed_double_chow" else 3]]
    elif name in ("pure_shifted_chows", "four_shifted_chows", "short_straight"):
        count = {"pure_shifted_chows": 3, "four_shifted_chows": 4, "short_straight": 2}[name]
        step = 3 if name == "short_straight" else draw(st.sampled_from([1, 2]))
        start = draw(st.integers(1, 7 - step * (count - 1)))
        sets = [chow(s, start + step * i) for i in range(count)]
    elif name == "mixed_shifted_chows":
        start = draw(st.integers(1, 5))
        sets = [chow(three[i], start + i) for i in range(3)]
    elif name in ("pure_shifted_pungs", "four_pure_shifted_pungs"):
        count = 3 if name == "pure_shifted_pungs" else 4
        start = draw(st.integers(1, 10 - count))
        sets = [pung(f"{start + i}{s}") for i in range(count)]
    elif name == "mixed_shifted_pungs":
        start = draw(st.integers(1, 7))
        sets = [pung(f"{start + i}{three[i]}") for i in range(3)]
    elif name in ("double_pung", "triple_pung"):
        n = draw(st.integers(1, 9))
        sets = [pung(f"{n}{x}") for x in three[: 2 if name == "double_pung" else 3]]
    elif name == "two_terminal_chows":
        sets = [chow(s, 1), chow(s, 7)]
    elif name == "three_suited_terminal_chows":
        sets = [chow(three[0], 1), chow(three[0], 7), chow(three[1], 1), chow(three[1], 7)]
        pair = f"5{three[2]}"
    elif name == "pure_terminal_chows":
        sets = [chow(s, 1), chow(s, 1), chow(s, 7), chow(s, 7)]
        pair = f"5{s}"
    elif name in ("big_three_winds", "big_four_winds"):
        winds = draw(st.permutations(WINDS))
        sets = [pung(w) for w in winds[: 3 if name == "big_three_winds" else 4]]
        if name == "big_three_winds" and draw(st.booleans()):
            pair = winds[3]
    elif name in ("two_dragon_pungs", "big_three_dragons"):
        dragons = draw(st.permutations(DRAGONS))
        sets = [pung(d) for d in dragons[: 2 if name == "two_dragon_pungs" else 3]]
        if name == "two_dragon_pungs" and draw(st.booleans()):
            pair = dragons[2]
    elif name in ("three_kongs", "four_kongs", "two_kongs"):
        count = {"two_kongs": 2, "three_kongs": 3, "four_kongs": 4}[name]
        tiles = draw(
            st.lists(st.sampled_from(ALL_TILES), min_size=count, max_size=count, unique=True)
        )
        sets = [kong(t) for t in tiles]
    elif name == "plain":
        # three suits, a simple pung and an honour pair: often no fan at all (Chicken Hand)
        starts = draw(st.lists(st.integers(1, 7), min_size=3, max_size=3))
        sets = [chow(three[0], starts[0]), chow(three[1], starts[1]), chow(three[2], starts[2])]
        sets.append(pung(f"{draw(st.integers(2, 8))}{draw(st.sampled_from(SUITS))}"))
        pair = draw(st.sampled_from(HONORS))
    elif name == "concealed_pungs":
        tiles = draw(st.lists(st.sampled_from(ALL_TILES), min_size=3, max_size=4, unique=True))
        sets = [pung(t) for t in tiles]
    else:  # pragma: no cover - STRUCTURE_NAMES and the branches above go together
        raise AssertionError(name)
    suit = s if name in SUITED_STRUCTURES else None
    return name, sets, pair, suit


STRUCTURE_NAMES = (
    "none", "none", "none", "none",
    "pure_straight", "mixed_straight", "pure_double_chow", "pure_triple_chow", "quadruple_chow",
    "mixed_double_chow", "mixed_triple_chow", "pure_shifted_chows", "four_shifted_chows",
    "short_straight", "mixed_shifted_chows", "pure_shifted_pungs", "four_pure_shifted_pungs",
    "mixed_shifted_pungs", "double_pung", "triple_pung", "two_terminal_chows",
    "three_suited_terminal_chows", "pure_terminal_chows", "big_three_winds", "big_four_winds",
    "two_dragon_pungs", "big_three_dragons", "two_kongs", "three_kongs", "four_kongs",
    "concealed_pungs", "plain", "plain",
)  # fmt: skip
SUITED_STRUCTURES = {
    "pure_straight", "pure_double_chow", "pure_triple_chow", "quadruple_chow",
    "pure_shifted_chows", "four_shifted_chows", "short_straight", "pure_shifted_pungs",
    "four_pure_shifted_pungs", "two_terminal_chows", "pure_terminal_chows",
}  # fmt: skip


# ---- assembling a case ----


def fits(counts: Counter[str], tiles: tuple[str, ...]) -> bool:
    need = Counter(tiles)
    return all(counts[t] + n <= 4 for t, n in need.items())


@st.composite
def fill_sets(
    draw: st.DrawFn, sets: list[Set], pair: str | None, theme: Theme, kong_bias: float
) -> tuple[list[Set], str]:
    """Complete ``sets`` to four sets and a pair, preferring the theme, within 4 copies."""
    set_ok, pair_ok = theme
    counts: Counter[str] = Counter()
    placed: list[Set] = []
    for kind, tiles in sets:
        if fits(counts, tiles):
            placed.append((kind, tiles))
            counts.update(tiles)
    while len(placed) < 4:
        fitting = [c for c in CHOWS + PUNGS if fits(counts, c[1])]
        themed = [c for c in fitting if set_ok(c[1])] or fitting
        placed.append(draw(st.sampled_from(themed)))
        counts.update(placed[-1][1])
    # some pungs become kongs when the fourth copy is free
    result = []
    for kind, tiles in placed:
        if kind == "pung" and counts[tiles[0]] < 4 and draw(st.floats(0, 1)) < kong_bias:
            kind, tiles = kong(tiles[0])
            counts[tiles[0]] += 1
        result.append((kind, tiles))
    if pair is None or counts[pair] > 2:
        free = [t for t in ALL_TILES if counts[t] <= 2]
        pair = draw(st.sampled_from([t for t in free if pair_ok(t)] or free))
    return result, pair


@st.composite
def situations(draw: st.DrawFn, case: dict[str, Any]) -> dict[str, Any]:
    """Consistent situation flags, winds and flowers for a complete case."""
    win = case["win_tile"]
    held_standing = case["concealed"].count(win)
    held_melds = sum(m["tiles"].count(win) for m in case["melds"])
    has_kong = any(m["type"] == "kong" for m in case["melds"])
    self_drawn = draw(st.booleans())
    kong_related = False
    if self_drawn and has_kong:
        kong_related = draw(st.sampled_from([False, False, True]))
    elif not self_drawn and held_standing == 0 and held_melds == 0:
        kong_related = draw(st.sampled_from([False, False, False, True]))
    last_tile_of_kind = False
    if held_standing == 0:
        last_tile_of_kind = draw(st.sampled_from([False, False, False, True]))
    last_wall_tile = False if kong_related else draw(st.sampled_from([False] * 5 + [True]))
    return {
        **case,
        "self_drawn": self_drawn,
        "kong_related": kong_related,
        "last_tile_of_kind": last_tile_of_kind,
        "last_wall_tile": last_wall_tile,
        "seat_wind": draw(st.sampled_from(WINDS)),
        "prevalent_wind": draw(st.sampled_from(WINDS)),
        "flowers": draw(st.sampled_from([0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8])),
    }


def make_case(
    kind: str, pattern: str, standing: list[str], win_tile: str, melds: list[dict[str, Any]]
) -> dict[str, Any]:
    """A case without situation; ``standing`` includes one copy of the winning tile."""
    concealed = sorted(standing, key=tile_order)
    concealed.remove(win_tile)
    return {
        "kind": kind,
        "pattern": pattern,
        "concealed": concealed,
        "melds": melds,
        "win_tile": win_tile,
    }


@st.composite
def declare(draw: st.DrawFn, sets: list[Set], meld_chance: float) -> tuple[list, list[str]]:
    """Split sets into declared melds (concealed kongs included) and standing tiles."""
    melds: list[dict[str, Any]] = []
    standing: list[str] = []
    for kind, tiles in sets:
        if kind == "kong":
            concealed = draw(st.booleans())
            meld: dict[str, Any] = {"type": "kong", "tiles": list(tiles), "concealed": concealed}
            if not concealed:
                meld["from"] = draw(st.sampled_from(["left", "across", "right"]))
            melds.append(meld)
        elif draw(st.floats(0, 1)) < meld_chance:
            meld = {"type": kind, "tiles": list(tiles), "concealed": False}
            if kind == "chow":
                meld["claimed"] = draw(st.sampled_from(tiles))
            else:
                meld["from"] = draw(st.sampled_from(["left", "across", "right"]))
            melds.append(meld)
        else:
            standing.extend(tiles)
    return melds, standing


@st.composite
def regular_cases(draw: st.DrawFn) -> dict[str, Any]:
    """Four sets and a pair, biased toward rare patterns."""
    name, sets, pair, suit = draw(structures())
    theme_name, theme = draw(themes(suit))
    kong_bias = draw(st.sampled_from([0.0, 0.1, 0.1, 0.5]))
    full, pair = draw(fill_sets(sets, pair, theme, kong_bias))
    full = draw(st.permutations(full))
    meld_chance = draw(st.sampled_from([0.0, 0.0, 0.3, 0.6, 1.0]))
    melds, standing = draw(declare(full, meld_chance))
    standing += [pair, pair]
    win = draw(st.sampled_from(sorted(set(standing), key=tile_order)))
    case = make_case("regular", f"{name}+{theme_name}", standing, win, melds)
    return draw(situations(case))


@st.composite
def seven_pairs_cases(draw: st.DrawFn) -> dict[str, Any]:
    theme_name, (_, pair_ok) = draw(themes())
    pool = [t for t in ALL_TILES if pair_ok(t)]
    counts: Counter[str] = Counter()
    for _ in range(7):
        free = [t for t in pool if counts[t] <= 2] or [t for t in ALL_TILES if counts[t] <= 2]
        counts[draw(st.sampled_from(free))] += 2
    standing = list(counts.elements())
    win = draw(st.sampled_from(sorted(counts, key=tile_order)))
    return draw(situations(make_case("seven_pairs", theme_name, standing, win, [])))


@st.composite
def seven_shifted_pairs_cases(draw: st.DrawFn) -> dict[str, Any]:
    suit = draw(st.sampled_from(SUITS))
    start = draw(st.integers(1, 3))
    tiles = [f"{start + i}{suit}" for i in range(7)]
    win = draw(st.sampled_from(tiles))
    case = make_case("seven_shifted_pairs", "seven_shifted_pairs", tiles * 2, win, [])
    return draw(situations(case))


@st.composite
def thirteen_orphans_cases(draw: st.DrawFn) -> dict[str, Any]:
    orphans = list(TERMINALS) + list(HONORS)
    extra = draw(st.sampled_from(orphans))
    win = draw(st.sampled_from(orphans))
    case = make_case("thirteen_orphans", "thirteen_orphans", orphans + [extra], win, [])
    return draw(situations(case))


def knitted_tiles(order: tuple[str, ...] | list[str]) -> list[str]:
    """1-4-7 in the first suit, 2-5-8 in the second, 3-6-9 in the third."""
    return [
        f"{start + 3 * i}{suit}"
        for start, suit in zip((1, 2, 3), order, strict=True)
        for i in range(3)
    ]


@st.composite
def honors_knitted_cases(draw: st.DrawFn) -> dict[str, Any]:
    knitted = knitted_tiles(draw(st.permutations(SUITS)))
    greater = draw(st.booleans())
    if greater:
        dropped = draw(st.lists(st.sampled_from(knitted), min_size=2, max_size=2, unique=True))
    else:
        dropped = draw(
            st.lists(st.sampled_from(knitted + list(HONORS)), min_size=2, max_size=2, unique=True)
        )
    tiles = [t for t in knitted + list(HONORS) if t not in dropped]
    win = draw(st.sampled_from(tiles))
    pattern = "greater_honors_knitted" if greater or set(HONORS) <= set(tiles) else "lesser"
    return draw(situations(make_case("honors_knitted", pattern, tiles, win, [])))


@st.composite
def knitted_straight_cases(draw: st.DrawFn) -> dict[str, Any]:
    knitted = knitted_tiles(draw(st.permutations(SUITS)))
    counts = Counter(knitted)
    candidates = [c for c in CHOWS + PUNGS if fits(counts, c[1])]
    one_set = draw(st.sampled_from(candidates))
    if one_set[0] == "pung" and counts[one_set[1][0]] == 0 and draw(st.booleans()):
        one_set = kong(one_set[1][0])
    counts.update(one_set[1])
    pair = draw(st.sampled_from([t for t in ALL_TILES if counts[t] <= 2]))
    melds, standing = draw(declare([one_set], draw(st.sampled_from([0.0, 0.5]))))
    standing += knitted + [pair, pair]
    win = draw(st.sampled_from(sorted(set(standing), key=tile_order)))
    pattern = "knitted_straight_melded" if melds else "knitted_straight"
    return draw(situations(make_case("knitted_straight", pattern, standing, win, melds)))


@st.composite
def nine_gates_cases(draw: st.DrawFn) -> dict[str, Any]:
    suit = draw(st.sampled_from(SUITS))
    base = [f"{r}{suit}" for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
    extra = f"{draw(st.integers(1, 9))}{suit}"
    # mostly the true wait (won on the extra tile), sometimes another tile of the same shape
    win = extra if draw(st.integers(0, 3)) else draw(st.sampled_from(base))
    pattern = "nine_gates" if win == extra else "nine_gates_shape_other_win"
    return draw(situations(make_case("nine_gates", pattern, base + [extra], win, [])))


SPECIAL = {
    "seven_pairs": seven_pairs_cases,
    "seven_shifted_pairs": seven_shifted_pairs_cases,
    "thirteen_orphans": thirteen_orphans_cases,
    "honors_knitted": honors_knitted_cases,
    "knitted_straight": knitted_straight_cases,
    "nine_gates": nine_gates_cases,
}


def winning_cases() -> st.SearchStrategy[dict[str, Any]]:
    """Any valid complete hand with a consistent situation; about 70 % regular shapes."""
    weighted = ["regular"] * 14 + list(SPECIAL)
    return st.sampled_from(weighted).flatmap(
        lambda kind: regular_cases() if kind == "regular" else SPECIAL[kind]()
    )


@st.composite
def near_miss_cases(draw: st.DrawFn) -> dict[str, Any]:
    """A winning hand with one standing tile (or the winning tile) replaced: mostly NOT_WIN."""
    case = draw(winning_cases())
    replacement = draw(st.sampled_from(ALL_TILES))
    position = draw(st.integers(0, len(case["concealed"])))
    if position == len(case["concealed"]):
        changed = {**case, "win_tile": replacement}
    else:
        concealed = list(case["concealed"])
        concealed[position] = replacement
        changed = {**case, "concealed": sorted(concealed, key=tile_order)}
    # keep the situation consistent for the new winning tile
    if changed["concealed"].count(changed["win_tile"]):
        changed["last_tile_of_kind"] = False
        if not changed["self_drawn"]:
            changed["kong_related"] = False
    if not changed["self_drawn"] and any(
        changed["win_tile"] in m["tiles"] for m in changed["melds"]
    ):
        changed["kong_related"] = False
    changed["kind"] = "near_miss"
    return changed
