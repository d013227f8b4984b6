"""The Wilmington Advanced 12-Tile scoring engine: plain Python, no Django.

Its rules are in this package: the patterns as data (`patterns`), the hand with its joker
(`hand`), which patterns a reading holds (`rules`), the search over joker values and readings
(`scoring`) and a whole deal with several winners (`deal`). Tiles, notation, arrangements,
error codes and payments are the engine's shared ones.

>>> from scoring.engine.wa import score_wa_case
>>> score_wa_case(case).to_case()  # {"hands": [...], "payments": {"E": ..., ...}}
"""

from __future__ import annotations

from .deal import WaDealResult, score_wa_case
from .hand import JOKER, WaHand, parse_wa_case
from .patterns import BY_KEY, PATTERNS, Pattern
from .scoring import PatternLine, WaResult, score_wa_hand

__all__ = [
    "BY_KEY",
    "JOKER",
    "PATTERNS",
    "Pattern",
    "PatternLine",
    "WaDealResult",
    "WaHand",
    "WaResult",
    "parse_wa_case",
    "score_wa_case",
    "score_wa_hand",
]
