"""A player's own page behind their private link, /p/<secret>/: no account, no password.

Whoever holds the link sees the player's tournament, their check-in, their seats, games,
deals and penalties (what the public player page shows of them, for a private tournament
too), their rank and the rounds' times; checks in from it while the organiser allows it, and
calls a referee to their table. A wrong or revoked secret is 404 after the same work as a good
one: one hash and one query (`services.player_links.player_for_secret`).

The page marks what changed since the player last opened it (`Player.link_seen_at`): rounds
seated, deals corrected or removed and penalties at their tables. Opening the page (not
htmx's polls) moves that time on; the polls carry the time the page was opened with in
`?since=`, so what was marked stays marked while the page is open, and what changes meanwhile
is marked too.

The secret must not leak: every answer says Referrer-Policy same-origin (no other site is
ever sent the address; not no-referrer, under which browsers send the forms' Origin as
"null" and Django's CSRF check refuses the check-in and the call) and
Cache-Control private (nothing between keeps it; nginx keeps only the public pages under /t/,
hosting.live_cache.VISITOR_PAGES), the page tells search engines not to index it, and the polls are
not kept in the shared "live" cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import F, OuterRef, QuerySet
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.defaults import page_not_found

from scoring.words import Words
from tournament.models import AuditEntry, Player, RefereeCall, Round, Seat, Tournament
from tournament.reads.clock import ClockState, clock_of
from tournament.reads.prize_giving import public as public_standings
from tournament.services.check_in import self_check_in
from tournament.services.player_links import (
    call_referee,
    current_seat,
    mark_seen,
    player_for_secret,
)
from tournament.web.htmx import HtmxRequest
from tournament.web.live import answer_live, last_change
from tournament.web.public import player_record

# No other site is sent the page's address (see above).
REFERRER_POLICY = "same-origin"
# How often the page asks for fresh content, in seconds.
LIVE_SECONDS = 30

# What is marked when it happened at one of the player's tables since they last looked.
MARKED_AT_TABLES = (
    AuditEntry.Action.HAND_CORRECTED,
    AuditEntry.Action.HAND_REMOVED,
    AuditEntry.Action.PENALTY_RECORDED,
    AuditEntry.Action.PENALTY_CORRECTED,
    AuditEntry.Action.PENALTY_REMOVED,
)


def _private(response: HttpResponse) -> HttpResponse:
    """No cache but the browser's may keep it, and no address of it goes elsewhere."""
    if response.has_header("ETag"):
        response["Cache-Control"] = "private, no-cache"  # asked about each time (304)
    else:
        response["Cache-Control"] = "private, no-store"
    response["Referrer-Policy"] = REFERRER_POLICY
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["X-Accel-Expires"] = "0"  # nginx keeps nothing of it, whatever it is told
    return response


def _not_found(request: HtmxRequest) -> HttpResponse:
    return _private(page_not_found(request, Http404()))


def _linked(secret: str, *, tagged: bool) -> Player | None:
    """The player of `secret`, from one query; with `tagged`, with what the live tag reads:
    the tournament's live version and the last audit entry at the player's tables."""
    queryset: QuerySet[Player] | None = None
    if tagged:
        queryset = Player.objects.annotate(
            version=F("tournament__live_version__number"),
            changed=last_change(table__seats__player=OuterRef("pk")),
        )
    return player_for_secret(secret, queryset=queryset)


@require_http_methods(["GET", "HEAD"])
def page(request: HtmxRequest, secret: str) -> HttpResponse:
    player = _linked(secret, tagged=bool(request.htmx))
    if player is None:
        return _not_found(request)
    if not request.htmx:
        since = _seen_before(player)
        if request.method == "GET":
            mark_seen(player)
        return _private(_render(request, player, secret, since))
    since = _since(request, player)
    checked_in = int(player.checked_in_at.timestamp()) if player.checked_in_at else 0
    tag = (
        f"link-{player.tournament_id}.{getattr(player, 'version', 0) or 0}."
        f"{getattr(player, 'changed', 0) or 0}.{checked_in}"
    )
    return _private(answer_live(request, tag, lambda: _render(request, player, secret, since)))


def _seen_before(player: Player) -> datetime | None:
    return player.link_seen_at or player.link_issued_at


def _since(request: HtmxRequest, player: Player) -> datetime | None:
    """The time a poll marks changes from: `?since=` (seconds since the epoch, as the page
    wrote it), else when the player last looked."""
    text = request.GET.get("since", "")
    if text.isdigit() and len(text) <= 12:
        try:
            return datetime.fromtimestamp(int(text), tz=UTC)
        except (OverflowError, OSError, ValueError):
            pass
    return _seen_before(player)


def _render(
    request: HtmxRequest, player: Player, secret: str, since: datetime | None
) -> HttpResponse:
    tournament = player.tournament
    # A player sees the standings as the public does (`tournament.reads.prize_giving`).
    context = player_record(tournament, player, drafts=False, seen=public_standings(tournament))
    seat = current_seat(player)
    poll = reverse("player_link", args=[secret])
    if since is not None:
        poll += f"?since={int(since.timestamp())}"
    context.update(
        {
            "secret": secret,
            "poll_url": poll,
            "live_seconds": LIVE_SECONDS,
            "check_in_open": tournament.self_check_in and tournament.check_in_closed_at is None,
            "current_seat": seat,
            "current_others": _others(seat, context["at_table"]),
            "open_call": _open_call(seat),
            "schedule": _schedule(tournament),
            "news": _news(player, tournament, context, since),
            "public": tournament.public,
        }
    )
    if request.htmx:
        response = render(request, "tournament/player_link/_live.html", context)
    else:
        response = render(request, "tournament/player_link/page.html", context)
    return response


def _others(seat: Seat | None, at_table: dict[int, list[Seat]]) -> list[Seat]:
    """The other players at the table of `seat`, East to North."""
    if seat is None:
        return []
    seats = sorted(at_table.get(seat.table_id, []), key=lambda each: each.index)
    return [each for each in seats if each.pk != seat.pk]


def _open_call(seat: Seat | None) -> RefereeCall | None:
    if seat is None:
        return None
    return (
        RefereeCall.objects.filter(table_id=seat.table_id, answered_at__isnull=True)
        .order_by("called_at")
        .first()
    )


@dataclass(frozen=True)
class ScheduledRound:
    round: Round
    state: ClockState  # the clock's
    ends_at: datetime | None  # while the clock runs (or ran out)
    left: str  # while it is paused

    # The clock's states as questions, for the template.
    @property
    def running(self) -> bool:
        return self.state == ClockState.RUNNING

    @property
    def over(self) -> bool:
        return self.state == ClockState.OVER

    @property
    def paused(self) -> bool:
        return self.state == ClockState.PAUSED


def _schedule(tournament: Tournament) -> list[ScheduledRound]:
    """The published rounds with what their clocks say: when a running round ends, how long a
    paused one has left. Only what changes with the clock's own changes (the page is 304
    between them)."""
    rows = []
    for round in tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number"):
        round.tournament = tournament
        clock = clock_of(round)
        ends_at = None
        if clock.state in (ClockState.RUNNING, ClockState.OVER) and round.clock_started_at:
            ends_at = round.clock_started_at + timedelta(
                seconds=clock.total_seconds + round.clock_paused_seconds
            )
        rows.append(
            ScheduledRound(round, clock.state, ends_at, clock.display if clock.paused else "")
        )
    return rows


def _news(
    player: Player, tournament: Tournament, context: dict[str, Any], since: datetime | None
) -> list[str]:
    """What changed for the player since `since`: rounds seated (or their seating changed)
    with the player's table and seat, deals corrected or removed and penalties at their
    tables. Nothing before they first looked."""
    if since is None:
        return []
    news: list[str] = []
    seats = {item["round"].number: item["seat"] for item in context["seating"]}
    published = {}
    for entry in (
        AuditEntry.objects.filter(
            tournament=tournament,
            at__gt=since,
            action__in=(AuditEntry.Action.ROUND_STATUS, AuditEntry.Action.SEATING_CHANGED),
        )
        .order_by("pk")
        .values_list("action", "after")
    ):
        action, after = entry
        if not isinstance(after, dict) or after.get("round") not in seats:
            continue
        number = after["round"]
        if action == AuditEntry.Action.ROUND_STATUS and after.get("status") == "seated":
            published[number] = "seated"
        elif action == AuditEntry.Action.SEATING_CHANGED:
            published.setdefault(number, "changed")
    for number in sorted(published):
        seat = seats[number]
        names = {
            "round": number,
            "table": seat.table.number,
            "seat": seat.get_starting_wind_display(),
        }
        if published[number] == "seated":
            news.append(_("Round %(round)s is seated: table %(table)s, %(seat)s.") % names)
        else:
            news.append(
                _("The seating of round %(round)s changed: table %(table)s, %(seat)s.") % names
            )
    rounds = {item["seat"].table_id: item["round"].number for item in context["seating"]}
    words: Words = tournament.words
    for action, before, after, table_id in (
        AuditEntry.objects.filter(
            table_id__in=list(rounds), at__gt=since, action__in=MARKED_AT_TABLES
        )
        .order_by("pk")
        .values_list("action", "before", "after", "table_id")
    ):
        news.append(_change_text(action, before or after or {}, rounds[table_id], words))
    return news


def _change_text(action: str, facts: dict[str, Any], round: int, words: Words) -> str:
    number = facts.get("number") or facts.get("hand_number")
    names = {"round": round, "deal": words.deal_named(number, capital=False) if number else ""}
    if action == AuditEntry.Action.HAND_CORRECTED:
        return _("Round %(round)s: %(deal)s was corrected.") % names
    if action == AuditEntry.Action.HAND_REMOVED:
        return _("Round %(round)s: %(deal)s was removed.") % names
    if action == AuditEntry.Action.PENALTY_RECORDED:
        return _("Round %(round)s: a penalty was recorded at your table.") % names
    if action == AuditEntry.Action.PENALTY_CORRECTED:
        return _("Round %(round)s: a penalty at your table was corrected.") % names
    return _("Round %(round)s: a penalty at your table was removed.") % names


def _back(secret: str) -> HttpResponse:
    return _private(HttpResponseRedirect(reverse("player_link", args=[secret])))


@require_POST
def check_in(request: HtmxRequest, secret: str) -> HttpResponse:
    """The player checks themselves in, while the organiser allows it."""
    player = player_for_secret(secret)
    if player is None:
        return _not_found(request)
    try:
        self_check_in(player)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("You are checked in. Have a good tournament!"))
    return _back(secret)


@require_POST
def call(request: HtmxRequest, secret: str) -> HttpResponse:
    """The player calls a referee to their table in the round in play."""
    player = player_for_secret(secret)
    if player is None:
        return _not_found(request)
    try:
        made = call_referee(player)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("A referee is called to table %(table)s.") % {"table": made.table.number},
        )
    return _back(secret)
