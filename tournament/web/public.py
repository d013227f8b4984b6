"""The public pages of a tournament: overview, standings, seating, score sheets, players.

Anyone may read them when the tournament is public; otherwise only its organisers and the
referees of its tables (`tournament.reads.permissions`), and everyone else gets 404. A draft round
is shown to organisers only. Every page makes a fixed number of queries, whatever the size.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Count, Exists, OuterRef, Prefetch, Q, prefetch_related_objects
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from scoring.engine.ranking import places, share_table_points
from scoring.words import Words
from tournament.models import Deal, Penalty, Player, Round, Seat, Tournament
from tournament.reads import prize_giving, stages
from tournament.reads.access import Access, table_access, tournament_access
from tournament.reads.board import game_counts
from tournament.reads.deals import seat_winds_of, with_facts
from tournament.reads.prize_giving import Shown
from tournament.reads.selectors import (
    Standing,
    format_points,
    score_sheet,
    standings,
    table_results,
)
from tournament.reads.standings_cache import cached_standings
from tournament.reads.teams import (
    team_identity,
    team_slugs,
    team_standings,
    teams_shown,
    two_teams_among,
)
from tournament.services.registrations import is_open as registration_open
from tournament.web.htmx import HtmxRequest
from tournament.web.live import conditional_live
from tournament.web.organiser.forms.tournament import preset_name
from tournament.web.round_list import page_of_tables, round_seating
from tournament.web.standings_list import (
    matching,
    page_links,
    search_text,
    standings_context,
)
from tournament.web.standings_table import StandingsTable, standing_rows

EXPORT_FORMATS = ("csv", "xlsx")
# How often the pages that update themselves (htmx polls, see static/tournament/live.js) ask
# for fresh content.
LIVE_SECONDS = {"standings": 30, "round": 20, "table": 20}


def render_live(
    request: HtmxRequest, page: str, part: str, context: dict, *, status: int = 200
) -> HttpResponse:
    """The whole `page`, or for a live update (a request from htmx, which polls the page's own
    address) only its `part`, not to be cached. Both vary with the HX-Request header, so that
    no cache gives the one for the other."""
    if request.htmx:
        response = render(request, part, context, status=status)
        response["Cache-Control"] = "no-store"
    else:
        response = render(request, page, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _access(request: HttpRequest, slug: str) -> Access:
    """The tournament at `slug` if this user may read it, else 404."""
    return tournament_access(request.user, slug)


@dataclass(frozen=True)
class SeatLine:
    """A seat at a table with its game score, place and table points so far."""

    seat: Seat
    place: int
    table_points: Fraction

    @property
    def points_text(self) -> str:
        return format_points(self.table_points)


def _seat_lines(seats: list[Seat], values: list[int]) -> list[SeatLine]:
    """`seats` in starting order E, S, W, N with place and (shared) table points."""
    scores = [seat.score for seat in seats]
    points = share_table_points(scores, values) if len(seats) == 4 else [Fraction(0)] * len(seats)
    return [
        SeatLine(seat, place, share)
        for seat, place, share in zip(seats, places(scores), points, strict=True)
    ]


def _in_order(seats: Iterable[Seat]) -> list[Seat]:
    return sorted(seats, key=lambda seat: seat.index)


def _player_rows(players: list[Player]) -> list[dict[str, str]]:
    return [{"key": player.key, "name": player.name} for player in players]


@require_safe
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    access = _access(request, slug)
    tournament = access.tournament
    rounds = tournament.rounds.annotate(
        table_count=Count("tables"),
        ended_count=Count("tables", filter=Q(tables__ended_at__isnull=False)),
    ).order_by("number")
    if not access.organiser:
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    players = sorted(
        tournament.players.all(), key=lambda player: (player.name.casefold(), player.key)
    )
    search = search_text(request)
    if search:
        found = {row["key"] for row in matching(_player_rows(players), search)}
        shown = [player for player in players if player.key in found]
    else:
        shown = players
    return render(
        request,
        "tournament/public/tournament.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "players": shown,
            "player_count": len(players),
            "search": search,
            "organiser": access.organiser,
            "shown": prize_giving.shown(tournament, organiser=access.organiser),
            "registration_open": registration_open(tournament),
            "teams_shown": two_teams_among(player.team for player in players),
            "preset_name": preset_name(tournament.preset),
            "table_points": " / ".join(str(points) for points in tournament.table_points),
        },
    )


@require_safe
@conditional_live
def standings_page(request: HtmxRequest, slug: str) -> HttpResponse:
    """Standings over the confirmed games; `?provisional=1` counts submitted sheets too and
    marks the rows that include them."""
    access = _access(request, slug)
    tournament = access.tournament
    # Visitors, players and referees: the rounds before the hidden ones (prize-giving).
    seen = prize_giving.shown(tournament, organiser=access.organiser)
    provisional = request.GET.get("provisional") == "1"
    stage = request.GET.get("stage") if tournament.cut_after_round is not None else None
    stage = stage if stage in stages.STAGES else None  # None: the whole tournament
    export_format = request.GET.get("_export")
    if export_format is not None:
        if export_format not in EXPORT_FORMATS:
            return HttpResponseBadRequest(
                "Unknown export format; choose csv or xlsx.", content_type="text/plain"
            )
        rows = standing_rows(
            standings(
                tournament,
                provisional=provisional,
                before_round=seen.before_round,
                stage=stage,
            )
        )
        # Exports hold every row, in the order the page is sorted by (django-tables2 here:
        # it writes them once, not every 30 seconds as the page is polled).
        table = StandingsTable(rows, tournament=tournament)
        RequestConfig(request, paginate=False).configure(table)
        exporter = TableExport(
            export_format,
            table,
            exclude_columns=() if provisional else ("unconfirmed_games",),
            dataset_kwargs={"title": "Standings"},
        )
        name = "standings-provisional" if provisional else "standings"
        return exporter.response(f"{tournament.slug}-{name}.{export_format}")
    # Computed once per change of the tournament (tournament.reads.standings_cache); shared, so
    # read only.
    # With the rows, whether the navigation links the team standings (from the same read).
    rows, with_teams = cached_standings(
        tournament,
        provisional=provisional,
        shape="page",
        build=lambda found: (
            standing_rows(found),
            teams_shown(team_standings(tournament, found)),
        ),
        number=getattr(request, "live_number", None),  # read for the ETag of a live poll
        before_round=seen.before_round,
        stage=stage,
    )
    toggle = request.GET.copy()
    toggle.pop("page", None)
    if provisional:
        toggle.pop("provisional", None)
    else:
        toggle["provisional"] = "1"
    context = {
        **standings_context(request, rows, tournament.slug),
        "tournament": tournament,
        "games": game_counts(tournament, before_round=seen.before_round),
        "shown": seen,
        "provisional": provisional,
        "marked": any(row["unconfirmed_games"] for row in rows),
        "toggle_url": f"{request.path}?{toggle.urlencode()}" if toggle else request.path,
        "live_seconds": LIVE_SECONDS["standings"],
        "teams_shown": with_teams,
        **_stage_context(request, tournament, stage),
        "tie_breaks": [
            Tournament.TieBreak(value).label.lower()
            for value in tournament.tie_breaks
            if value in Tournament.TieBreak.values
        ],
    }
    return render_live(
        request,
        "tournament/public/standings.html",
        "tournament/public/_standings_live.html",
        context,
    )


def _stage_context(request: HtmxRequest, tournament: Tournament, stage: str | None) -> dict:
    """The stage in play (a heading) and links to each stage's own standings, for a
    tournament with a final stage (docs/stages.md)."""
    if tournament.cut_after_round is None:
        return {}
    query = request.GET.copy()
    query.pop("page", None)
    links = []
    for value, label in (
        (None, _("Whole tournament")),
        (stages.MAIN, _("Before the cut")),
        (stages.FINAL, _("Final stage")),
        (stages.CONSOLATION, _("Consolation stage")),
    ):
        if value is None:
            query.pop("stage", None)
        else:
            query["stage"] = value
        links.append(
            {
                "label": label,
                "url": f"{request.path}?{query.urlencode()}" if query else request.path,
                "current": value == stage,
            }
        )
    return {"stage_heading": stages.stage_heading(tournament), "stage_links": links}


def _stage_note(tournament: Tournament, round: Round) -> str:
    """For a round after a confirmed cut: which tables are the final's."""
    if tournament.cut_after_round is None or round.number <= tournament.cut_after_round:
        return ""
    cut = stages.confirmed_cut(tournament)
    if cut is None:
        return ""
    tables = cut.size // 4
    if tables == 1:
        return _("Final stage: table 1 is the final table; the others play the consolation stage.")
    return _(
        "Final stage: tables 1 to %(tables)s are the final tables; the others play the "
        "consolation stage."
    ) % {"tables": tables}


@require_safe
@conditional_live
def round_page(request: HtmxRequest, slug: str, number: int) -> HttpResponse:
    access = _access(request, slug)
    round = access.round(number)
    # Every seat of the round as plain values (the by-name list and the search need them all,
    # in Python's order of names); the boards are built for one page of tables only.
    # With each player's team: whether the navigation links the team standings.
    seats_and_teams = list(
        Seat.objects.filter(round=round)
        .order_by()
        .values_list(
            "player__name", "player__key", "table__number", "starting_wind", "player__team"
        )
    )
    seats = [row[:4] for row in seats_and_teams]
    table_numbers = list(round.tables.order_by("number").values_list("number", flat=True))
    table_page = page_of_tables(request, table_numbers)
    tables = list(
        round.tables.filter(number__in=list(table_page.object_list))
        .order_by("number")
        .annotate(
            hand_count=Count("deals"),
            has_penalties=Exists(Penalty.objects.filter(table=OuterRef("pk"))),
        )
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.with_players()))
    )
    started = round.status in (Round.Status.PLAYING, Round.Status.FINISHED)
    boards = []
    for table in tables:
        table_seats = _in_order(table.seats.all())
        table.round = round
        has_results = table.ended_at is not None or table.hand_count > 0 or table.has_penalties
        boards.append(
            {
                "table": table,
                "lines": _seat_lines(table_seats, access.tournament.table_points),
                "show_results": started and has_results,
            }
        )
    return render_live(
        request,
        "tournament/public/round.html",
        "tournament/public/_round_live.html",
        {
            "tournament": access.tournament,
            "round": round,
            "stage_note": _stage_note(access.tournament, round),
            "boards": boards,
            "table_page": table_page,
            "table_page_links": page_links(request, table_page, anchor="tables"),
            **round_seating(request, seats, table_numbers, table_page.number),
            "live": round.status == Round.Status.PLAYING,
            "live_seconds": LIVE_SECONDS["round"],
            # From the teams of the players seated in the round (no query of its own).
            "teams_shown": two_teams_among(row[4] for row in seats_and_teams),
        },
    )


@require_safe
@conditional_live
def table_page(request: HtmxRequest, slug: str, number: int, table: int) -> HttpResponse:
    # The table, its round and tournament in one query, with the reader's access checked.
    access, table_obj = table_access(request.user, slug, number, table)
    round = table_obj.round
    prefetch_related_objects([table_obj], Prefetch("seats", queryset=Seat.objects.with_players()))
    seats = _in_order(table_obj.seats.all())
    lines = score_sheet(table_obj)
    results = [
        {
            "place": result.place,
            "seat": result.seat,
            "score": result.score,
            "points_text": format_points(result.table_points),
        }
        for result in table_results(table_obj, seats)
    ]
    return render_live(
        request,
        "tournament/public/table.html",
        "tournament/public/_table_live.html",
        {
            "live": round.status == Round.Status.PLAYING,
            "live_seconds": LIVE_SECONDS["table"],
            "tournament": access.tournament,
            "round": round,
            "table": table_obj,
            "seats": seats,
            "lines": lines,
            "results": results,
            "show_results": bool(lines) or table_obj.ended_at is not None,
            "hands_played": sum(line.hand is not None for line in lines),
            "deals_vary": access.tournament.rules.deals_vary,
            "initial_points": access.tournament.rules.initial_points,
        },
    )


def _hand_story(hand: Deal, seat: Seat, words: Words) -> str:
    """What happened in the deal `hand` from the point of view of the player at `seat`: a win
    (each winner's own value, where several win on one discard), a faulty out or a draw."""
    if hand.result == Deal.Result.FAULTY_OUT:
        assert hand.offender is not None
        if hand.offender.pk == seat.pk:
            return _("Own faulty out")
        return _("Faulty out by %(name)s") % {"name": hand.offender.player.name}
    if hand.result != Deal.Result.WIN:  # a draw that paid: the ready hands (JT)
        if seat.starting_wind in hand.faulty_riichi:
            return _("%(drawn)s: a faulty riichi") % {"drawn": words.drawn()}
        if seat.starting_wind in hand.ready:
            return _("%(drawn)s: ready") % {"drawn": words.drawn()}
        return _("%(drawn)s: not ready") % {"drawn": words.drawn()}
    winner, discarder = hand.winner, hand.discarder
    assert winner is not None  # a win (the database holds it)
    wins = [(winner, words.value(hand.value if hand.fan is None else hand.fan, hand.flowers))]
    if words.rulebook.several_winners:  # read with the deal (`deals.with_facts`)
        wins += [(win.winner, words.value(win.value)) for win in hand.extra_wins.all()]
    own = next((value for each, value in wins if each.pk == seat.pk), None)
    names = {
        "value": own or wins[0][1],
        "winner": winner.player.name,
        "discarder": discarder.player.name if discarder else "",
    }
    if own is not None:
        if discarder is None:
            return _("Won self-drawn, %(value)s") % names
        return _("Won on %(discarder)s’s discard, %(value)s") % names
    if discarder is None:
        return _("%(winner)s won self-drawn, %(value)s") % names
    if discarder.pk == seat.pk:
        return pgettext("between the winners on one discard", "; ").join(
            _("Discarded to %(winner)s, %(value)s") % {"winner": each.player.name, "value": value}
            for each, value in wins
        )
    return _("%(winner)s won on %(discarder)s’s discard, %(value)s") % names


def _next_seat(seats: list[Seat]) -> Seat | None:
    """The seat a player goes to now or next: in the first round whose seating is published
    (seated or playing) where their game has not ended; None when there is none."""
    waiting = [
        seat
        for seat in seats
        if seat.table.round.status in (Round.Status.SEATED, Round.Status.PLAYING)
        and seat.table.ended_at is None
    ]
    return min(waiting, key=lambda seat: seat.table.round.number, default=None)


@require_safe
def player_page(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    access = _access(request, slug)
    tournament = access.tournament
    player = get_object_or_404(Player, tournament=tournament, key=key)
    return render(
        request,
        "tournament/public/player.html",
        player_record(
            tournament,
            player,
            drafts=access.organiser,
            seen=prize_giving.shown(tournament, organiser=access.organiser),
        ),
    )


def player_record(
    tournament: Tournament, player: Player, *, drafts: bool, seen: Shown
) -> dict[str, Any]:
    """What a player's page shows of them (the public page and their private link's): their
    standing, seating, games, the deals that moved their points and the penalties. `drafts`:
    with the seats of draft rounds (for an organiser). `seen`: which rounds their rank and
    totals count (the rounds before those hidden until the prize-giving, unless the viewer
    organises the tournament); their games, deals and penalties are all shown, as a table's
    score sheet is."""
    rows = standings(tournament, before_round=seen.before_round)
    standing: Standing = next(row for row in rows if row.player.pk == player.pk)
    seats = (
        Seat.objects.filter(player=player).select_related("table__round").order_by("round__number")
    )
    if not drafts:
        seats = seats.exclude(round__status=Round.Status.DRAFT)
    own_seats = list(seats)
    table_ids = [seat.table_id for seat in own_seats]
    at_table: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table_id__in=table_ids).select_related("player"):
        at_table.setdefault(seat.table_id, []).append(seat)

    games = []
    seating = []
    seat_by_table = {}
    for seat in own_seats:
        seat_by_table[seat.table_id] = seat
        in_order = _in_order(at_table[seat.table_id])
        lines = _seat_lines(in_order, tournament.table_points)
        line = next(line for line in lines if line.seat.pk == seat.pk)
        games.append({"seat": seat, "table": seat.table, "round": seat.table.round, "line": line})
        if seat.table.round.status != Round.Status.DRAFT:  # published seating only, for everyone
            others = [other for other in in_order if other.pk != seat.pk]
            seating.append({"seat": seat, "round": seat.table.round, "others": others})

    next_seat = _next_seat(own_seats)

    hands: list[dict[str, Any]] = []
    words = tournament.words
    # Every deal that moved this player's points: wins, faulty outs, and draws that pay the
    # ready players (JT). The seat wind is the deal's own, from its place in the game.
    for hand in with_facts(Deal.objects.filter(table_id__in=table_ids), tournament.rules):
        seat = seat_by_table[hand.table_id]
        points = hand.payments[seat.index]
        if points:
            hands.append(
                {
                    "hand": hand,
                    "table": seat.table,
                    "round": seat.table.round,
                    "seat_wind": seat_winds_of(hand, tournament)[seat.index],
                    "story": _hand_story(hand, seat, words),
                    "points": points,
                }
            )
    hands.sort(key=lambda item: (item["round"].number, item["hand"].number))

    penalties: list[dict[str, Any]] = []
    for penalty in Penalty.objects.filter(table_id__in=table_ids).select_related("seat__player"):
        seat = seat_by_table[penalty.table_id]
        points = penalty.payments(penalty.seat.index)[seat.index]
        if not points:
            continue
        penalties.append(
            {
                "penalty": penalty,
                "table": seat.table,
                "round": seat.table.round,
                "own": penalty.seat_id == seat.pk,
                "points": points,
            }
        )
    penalties.sort(
        key=lambda item: (
            item["round"].number,
            item["penalty"].deal_number or 99,
            item["penalty"].entered_at,
        )
    )
    return {
        "tournament": tournament,
        "player": player,
        "standing": standing,
        "shown": seen,
        "points_text": format_points(standing.table_points),
        "seating": seating,
        "next_seat": next_seat,
        "next_others": [
            other for other in _in_order(at_table[next_seat.table_id]) if other.pk != next_seat.pk
        ]
        if next_seat
        else [],
        "games": games,
        "hands": hands,
        "words": words,
        "penalties": penalties,
        "at_table": at_table,
        "teams_shown": (shown := two_teams_among(row.player.team for row in rows)),
        # The player's team page (`tournament.reads.teams.team_slugs`), when there are teams.
        "team_slug": team_slugs(team_identity(row.player.team) for row in rows).get(
            team_identity(player.team), ""
        )
        if shown
        else "",
    }
