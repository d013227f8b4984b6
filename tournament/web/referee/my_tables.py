"""My tables: the tables a referee enters results at, and for organisers every table of their
rounds in play."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Count, Prefetch, Q
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournament.models import Round, Seat, Table, Tournament
from tournament.reads.access import AuthenticatedRequest
from tournament.reads.permissions import is_organiser, referees_in


@dataclass(frozen=True)
class RoundGroup:
    round: Round
    tables: Sequence[Table]


@dataclass(frozen=True)
class TournamentGroup:
    tournament: Tournament
    rounds: list[RoundGroup]
    sheets_to_confirm: int | None  # None: the user does not confirm sheets here

    @property
    def name(self) -> str:
        return self.tournament.name


@require_safe
@login_required
def index(request: AuthenticatedRequest) -> HttpResponse:
    """Tables I referee, and for organisers every table of their rounds in play."""
    user = request.user
    in_play = Q(round__status=Round.Status.PLAYING)
    mine = Q(referees=user) | (
        in_play if user.is_superuser else in_play & Q(round__tournament__organisers=user)
    )
    tables = (
        Table.objects.filter(pk__in=Table.objects.filter(mine).values("pk"))
        .select_related("round__tournament")
        .annotate(hands_entered=Count("deals"))
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.with_players()))
        .order_by("round__tournament__name", "round__tournament_id", "-round__number", "number")
    )
    groups = []
    for _id, grouped in groupby(tables, key=lambda table: table.round.tournament_id):
        tournament_tables = list(grouped)
        rounds = [
            RoundGroup(round=round_tables[0].round, tables=round_tables)
            for round_tables in (
                list(group) for _r, group in groupby(tournament_tables, key=lambda t: t.round_id)
            )
        ]
        tournament = tournament_tables[0].round.tournament
        groups.append(
            TournamentGroup(
                tournament=tournament,
                rounds=rounds,
                sheets_to_confirm=sheets_to_confirm(user, tournament),
            )
        )
    return render(
        request,
        "tournament/referee/index.html",
        {"groups": groups},
    )


def sheets_to_confirm(user: User, tournament: Tournament) -> int | None:
    """How many submitted sheets of `tournament` wait for a second referee's confirmation that
    `user` may give; None where the tournament does not ask referees to confirm."""
    if tournament.confirmation != Tournament.Confirmation.SECOND_REFEREE:
        return None
    waiting = Table.objects.filter(
        round__tournament=tournament, ended_at__isnull=False, confirmed_at__isnull=True
    )
    if is_organiser(user, tournament):
        return waiting.count()
    if not referees_in(user, tournament):
        return None
    # Any referee of the tournament confirms the sheets, except those they submitted.
    return waiting.exclude(submitted_by=user).count()
