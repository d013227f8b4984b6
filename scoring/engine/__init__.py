"""The MCR hand scoring engine: plain Python, no Django.

>>> from scoring.engine import parse_compact, score_hand
>>> result = score_hand(parse_compact("123m 456m 789m 234p 5s", self_drawn=True))
"""

from __future__ import annotations

from . import errors
from .compare import FanDifference, ProfileComparison, compare_profiles, other_profile
from .errors import HandError
from .explain import SetLine
from .fans import BY_KEY, BY_ZH, FANS, Fan
from .hand import Hand, Meld
from .messages import MESSAGES
from .notation import format_compact, parse_case, parse_compact
from .presets import PRESETS, RulePreset, get_preset
from .profiles import DEFAULT_PROFILE, PROFILES, RulingProfile, get_profile
from .result import FanLine, ScoreResult
from .scoring import score_case, score_hand
from .tiles import TILE_CODES

__all__ = [
    "BY_KEY",
    "BY_ZH",
    "DEFAULT_PROFILE",
    "FANS",
    "MESSAGES",
    "PRESETS",
    "PROFILES",
    "TILE_CODES",
    "Fan",
    "FanDifference",
    "FanLine",
    "Hand",
    "HandError",
    "Meld",
    "ProfileComparison",
    "RulePreset",
    "RulingProfile",
    "ScoreResult",
    "SetLine",
    "compare_profiles",
    "errors",
    "format_compact",
    "get_preset",
    "get_profile",
    "other_profile",
    "parse_case",
    "parse_compact",
    "score_case",
    "score_hand",
]
