"""Fan names in the reader's language.

The engine keeps both names of every fan as data (`scoring.engine.fans`: `en` and `zh`) and knows
nothing of Django; pages pick the name for the active language here. Chinese readers get the
Chinese name; everyone else the English one, with the Chinese name beside it where a page has room.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language


def reads_chinese(language: str | None = None) -> bool:
    """Whether `language` (default: the active one) is a Chinese interface language."""
    return (language or get_language() or "").lower().startswith("zh")


def _names(fan: Any) -> tuple[str, str]:
    if isinstance(fan, dict):
        return fan.get("en", ""), fan.get("zh", "")
    return getattr(fan, "en", ""), getattr(fan, "zh", "")


def fan_name(fan: Any, language: str | None = None) -> str:
    """The name of `fan` (an engine Fan, a statistics FanCount or an API fan dict) to show."""
    en, zh = _names(fan)
    return (zh or en) if reads_chinese(language) else (en or zh)


def fan_second_name(fan: Any, language: str | None = None) -> str:
    """The Chinese name shown beside the English one, or "" when the page is already in Chinese."""
    en, zh = _names(fan)
    return "" if reads_chinese(language) else zh
