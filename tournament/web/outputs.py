"""Printouts and files for the organiser: the EMA results file, game sheets, seating lists and
the final standings. Only the tournament's organisers may open them (`organised_tournament`:
log in first, 403 for other users, 404 for an unknown or hidden tournament).

Every page is print-ready (static/tournament/print.css: A4, no site navigation when printed)
and makes a fixed number of queries, whatever the size of the tournament.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django_tables2.export import TableExport

from scoring.engine.ranking import places, share_table_points
from tournament.models import Round, Seat, Table, Tournament
from tournament.reads import deals
from tournament.reads.ema import ema_csv, ema_rows
from tournament.reads.selectors import (
    ScoreSheetLine,
    format_points,
    score_sheets,
    standings,
)
from tournament.reads.teams import team_standings
from tournament.web.organiser.access import organiser_page, round_of
from tournament.web.teams import TeamStandingsTable, best_of_text, team_rows

READ = ("GET", "HEAD")


def _uncounted(tournament: Tournament) -> dict[str, int]:
    """Games of published rounds that the standings do not count yet, so the printout is
    provisional: those still being played (`open_games`) and those whose sheets wait for
    confirmation (`waiting_sheets`). One query."""
    counts = (
        Table.objects.filter(round__tournament=tournament, confirmed_at__isnull=True)
        .exclude(round__status=Round.Status.DRAFT)
        .aggregate(
            open_games=Count("pk", filter=Q(ended_at__isnull=True)),
            waiting_sheets=Count("pk", filter=Q(ended_at__isnull=False)),
        )
    )
    return {name: counts[name] or 0 for name in ("open_games", "waiting_sheets")}


@organiser_page(*READ)
def index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rounds = list(tournament.rounds.order_by("number"))
    return render(
        request, "tournament/outputs/index.html", {"tournament": tournament, "rounds": rounds}
    )


# --- EMA results file -----------------------------------------------------------------------


@organiser_page(*READ)
def ema_file(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The CSV file, with a byte order mark so that spreadsheets read accented names right."""
    text = ema_csv(ema_rows(standings(tournament)))
    response = HttpResponse("\ufeff" + text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-ema.csv"'
    return response


@organiser_page(*READ)
def ema_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rows = standings(tournament)
    substitutes = [
        {"standing": row, "points_text": format_points(row.table_points)}
        for row in rows
        if row.rank is None
    ]
    return render(
        request,
        "tournament/outputs/ema.html",
        {
            "tournament": tournament,
            "rows": (ema := ema_rows(rows)),
            "guessed": sum(row.guessed for row in ema),
            "substitutes": substitutes,
            **_uncounted(tournament),
        },
    )


# --- Final standings ------------------------------------------------------------------------


@organiser_page(*READ)
def standings_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rows = [
        {"standing": row, "points_text": format_points(row.table_points)}
        for row in standings(tournament)
    ]
    return render(
        request,
        "tournament/outputs/standings.html",
        {"tournament": tournament, "rows": rows, **_uncounted(tournament)},
    )


# --- Team standings -------------------------------------------------------------------------


@organiser_page(*READ)
def team_standings_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every team with its players, those counted marked (`tournament.reads.teams`)."""
    teams = [
        {
            "team": team,
            "points_text": format_points(team.table_points),
            "members": [
                {"member": member, "points_text": format_points(member.standing.table_points)}
                for member in team.members
            ],
        }
        for team in team_standings(tournament)
    ]
    return render(
        request,
        "tournament/outputs/teams.html",
        {
            "tournament": tournament,
            "teams": teams,
            "best_of_text": best_of_text(tournament),
            **_uncounted(tournament),
        },
    )


@organiser_page(*READ)
def team_standings_file(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The team standings as CSV, the columns of the public page's download."""
    exporter = TableExport(
        "csv",
        TeamStandingsTable(team_rows(team_standings(tournament))),
        dataset_kwargs={"title": "Team standings"},
    )
    return exporter.response(f"{tournament.slug}-team-standings.csv")


# --- Seating lists --------------------------------------------------------------------------


def _tables(round: Round, *, referees: bool = False) -> list[Table]:
    """The round's tables with their seats (East, South, West, North) and players loaded."""
    tables = round.tables.prefetch_related(Prefetch("seats", queryset=Seat.objects.with_players()))
    if referees:
        tables = tables.prefetch_related("referees")
    result = list(tables)
    for table in result:
        table.round = round
    return result


@organiser_page(*READ)
def round_seating(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """The round's seating table by table, or with `?order=name` every seated player by name
    with their table and seat (to pin up where players look for their name)."""
    round = round_of(tournament, number)
    round.tournament = tournament
    tables = _tables(round, referees=True)
    by_name = request.GET.get("order") == "name"
    names = (
        sorted(
            ((seat, table) for table in tables for seat in table.seats.all()),
            key=lambda item: (item[0].player.name.casefold(), item[0].player.key),
        )
        if by_name
        else []
    )
    heading = (
        _("Seating by name, round %(number)s")
        if by_name
        else _("Seating by table, round %(number)s")
    )
    return render(
        request,
        "tournament/outputs/round_seating.html",
        {
            "tournament": tournament,
            "round": round,
            "tables": tables,
            "by_name": by_name,
            "names": names,
            "heading": heading % {"number": round.number},
        },
    )


@organiser_page(*READ)
def player_seating(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every player, alphabetically, with their table and seat in each published round."""
    rounds = list(tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number"))
    places = {
        (player_id, round_number): (table_number, wind)
        for player_id, round_number, table_number, wind in Seat.objects.filter(
            round__in=rounds
        ).values_list("player_id", "round__number", "table__number", "starting_wind")
    }
    players = sorted(
        tournament.players.all(), key=lambda player: (player.name.casefold(), player.key)
    )
    lines = [
        {
            "player": player,
            "places": [places.get((player.pk, round.number)) for round in rounds],
        }
        for player in players
    ]
    return render(
        request,
        "tournament/outputs/player_seating.html",
        {"tournament": tournament, "rounds": rounds, "lines": lines},
    )


# --- Game sheets ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetCell:
    wind: str
    paid: int | None = None
    total: int | None = None


@dataclass(frozen=True)
class SheetRow:
    """One deal of a printed game sheet; `line` is what was entered, if anything. Where the
    game has no fixed length, the rows after the deals entered are blank, winds included."""

    number: int
    prevailing_wind: str
    cells: list[SheetCell]
    line: ScoreSheetLine | None
    wind_round_starts: bool
    extra_hands: int = 0


@dataclass(frozen=True)
class Sheet:
    table: Table
    seats: list[Seat]
    rows: list[SheetRow]
    game_line: ScoreSheetLine | None  # penalties on the whole game
    hands_entered: int
    results: list[dict] | None  # place and table points by seat, once the game has ended
    initial_points: int  # every player's points when the game started


# Blank rows a sheet of a game of no fixed length has beyond its least deals, for the deals
# the dealers keep.
ROOM_FOR_KEPT_DEALS = 8


def _sheet(table: Table, scheme: str, lines: Sequence[ScoreSheetLine]) -> Sheet:
    rules = table.round.tournament.rules
    initial = rules.initial_points
    by_number = {line.number: line for line in lines if line.number is not None}
    entered = max(by_number, default=0)
    count = rules.hands_per_game or max(rules.least_deals + ROOM_FOR_KEPT_DEALS, entered + 4)
    rows = []
    previous_wind = ""
    for number in range(1, count + 1):
        line = by_number.get(number)
        if line is not None and line.seat_winds:
            winds, wind = tuple(line.seat_winds), line.prevailing_wind
        elif not rules.deals_vary:  # the deal passes every hand: known ahead
            at = deals.passing_every_hand(number, scheme)
            winds, wind = at.seat_winds, at.prevailing_wind
        else:
            winds, wind = ("", "", "", ""), ""
        cells = [
            SheetCell(seat_wind, line.payments[index], initial + line.running[index])
            if line
            else SheetCell(seat_wind)
            for index, seat_wind in enumerate(winds)
        ]
        starts = (number == 1) or (bool(wind) and wind != previous_wind)
        rows.append(SheetRow(number, wind, cells, line, starts, line.extra_hands if line else 0))
        previous_wind = wind or previous_wind
    seats = table.seats_in_order
    results = None
    if table.ended_at is not None and len(seats) == 4:
        scores = [seat.score for seat in seats]
        shares = share_table_points(scores, table.round.tournament.table_points)
        results = [
            {"place": place, "points_text": format_points(share)}
            for place, share in zip(places(scores), shares, strict=True)
        ]
    return Sheet(
        table=table,
        seats=seats,
        rows=rows,
        game_line=next((line for line in lines if line.number is None), None),
        hands_entered=sum(line.hand is not None for line in lines),
        results=results,
        initial_points=initial,
    )


def _sheets_page(
    request: HttpRequest, tournament: Tournament, number: int, *, blank: bool
) -> HttpResponse:
    round = round_of(tournament, number)
    round.tournament = tournament
    tables = _tables(round)
    entered = {} if blank else score_sheets(tables)
    sheets = [
        _sheet(table, tournament.seat_rotation, entered.get(table.pk, [])) for table in tables
    ]
    return render(
        request,
        "tournament/outputs/sheets.html",
        {
            "tournament": tournament,
            "round": round,
            "sheets": sheets,
            "blank": blank,
            "rotation": tournament.get_seat_rotation_display(),
            "repeat_title": tournament.words.repeat_title,
        },
    )


@organiser_page(*READ)
def blank_sheets(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """One empty game sheet per table: names, seats and the winds of every hand."""
    return _sheets_page(request, tournament, number, blank=True)


@organiser_page(*READ)
def filled_sheets(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """One game sheet per table with the hands entered so far."""
    return _sheets_page(request, tournament, number, blank=False)
