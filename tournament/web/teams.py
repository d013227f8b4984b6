"""The public team standings and each team's page (`tournament.reads.teams`), and their exports.

Shown only when at least two teams have players (404 otherwise, as for an unknown team). A
team's address is its slug (`tournament.reads.teams.team_slugs`): readable, never a "/", Chinese or
Japanese names kept as they are. `?provisional=1` counts the games whose sheets are submitted
but not confirmed yet, as on the individual standings; `?_export=csv` or `xlsx` downloads the
team standings.
"""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe
from django_tables2.export import TableExport

from tournament.domain.points import points_as_decimal, shown_score
from tournament.infra.spreadsheet import safe_text
from tournament.models import Tournament
from tournament.reads.prize_giving import Shown, shown
from tournament.reads.selectors import format_points
from tournament.reads.teams import TeamStanding, cached_teams, teams_shown
from tournament.web.public import EXPORT_FORMATS, _access
from tournament.web.standings_table import NUMBER


def _shown_teams(
    request: HttpRequest, slug: str
) -> tuple[Tournament, list[TeamStanding], bool, Shown]:
    """The tournament the user may read, its team standings, whether they are provisional,
    and which rounds they count for this viewer; 404 when fewer than two teams have
    players."""
    access = _access(request, slug)
    tournament = access.tournament
    provisional = request.GET.get("provisional") == "1"
    # While rounds are hidden until the prize-giving, the teams count the rounds before them
    # for everyone but the organisers, as the individual standings do.
    seen = shown(tournament, organiser=access.organiser)
    teams = cached_teams(tournament, provisional=provisional, before_round=seen.before_round)
    if not teams_shown(teams):
        raise Http404(_("This tournament has no team standings: fewer than two teams."))
    return tournament, teams, provisional, seen


def best_of_text(tournament: Tournament) -> str:
    if tournament.team_best_of is None:
        return _("A team counts the table points and scores of all its players.")
    return _(
        "A team counts the table points and scores of its best %(count)s players; a team "
        "with fewer players is incomplete and ranked after the complete teams."
    ) % {"count": tournament.team_best_of}


def _member_rows(team: TeamStanding) -> list[dict[str, Any]]:
    return [
        {
            "standing": member.standing,
            "player": member.standing.player,
            "counted": member.counted,
            "points_text": format_points(member.standing.table_points),
            "games": len(member.standing.game_scores),
        }
        for member in team.members
    ]


@require_safe
def team_standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, teams, provisional, seen = _shown_teams(request, slug)
    export_format = request.GET.get("_export")
    if export_format is not None:
        if export_format not in EXPORT_FORMATS:
            return HttpResponseBadRequest(
                "Unknown export format; choose csv or xlsx.", content_type="text/plain"
            )
        exporter = TableExport(
            export_format,
            TeamStandingsTable(team_rows(teams)),
            dataset_kwargs={"title": "Team standings"},
        )
        name = "team-standings-provisional" if provisional else "team-standings"
        return exporter.response(f"{tournament.slug}-{name}.{export_format}")
    rows = [
        {
            "team": team,
            "points_text": format_points(team.table_points),
            "counted": [member.standing.player.name for member in team.counted],
        }
        for team in teams
    ]
    return render(
        request,
        "tournament/public/teams.html",
        {
            "tournament": tournament,
            "rows": rows,
            "provisional": provisional,
            "best_of_text": best_of_text(tournament),
            "teams_shown": True,
            "shown": seen,
        },
    )


@require_safe
def team_page(request: HttpRequest, slug: str, team: str) -> HttpResponse:
    tournament, teams, provisional, seen = _shown_teams(request, slug)
    found = next((each for each in teams if each.slug == team), None)
    if found is None:
        raise Http404(_("This tournament has no such team."))
    return render(
        request,
        "tournament/public/team.html",
        {
            "tournament": tournament,
            "team": found,
            "points_text": format_points(found.table_points),
            "members": _member_rows(found),
            "provisional": provisional,
            "best_of_text": best_of_text(tournament),
            "teams_shown": True,
            "shown": seen,
        },
    )


# --- Exports --------------------------------------------------------------------------------


def team_rows(teams: list[TeamStanding]) -> list[dict[str, Any]]:
    """One dict per team for `TeamStandingsTable`, in ranking order."""
    return [
        {
            "rank": team.rank,
            "team": team.name,
            "complete": team.complete,
            "table_points": team.table_points,
            "table_points_exact": team.table_points,
            "score": shown_score(team.score),
            "counted": "; ".join(
                f"{member.standing.player.name} ({member.standing.player.key})"
                for member in team.counted
            ),
            "others": "; ".join(
                f"{member.standing.player.name} ({member.standing.player.key})"
                for member in team.members
                if not member.counted
            ),
        }
        for team in teams
    ]


class TeamStandingsTable(tables.Table):
    """The team standings in CSV and XLSX: plain values, table points as in the individual
    standings' exports (rounded to two decimals, and exactly as a fraction)."""

    rank = tables.Column(verbose_name=gettext_lazy("Rank"), attrs=NUMBER)
    team = tables.Column(verbose_name=gettext_lazy("Team"))
    complete = tables.Column(verbose_name=gettext_lazy("Complete"))
    table_points = tables.Column(verbose_name=gettext_lazy("Table points"), attrs=NUMBER)
    table_points_exact = tables.Column(verbose_name=gettext_lazy("Table points (exact)"))
    score = tables.Column(verbose_name=gettext_lazy("Score"), attrs=NUMBER)
    counted = tables.Column(verbose_name=gettext_lazy("Players counted"), default="")
    others = tables.Column(verbose_name=gettext_lazy("Players not counted"), default="")

    class Meta:
        orderable = False

    def value_team(self, value: str) -> str:
        return safe_text(value)

    def value_counted(self, value: str) -> str:
        return safe_text(value)

    def value_others(self, value: str) -> str:
        return safe_text(value)

    def value_complete(self, value: bool) -> str:
        return "yes" if value else "no"

    def value_table_points(self, value: Any) -> Any:
        return points_as_decimal(value)

    def value_table_points_exact(self, value: Any) -> str:
        return str(value)
