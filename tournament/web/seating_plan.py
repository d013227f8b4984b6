"""The organiser's seating plan: settings, generating (a job with its progress), the preview
with its figures, and publishing. Mounted at manage/<slug>/seating/ (`urls_seating`).

Organisers only (`organiser_page`: log in first, 403 for other users, 404 for an unknown or
hidden tournament). GET never changes anything; a refused form is shown again with status 422.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from django import forms
from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournament.domain.names import natural_key
from tournament.domain.rotation import WINDS
from tournament.domain.text import listed
from tournament.models import Player, Round, Seat, SeatingJob, Separation, Tournament
from tournament.reads.access import AuthenticatedRequest
from tournament.services.seating_plan import (
    MOST_ROUNDS,
    is_stale,
    publish_rounds,
    seating_figures,
    start_seating_job,
    update_seating_settings,
)
from tournament.web.organiser.access import INVALID, call_service, organiser_page
from tournament.web.query import whole_number

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

READ = ("GET", "HEAD")
Status = Round.Status
SEPARATIONS = (
    ("separate_clubs", "Clubs"),
    ("separate_countries", "Countries"),
    ("separate_teams", "Teams"),
)


# --- Forms ---------------------------------------------------------------------------------


def seed_field() -> forms.IntegerField:
    return forms.IntegerField(
        required=False,
        label=_("Seed"),
        min_value=0,
        max_value=2**31 - 1,
        help_text=_(
            "Optional: the same seed and the same players give the same seating. "
            "Empty: a new one is drawn."
        ),
    )


class SettingsForm(forms.Form):
    planned_rounds = forms.IntegerField(
        required=False,
        label=_("Planned rounds"),
        min_value=1,
        max_value=MOST_ROUNDS,
        help_text=_(
            "How many rounds the tournament will have; missing rounds are created as "
            "drafts when the seating is generated."
        ),
    )
    separate_clubs = forms.ChoiceField(choices=Separation.choices, label=_("Clubs"))
    separate_countries = forms.ChoiceField(choices=Separation.choices, label=_("Countries"))
    separate_teams = forms.ChoiceField(choices=Separation.choices, label=_("Teams"))
    by_standing = forms.TypedMultipleChoiceField(
        required=False,
        coerce=int,
        choices=[(n, f"Round {n}") for n in range(1, MOST_ROUNDS + 1)],
        widget=forms.CheckboxSelectMultiple,
        label=_("Seat by standing"),
    )
    seed = seed_field()

    @staticmethod
    def initial_for(tournament: Tournament, rounds: Sequence[Round]) -> dict[str, Any]:
        return {
            "planned_rounds": tournament.planned_rounds,
            "separate_clubs": tournament.separate_clubs,
            "separate_countries": tournament.separate_countries,
            "separate_teams": tournament.separate_teams,
            "by_standing": [r.number for r in rounds if r.seat_by_standing and r.status == "draft"],
        }

    def settings(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {name: data[name] for name in self.fields if name != "seed"}


class GenerateForm(forms.Form):
    seed = seed_field()


class PublishForm(forms.Form):
    rounds = forms.TypedMultipleChoiceField(
        required=False, coerce=int, choices=[(n, n) for n in range(1, MOST_ROUNDS + 1)]
    )


# --- Pages ---------------------------------------------------------------------------------


class WindCounts(TypedDict):
    """How often a player starts at each wind (E, S, W, N), and the spread of those counts."""

    player: Player
    counts: list[int]
    spread: int


class _TableCount(TypedDict):
    table_count: int


def _rounds(tournament: Tournament) -> list[WithAnnotations[Round, _TableCount]]:
    return list(tournament.rounds.annotate(table_count=Count("tables")).order_by("number"))


def _open_rounds(
    tournament: Tournament, rounds: Sequence[WithAnnotations[Round, _TableCount]]
) -> list[dict[str, Any]]:
    """The rounds a generated seating may fill: drafts, and those still to be created."""
    listed = [
        {"number": r.number, "exists": True, "tables": r.table_count}
        for r in rounds
        if r.status == Status.DRAFT
    ]
    last = rounds[-1].number if rounds else 0
    listed += [
        {"number": n, "exists": False, "tables": 0}
        for n in range(last + 1, (tournament.planned_rounds or 0) + 1)
    ]
    return listed


def plan_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    settings_form: SettingsForm | None = None,
    status: int = 200,
) -> HttpResponse:
    rounds = _rounds(tournament)
    form = settings_form or SettingsForm(initial=SettingsForm.initial_for(tournament, rounds))
    chosen = set(form["by_standing"].value() or [])
    open_rounds = _open_rounds(tournament, rounds)
    for item in open_rounds:
        item["by_standing"] = str(item["number"]) in {str(n) for n in chosen}
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "open_rounds": open_rounds,
        "form": form,
        "separations": [form[name] for name, _ in SEPARATIONS],
        "job": tournament.seating_jobs.first(),
    }
    return render(request, "tournament/seating/plan.html", context, status=status)


@organiser_page(*READ)
def plan(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    return plan_page(request, tournament)


def _start(request: AuthenticatedRequest, tournament: Tournament, seed: int | None) -> SeatingJob:
    return start_seating_job(tournament=tournament, actor=request.user, seed=seed)


def _to_job(job: SeatingJob) -> HttpResponse:
    return redirect("seating:job", slug=job.tournament.slug, job=job.pk)


@organiser_page("POST")
def save_settings(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    """Save the settings; with the "generate" button, then start generating."""
    form = SettingsForm(request.POST)
    if not call_service(
        form,
        lambda: update_seating_settings(
            tournament=tournament, actor=request.user, **form.settings()
        ),
    ):
        return plan_page(request, tournament, settings_form=form, status=INVALID)
    tournament.refresh_from_db()
    if "generate" not in request.POST:
        messages.success(request, _("The seating settings are saved."))
        return redirect("seating:plan", slug=tournament.slug)
    jobs: list[SeatingJob] = []
    if call_service(
        form, lambda: jobs.append(_start(request, tournament, form.cleaned_data["seed"]))
    ):
        return _to_job(jobs[0])
    messages.success(request, _("The seating settings are saved."))
    return plan_page(request, tournament, settings_form=form, status=INVALID)


@organiser_page("POST")
def generate(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    """Generate again with the saved settings (the preview's button)."""
    form = GenerateForm(request.POST)
    jobs: list[SeatingJob] = []
    if call_service(
        form, lambda: jobs.append(_start(request, tournament, form.cleaned_data["seed"]))
    ):
        return _to_job(jobs[0])
    return preview_page(request, tournament, generate_form=form, status=INVALID)


@organiser_page(*READ)
def job(request: AuthenticatedRequest, tournament: Tournament, job: int) -> HttpResponse:
    """A run's progress; it reloads itself every second while running, then shows the preview."""
    run = get_object_or_404(SeatingJob, tournament=tournament, pk=job)
    if run.status == SeatingJob.Status.DONE:
        preview_url = reverse("seating:preview", kwargs={"slug": tournament.slug})
        return redirect(f"{preview_url}?job={run.pk}")
    context = {
        "tournament": tournament,
        "job": run,
        "stale": is_stale(run),
        "percent": round(100 * run.done / run.total) if run.total else 0,
        "cost": (run.figures or {}).get("cost"),
    }
    return render(request, "tournament/seating/job.html", context)


def preview_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    publish_form: PublishForm | None = None,
    generate_form: GenerateForm | None = None,
    status: int = 200,
) -> HttpResponse:
    rounds = _rounds(tournament)
    figures = seating_figures(tournament)
    by_round = {f.number: f for f in figures.rounds}
    tables: dict[int, dict[int, list[Seat]]] = {}
    players = {}
    for seat in Seat.objects.filter(round__tournament=tournament).select_related(
        "round", "table", "player"
    ):
        tables.setdefault(seat.round.number, {}).setdefault(seat.table.number, []).append(seat)
        players[seat.player.key] = seat.player
    shown = []
    for r in rounds:
        shown.append(
            {
                "round": r,
                "frozen": r.status != Status.DRAFT,
                "figures": by_round.get(r.number),
                "tables": [
                    {
                        "number": number,
                        "seats": sorted(seats, key=lambda s: s.index),
                        "conflicts": figures.conflict_tables.get((r.number, number), ()),
                        "repeats": figures.repeat_tables.get((r.number, number), 0),
                    }
                    for number, seats in sorted(tables.get(r.number, {}).items())
                ],
            }
        )
    winds: list[WindCounts] = [
        {
            "player": players[key],
            "counts": [counts[w] for w in WINDS],
            "spread": max(counts.values()) - min(counts.values()),
        }
        for key, counts in sorted(figures.winds.items(), key=lambda item: natural_key(item[0]))
    ]
    # The run asked for (?job=<id>, a whole number), else the latest finished one.
    job_id = whole_number(request, "job", default=0, least=0, most=2**63 - 1)
    run = (
        tournament.seating_jobs.filter(pk=job_id).first()
        if job_id
        else tournament.seating_jobs.filter(status=SeatingJob.Status.DONE).first()
    )
    drafts = [r for r in rounds if r.status == Status.DRAFT and r.table_count]
    context = {
        "tournament": tournament,
        "rounds": shown,
        "figures": figures,
        "winds": winds,
        "unbalanced": [row for row in winds if row["spread"] > 1],
        "job": run,
        "drafts": drafts,
        "publish_form": publish_form,
        "generate_form": generate_form or GenerateForm(),
    }
    return render(request, "tournament/seating/preview.html", context, status=status)


@organiser_page(*READ)
def preview(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    return preview_page(request, tournament)


@organiser_page("POST")
def publish(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    """Publish the chosen draft rounds, or with the "all" button every seated draft round."""
    form = PublishForm(request.POST)
    numbers: list[int] = []
    if form.is_valid():
        numbers = form.cleaned_data["rounds"]
        if "all" in request.POST:
            numbers = list(
                tournament.rounds.filter(status=Status.DRAFT, tables__isnull=False)
                .values_list("number", flat=True)
                .distinct()
            )
    if call_service(
        form, lambda: publish_rounds(tournament=tournament, numbers=numbers, actor=request.user)
    ):
        rounds = listed(sorted(numbers))
        messages.success(
            request,
            _("Round %(listed)s is published.") % {"listed": rounds}
            if len(numbers) == 1
            else _("Rounds %(listed)s are published.") % {"listed": rounds},
        )
        return redirect("seating:preview", slug=tournament.slug)
    return preview_page(request, tournament, publish_form=form, status=INVALID)
