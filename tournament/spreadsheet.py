"""Text written into files that people open in a spreadsheet (CSV and XLSX exports).

A spreadsheet reads a cell that starts with `=`, `+`, `-` or `@` (and, in some, a tab or a
carriage return) as a formula: a player named `=HYPERLINK(...)` would become a live link in
the organiser's copy of the standings. Every export writes the text people typed (names, keys,
clubs, countries, EMA numbers) through `safe_text`, which puts an apostrophe before such a
first character, the mark spreadsheets read as "this is text". Numbers are written as numbers
and never pass through it, so a negative score stays a number.
"""

from __future__ import annotations

from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_text(value: Any) -> Any:
    """`value` as a spreadsheet cell that cannot be a formula: text with a formula's first
    character gets a leading apostrophe; anything that is not text is returned as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
