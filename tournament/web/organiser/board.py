"""The live board of a round: every table's progress, the round clock, sheet confirmation."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse


def board(request: HttpRequest, **where: Any) -> HttpResponse:
    raise Http404("Not built yet.")


def clock(request: HttpRequest, **where: Any) -> HttpResponse:
    raise Http404("Not built yet.")


def confirm_all(request: HttpRequest, **where: Any) -> HttpResponse:
    raise Http404("Not built yet.")


def confirm(request: HttpRequest, **where: Any) -> HttpResponse:
    raise Http404("Not built yet.")
