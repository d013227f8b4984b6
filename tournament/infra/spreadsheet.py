"""Text written into files that people open in a spreadsheet (CSV and XLSX exports).

A spreadsheet reads a cell that starts with `=`, `+`, `-` or `@` (and, in some, `|`, a tab or
a carriage return) as a formula: a player named `=HYPERLINK(...)` would become a live link in
the organiser's copy of the standings. Some read the fullwidth forms (＝, ＋, －, ＠, ｜) as
their ASCII ones, and some skip spaces, the ideographic space among them, before the first
character. Every export writes the text people typed (names, keys, clubs, countries, EMA
numbers) through `safe_text`, which puts an apostrophe before such a cell, the mark
spreadsheets read as "this is text". Numbers are written as numbers and never pass through
it, so a negative score stays a number.
"""

from __future__ import annotations

import unicodedata
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "|", "\t", "\r")
# Spaces a spreadsheet may skip before a formula's first character: ASCII and ideographic.
_LEADING_SPACES = " \u3000"


def formula_like(text: str) -> bool:
    """Whether a spreadsheet could read `text` as a formula: its first character, after any
    spaces and in its ASCII form (NFKC: ＝ is =), starts one."""
    if text.startswith(("\t", "\r")):
        return True
    first = text.lstrip(_LEADING_SPACES)[:1]
    return bool(first) and unicodedata.normalize("NFKC", first).startswith(FORMULA_STARTS)


def safe_text(value: Any) -> Any:
    """`value` as a spreadsheet cell that cannot be a formula: text that could be read as one
    gets a leading apostrophe; anything that is not text is returned as it is."""
    if isinstance(value, str) and formula_like(value):
        return "'" + value
    return value
