"""The prize-giving's controls on the settings page: the round the public standings are hidden
from, "Reveal the standings" and "Hide them again" (tournament.services.prize_giving)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from tournament.models import Tournament
from tournament.reads.access import AuthenticatedRequest
from tournament.services.prize_giving import (
    hide_standings_again,
    hide_standings_from,
    reveal_standings,
)
from tournament.web.organiser.access import INVALID, call_service, organiser_page
from tournament.web.organiser.forms.prize_giving import HideStandingsForm, RevealForm
from tournament.web.organiser.tournaments import settings_page


def _back(tournament: Tournament) -> HttpResponse:
    return redirect(reverse("organiser:settings", args=[tournament.slug]) + "#prize-giving")


@organiser_page("POST")
def hide(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    form = HideStandingsForm(request.POST, auto_id="id_prize_%s")
    if call_service(
        form,
        lambda: hide_standings_from(
            tournament=tournament, round=form.cleaned_data["hidden_from"], actor=request.user
        ),
        {"round_out_of_range": "hidden_from"},
    ):
        round = form.cleaned_data["hidden_from"]
        if round is None:
            messages.success(request, _("The standings are never hidden."))
        else:
            messages.success(
                request,
                _(
                    "Standings from round %(round)s on are hidden from everyone but the "
                    "organisers until you reveal them."
                )
                % {"round": round},
            )
        return _back(tournament)
    return settings_page(request, tournament, hide_form=form, status=INVALID)


@organiser_page("POST")
def reveal(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    form = RevealForm(request.POST, auto_id="id_prize_%s")
    if call_service(form, lambda: reveal_standings(tournament=tournament, actor=request.user)):
        messages.success(request, _("The standings are revealed: everyone sees them in full."))
        return _back(tournament)
    return settings_page(
        request,
        tournament,
        reveal_form=form,
        prize_errors=form.non_field_errors(),
        status=INVALID,
    )


@organiser_page("POST")
def hide_again(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    form = forms.Form(request.POST)
    if call_service(form, lambda: hide_standings_again(tournament=tournament, actor=request.user)):
        messages.success(request, _("The standings are hidden again."))
        return _back(tournament)
    return settings_page(request, tournament, prize_errors=form.non_field_errors(), status=INVALID)
