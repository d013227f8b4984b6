"""What scoring a hand returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import compress
from types import MappingProxyType
from typing import Any

from . import errors
from .explain import SetLine, explain
from .fans import FANS, FLOWER_TILES
from .hand import Hand
from .messages import render

_NO_PARAMS: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class FanLine:
    key: str
    en: str
    zh: str
    points: int
    count: int

    @property
    def total(self) -> int:
        return self.points * self.count


class ScoreResult:
    """The verdict on one hand.

    `error` is the stable code (None for a win); `message_key` and `message_params` say why in
    words (`message` is the English sentence, "" for a win).

    `fans` and the totals are computed when the hand is scored; the arrangement and which sets
    each fan used are worked out on first access (`arrangement`, `fan_sets`), as only the
    people reading a breakdown need them.
    """

    __slots__ = (
        "error",
        "message_key",
        "message_params",
        "profile",
        "total",
        "total_excl_flowers",
        "minimum",
        "fans",
        "hand",
        "_verdict",
        "_explained",
    )

    def __init__(
        self,
        *,
        error: str | None,
        message_key: str | None = None,
        message_params: Mapping[str, Any] = _NO_PARAMS,
        profile: str,
        total: int | None,
        total_excl_flowers: int | None,
        minimum: int,
        fans: tuple[FanLine, ...],
        hand: Hand | None,
        verdict: Any = None,
    ) -> None:
        self.error = error
        self.message_key = message_key
        self.message_params = message_params
        self.profile = profile
        self.total = total
        self.total_excl_flowers = total_excl_flowers
        self.minimum = minimum
        self.fans = fans
        self.hand = hand
        self._verdict = verdict
        self._explained: tuple[tuple[SetLine, ...], dict[str, tuple[int, ...]]] | None = None

    @property
    def message(self) -> str:
        """Why the hand is not a valid win, in English ("" for a win)."""
        if self.message_key is None:
            return ""
        return render(self.message_key, self.message_params)

    @property
    def meets_minimum(self) -> bool:
        return self.total_excl_flowers is not None and self.total_excl_flowers >= self.minimum

    @property
    def is_win(self) -> bool:
        return self.error is None

    def _explain(self) -> tuple[tuple[SetLine, ...], dict[str, tuple[int, ...]]]:
        if self._explained is None:
            if self._verdict is None:
                self._explained = ((), {})
            else:
                self._explained = explain(self._verdict)
        return self._explained

    @property
    def arrangement(self) -> tuple[SetLine, ...]:
        return self._explain()[0]

    @property
    def fan_sets(self) -> dict[str, tuple[int, ...]]:
        """Fan key -> indexes into `arrangement` of the sets that fan counted."""
        return self._explain()[1]

    def to_dict(self) -> dict:
        fan_sets = self.fan_sets
        return {
            "error": self.error,
            "message": self.message,
            "profile": self.profile,
            "total": self.total,
            "total_excl_flowers": self.total_excl_flowers,
            "minimum": self.minimum,
            "meets_minimum": self.meets_minimum,
            "fans": [
                {
                    "key": f.key,
                    "en": f.en,
                    "zh": f.zh,
                    "points": f.points,
                    "count": f.count,
                    "sets": list(fan_sets.get(f.key, ())),
                }
                for f in self.fans
            ],
            "arrangement": [
                {
                    "kind": s.kind,
                    "tiles": list(s.tiles),
                    "declared": s.declared,
                    "concealed": s.concealed,
                }
                for s in self.arrangement
            ],
        }

    def __repr__(self) -> str:
        if self.error and self.total is None:
            return f"<ScoreResult {self.error}>"
        fans = ", ".join(
            f"{f.en} {f.points}" + (f"x{f.count}" if f.count > 1 else "") for f in self.fans
        )
        state = self.error or "win"
        return f"<ScoreResult {state} {self.total} ({self.total_excl_flowers}): {fans}>"


_LINES: dict[tuple[int, int, int], FanLine] = {}
_FAN_IDS = range(len(FANS))


def fan_lines(table: list[int], values: tuple[int, ...], flowers: int) -> tuple[FanLine, ...]:
    lines = []
    for fan_id in compress(_FAN_IDS, table):
        n = table[fan_id]
        if n > 0:
            key = (fan_id, n, values[fan_id])
            line = _LINES.get(key)
            if line is None:
                fan = FANS[fan_id]
                line = _LINES[key] = FanLine(fan.key, fan.en, fan.zh, values[fan_id], n)
            lines.append(line)
    if flowers:
        fan = FANS[FLOWER_TILES]
        lines.append(FanLine(fan.key, fan.en, fan.zh, values[FLOWER_TILES], flowers))
    return tuple(lines)


def failure(
    error: errors.HandError, profile: str, minimum: int, hand: Hand | None = None
) -> ScoreResult:
    return ScoreResult(
        error=error.code,
        message_key=error.message_key,
        message_params=error.message_params,
        profile=profile,
        total=None,
        total_excl_flowers=None,
        minimum=minimum,
        fans=(),
        hand=hand,
    )
