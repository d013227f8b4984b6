"""Ways to split standing tiles into sets and one pair, and which tiles a hand waits on.

A set is written as one integer: ``first_tile * 2`` for a pung, ``first_tile * 2 + 1`` for a
chow. Sorting those integers orders sets by their first tile, pung before chow, which is also
the order in which arrangements are tried.

Each suit is split on its own and remembered by its nine counts, so the work for a suit shape
is done once per process, whatever hand it appears in.
"""

from __future__ import annotations

from functools import cache
from itertools import product

Arrangement = tuple[tuple[int, ...], int]  # (sorted set codes, pair tile)


@cache
def _suit_splits(
    counts: tuple[int, ...], want_pair: bool
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """All splits of one suit's counts (ranks 0..8) into sets, plus one pair if `want_pair`.

    Returns (set codes relative to the suit, pair rank or -1) pairs, without repeats."""
    found: set[tuple[tuple[int, ...], int]] = set()
    work = list(counts)

    def walk(start: int, sets: list[int], pair: int) -> None:
        while start < 9 and work[start] == 0:
            start += 1
        if start == 9:
            if (pair >= 0) == want_pair:
                found.add((tuple(sorted(sets)), pair))
            return
        n = work[start]
        if n >= 3:
            work[start] -= 3
            sets.append(start * 2)
            walk(start, sets, pair)
            sets.pop()
            work[start] += 3
        if start <= 6 and work[start + 1] and work[start + 2]:
            work[start] -= 1
            work[start + 1] -= 1
            work[start + 2] -= 1
            sets.append(start * 2 + 1)
            walk(start, sets, pair)
            sets.pop()
            work[start] += 1
            work[start + 1] += 1
            work[start + 2] += 1
        if n >= 2 and want_pair and pair < 0:
            work[start] -= 2
            walk(start, sets, start)
            work[start] += 2

    total = sum(counts)
    if total % 3 == (2 if want_pair else 0):
        walk(0, [], -1)
    return tuple(sorted(found))


def arrangements(  # noqa: C901 - per-suit splits with early exits, the engine's inner loop
    counts: list[int],
) -> list[Arrangement]:
    """Every split of the 34 counts into sets and exactly one pair, in trial order."""
    options: list[tuple[tuple[tuple[int, ...], int], ...]] = []
    pair_suit = -1
    for suit in range(3):
        part = counts[suit * 9 : suit * 9 + 9]
        remainder = sum(part) % 3
        if remainder == 1:
            return []
        if remainder == 2:
            if pair_suit != -1:
                return []
            pair_suit = suit
        splits = _suit_options(suit, tuple(part), remainder == 2)
        if not splits:
            return []
        options.append(splits)
    honour_sets: list[int] = []
    honour_pair = -1
    for tile in range(27, 34):
        n = counts[tile]
        if n == 3:
            honour_sets.append(tile * 2)
        elif n == 2 or n == 5:  # five copies (a WA joker as the fifth): a pung and a pair
            if honour_pair != -1 or pair_suit != -1:
                return []
            honour_pair = tile
            if n == 5:
                honour_sets.append(tile * 2)
        elif n:
            return []
    if honour_pair == -1 and pair_suit == -1:
        return []
    result = []
    for combo in product(*options):
        sets = [code for part_sets, _ in combo for code in part_sets]
        sets.extend(honour_sets)
        pair = honour_pair
        for _, part_pair in combo:
            if part_pair >= 0:
                pair = part_pair
        result.append((tuple(sorted(sets)), pair))
    result.sort()
    return result


@cache
def _suit_options(
    suit: int, counts: tuple[int, ...], want_pair: bool
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """`_suit_splits` with set codes and pair as whole-hand tiles of `suit`."""
    base = suit * 9
    return tuple(
        (tuple(code + base * 2 for code in sets), pair + base if pair >= 0 else -1)
        for sets, pair in _suit_splits(counts, want_pair)
    )


@cache
def _suit_complete(counts: tuple[int, ...]) -> bool:
    """True when one suit's counts split into sets and at most one pair."""
    remainder = sum(counts) % 3
    if remainder == 1:
        return False
    return bool(_suit_splits(counts, remainder == 2))


@cache
def _completing_ranks(counts: tuple[int, ...]) -> tuple[int, ...]:
    """Ranks (0..8) that, added to one suit's counts, leave it split into sets and at most
    one pair. Remembered per suit shape, like the splits."""
    found = []
    work = list(counts)
    for rank in range(9):
        if not work[rank] and not (
            (rank >= 1 and work[rank - 1])
            or (rank >= 2 and work[rank - 2])
            or (rank <= 7 and work[rank + 1])
            or (rank <= 6 and work[rank + 2])
        ):
            continue
        work[rank] += 1
        if _suit_complete(tuple(work)):
            found.append(rank)
        work[rank] -= 1
    return tuple(found)


def has_other_wait(  # noqa: C901 - per-suit look-ups with early exits, the engine's inner loop
    counts: list[int], win: int, seven_pairs: bool
) -> bool:
    """Whether a tile other than `win` also completes `counts` (a hand one tile short).

    Adding a tile changes one suit only: the other suits must already be complete, and the
    changed suit's completing ranks are looked up per suit shape.
    """
    if seven_pairs:
        odd = [tile for tile in range(34) if counts[tile] & 1]
        if len(odd) == 1 and odd[0] != win:
            return True
    parts = (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]))
    remainders = [sum(part) % 3 for part in parts]
    complete = [_suit_complete(part) for part in parts]
    honour_pairs = 0
    honour_bad = 0
    for tile in range(27, 34):
        n = counts[tile]
        if n == 2:
            honour_pairs += 1
        elif n != 0 and n != 3:
            honour_bad += 1
    if not honour_bad:
        for suit in range(3):
            others = [other for other in range(3) if other != suit]
            if not (complete[others[0]] and complete[others[1]]):
                continue
            pairs_elsewhere = (
                honour_pairs + (remainders[others[0]] == 2) + (remainders[others[1]] == 2)
            )
            new_remainder = (remainders[suit] + 1) % 3
            if new_remainder == 1 or pairs_elsewhere != (1 if new_remainder == 0 else 0):
                continue
            base = suit * 9
            for rank in _completing_ranks(parts[suit]):
                if base + rank != win:
                    return True
    if all(complete):
        suit_pairs = sum(1 for remainder in remainders if remainder == 2)
        for tile in range(27, 34):
            n = counts[tile]
            if tile == win or n == 0 or n == 3:
                continue
            # Adding one: 1 -> a pair, 2 -> a pung, 4 -> a pung and a pair.
            pairs = honour_pairs - (n == 2) + (n in (1, 4)) + suit_pairs
            bad = honour_bad - (n in (1, 4))
            if bad == 0 and pairs == 1:
                return True
    return False


def completing_tiles(counts: list[int]) -> list[int]:
    """Every tile that, added to `counts` (one tile short of four sets and a pair, without
    declared sets), leaves them split into sets and one pair; a tile may reach five copies
    (the WA joker as a fifth copy: a pung and a pair, or a set and chows).

    As in `has_other_wait`, the one changed suit is looked up per suit shape and the others
    must already be complete."""
    parts = (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]))
    remainders = [sum(part) % 3 for part in parts]
    complete = [_suit_complete(part) for part in parts]
    honour_pairs = honour_bad = 0
    for tile in range(27, 34):
        n = counts[tile]
        if n == 2 or n == 5:
            honour_pairs += 1
        elif n:
            honour_bad += n != 3
    found: list[int] = []
    if not honour_bad:
        for suit in range(3):
            others = [other for other in range(3) if other != suit]
            if not (complete[others[0]] and complete[others[1]]):
                continue
            pairs_elsewhere = (
                honour_pairs + (remainders[others[0]] == 2) + (remainders[others[1]] == 2)
            )
            new_remainder = (remainders[suit] + 1) % 3
            if new_remainder == 1 or pairs_elsewhere != (1 if new_remainder == 0 else 0):
                continue
            base = suit * 9
            found.extend(base + rank for rank in _completing_ranks(parts[suit]))
    if all(complete):
        suit_pairs = sum(1 for remainder in remainders if remainder == 2)
        for tile in range(27, 34):
            n = counts[tile]
            if n not in (1, 2, 4):
                continue
            # Adding one: 1 -> a pair, 2 -> a pung, 4 -> a pung and a pair.
            pairs = honour_pairs - (n == 2) + (n in (1, 4)) + suit_pairs
            if honour_bad - (n in (1, 4)) == 0 and pairs == 1:
                found.append(tile)
    return found
