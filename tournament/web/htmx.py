"""The requests of pages that answer htmx: django-htmx's middleware sets `request.htmx`."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from tournament.reads.access import AuthenticatedRequest


class HtmxRequest(HttpRequest):
    """A request as django-htmx leaves it: `htmx` is true when htmx sent it."""

    htmx: HtmxDetails


class AuthenticatedHtmxRequest(AuthenticatedRequest, HtmxRequest):
    """A logged-in request that htmx may have sent."""
