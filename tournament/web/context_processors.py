"""What every page's header needs to know about the visitor."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.http import HttpRequest

from tournament.reads.permissions import may_organise


def navigation(request: HttpRequest) -> dict[str, Any]:
    """`may_organise`: whether to offer the organiser's pages (asked only when a page shows the
    header for a logged-in user, once)."""
    return {"may_organise": cache(lambda: may_organise(request.user))}
