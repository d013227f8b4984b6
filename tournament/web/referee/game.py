"""The end of the game: reviewing the final scores, then submitting the sheet."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament import services
from tournament.access import AuthenticatedRequest
from tournament.models import Table
from tournament.selectors import format_points, table_results
from tournament.web.referee.answers import done, refused
from tournament.web.referee.forms import EndForm
from tournament.web.referee.screen import referee_table, table_state, who_confirms


@require_POST
@login_required
def end_game(request: AuthenticatedRequest, **where: Any) -> HttpResponse:
    """Submit the game sheet. With `review`, first show the final scores to confirm (nothing
    is changed then: the service only says whether the game may end)."""
    table = referee_table(request, **where)
    form = EndForm(request.POST)
    form.is_valid()  # checkboxes: always valid
    time_called = form.cleaned_data.get("time_called", False)
    try:
        if form.cleaned_data.get("review"):
            services.check_end_game(table=table, ended_by_time=time_called)
            return review_sheet(request, table, time_called=time_called)
        ended = services.end_game(
            table=table,
            ended_by_time=time_called,
            entered_by=request.user,
        )
    except ValidationError as error:
        return refused(request, table, "end", form, error)
    hands = {"hands": ended.hands.count()}
    if ended.ended_by_time:
        return done(
            request, table, _("Game ended after %(hands)s hands (time was called).") % hands
        )
    return done(request, table, _("Game ended after %(hands)s hands.") % hands)


def review_sheet(request: HttpRequest, table: Table, *, time_called: bool) -> HttpResponse:
    """The final scores and table points as the sheet would be submitted now, to confirm."""
    state = table_state(table)
    hands = state.next_number - 1
    results = [
        {"result": result, "points": format_points(result.table_points)}
        for result in table_results(table)
    ]
    context = {
        "tournament": table.round.tournament,
        "round": table.round,
        "table": table,
        "hands": hands,
        "hands_per_game": state.hands_per_game,
        "early": state.next_deal is not None,
        "time_called": time_called,
        "results": results,
        "penalties": list(table.penalties.select_related("seat__player").order_by("pk")),
        "who_confirms": who_confirms(table.round.tournament),
    }
    return render(request, "tournament/referee/submit.html", context)
