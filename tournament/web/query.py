"""The query parameters of the pages, read one way: a page never fails on its address. A value
that is not one the page takes gives the page's default; a number out of range is brought to
the nearest end of it. (The API answers 400 instead: `tournament/api`.)"""

from __future__ import annotations

import re

from django.http import HttpRequest

# A whole number as an address writes it: ASCII digits only (not "²" or "٣", which Python's
# int() would choke on or read), with an optional minus.
WHOLE = re.compile(r"-?[0-9]+")
# More digits than this is out of any range a page takes (and int() refuses thousands).
MOST_DIGITS = 18


def whole_number(request: HttpRequest, name: str, *, default: int, least: int, most: int) -> int:
    """The query parameter `name` as a whole number from `least` to `most` (one out of range is
    the nearest end); `default` when it is missing or not a whole number."""
    text = request.GET.get(name)
    if text is None or not WHOLE.fullmatch(text):
        return default
    if len(text.lstrip("-")) > MOST_DIGITS:
        return least if text.startswith("-") else most
    return max(least, min(most, int(text)))
