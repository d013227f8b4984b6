"""Entering false wins and penalties at the table."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.views.decorators.http import require_POST

from tournament import services
from tournament.reads.access import AuthenticatedRequest
from tournament.services.penalties import refuse_false_win_unless_penalty
from tournament.web.referee.answers import invalid, recorded, refused
from tournament.web.referee.forms import FalseWinForm, PenaltyForm
from tournament.web.referee.screen import referee_table, render_table, table_state


@require_POST
@login_required
def record_false_win(request: AuthenticatedRequest, **where: Any) -> HttpResponse:
    table = referee_table(request, **where)
    preset = table.round.tournament.rules
    try:  # where a faulty out ends the deal (JT) it is a deal's result, not a penalty
        refuse_false_win_unless_penalty(preset)
    except ValidationError as error:
        return render_table(request, table, page_errors=list(error.messages))
    form = FalseWinForm(
        request.POST,
        **table_state(table).form_kwargs(),
        below_minimum_each=preset.faulty_out.each,
        invalid_hand_each=preset.faulty_out.invalid_hand_each,
    )
    if not form.is_valid():
        return invalid(request, table, "false_win", form)
    try:
        penalty = services.record_false_win(
            table=table,
            number=form.cleaned_data["number"],
            offender=form.offender(),
            invalid_hand=form.cleaned_data["kind"] == FalseWinForm.INVALID_HAND,
            entered_by=request.user,
            submission=form.submission_key(),
        )
    except ValidationError as error:
        return refused(request, table, "false_win", form, error)
    return recorded(request, table, penalty)


@require_POST
@login_required
def record_penalty(request: AuthenticatedRequest, **where: Any) -> HttpResponse:
    table = referee_table(request, **where)
    form = PenaltyForm(request.POST, **table_state(table).form_kwargs())
    if not form.is_valid():
        return invalid(request, table, "penalty", form)
    try:
        penalty = services.record_penalty(
            table=table,
            player=form.penalised(),
            points=form.cleaned_data["points"],
            distributed=form.distributed(),
            reason=form.cleaned_data["reason"],
            deal_number=form.cleaned_data["hand"],
            entered_by=request.user,
            submission=form.submission_key(),
        )
    except ValidationError as error:
        return refused(request, table, "penalty", form, error)
    return recorded(request, table, penalty)
