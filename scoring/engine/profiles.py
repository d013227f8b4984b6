"""Ruling profiles: where rulebooks disagree, the profile decides (rules/RULINGS.md).

A profile is data: a name, a description, the fan values it changes and the rulings where it
departs from the engine's own tables (the "does not combine with" table of `hand_fans.py`, the
hands whose shape implies the concealment, the tiles that make a Tile Hog). The fan code reads
the compiled `Rulings` and never asks which profile is in force.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from .fans import BY_KEY, FANS
from .hand_fans import CONCEALED_SHAPES, EXCLUSIONS, Exclusions
from .tiles import SUITED


@dataclass(frozen=True)
class RulingProfile:
    key: str
    title: str
    description: str
    #: Fan key -> value, where the profile's value differs from the fan table's.
    overrides: Mapping[str, int] = field(default_factory=dict)
    #: (fan, other): pairs the engine's "does not combine with" table keeps apart and this
    #: profile lets combine.
    combines: tuple[tuple[str, str], ...] = ()
    #: (fan, other): pairs the table lets combine and this profile keeps apart.
    excludes: tuple[tuple[str, str], ...] = ()
    #: Fans of hands concealed by their shape (`hand_fans.CONCEALED_SHAPES`) that score Fully
    #: Concealed Hand, not Self-Drawn, when self-drawn with no claimed set.
    fully_concealed: frozenset[str] = frozenset()
    #: Whether four copies of an honour (possible only in Seven Pairs) make a Tile Hog.
    tile_hog_of_honors: bool = True

    @property
    def values(self) -> tuple[int, ...]:
        return self.rulings.values

    @cached_property
    def rulings(self) -> Rulings:
        return Rulings(self)


class Rulings:
    """A profile compiled for the fan code: fan ids instead of keys."""

    __slots__ = ("values", "exclusions", "fully_concealed", "tile_hog_tiles")

    def __init__(self, profile: RulingProfile) -> None:
        def fan_id(key: str) -> int:
            try:
                return BY_KEY[key].id
            except KeyError:
                raise KeyError(f"profile {profile.key}: unknown fan {key!r}") from None

        for key in profile.overrides:
            fan_id(key)
        self.values: tuple[int, ...] = tuple(
            profile.overrides.get(fan.key, fan.points) for fan in FANS
        )
        table = {fan: list(others) for fan, others in EXCLUSIONS}
        for fan, other in profile.combines:
            first, second = fan_id(fan), fan_id(other)
            if second not in table.get(first, ()):
                raise ValueError(f"profile {profile.key}: {fan} already combines with {other}")
            table[first].remove(second)
        added: dict[int, list[int]] = {}
        for fan, other in profile.excludes:
            first, second = fan_id(fan), fan_id(other)
            (table[first] if first in table else added.setdefault(first, [])).append(second)
        # A fan that only this profile gives exclusions to goes first: nothing excludes it.
        self.exclusions: Exclusions = tuple(
            (fan, tuple(others)) for fan, others in (*added.items(), *table.items()) if others
        )
        fully_concealed = {fan_id(key) for key in profile.fully_concealed}
        if not fully_concealed <= set(CONCEALED_SHAPES):
            raise ValueError(f"profile {profile.key}: fully_concealed holds a fan of no shape")
        self.fully_concealed = frozenset(fully_concealed)
        self.tile_hog_tiles: tuple[int, ...] = (
            tuple(range(34)) if profile.tile_hog_of_honors else tuple(sorted(SUITED))
        )


DEFAULT_PROFILE = "wmo-2006"

#: The Green Book's shapes that "combine with Fully Concealed if self-drawn".
_GREEN_BOOK_FULLY_CONCEALED = frozenset(
    {
        "nine_gates",
        "four_concealed_pungs",
        "seven_pairs",
        "seven_shifted_pairs",
        "thirteen_orphans",
        "lesser_honors_and_knitted_tiles",
        "greater_honors_and_knitted_tiles",
    }
)

PROFILES: dict[str, RulingProfile] = {
    profile.key: profile
    for profile in (
        RulingProfile(
            "wmo-2006",
            "WMO Green Book 2006",
            "The rules of international MCR events (WMO, EMA): Two Concealed Kongs is 8 fan; "
            "concealed special hands won by self-draw score Fully Concealed Hand; All Green "
            "with the green dragon is also a Half Flush; All Terminals combines with Double "
            "Pung; Tile Hog is for suit tiles only; Nine Gates never adds a Pung of Terminals "
            "or Honors.",
            combines=(("all_green", "half_flush"), ("all_terminals", "double_pung")),
            excludes=(("nine_gates", "pung_of_terminals_or_honors"),),
            fully_concealed=_GREEN_BOOK_FULLY_CONCEALED,
            tile_hog_of_honors=False,
        ),
        RulingProfile(
            "cn-1998",
            "Chinese rules 1998",
            "The 1998 Chinese competition rules: Two Concealed Kongs is 6 fan.",
            overrides={"two_concealed_kongs": 6},
        ),
    )
}


def get_profile(key: str | RulingProfile) -> RulingProfile:
    if isinstance(key, RulingProfile):
        return key
    try:
        return PROFILES[key]
    except KeyError:
        raise ValueError(
            f"Unknown ruling profile {key!r}; choose one of {', '.join(PROFILES)}."
        ) from None
