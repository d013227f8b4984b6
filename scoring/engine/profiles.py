"""Ruling profiles: where rulebooks disagree on a value, the profile decides (rules/RULINGS.md).

A profile is data: a name, a description and the fan values it changes. The fan code never
asks which profile is in force.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .fans import BY_KEY, FANS


@dataclass(frozen=True)
class RulingProfile:
    key: str
    title: str
    description: str
    overrides: dict[str, int] = field(default_factory=dict)

    @property
    def values(self) -> tuple[int, ...]:
        return _values(self)


_VALUES_CACHE: dict[str, tuple[int, ...]] = {}


def _values(profile: RulingProfile) -> tuple[int, ...]:
    cached = _VALUES_CACHE.get(profile.key)
    if cached is None:
        for key in profile.overrides:
            if key not in BY_KEY:
                raise KeyError(f"profile {profile.key}: unknown fan {key!r}")
        cached = tuple(profile.overrides.get(fan.key, fan.points) for fan in FANS)
        _VALUES_CACHE[profile.key] = cached
    return cached


DEFAULT_PROFILE = "wmo-2006"

PROFILES: dict[str, RulingProfile] = {
    profile.key: profile
    for profile in (
        RulingProfile(
            "wmo-2006",
            "WMO Green Book 2006",
            "The rules of international MCR events (WMO, EMA): Two Concealed Kongs is 8 fan.",
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
