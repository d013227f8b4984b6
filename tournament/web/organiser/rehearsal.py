"""The dress rehearsal page of a tournament: play a private copy through, follow it, delete it
(services/rehearsal.py)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _

from tournament.models import Rehearsal, Tournament
from tournament.reads.access import AuthenticatedRequest
from tournament.services.rehearsal import (
    delete_rehearsal,
    refuse_rehearsal,
    rounds_to_play,
    stale,
    start_rehearsal,
)
from tournament.web.organiser.access import INVALID, call_service, organiser_page


class StartForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Seed (optional)"),
        required=False,
        min_value=1,
        max_value=2**31 - 1,
        help_text=_("The same seed plays the same rehearsal; empty: a new one each time."),
    )


def rehearsal_page(
    request: AuthenticatedRequest,
    tournament: Tournament,
    form: StartForm | None = None,
    status: int = 200,
) -> HttpResponse:
    copy_of = Rehearsal.objects.filter(copy=tournament).select_related("original").first()
    rehearsals = list(tournament.rehearsals.select_related("copy"))
    for each in rehearsals:
        each.stopped = stale(each)  # type: ignore[attr-defined]
    try:
        refuse_rehearsal(tournament)
        blocked = ""
    except ValidationError as error:
        blocked = " ".join(error.messages)
    running = any(
        each.status == Rehearsal.Status.RUNNING and not stale(each) for each in rehearsals
    )
    context = {
        "tournament": tournament,
        "copy_of": copy_of,
        "rehearsals": rehearsals,
        "blocked": blocked,
        "running": running,
        "rounds": rounds_to_play(tournament),
        "form": form or StartForm(),
    }
    return render(request, "tournament/organiser/rehearsal.html", context, status=status)


@organiser_page("GET", "HEAD", "POST")
def rehearsal(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    if request.method != "POST":
        return rehearsal_page(request, tournament)
    form = StartForm(request.POST)
    if not call_service(
        form,
        lambda: start_rehearsal(tournament, actor=request.user, seed=form.cleaned_data["seed"]),
    ):
        return rehearsal_page(request, tournament, form, status=INVALID)
    messages.success(
        request, _("The dress rehearsal has started: this page follows it until it is played.")
    )
    return redirect("organiser:rehearsal", slug=tournament.slug)


@organiser_page("POST")
def delete(request: AuthenticatedRequest, tournament: Tournament, rehearsal: int) -> HttpResponse:
    run = get_object_or_404(Rehearsal, original=tournament, pk=rehearsal)
    try:
        delete_rehearsal(run, actor=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("The dress rehearsal is deleted, with everything in it."))
    return redirect("organiser:rehearsal", slug=tournament.slug)
