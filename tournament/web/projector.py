"""The full-screen projector page: the round clock, rotating standings and the next seating.

The page holds two parts that update themselves (htmx polls; see `static/tournament/live.js`).
htmx asks the page's own address, and the element it will update (the HX-Target header) says
which part to answer:

- `pj-clock`: the clock of the round in play, every CLOCK_REFRESH seconds (the browser counts
  down between two updates);
- `pj-panel`: a panel that cycles through the pages of the standings, then (when at least two
  teams have players) the pages of the team standings, then the pages of the next round's
  seating. Each panel names the next one (`data-live-next`), which is asked for
  after `every` seconds (`?panel=standings&page=2`). Without JavaScript the whole page reloads
  on the next panel instead; `?panel=...&page=...` shows any panel directly.

`?seating=name` shows the seating as a list of players by name, each with their table and seat,
instead of table by table (for a hall where players look for their name).

The hall sees the projector, so its standings are the public's, whoever opened it: while
rounds are hidden until the prize-giving (`tournament.reads.prize_giving`), those before them, with
a notice. The prize-giving itself has its own page, `reveal`: the ranking shown one place at a
time from the last to the first.

Readable by whoever may read the tournament (404 otherwise). When nothing a part shows has
changed, htmx's request for it is answered 304 (tournament.web.live.answer_live).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from urllib.parse import urlencode

from django.db.models import Exists, F, OuterRef, Subquery, Value
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe

from tournament.domain.points import shown_score
from tournament.models import Round, Table, Tournament
from tournament.reads import stages
from tournament.reads.board import game_counts, next_seating_round, round_in_play, seating_of
from tournament.reads.clock import clock_of, table_clock
from tournament.reads.permissions import organises
from tournament.reads.prize_giving import public as public_standings
from tournament.reads.prize_giving import shown
from tournament.reads.selectors import format_points, standings
from tournament.reads.teams import team_standings, teams_shown
from tournament.web.htmx import HtmxRequest
from tournament.web.live import answer_live, arrays, clock_tag, minutes_of, own_minutes
from tournament.web.public import _access
from tournament.web.query import whole_number

STANDINGS_PER_PAGE = 16
TEAMS_PER_PAGE = 16
TABLES_PER_PAGE = 8
NAMES_PER_PAGE = 32  # the seating by name: two columns of 16, as many lines as the standings
CLOCK_REFRESH = 10
DEFAULT_EVERY = 15
EVERY_RANGE = (2, 300)  # seconds a panel stays, as ?every= may ask
PANELS = ("standings", "teams", "seating")
CLOCK_FIELDS = (
    "status",
    "clock_minutes",
    "clock_extra_minutes",
    "clock_started_at",
    "clock_paused_at",
    "clock_paused_seconds",
)


@dataclass(frozen=True)
class Panel:
    name: str
    page: int
    pages: int


def _cycle(players: int, tables: int, *, by_name: bool = False, teams: int = 0) -> list[Panel]:
    """Every panel in showing order: the standings pages, the team standings pages (`teams`
    teams; none for 0), then the seating pages (of tables, or `by_name` of the seated
    players)."""
    standing_pages = max(1, math.ceil(players / STANDINGS_PER_PAGE))
    panels = [Panel("standings", page, standing_pages) for page in range(1, standing_pages + 1)]
    team_pages = math.ceil(teams / TEAMS_PER_PAGE)
    panels += [Panel("teams", page, team_pages) for page in range(1, team_pages + 1)]
    seating_pages = (
        math.ceil(tables * 4 / NAMES_PER_PAGE) if by_name else math.ceil(tables / TABLES_PER_PAGE)
    )
    panels += [Panel("seating", page, seating_pages) for page in range(1, seating_pages + 1)]
    return panels


def _chosen(cycle: list[Panel], request: HttpRequest) -> int:
    """The index in `cycle` of the panel asked for; the first one for anything unknown."""
    name = request.GET.get("panel")
    wanted = whole_number(request, "page", default=1, least=1, most=10_000)
    for index, panel in enumerate(cycle):
        if panel.name == name and panel.page == wanted:
            return index
    return 0


@require_safe
def projector(request: HtmxRequest, slug: str) -> HttpResponse:
    return answer_live(request, _projector_tag(request, slug), lambda: _projector(request, slug))


def _projector_tag(request: HtmxRequest, slug: str) -> str | None:
    """What the part htmx asks for shows: the tournament's live version (results, seating,
    rounds, the clock, players), and for the clock the round clock itself; from one query that
    also checks the user may read the tournament. None (render, no
    304) for a whole page or a user who may not read it (the view then answers 404)."""
    if not request.htmx or request.htmx.target not in ("pj-clock", "pj-panel"):
        return None
    user = request.user
    signed_in = user.is_authenticated and user.is_active
    referees = Table.referees.through.objects.filter(
        table__round__tournament=OuterRef("pk"), user=user.pk
    )
    playing = Round.objects.filter(tournament=OuterRef("pk"), status=Round.Status.PLAYING).order_by(
        "-number"
    )
    found = (
        Tournament.objects.filter(slug=slug)
        .annotate(
            version=F("live_version__number"),
            organiser=organises(user, OuterRef("pk")),
            referee=Exists(referees) if signed_in else Value(False),
            # The round on the clock (`round_in_play`), its fields the clock needs.
            **{f"playing_{field}": Subquery(playing.values(field)[:1]) for field in CLOCK_FIELDS},
            playing_extras=own_minutes(Subquery(playing.values("pk")[:1])),
            # Where the minutes are not an array, they are read apart, by the round's id.
            **({} if arrays() else {"playing_pk": Subquery(playing.values("pk")[:1])}),
        )
        .first()
    )
    if found is None or not (found.public or found.organiser or found.referee):  # type: ignore[attr-defined]
        return None
    tag = f"projector-{found.version or 0}"  # type: ignore[attr-defined]
    if request.htmx.target == "pj-clock":
        fields = {field: getattr(found, f"playing_{field}") for field in CLOCK_FIELDS}
        if fields["status"] is None:
            tag += "-none"
        else:
            fields["clock_paused_seconds"] = fields["clock_paused_seconds"] or 0
            fields["clock_extra_minutes"] = fields["clock_extra_minutes"] or 0
            clock = clock_of(Round(tournament=found, **fields))
            tag += "-" + clock_tag(clock)
            # Tables with time of their own run out at other moments than the round.
            extras = minutes_of(
                found.playing_extras,  # type: ignore[attr-defined]
                getattr(found, "playing_pk", None),
            )
            for extra in extras:
                tag += "-" + clock_tag(clock.plus(extra))
    return tag


def _projector(request: HtmxRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    tournament = access.tournament
    least, most = EVERY_RANGE
    every = whole_number(request, "every", default=DEFAULT_EVERY, least=least, most=most)
    part = request.htmx.target if request.htmx else None

    playing = round_in_play(tournament)
    context: dict = {"tournament": tournament, "every": every, "clock_refresh": CLOCK_REFRESH}
    if playing is not None:
        playing.tournament = tournament
        clock = clock_of(playing)
        own = playing.tables.filter(ended_at__isnull=True).exclude(extra_minutes=0)
        context.update(
            playing=playing,
            clock=clock,
            own_time=[
                (table, table_clock(table, round_clock=clock)) for table in own.order_by("number")
            ],
        )
    else:
        context["seated"] = (
            tournament.rounds.filter(status=Round.Status.SEATED).order_by("number").first()
        )
    if part == "pj-clock":
        return _part(request, "tournament/projector/_clock.html", context)

    seen = public_standings(tournament)  # the hall's, organisers' laptops too
    rows = standings(tournament, before_round=seen.before_round)
    teams = team_standings(tournament, rows)
    if not teams_shown(teams):
        teams = []
    seating_round = next_seating_round(tournament)
    seating = seating_of(seating_round) if seating_round is not None else []
    by_name = request.GET.get("seating") == "name"
    cycle = _cycle(len(rows), len(seating), by_name=by_name, teams=len(teams))
    index = _chosen(cycle, request)
    panel = cycle[index]
    following = cycle[(index + 1) % len(cycle)]
    query = {"panel": following.name, "page": following.page}
    if "every" in request.GET:
        query["every"] = every
    if by_name:
        query["seating"] = "name"
    context.update(
        panel=panel,
        next_page_url=f"{request.path}?{urlencode(query)}",
        counts=game_counts(tournament, before_round=seen.before_round),
        shown=seen,
    )
    if panel.name == "standings":
        unconfirmed = {
            row.player.pk: row.provisional_games
            for row in standings(tournament, provisional=True, before_round=seen.before_round)
            if row.provisional_games
        }
        start = (panel.page - 1) * STANDINGS_PER_PAGE
        context["rows"] = [
            {
                "standing": row,
                "points": format_points(row.table_points),
                "score": shown_score(row.score),
                "unconfirmed": unconfirmed.get(row.player.pk, 0),
            }
            for row in rows[start : start + STANDINGS_PER_PAGE]
        ]
        context["marked"] = any(row["unconfirmed"] for row in context["rows"])
        context["stage_heading"] = stages.stage_heading(tournament)
    elif panel.name == "teams":
        start = (panel.page - 1) * TEAMS_PER_PAGE
        context["teams"] = [
            {
                "team": team,
                "points": format_points(team.table_points),
                "counted": [member.standing.player.name for member in team.counted],
            }
            for team in teams[start : start + TEAMS_PER_PAGE]
        ]
        context["best_of"] = tournament.team_best_of
    elif by_name:
        names = sorted(
            ((seat, table) for table, seats in seating for seat in seats),
            key=lambda item: (item[0].player.name.casefold(), item[0].player.key),
        )
        start = (panel.page - 1) * NAMES_PER_PAGE
        context["seating_round"] = seating_round
        context["by_name"] = names[start : start + NAMES_PER_PAGE]
    else:
        start = (panel.page - 1) * TABLES_PER_PAGE
        context["seating_round"] = seating_round
        context["seating"] = seating[start : start + TABLES_PER_PAGE]
    if part == "pj-panel":
        return _part(request, "tournament/projector/_panel.html", context)
    response = render(request, "tournament/projector/projector.html", context)
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def _part(request: HttpRequest, template: str, context: dict) -> HttpResponse:
    response = render(request, template, context)
    response["Cache-Control"] = "no-store"
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


# --- The prize-giving: the ranking revealed from the last place to the first ----------------

MOST_PLACES = 10_000


@require_safe
def reveal(request: HttpRequest, slug: str) -> HttpResponse:
    """The final ranking for the prize-giving, one place at a time from the last to the first
    (static/tournament/reveal.js: a key, a click or the timer of `?every=` shows the next;
    every row is in the page, so it runs without a network once loaded; without JavaScript all
    rows show at once). `?top=N` reveals places 1 to N only (players sharing the N-th place
    included).

    Organisers may open it at any time: it is their tool for the ceremony, before they reveal
    the standings to everyone. Anyone else who may read the tournament sees it once nothing is
    hidden (never hidden, or revealed); until then, the notice that the standings are hidden."""
    access = _access(request, slug)
    tournament = access.tournament
    seen = shown(tournament, organiser=access.organiser)
    least, most = EVERY_RANGE
    every = whole_number(request, "every", default=0, least=0, most=most)
    if every:
        every = max(every, least)
    top = whole_number(request, "top", default=0, least=0, most=MOST_PLACES)
    rows = []
    if not seen.hidden:
        rows = [
            {"standing": row, "points": format_points(row.table_points)}
            for row in standings(tournament)
            if row.rank is not None and (not top or row.rank <= top)
        ]
    response = render(
        request,
        "tournament/projector/reveal.html",
        {
            "tournament": tournament,
            "shown": seen,
            "rows": rows,
            "every": every,
            "top": top,
        },
    )
    # Before the reveal an organiser's page holds what the public may not see yet.
    response["Cache-Control"] = "private, no-store"
    response["X-Accel-Expires"] = "0"
    return response
