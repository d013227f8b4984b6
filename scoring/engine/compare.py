"""The same tiles under another ruling profile: its totals and the fans that differ, so a
referee can show a player who learned other rules where the two rulebooks part."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .fans import FANS
from .profiles import PROFILES, RulingProfile, get_profile
from .result import ScoreResult
from .scoring import score_hand


@dataclass(frozen=True, slots=True)
class FanDifference:
    """A fan counted differently: its value and count under the profile that scored the hand
    and under the other one (count 0 where that profile does not count it)."""

    key: str
    en: str
    zh: str
    points: int
    count: int
    other_points: int
    other_count: int


@dataclass(frozen=True, slots=True)
class ProfileComparison:
    """The verdict of the other profile on the same tiles. `differences` is empty when both
    profiles score the hand alike."""

    profile: str
    error: str | None
    total: int | None
    total_excl_flowers: int | None
    differences: tuple[FanDifference, ...]

    @property
    def differs(self) -> bool:
        return bool(self.differences)

    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "error": self.error,
            "total": self.total,
            "total_excl_flowers": self.total_excl_flowers,
            "differences": [
                {
                    "key": d.key,
                    "en": d.en,
                    "zh": d.zh,
                    "points": d.points,
                    "count": d.count,
                    "other_points": d.other_points,
                    "other_count": d.other_count,
                }
                for d in self.differences
            ],
        }


def other_profile(key: str) -> str:
    """The profile to compare with: the first one that is not `key`."""
    return next(other for other in PROFILES if other != key)


def compare_profiles(
    result: ScoreResult, other: str | RulingProfile | None = None
) -> ProfileComparison | None:
    """Score the hand of `result` under `other` (by default the other profile) and say which
    fans differ. None for a hand that was not scored (an error other than a false win): the
    tiles are refused alike under every profile."""
    if result.hand is None or result.total is None:
        return None
    this = get_profile(result.profile)
    theirs = get_profile(other if other is not None else other_profile(this.key))
    them = score_hand(result.hand, theirs)
    mine = {line.key: line.count for line in result.fans}
    counts = {line.key: line.count for line in them.fans}
    differences = tuple(
        FanDifference(
            fan.key,
            fan.en,
            fan.zh,
            this.values[fan.id],
            mine.get(fan.key, 0),
            theirs.values[fan.id],
            counts.get(fan.key, 0),
        )
        for fan in FANS
        if (fan.key in mine or fan.key in counts)
        and (mine.get(fan.key, 0), this.values[fan.id])
        != (counts.get(fan.key, 0), theirs.values[fan.id])
    )
    return ProfileComparison(
        theirs.key, them.error, them.total, them.total_excl_flowers, differences
    )
