"""The cut to the final stage: who goes on (the line, ties at it), confirmed with one POST;
once confirmed, the finalists and a way back while the final stage has not started."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament.models import Tournament
from tournament.reads import stages
from tournament.reads.access import AuthenticatedRequest
from tournament.reads.selectors import format_points
from tournament.services.stages import confirm_cut, refuse_unless_cut_possible, undo_cut
from tournament.web.organiser.access import INVALID, call_service, organiser_page


class CutForm(forms.Form):
    action = forms.ChoiceField(choices=[("confirm", "confirm"), ("undo", "undo")])


@organiser_page("GET", "HEAD", "POST")
def cut(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    form = CutForm(request.POST or None)
    status = 200
    if request.method == "POST":
        done = call_service(
            form,
            lambda: (
                confirm_cut(tournament=tournament, actor=request.user)
                if form.cleaned_data["action"] == "confirm"
                else undo_cut(tournament=tournament, actor=request.user)
            ),
        )
        if done:
            if form.cleaned_data["action"] == "confirm":
                messages.success(request, _("The cut is confirmed: seat the final stage's rounds."))
            else:
                messages.success(request, _("The cut is undone."))
            return redirect("organiser:cut", slug=tournament.slug)
        status = INVALID
    context = _context(tournament, form)
    return render(request, "tournament/organiser/cut.html", context, status=status)


def _context(tournament: Tournament, form: CutForm) -> dict[str, Any]:
    context: dict[str, Any] = {"tournament": tournament, "form": form}
    if tournament.cut_after_round is None or tournament.cut_size is None:
        return context
    confirmed = stages.confirmed_cut(tournament)
    preview = stages.cut_preview(tournament)
    context.update(
        confirmed=confirmed,
        preview=preview,
        rows=[_row(row) for row in preview.rows],
    )
    if confirmed is None:
        try:
            refuse_unless_cut_possible(tournament)
        except forms.ValidationError as error:
            context["not_yet"] = error.messages
    else:
        finalists = list(confirmed.finalists.select_related("player"))
        factor = confirmed.factor
        context["finalists"] = [
            {
                "finalist": finalist,
                "points": format_points(finalist.table_points),
                "carried_points": format_points(stages.carried(finalist.table_points, factor)),
                "carried_score": stages.format_score(stages.carried(finalist.score, factor)),
            }
            for finalist in finalists
        ]
        # The cut is frozen; a correction to its rounds since would have chosen otherwise.
        now = [row.standing.player.pk for row in preview.qualified]
        context["moved"] = now != [finalist.player_id for finalist in finalists]
    return context


def _row(row: stages.CutRow) -> dict[str, Any]:
    return {
        "row": row,
        "points": format_points(row.standing.table_points),
        "carried_points": format_points(row.carried_table_points)
        if row.carried_table_points is not None
        else "",
        "carried_score": stages.format_score(row.carried_score)
        if row.carried_score is not None
        else "",
    }
