"""The organiser's list of tournaments, creating one, its settings and its dashboard."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Prefetch, Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_safe

from tournament.models import Rehearsal, Round, Seat, Table, Tournament
from tournament.reads.access import AuthenticatedRequest
from tournament.services.tournaments import create_tournament, rules_locked, update_tournament
from tournament.web.organiser.access import INVALID, call_service, organiser_page
from tournament.web.organiser.forms.prize_giving import HideStandingsForm, RevealForm
from tournament.web.organiser.forms.tournament import TournamentForm

ADD_TOURNAMENT = "tournament.add_tournament"


@require_safe
@login_required
def index(request: AuthenticatedRequest) -> HttpResponse:
    user = request.user
    tournaments = (
        Tournament.objects.all() if user.is_superuser else user.organised_tournaments.all()
    )
    return render(
        request,
        "tournament/organiser/index.html",
        {"tournaments": tournaments, "may_create": user.has_perm(ADD_TOURNAMENT)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def create(request: AuthenticatedRequest) -> HttpResponse:
    if not request.user.has_perm(ADD_TOURNAMENT):
        raise PermissionDenied(
            _(
                "Creating a tournament needs the permission “Can add tournament”, which your "
                "account (%(user)s) does not have. Ask an administrator to give it to you."
            )
            % {"user": request.user.get_username()}
        )
    if request.method == "POST":
        form = TournamentForm(request.POST)
        created: list[Tournament] = []
        if call_service(
            form,
            lambda: created.append(create_tournament(organiser=request.user, **form.cleaned_data)),
        ):
            messages.success(
                request,
                _("%(name)s is created; you are its organiser.") % {"name": created[0].name},
            )
            return redirect("organiser:dashboard", slug=created[0].slug)
        status = INVALID
    else:
        form = TournamentForm(initial=TournamentForm.initial_for(Tournament()))
        status = 200
    return render(
        request, "tournament/organiser/tournament_form.html", {"form": form}, status=status
    )


@organiser_page("GET", "POST")
def edit(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "POST":
        form = TournamentForm(request.POST, tournament=tournament)
        if call_service(
            form,
            lambda: update_tournament(
                tournament=tournament, actor=request.user, **form.cleaned_data
            ),
        ):
            data = form.cleaned_data
            messages.success(request, _("The settings are saved."))
            if (data["table_points"], data["tie_breaks"]) != (
                tournament.table_points,
                tournament.tie_breaks,
            ):
                messages.warning(
                    request,
                    _(
                        "Table points or tie-breaks changed: the standings now use the new values "
                        "for every game, including games already played."
                    ),
                )
            return redirect("organiser:dashboard", slug=data["slug"])
        status = INVALID
    else:
        form = TournamentForm(initial=TournamentForm.initial_for(tournament), tournament=tournament)
        status = 200
    return settings_page(request, tournament, form=form, status=status)


def settings_page(
    request: AuthenticatedRequest,
    tournament: Tournament,
    *,
    form: TournamentForm | None = None,
    hide_form: HideStandingsForm | None = None,
    reveal_form: RevealForm | None = None,
    prize_errors: Sequence[Any] = (),
    status: int = 200,
) -> HttpResponse:
    """The settings page, with the forms given (a refused one with its errors) and the others
    as they stand: the tournament's settings, and the prize-giving's."""
    if form is None:
        form = TournamentForm(initial=TournamentForm.initial_for(tournament), tournament=tournament)
    if hide_form is None:
        hide_form = HideStandingsForm(
            initial={"hidden_from": tournament.standings_hidden_from}, auto_id="id_prize_%s"
        )
    return render(
        request,
        "tournament/organiser/tournament_form.html",
        {
            "form": form,
            "tournament": tournament,
            "rules_locked": rules_locked(tournament),
            "hide_form": hide_form,
            "reveal_form": reveal_form or RevealForm(auto_id="id_prize_%s"),
            "prize_errors": prize_errors,
        },
        status=status,
    )


def current_round(rounds: Sequence[Round]) -> Round | None:
    """The round in play, else the last round that is not a draft, else the last round."""
    playing = [round for round in rounds if round.status == Round.Status.PLAYING]
    published = [round for round in rounds if round.status != Round.Status.DRAFT]
    for candidates in (playing, published, rounds):
        if candidates:
            return candidates[-1]
    return None


@organiser_page("GET", "HEAD")
def dashboard(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    rounds = list(
        tournament.rounds.annotate(
            table_count=Count("tables", distinct=True),
            ended_count=Count("tables", filter=Q(tables__ended_at__isnull=False), distinct=True),
        )
    )
    current = current_round(rounds)
    tables = []
    if current is not None:
        tables = list(
            Table.objects.filter(round=current)
            .annotate(hand_count=Count("deals"))
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.with_players()))
        )
    players = tournament.players.aggregate(
        total=Count("pk"),
        substitutes=Count("pk", filter=Q(substitute=True)),
        withdrawn=Count("pk", filter=Q(withdrawn_from_round__isnull=False)),
    )
    # Every planned round exists: the next step is finishing, not another round.
    planned_done = bool(tournament.planned_rounds) and len(rounds) >= (
        tournament.planned_rounds or 0
    )
    # The rehearsal this tournament is the copy of, or the tournament's own rehearsals.
    rehearsals = list(
        Rehearsal.objects.filter(Q(copy=tournament) | Q(original=tournament)).select_related(
            "original"
        )
    )
    return render(
        request,
        "tournament/organiser/dashboard.html",
        {
            "tournament": tournament,
            "planned_done": planned_done,
            "finished": planned_done
            and all(round.status == Round.Status.FINISHED for round in rounds),
            "rounds": rounds,
            "current": current,
            "tables": tables,
            "players": players,
            "games_ended": sum(round.ended_count for round in rounds),
            "last_round": rounds[-1] if rounds else None,
            "copy_of": next((r for r in rehearsals if r.copy_id == tournament.pk), None),
            "rehearsals": [r for r in rehearsals if r.original_id == tournament.pk],
        },
    )
