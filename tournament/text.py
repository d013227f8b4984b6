"""Text that PostgreSQL cannot store: a NUL character, or half of a UTF-16 surrogate pair (which
no UTF-8 text holds). Checked wherever text comes in from outside: forms and the API refuse a
NUL themselves; the player list import and the archive import check for both here."""

from __future__ import annotations

import re

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(text: str) -> bool:
    """Whether the database can store `text`."""
    return _UNSTORABLE.search(text) is None
