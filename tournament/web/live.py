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
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.postgres.expressions import ArraySubquery
from django.core.cache import caches
from django.db import connection
from django.db.models import JSONField, QuerySet, Subquery, Value
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import parse_etags, quote_etag

from tournament.models import AuditEntry, LiveVersion, Round, Table, Tournament
from tournament.reads.clock import Clock
from tournament.web.htmx import HtmxRequest


def live_tag(request: HtmxRequest, slug: str, *args: Any, **kwargs: Any) -> str | None:
    """The tag of a live update of the tournament at `slug` (`answer_live` adds what else it
    depends on); None (no conditional answer) for a whole page, a private or unknown
    tournament."""
    if not request.htmx:
        return None
    row = _version_row(slug, kwargs.get("number"), kwargs.get("table"))
    if row is None:
        return None
    # No LiveVersion row: nothing has changed since the tournament was made. The id tells a
    # tournament from an earlier one of the same address (deleted, then made or imported anew).
    version = f"{row[0]}.{row[1] or 0}.{row[2] or 0}"
    # Kept for the view, which keys the kept standings on it (tournament.reads.standings_cache).
    request.live_number = row[1] or 0  # type: ignore[attr-defined]
    return f"live-{version}"


def _version_row(slug: str, round: int | None, table: int | None) -> tuple | None:
    """(id, LiveVersion number, last audit entry of round `round` or of its table `table`)
    of the public tournament at `slug`, or None. A round's or a table's page also shows the
    games in play there, whose hands and penalties move only their tables' audit trail
    (tournament.services._common.audit), not the number.

    Every poll of every viewer asks this, so it is one statement written out once here rather
    than built by the ORM on each request (which cost more than running it)."""
    last_change = "NULL"
    params: list[Any] = []
    if round is not None:
        last_change = (
            f"(SELECT a.id FROM {_AUDIT} a JOIN {_TABLE} tb ON tb.id = a.table_id"
            f" JOIN {_ROUND} r ON r.id = tb.round_id"
            " WHERE a.tournament_id = t.id AND r.tournament_id = t.id AND r.number = %s"
            + (" AND tb.number = %s" if table is not None else "")
            + " ORDER BY a.id DESC LIMIT 1)"
        )
        params += [round] if table is None else [round, table]
    sql = (
        f"SELECT t.id, v.number, {last_change} FROM {_TOURNAMENT} t"
        f" LEFT JOIN {_VERSION} v ON v.tournament_id = t.id WHERE t.slug = %s AND t.public"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, slug])
        return cursor.fetchone()


_AUDIT = AuditEntry._meta.db_table
_TABLE = Table._meta.db_table
_ROUND = Round._meta.db_table
_TOURNAMENT = Tournament._meta.db_table
_VERSION = LiveVersion._meta.db_table


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


def own_minutes(round: Any) -> ArraySubquery | Value:
    """The different extra minutes of the tables of `round` (OuterRef allowed) whose games are
    not over, for an annotation: each is a clock of its own that a live part may show. An
    array is PostgreSQL's; elsewhere (SQLite, the quick start) the annotation is None and
    `minutes_of` asks for them in a query of their own."""
    if not arrays():
        return Value(None, output_field=JSONField())
    return ArraySubquery(_own_minutes(round).values("extra_minutes").distinct())


def _own_minutes(round: Any) -> QuerySet[Table]:
    tables = Table.objects.filter(round=round, ended_at__isnull=True).exclude(extra_minutes=0)
    return tables.order_by("extra_minutes")


def arrays() -> bool:
    """Whether the database reads `own_minutes` as an array (PostgreSQL)."""
    return connection.vendor == "postgresql"


def minutes_of(annotated: list[int] | None, round_id: int | None) -> list[int]:
    """What `own_minutes` found, or on a database without arrays the same read directly."""
    if annotated is not None or round_id is None:
        return list(annotated or ())
    return list(_own_minutes(round_id).values_list("extra_minutes", flat=True).distinct())


def last_change(**where: Any) -> Subquery:
    """The last audit entry matching `where` (OuterRef allowed), for an annotation."""
    return Subquery(AuditEntry.objects.filter(**where).order_by("-pk").values("pk")[:1])


def answer_live(
    request: HttpRequest,
    tag: str | None,
    render: Callable[[], HttpResponse],
    *,
    shared: bool = False,
) -> HttpResponse:
    """304 when the client sent back `tag` (made of what the fragment shows, see
    `request_digest` for the rest), else `render()` sent with it as its ETag; without a tag,
    `render()` as it is. Call it only once the user's access is known to be good.

    With `shared`, the last fragment drawn at this address (with this language and session)
    is kept in the "live" cache (a table of the database, so every application server sees
    it), and the next request is sent it without `render()` running when it is the version
    `tag` names (the other players at a table, every viewer of the standings), or when it was
    drawn less than `stale_seconds()` ago and the client's own copy is no newer (see
    `Kept.answer`). Its 200 answers say in X-Accel-Expires how long a cache in front (nginx,
    see hosting.live_cache) may keep them: what is left of those seconds."""
    if tag is None:
        return render()
    digest = request_digest(request)
    current = etag = quote_etag(f"{tag}-{digest}")
    response = get_conditional_response(request, etag=etag)
    kept: Kept | None = None
    # Read once a request: on Linux it is a file of /proc (see `busy`).
    window = stale_seconds() if response is None and shared else 0
    if response is None and shared:
        kept = Kept.read(digest)
        answer = kept.answer(request, etag, window) if kept else None
        if answer is not None:
            response, etag = answer
    if response is None:
        response = render()
        if response.status_code != 200:
            return response
        if shared:
            _keep_fragment(request, digest, etag, response, kept)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    if shared and response.status_code == 200:
        # The current version is current from now; an older kept one from when it was drawn.
        behind_for = _now() - kept.drawn_at if kept and etag == kept.etag != current else 0
        response["X-Accel-Expires"] = str(max(0, int(window - behind_for)))
    # The tag depends on the session; say so to any cache between, whether or not the view
    # (which a kept fragment skips) read the session.
    patch_vary_headers(response, ("Cookie",))
    return response


def conditional_live(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A public page's view whose live updates are answered by `answer_live`, shared between
    viewers, with the tag of `live_tag`."""

    @wraps(view)
    def wrapper(request: HtmxRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return answer_live(
            request,
            live_tag(request, *args, **kwargs),
            lambda: view(request, *args, **kwargs),
            shared=True,
        )

    return wrapper


def stale_seconds() -> int:
    """How old a public fragment may be when it is sent again after a change:
    LIVE_STALE_SECONDS, or LIVE_BUSY_SECONDS when larger and the machine is `busy()`. The
    referees' hands come first: when every processor is taken, the viewers see changes later
    rather than take the referees' share to draw them."""
    if settings.LIVE_BUSY_SECONDS > settings.LIVE_STALE_SECONDS and busy():
        return settings.LIVE_BUSY_SECONDS
    return settings.LIVE_STALE_SECONDS


def busy() -> bool:
    """Whether the machine's processors are all taken. On Linux, from the kernel's pressure
    stall information: some task waited for a processor at least BUSY_PRESSURE per cent of
    the last 10 s. Elsewhere (or where the kernel keeps none), from the 1-minute load average:
    at least one a processor this process may run on. Either is the kernel's, so every
    process and application server on the machine agrees; False where there is neither."""
    pressure = cpu_pressure()
    if pressure is not None:
        return pressure >= BUSY_PRESSURE
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return False
    try:
        processors = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        processors = os.cpu_count() or 1
    return load >= processors


def cpu_pressure() -> float | None:
    """The share (per cent) of the last 10 s in which some task waited for a processor, from
    Linux's pressure stall information; None where the kernel keeps none."""
    try:
        with CPU_PRESSURE.open() as pressure:
            return float(pressure.readline().split("avg10=", 1)[1].split()[0])
    except (OSError, IndexError, ValueError):
        return None


# Linux's pressure stall information for the processors: its first line is "some avg10=..."
# (the share of the last 10 s, 60 s and 300 s in which at least one task waited for one).
CPU_PRESSURE = Path("/proc/pressure/cpu")
# From this share of the last 10 s the machine is busy. Referees entering hands as fast as two
# processors answer keep it at 60-90% (benchmarks/venue_load.py); an idle machine under 1%.
BUSY_PRESSURE = 25.0


# A kept fragment lives this long at most; the cache also drops the oldest beyond its size
# (settings.CACHES["live"]).
KEEP_SECONDS = 300


def _now() -> float:
    """Seconds since the epoch, which every application server agrees on (tests move it)."""
    return time.time()


# "live-<tournament id>.<LiveVersion number>.<last audit entry>-<request digest>", as
# `live_tag` and `answer_live` make it.
_VERSIONED = re.compile(r'^(?:W/)?"live-(\d+)\.(\d+)\.(\d+)-([0-9a-f]{16})"$')


def _version(etag: str) -> tuple[int, int, int, str] | None:
    """(tournament id, LiveVersion number, last audit entry, digest) of a shared fragment's
    ETag; None for any other."""
    match = _VERSIONED.match(etag)
    if match is None:
        return None
    return int(match[1]), int(match[2]), int(match[3]), match[4]


def _no_older(version: tuple, than: tuple) -> bool:
    """Whether `version` shows at least what `than` shows: the same tournament and request,
    and neither its number nor its last audit entry behind (both only grow)."""
    return (
        version[0] == than[0]
        and version[3] == than[3]
        and version[1] >= than[1]
        and version[2] >= than[2]
    )


@dataclass(frozen=True)
class Kept:
    """The last fragment drawn at an address (for a language and a session): its ETag, when
    it was drawn (seconds since the epoch: application servers share it), and the answer."""

    etag: str
    drawn_at: float
    content: bytes
    headers: dict[str, str]

    @staticmethod
    def key(digest: str) -> str:
        """The cache key of the fragment kept for `request_digest`'s `digest`."""
        return "live-fragment:" + digest

    @classmethod
    def read(cls, digest: str) -> Kept | None:
        kept = caches["live"].get(cls.key(digest))
        return cls(*kept) if isinstance(kept, tuple) and len(kept) == 4 else None

    def answer(
        self, request: HttpRequest, etag: str, window: int
    ) -> tuple[HttpResponse, str] | None:
        """What to send for a request whose current ETag is `etag`, from this fragment: it
        when it is that version. Otherwise, when it was drawn less than `window` seconds
        (`stale_seconds()`) ago, is of the same tournament and is no older than the copy the
        client sent back (a viewer never sees the sheet go back): 304 when the client has it,
        else it with its own ETag. None: draw the fragment again."""
        if self.etag == etag:
            return self.response(), etag
        if _now() - self.drawn_at >= window:
            return None
        kept, current = _version(self.etag), _version(etag)
        if kept is None or current is None or not _no_older(current, kept):
            return None
        # A first poll sends no copy back; its page was just drawn, maybe newer than this. nginx
        # filling again what it keeps for every viewer (hosting.live_cache) sends none either, but
        # says so: what its viewers hold is no newer than the last fragment drawn, this one.
        if request.headers.get("X-Live-Refill") != "1":
            theirs = [
                _version(tag) for tag in parse_etags(request.headers.get("If-None-Match", ""))
            ]
            if not any(version and _no_older(kept, version) for version in theirs):
                return None
        not_modified = get_conditional_response(request, etag=self.etag)
        return (not_modified or self.response()), self.etag

    def response(self) -> HttpResponse:
        return HttpResponse(self.content, headers=self.headers)


def _keep_fragment(
    request: HttpRequest, digest: str, etag: str, response: HttpResponse, kept: Kept | None
) -> None:
    """Keep `response` for the next request at its address (`digest`), unless it is personal beyond
    what the tag says (it sets a cookie, or holds a CSRF token made for this visitor's
    cookie), or a newer one is kept already (drawn by another request meanwhile)."""
    if response.streaming or response.cookies or request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        return
    ours, theirs = _version(etag), _version(kept.etag) if kept else None
    if ours and theirs and theirs != ours and _no_older(theirs, ours):
        return
    headers = {name: value for name, value in response.items() if name.lower() != "etag"}
    fragment = (etag, _now(), response.content, headers)
    caches["live"].set(Kept.key(digest), fragment, KEEP_SECONDS)
