"""The end of the game: reviewing the final scores, then submitting the sheet."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournament import services
from tournament.domain.text import gap
from tournament.models import Table
from tournament.reads.access import AuthenticatedRequest
from tournament.reads.selectors import format_points, table_results
from tournament.web.referee.answers import PAGE_ERRORS, back_to_table, done, refused
from tournament.web.referee.forms import EndForm
from tournament.web.referee.screen import referee_table, table_state, who_confirms


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache  # going back to the review asks again, so a submitted sheet is not offered twice
@login_required
def end_game(request: AuthenticatedRequest, **where: Any) -> HttpResponse:
    """GET: the final scores as the sheet would be submitted now, to confirm (nothing is
    changed: the service only says whether the game may end), so that reloading, going back to
    or reopening it shows it again. POST: submit the game sheet. A POST with `review` (an older
    form) is sent on to the GET."""
    table = referee_table(request, **where)
    form = EndForm(request.POST if request.method == "POST" else request.GET)
    form.is_valid()  # checkboxes: always valid
    time_called = form.cleaned_data.get("time_called", False)
    if request.method == "POST" and form.cleaned_data.get("review"):
        return redirect(review_url(table, time_called=time_called))
    try:
        if request.method != "POST":
            services.check_end_game(table=table, ended_by_time=time_called)
            return review_sheet(request, table, time_called=time_called)
        ended = services.end_game(
            table=table,
            ended_by_time=time_called,
            entered_by=request.user,
        )
    except ValidationError as error:
        if request.method != "POST" and getattr(error, "code", None) in PAGE_ERRORS:
            # Back to a review once the sheet is submitted, or the round is no longer played:
            # the table screen says where things stand.
            messages.info(request, " ".join(error.messages))
            return back_to_table(table)
        return refused(request, table, "end", form, error)
    count = ended.deals.count()
    if table.round.tournament.words.calls_deals_hands:
        said = ngettext(
            "Game ended after %(count)s hand.", "Game ended after %(count)s hands.", count
        )
    else:
        said = ngettext(
            "Game ended after %(count)s deal.", "Game ended after %(count)s deals.", count
        )
    said %= {"count": count}
    if ended.ended_by_time:
        said += gap() + _("Time was called.")
    return done(request, table, said)


def review_url(table: Table, *, time_called: bool) -> str:
    url = reverse(
        "referee:end",
        kwargs={
            "slug": table.round.tournament.slug,
            "round": table.round.number,
            "table": table.number,
        },
    )
    return url + ("?time_called=on" if time_called else "")


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
