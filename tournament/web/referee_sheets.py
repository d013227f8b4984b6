"""Referee pages around the game sheet: the live part of the table screen (time left, sheet
status) and the confirmation of another table's sheet by a second referee.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse


def table_live(request: HttpRequest, **where: Any) -> HttpResponse:
    raise Http404("Not built yet.")


def sheets(request: HttpRequest, slug: str) -> HttpResponse:
    raise Http404("Not built yet.")


def confirm(request: HttpRequest, **where: Any) -> HttpResponse:
    raise Http404("Not built yet.")
