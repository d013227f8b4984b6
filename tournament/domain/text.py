"""Text: what PostgreSQL cannot store, and lists and sentences joined in the reader's language.

Text that PostgreSQL cannot store: a NUL character, or half of a UTF-16 surrogate pair (which
no UTF-8 text holds). Checked wherever text comes in from outside: forms and the API refuse a
NUL themselves; the player list import and the archive import check for both here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.utils.translation import get_language

from scoring.words import listed as listed  # one list punctuation for both apps

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(text: str) -> bool:
    """Whether the database can store `text`."""
    return _UNSTORABLE.search(text) is None


def gap() -> str:
    """What stands between two sentences: a space, none on a Chinese page (。 ends one)."""
    return "" if (get_language() or "").startswith("zh") else " "


def sentences(texts: Iterable[object]) -> str:
    """Whole sentences one after the other, as `gap` separates them."""
    return gap().join(map(str, texts))
