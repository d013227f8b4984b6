"""The live board of a round: every table's progress, the round clock, sheet confirmation.

The board refreshes itself: htmx asks for the board's address every few seconds and puts
the answer, the board's content alone (`render_live`), in place of the old one. When nothing
the content shows has changed, the answer is 304 (tournament.web.live.answer_live).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Exists, F, OuterRef
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_safe

from tournament.domain.text import listed
from tournament.models import RefereeCall, Round, Tournament
from tournament.reads.board import board as board_of
from tournament.reads.clock import ClockAction, clock_of, table_clock
from tournament.reads.permissions import organises
from tournament.services import (
    change_clock,
    confirm_game,
    confirm_submitted_games,
    give_table_time,
)
from tournament.services.player_links import answer_call
from tournament.services.round_clock import (
    MAX_EXTRA_MINUTES,
    MAX_TIME_REASON,
    TABLE_EXTRA_RANGE,
)
from tournament.web.htmx import AuthenticatedHtmxRequest
from tournament.web.live import answer_live, clock_tag, last_change, minutes_of, own_minutes
from tournament.web.organiser.access import (
    INVALID,
    call_service,
    organiser_page,
    round_of,
    table_of,
)
from tournament.web.public import render_live
from tournament.web.query import whole_number

# How often the board asks for fresh content, in seconds (?every= may ask for 2 to 60).
REFRESH_SECONDS = 10
REFRESH_RANGE = (2, 60)
EXTENSIONS = (5, 10)
TABLE_EXTENSIONS = (5, 10, 15)


class ClockForm(forms.Form):
    """One clock control: start (for `minutes`), pause, resume, or extend (by `minutes`); which
    actions take minutes is the service's rule (`change_clock`)."""

    action = forms.ChoiceField(
        choices=ClockAction.choices,
        error_messages={"invalid_choice": gettext_lazy("Unknown clock action.")},
    )
    minutes = forms.IntegerField(
        required=False,
        min_value=-600,
        max_value=600,
        error_messages={"invalid": gettext_lazy("Give the minutes as a whole number.")},
    )


class TableTimeForm(forms.Form):
    """Time of a table's own: a quick button (`quick`, minutes to add), minutes typed in
    (negative takes some back), or `clear` to take all of it back; a reason is optional."""

    quick = forms.IntegerField(required=False, min_value=-600, max_value=600)
    minutes = forms.IntegerField(
        required=False,
        min_value=-600,
        max_value=600,
        error_messages={
            "invalid": gettext_lazy("Give the minutes as a whole number."),
            "min_value": gettext_lazy("Give at most 600 minutes."),
            "max_value": gettext_lazy("Give at most 600 minutes."),
        },
    )
    clear = forms.BooleanField(required=False)
    reason = forms.CharField(
        required=False,
        max_length=MAX_TIME_REASON,
        strip=True,
        error_messages={
            "max_length": gettext_lazy("Keep the reason to %(limit_value)d characters.")
        },
    )

    def minutes_for(self, extra_minutes: int) -> int:
        """The minutes to add to a table that has `extra_minutes` of its own (valid form)."""
        data = self.cleaned_data
        if data.get("clear"):
            return -extra_minutes
        if data.get("quick") is not None:
            return data["quick"]
        return data["minutes"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        given = data.get("clear") or data.get("quick") is not None
        if not given and data.get("minutes") is None and "minutes" in data:
            self.add_error(
                "minutes", _("Say how many minutes to give the table (negative takes some back).")
            )
        return data


def _every(request: HttpRequest) -> int:
    least, most = REFRESH_RANGE
    return whole_number(request, "every", default=REFRESH_SECONDS, least=least, most=most)


def board_page(
    request: AuthenticatedHtmxRequest,
    tournament: Tournament,
    round: Round,
    *,
    status: int = 200,
    clock_form: ClockForm | None = None,
    time_form: tuple[int, TableTimeForm] | None = None,
) -> HttpResponse:
    """The board, or for htmx's live update only its content; `clock_form` is a refused one,
    `time_form` a refused table time form with its table's number."""
    round.tournament = tournament
    board = board_of(round)
    bound = clock_form.data if clock_form is not None else {}
    context = {
        "tournament": tournament,
        "round": round,
        "board": board,
        "clock": board.clock,
        "clock_form": clock_form,
        "start_minutes": bound.get("minutes", "")
        if bound.get("action") == ClockAction.START
        else tournament.round_minutes,
        "extend_minutes": bound.get("minutes", "")
        if bound.get("action") == ClockAction.EXTEND
        else "",
        "extensions": EXTENSIONS,
        "max_extra": MAX_EXTRA_MINUTES,
        "table_extensions": TABLE_EXTENSIONS,
        "table_extra_range": TABLE_EXTRA_RANGE,
        "time_table": time_form[0] if time_form else None,
        "time_form": time_form[1] if time_form else None,
        "refresh_seconds": _every(request),
        "calls": open_calls(tournament),
    }
    return render_live(
        request,
        "tournament/organiser/board.html",
        "tournament/organiser/board_content.html",
        context,
        status=status,
    )


def open_calls(tournament: Tournament) -> list[dict[str, Any]]:
    """The players' calls for a referee not answered yet, oldest first, with how many whole
    minutes each has waited."""
    now = timezone.now()
    return [
        {"call": call, "waited": max(0, int((now - call.called_at).total_seconds() // 60))}
        for call in RefereeCall.objects.filter(tournament=tournament, answered_at__isnull=True)
        .select_related("table__round", "player")
        .order_by("called_at", "pk")
    ]


@organiser_page("GET", "HEAD")
def _board(request: AuthenticatedHtmxRequest, tournament: Tournament, number: int) -> HttpResponse:
    return board_page(request, tournament, round_of(tournament, number))


@login_required
@require_safe
def board(request: AuthenticatedHtmxRequest, slug: str, number: int) -> HttpResponse:
    """The board; its live update is 304 when nothing it shows has changed."""
    return answer_live(
        request, _board_tag(request, slug, number), lambda: _board(request, slug, number=number)
    )


def _board_tag(request: AuthenticatedHtmxRequest, slug: str, number: int) -> str | None:
    """What the board's content shows, from one query that also checks that the user organises
    the tournament: its live version, the last audit entry of the round's tables (hands and
    penalties of games in play) and the round clock. None (render, no 304) for a whole page,
    or when the user may not see the board (the view then refuses as it does)."""
    if not request.htmx:
        return None
    round = (
        Round.objects.filter(tournament__slug=slug, number=number)
        .select_related("tournament")
        .annotate(
            version=F("tournament__live_version__number"),
            changed=last_change(tournament=OuterRef("tournament"), table__round=OuterRef("pk")),
            allowed=organises(request.user, OuterRef("tournament")),
            extras=own_minutes(OuterRef("pk")),
            calling=Exists(
                RefereeCall.objects.filter(
                    tournament=OuterRef("tournament"), answered_at__isnull=True
                )
            ),
        )
        .first()
    )
    if round is None or not round.allowed:
        return None
    version = f"{round.version or 0}.{round.changed or 0}"
    # While a call is open, the minutes it has waited change the board every minute.
    waiting = f"-{int(timezone.now().timestamp() // 60)}" if round.calling else ""
    clock = clock_of(round)
    # A table with time of its own is over, or behind, at other moments than the round.
    extras = minutes_of(round.extras, round.pk)
    own = "".join(f"-{clock_tag(clock.plus(extra))}" for extra in extras)
    return f"board-{version}-{clock_tag(clock)}{own}{waiting}"


def _back(tournament: Tournament, round: Round) -> HttpResponse:
    return redirect("organiser:board", slug=tournament.slug, number=round.number)


CLOCK_DONE = {
    ClockAction.START: gettext_lazy("The clock of round %(round)s is running: %(time)s left."),
    ClockAction.PAUSE: gettext_lazy("The clock is paused at %(time)s left."),
    ClockAction.RESUME: gettext_lazy("The clock runs again: %(time)s left."),
    ClockAction.EXTEND: gettext_lazy("The round now has %(time)s left."),
}


@organiser_page("POST")
def clock(request: AuthenticatedHtmxRequest, tournament: Tournament, number: int) -> HttpResponse:
    round = round_of(tournament, number)
    form = ClockForm(request.POST)
    done: list[Round] = []

    def run() -> None:
        data = form.cleaned_data
        done.append(
            change_clock(
                round=round, action=data["action"], actor=request.user, minutes=data["minutes"]
            )
        )

    if call_service(form, run, {"bad_minutes": "minutes", "bad_extension": "minutes"}):
        updated = done[0]
        updated.tournament = tournament
        board = board_of(updated)
        messages.success(
            request,
            CLOCK_DONE[ClockAction(form.cleaned_data["action"])]
            % {"round": round.number, "time": board.clock.display},
        )
        return _back(tournament, round)
    return board_page(request, tournament, round, status=INVALID, clock_form=form)


@organiser_page("POST")
def table_time(
    request: AuthenticatedHtmxRequest, tournament: Tournament, number: int, table: int
) -> HttpResponse:
    """Give one table time of its own (or take it back), from its card on the board."""
    found = table_of(tournament, number, table)
    form = TableTimeForm(request.POST)

    def run() -> None:
        give_table_time(
            table=found,
            minutes=form.minutes_for(found.extra_minutes),
            actor=request.user,
            reason=form.cleaned_data["reason"],
        )

    fields = {"bad_table_time": "minutes", "reason_too_long": "reason"}
    if call_service(form, run, fields):
        found.refresh_from_db(fields=["extra_minutes"])
        messages.success(
            request,
            _("Table %(table)s now has %(extra)s min of its own: %(time)s left.")
            % {
                "table": found.number,
                "extra": f"{found.extra_minutes:+d}",
                "time": table_clock(found).display,
            },
        )
        return redirect(
            reverse("organiser:board", args=[tournament.slug, number])
            + f"#board-table-{found.number}"
        )
    round = found.round
    return board_page(request, tournament, round, status=INVALID, time_form=(found.number, form))


def _next_or_board(
    request: AuthenticatedHtmxRequest, tournament: Tournament, round: Round
) -> HttpResponse:
    """Back where the form came from (`next`, a path of this site), else to the board. Only
    a path is followed: any other text (a URL name, a relative address) goes to the board."""
    target = request.POST.get("next", "")
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return HttpResponseRedirect(target)
    return _back(tournament, round)


@organiser_page("POST")
def confirm(
    request: AuthenticatedHtmxRequest, tournament: Tournament, number: int, table: int
) -> HttpResponse:
    table_ = table_of(tournament, number, table)
    form = forms.Form(request.POST)
    if call_service(form, lambda: confirm_game(table=table_, confirmed_by=request.user)):
        messages.success(
            request,
            _("The sheet of table %(table)s is confirmed: the game counts in the standings.")
            % {"table": table_.number},
        )
    else:
        for error in form.non_field_errors():
            messages.error(request, str(error))
    return _next_or_board(request, tournament, table_.round)


@organiser_page("POST")
def confirm_all(
    request: AuthenticatedHtmxRequest, tournament: Tournament, number: int
) -> HttpResponse:
    round = round_of(tournament, number)
    form = forms.Form(request.POST)
    confirmed: list = []
    if call_service(
        form,
        lambda: confirmed.extend(confirm_submitted_games(round=round, confirmed_by=request.user)),
    ):
        if confirmed:
            numbers = listed(table.number for table in confirmed)
            messages.success(
                request,
                ngettext(
                    "%(count)s sheet confirmed (table %(tables)s).",
                    "%(count)s sheets confirmed (tables %(tables)s).",
                    len(confirmed),
                )
                % {"count": len(confirmed), "tables": numbers},
            )
        else:
            messages.info(request, _("No submitted sheet was waiting for confirmation."))
    else:
        for error in form.non_field_errors():
            messages.error(request, str(error))
    return _back(tournament, round)


@organiser_page("POST")
def answer(request: AuthenticatedHtmxRequest, tournament: Tournament, call: int) -> HttpResponse:
    """Someone went to the table that called: the call leaves the board."""
    found = get_object_or_404(
        RefereeCall.objects.select_related("table__round"), tournament=tournament, pk=call
    )
    form = forms.Form(request.POST)
    if call_service(form, lambda: answer_call(found, actor=request.user)):
        messages.success(
            request,
            _("The call from table %(table)s is answered.") % {"table": found.table.number},
        )
    else:
        for error in form.non_field_errors():
            messages.error(request, str(error))
    return _next_or_board(request, tournament, found.table.round)
