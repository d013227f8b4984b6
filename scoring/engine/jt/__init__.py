"""Japanese Transitional: scoring a win from its tiles (rules/japanese-transitional.md,
sections 2-8). Plain Python, no Django. The patterns are data (`patterns.PATTERNS`); the tiles,
notation, arrangements and validation codes are the engine's shared ones; the payments are
`settlement.deal_payments` under the JT preset.

>>> from scoring.engine.jt import parse_jt_compact, score_jt_hand
>>> score_jt_hand(parse_jt_compact("34m 567p 345s 678s 99m 2m", self_drawn=True)).final
90
"""

from __future__ import annotations

from .deal import DealVerdict, settle_jt_case
from .hand import FLAGS, JtHand, parse_jt_case, parse_jt_compact
from .patterns import BY_KEY, PATTERNS, Pattern
from .scoring import JtResult, PatternLine, score_jt_case, score_jt_hand

__all__ = [
    "BY_KEY",
    "FLAGS",
    "PATTERNS",
    "DealVerdict",
    "JtHand",
    "JtResult",
    "Pattern",
    "PatternLine",
    "parse_jt_case",
    "parse_jt_compact",
    "score_jt_case",
    "score_jt_hand",
    "settle_jt_case",
]
