"""Exact cover: choose options so that every item is covered exactly once."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol, TypeVar


class Sortable(Hashable, Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


# Options and items are tried in sorted order, so that the answer is always the same.
Option = TypeVar("Option", bound=Sortable)
Item = TypeVar("Item", bound=Sortable)


def exact_cover(  # noqa: C901 - Knuth's algorithm X: choose, cover and uncover in one recursion
    options: Mapping[Option, Sequence[Item]], limit: int
) -> list[Option] | None:
    """Options (keys) that cover every item of their lists exactly once, or None.

    Backtracking that always branches on an item with the fewest options left (Knuth's
    algorithm X), in sorted order so that the answer is always the same.
    """
    holders: dict[Item, set[Option]] = {}
    for option, items in options.items():
        for item in items:
            holders.setdefault(item, set()).add(option)
    chosen: list[Option] = []
    budget = [limit]

    def take(option: Option) -> list[set[Option]]:
        removed = []
        for item in options[option]:
            for other in holders[item]:
                for other_item in options[other]:
                    if other_item != item:
                        holders[other_item].discard(other)
            removed.append(holders.pop(item))
        return removed

    def give_back(option: Option, removed: list[set[Option]]) -> None:
        for item in reversed(options[option]):
            holders[item] = removed.pop()
            for other in holders[item]:
                for other_item in options[other]:
                    if other_item != item:
                        holders[other_item].add(other)

    def search() -> bool:
        if not holders:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        item = min(holders, key=lambda i: (len(holders[i]), i))
        for option in sorted(holders[item]):
            chosen.append(option)
            removed = take(option)
            if search():
                return True
            give_back(option, removed)
            chosen.pop()
        return False

    return chosen if search() else None
