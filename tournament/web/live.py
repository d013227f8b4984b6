"""Conditional requests for the live updates of the public pages.

A live page (standings, round, table) polls its own address with htmx. Each fragment it gets
carries an ETag made of the tournament's LiveVersion number (bumped in the same transaction as
every change those pages show, see tournament.services.live), for a round's or a table's page
also of the last audit entry of its tables (a game in play changes only those: its hands and
penalties do not bump the tournament's number, so the standings stay 304 while hands are
entered), and of what else the fragment depends on: the address, the language and the
visitor's session. The browser keeps the
fragment (``Cache-Control: no-cache``: kept, but asked about every time) and sends the ETag
back in If-None-Match; when the number has not moved, the answer is 304 from one query,
without computing or rendering anything, and the browser hands htmx the fragment it kept.

The number lives in the database, so several application servers agree on it. Only public
tournaments are answered so: a private one has every request checked and rendered as before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.db.models import Exists, IntegerField, OuterRef, Subquery, Value
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag
from django.views.decorators.http import condition

from tournament.clock import Clock
from tournament.models import AuditEntry, Tournament
from tournament.web.htmx import HtmxRequest


def live_etag(request: HtmxRequest, slug: str, *args: Any, **kwargs: Any) -> str | None:
    """The ETag of a live update of the tournament at `slug`; None (no conditional answer)
    for a whole page, a private or unknown tournament."""
    if not request.htmx:
        return None
    found = Tournament.objects.filter(slug=slug, public=True)
    # A round's or a table's page also shows the games in play there, whose hands and
    # penalties move only their tables' audit trail (tournament.services._common.audit).
    if "number" in kwargs:
        changes = AuditEntry.objects.filter(
            tournament=OuterRef("pk"), table__round__number=kwargs["number"]
        )
        if "table" in kwargs:
            changes = changes.filter(table__number=kwargs["table"])
        found = found.annotate(last_change=Subquery(changes.order_by("-pk").values("pk")[:1]))
    else:
        found = found.annotate(last_change=Value(None, output_field=IntegerField()))
    row = found.values_list("pk", "live_version__number", "last_change").first()
    if row is None:
        return None
    # No LiveVersion row: nothing has changed since the tournament was made.
    version = f"{row[1] or 0}.{row[2] or 0}"
    return f"live-{version}-{request_digest(request)}"


def request_digest(request: HttpRequest) -> str:
    """What a live fragment depends on besides the data: the address with its query, the
    part of the page htmx asks for (HX-Target), the language, the session and the user."""
    user = getattr(request, "user", None)
    depends_on = "\n".join(
        (
            request.get_full_path(),
            request.headers.get("HX-Target", ""),
            getattr(request, "LANGUAGE_CODE", ""),
            request.COOKIES.get(settings.SESSION_COOKIE_NAME, ""),
            str(user.pk) if user is not None and user.is_authenticated else "",
        )
    )
    return hashlib.sha256(depends_on.encode()).hexdigest()[:16]


def clock_tag(clock: Clock) -> str:
    """The part of a fragment's tag for a round clock it shows: its state, the expected hands
    (and so who is behind), and while it runs the minute it is in. Within one minute a poll
    may be answered 304: the browser counts the seconds down itself (static/tournament/live.js
    keeps the countdown it runs when the fragment it gets is the one it has)."""
    minute = clock.remaining_seconds // 60 if clock.running else clock.remaining_seconds
    return f"{clock.state}.{minute}.{clock.expected_hands}.{clock.total_seconds}"


def last_change(**where: Any) -> Subquery:
    """The last audit entry matching `where` (OuterRef allowed), for an annotation."""
    return Subquery(AuditEntry.objects.filter(**where).order_by("-pk").values("pk")[:1])


def organises(user: Any, tournament: Any) -> Exists | Value:
    """An annotation: whether `user` organises the tournament `tournament` (an OuterRef)."""
    if not user.is_authenticated or not user.is_active:
        return Value(False)
    if user.is_superuser:
        return Value(True)
    through = Tournament.organisers.through
    return Exists(through.objects.filter(tournament=tournament, user=user.pk))


def answer_live(
    request: HttpRequest, tag: str | None, render: Callable[[], HttpResponse]
) -> HttpResponse:
    """304 when the client sent back `tag` (made of what the fragment shows, see
    `request_digest` for the rest), else `render()` sent with it as its ETag; without a tag,
    `render()` as it is. Call it only once the user's access is known to be good."""
    if tag is None:
        return render()
    etag = quote_etag(f"{tag}-{request_digest(request)}")
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = render()
        if response.status_code != 200:
            return response
        response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


def conditional_live(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Answer a live update 304 when the client has the current version; a fragment sent
    with an ETag may be kept by the browser but must be asked about again each time."""
    conditional = condition(etag_func=live_etag)(view)

    @wraps(view)
    def wrapper(request: HtmxRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = conditional(request, *args, **kwargs)
        if response.has_header("ETag"):
            response["Cache-Control"] = "no-cache"
        return response

    return wrapper
