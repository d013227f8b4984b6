"""The query parameters of the pages, read one way: a page never fails on its address. A value
that is not one the page takes gives the page's default; a number out of range is brought to
the nearest end of it. (The API answers 400 instead: `tournament/api`.)"""

from __future__ import annotations

import re

from django.http import HttpRequest

# A whole number as an address writes it: ASCII digits only (not "²" or "٣", which Python's
# int() would read or choke on), an optional minus, and few enough digits to stay a number
# any column holds.
WHOLE = re.compile(r"-?[0-9]{1,18}")


def whole_number(request: HttpRequest, name: str, *, default: int, least: int, most: int) -> int:
    """The query parameter `name` as a whole number from `least` to `most`; `default` when it
    is missing or not a whole number."""
    text = request.GET.get(name)
    if text is None or not WHOLE.fullmatch(text):
        return default
    return max(least, min(most, int(text)))
