"""Scoring a JT win: hand in, verdict out (sections 3-5), and the payments of a whole deal
in the case format (section 8, by `settlement`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import errors
from ..errors import HandError
from ..messages import render
from .hand import JtHand, check, parse_jt_case
from .patterns import BY_KEY
from .readings import JtSet, Line, Reading, Tiles


@dataclass(frozen=True, slots=True)
class PatternLine:
    key: str
    en: str
    value: int
    unit: str  # "pts", "dbl" or "%"
    count: int
    sets: tuple[int, ...]  # indexes into the reading's sets


@dataclass(frozen=True, slots=True)
class JtResult:
    """The verdict on one JT win. `error` is None for a win, else a stable code with a message
    key and parameters (`message`: the English sentence). For a win: the final score F, the
    points P, doubles D and raw score R of the reading kept, whether the limit was reached,
    each pattern, and the reading itself (the sets, the pair last)."""

    error: str | None = None
    message_key: str | None = None
    message_params: Mapping[str, Any] = field(default_factory=dict)
    final: int | None = None
    points: int | None = None
    doubles: int | None = None
    raw: int | None = None
    limit: bool = False
    shape: str | None = None
    patterns: tuple[PatternLine, ...] = ()
    reading: tuple[JtSet, ...] = ()
    hand: JtHand | None = None

    @property
    def message(self) -> str:
        return "" if self.message_key is None else render(self.message_key, self.message_params)

    @property
    def is_win(self) -> bool:
        return self.error is None

    def case_hand(self) -> dict[str, Any]:
        """The case format's `expected.hand`."""
        return {
            "error": self.error,
            "patterns": [[p.key, p.en, p.value, p.unit, p.count] for p in self.patterns],
            "points": self.points,
            "doubles": self.doubles,
            "raw": self.raw,
            "final": self.final,
            "limit": self.limit,
        }

    def to_dict(self) -> dict[str, Any]:
        """Everything, for the API and the pages: the case shape plus the message, the shape
        and the reading, and which sets each pattern counted."""
        return {
            **self.case_hand(),
            "message": self.message,
            "shape": self.shape,
            "patterns": [
                {
                    "key": p.key,
                    "en": p.en,
                    "value": p.value,
                    "unit": p.unit,
                    "count": p.count,
                    "sets": list(p.sets),
                }
                for p in self.patterns
            ],
            "reading": [
                {
                    "kind": s.kind,
                    "tiles": list(s.codes),
                    "declared": s.declared,
                    "concealed": s.concealed,
                    "winning": s.winning,
                }
                for s in self.reading
            ],
        }


def _failure(error: HandError, hand: JtHand | None = None) -> JtResult:
    return JtResult(
        error=error.code,
        message_key=error.message_key,
        message_params=error.message_params,
        hand=hand,
    )


def best_reading(readings: list[Reading]) -> Reading:
    """The reading kept: highest F, then highest R, then most doubles (section 3)."""
    return max(readings, key=_rank)


def _rank(reading: Reading) -> tuple[int, int, int, bool]:
    return reading.rank


def all_readings(hand: JtHand) -> list[Reading]:
    """Every reading of a checked hand (raises HandError for a hand that fails the checks)."""
    standing, _fixed, present = check(hand)
    return Tiles(hand, standing, present).readings()


def score_jt_hand(hand: JtHand) -> JtResult:
    """Score a parsed JT win. Never raises for a bad hand: the result carries the error."""
    try:
        readings = all_readings(hand)
        if not readings:
            raise HandError(errors.NOT_WIN, "not_a_winning_hand")
    except HandError as error:
        return _failure(error, hand)
    best = best_reading(readings)
    return JtResult(
        final=best.final,
        points=best.points,
        doubles=best.doubles,
        raw=best.raw,
        limit=best.limit,
        shape=best.shape,
        patterns=tuple(_pattern_line(line) for line in best.lines),
        reading=best.sets,
        hand=hand,
    )


def _pattern_line(line: Line) -> PatternLine:
    pattern = BY_KEY[line.key]
    return PatternLine(line.key, pattern.en, line.value, pattern.unit, line.count, line.sets)


def score_jt_case(case: Any) -> JtResult:
    """Parse a JT win in the case format and score it; a bad hand gives a result with its
    error."""
    try:
        hand = parse_jt_case(case)
    except HandError as error:
        return _failure(error)
    return score_jt_hand(hand)
