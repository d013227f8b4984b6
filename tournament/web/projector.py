"""The full-screen projector page: the round clock, rotating standings and the next seating."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    raise Http404("Not built yet.")
