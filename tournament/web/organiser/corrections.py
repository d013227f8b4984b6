"""Corrections at one table of a played round: hands, penalties, false wins, the end of the game.

Every change lands back on the table page, which shows the score sheet after the change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _

from scoring.engine.rulebook import rulebook_for
from tournament.models import MOST_DEALS, Deal, Penalty, Round, Table, Tournament
from tournament.reads.access import AuthenticatedRequest
from tournament.reads.selectors import format_points, score_sheet, table_results
from tournament.services import (
    correct_deal,
    correct_penalty,
    end_game,
    record_false_win,
    record_penalty,
    remove_last_hand,
    remove_penalty,
    reopen_game,
)
from tournament.services.penalties import refuse_false_win_unless_penalty
from tournament.web.organiser.access import INVALID, call_service, organiser_page, table_of
from tournament.web.organiser.forms.results import (
    DealForm,
    EndGameForm,
    FalseWinForm,
    HandForm,
    PenaltyForm,
)


def _seats(table: Table) -> list:
    return sorted(table.seats.select_related("player"), key=lambda seat: seat.index)


def _hands(table: Table) -> int | None:
    """The tournament's fixed number of hands a game (MCR 16), or None."""
    return table.round.tournament.rules.hands_per_game


def _players(seats: list) -> list:
    return [seat.player for seat in seats]


def sheet_context(table: Table, seats: list) -> dict[str, Any]:
    """What the shared score sheet partial needs (`lines`, `seats`), and each seat's place and
    table points so far, in starting order."""
    results = {result.seat.pk: result for result in table_results(table)}
    totals = [
        {
            "seat": seat,
            "place": results[seat.pk].place,
            "points": format_points(results[seat.pk].table_points),
        }
        for seat in seats
    ]
    return {
        "seats": seats,
        "lines": score_sheet(table),
        "totals": totals,
        "initial_points": table.round.tournament.rules.initial_points,
    }


def table_page(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    *,
    status: int = 200,
    **bound: Any,
) -> HttpResponse:
    seats = _seats(table)
    players = _players(seats)
    hands = list(table.deals.select_related("winner__player", "discarder__player", "entered_by"))
    rules = tournament.rules
    context = {
        "tournament": tournament,
        "round": table.round,
        "table": table,
        "hands": hands,
        "penalties": list(table.penalties.select_related("seat__player", "entered_by")),
        "played": table.round.status in (Round.Status.PLAYING, Round.Status.FINISHED),
        "in_play": table.round.status == Round.Status.PLAYING,
        "rules": rules,
        "penalty_form": bound.pop("penalty_form", None)
        or PenaltyForm(players=players, hands_per_game=_hands(table), preset=rules),
        # A false win (MCR) or faulty out (WA) beside the deal; none where a faulty out is a
        # deal's result (JT): the deal is corrected to one.
        "false_win_form": bound.pop("false_win_form", None)
        or (
            FalseWinForm(
                players=players,
                hands_per_game=_hands(table),
                preset=rules,
                initial={
                    "number": min(
                        len(hands) + (table.ended_at is None), _hands(table) or MOST_DEALS
                    )
                    or 1
                },
            )
            if rulebook_for(rules).false_win_penalty
            else None
        ),
        "end_form": bound.pop("end_form", None) or EndGameForm(hands_per_game=rules.hands_per_game),
        "action_form": bound.pop("action_form", None),
        **sheet_context(table, seats),
    }
    return render(request, "tournament/organiser/table.html", context, status=status)


def _back(table: Table) -> HttpResponse:
    return redirect(
        "organiser:table",
        slug=table.round.tournament.slug,
        number=table.round.number,
        table=table.number,
    )


@organiser_page("GET", "HEAD")
def detail(
    request: AuthenticatedRequest, tournament: Tournament, number: int, table: int
) -> HttpResponse:
    return table_page(request, tournament, table_of(tournament, number, table))


@organiser_page("GET", "POST")
def hand(
    request: AuthenticatedRequest, tournament: Tournament, number: int, table: int, hand: int
) -> HttpResponse:
    table_ = table_of(tournament, number, table)
    record = get_object_or_404(
        Deal.objects.select_related("winner", "discarder", "offender"), table=table_, number=hand
    )
    seats = _seats(table_)
    rules = tournament.rules
    form: HandForm | DealForm
    fields: dict[str, str] = {}
    if not rules.counts_fan:
        posted = request.POST if request.method == "POST" else None
        form = DealForm(posted, seats=seats, rules=rules)
        fields = DealForm.ERROR_FIELDS
        if not form.is_bound:
            form.initial = form.initial_for(record)
    elif request.method == "POST":
        form = HandForm(request.POST, players=_players(seats), rules=rules)
        fields = dict(HandForm.ERROR_FIELDS)
        if form.data.get("tiles", "").strip():
            fields.update(below_minimum="tiles", fan_mismatch="tiles")
    else:
        form = HandForm(players=_players(seats), rules=rules, hand=record)
    if request.method == "POST":
        if call_service(
            form,
            lambda: correct_deal(hand=record, deal=form.deal(), entered_by=request.user),
            fields,
        ):
            messages.success(
                request, _("Hand %(number)s is corrected.") % {"number": record.number}
            )
            return _back(table_)
        status = INVALID
    else:
        status = 200
    context = {
        "tournament": tournament,
        "round": table_.round,
        "table": table_,
        "hand": record,
        "form": form,
        **sheet_context(table_, seats),
    }
    return render(request, "tournament/organiser/hand_form.html", context, status=status)


def _action(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    service: Callable[[], object],
    done: str,
) -> HttpResponse:
    """A button without fields: run `service`, or show its refusal on the table page."""
    form = forms.Form(request.POST)
    if call_service(form, service):
        messages.success(request, done)
        return _back(table)
    return table_page(request, tournament, table, action_form=form, status=INVALID)


@organiser_page("POST")
def remove_hand(
    request: AuthenticatedRequest, tournament: Tournament, number: int, table: int
) -> HttpResponse:
    table_ = table_of(tournament, number, table)
    removed: list[Deal] = []
    form = forms.Form(request.POST)
    if call_service(
        form, lambda: removed.append(remove_last_hand(table=table_, entered_by=request.user))
    ):
        messages.success(request, _("Hand %(number)s is removed.") % {"number": removed[0].number})
        return _back(table_)
    return table_page(request, tournament, table_, action_form=form, status=INVALID)


@organiser_page("POST")
def end(
    request: AuthenticatedRequest, tournament: Tournament, number: int, table: int
) -> HttpResponse:
    table_ = table_of(tournament, number, table)
    form = EndGameForm(request.POST, hands_per_game=tournament.rules.hands_per_game)
    if call_service(
        form,
        lambda: end_game(
            table=table_,
            ended_by_time=form.cleaned_data["ended_by_time"],
            entered_by=request.user,
        ),
    ):
        messages.success(
            request, _("The game at table %(number)s has ended.") % {"number": table_.number}
        )
        return _back(table_)
    return table_page(request, tournament, table_, end_form=form, status=INVALID)


@organiser_page("POST")
def reopen(
    request: AuthenticatedRequest, tournament: Tournament, number: int, table: int
) -> HttpResponse:
    table_ = table_of(tournament, number, table)
    return _action(
        request,
        tournament,
        table_,
        lambda: reopen_game(table=table_, entered_by=request.user),
        _("The game at table %(number)s is open again.") % {"number": table_.number},
    )


@organiser_page("POST")
def add_penalty(
    request: AuthenticatedRequest, tournament: Tournament, number: int, table: int
) -> HttpResponse:
    table_ = table_of(tournament, number, table)
    form = PenaltyForm(
        request.POST,
        players=_players(_seats(table_)),
        hands_per_game=_hands(table_),
        preset=tournament.rules,
    )
    if call_service(
        form,
        lambda: record_penalty(table=table_, entered_by=request.user, **form.cleaned_data),
        PenaltyForm.ERROR_FIELDS,
    ):
        messages.success(
            request,
            _("The penalty on %(name)s is recorded.") % {"name": form.cleaned_data["player"].name},
        )
        return _back(table_)
    return table_page(request, tournament, table_, penalty_form=form, status=INVALID)


@organiser_page("POST")
def add_false_win(
    request: AuthenticatedRequest, tournament: Tournament, number: int, table: int
) -> HttpResponse:
    table_ = table_of(tournament, number, table)
    try:  # where a faulty out ends the deal (JT) it is a deal's result, not a penalty
        refuse_false_win_unless_penalty(tournament.rules)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return table_page(request, tournament, table_, status=INVALID)
    form = FalseWinForm(
        request.POST,
        players=_players(_seats(table_)),
        hands_per_game=_hands(table_),
        preset=tournament.rules,
    )
    if call_service(
        form,
        lambda: record_false_win(table=table_, entered_by=request.user, **form.cleaned_data),
        FalseWinForm.ERROR_FIELDS,
    ):
        data = form.cleaned_data
        names = {"name": data["offender"].name, "number": data["number"]}
        if tournament.rules.counts_fan:
            text = _("The false win of %(name)s in hand %(number)s is recorded.") % names
        else:
            text = _("The faulty out of %(name)s in deal %(number)s is recorded.") % names
        messages.success(request, text)
        return _back(table_)
    return table_page(request, tournament, table_, false_win_form=form, status=INVALID)


def _penalty(table: Table, penalty: int) -> Penalty:
    return get_object_or_404(
        Penalty.objects.select_related("seat__player"), table=table, pk=penalty
    )


@organiser_page("GET", "POST")
def penalty(
    request: AuthenticatedRequest, tournament: Tournament, number: int, table: int, penalty: int
) -> HttpResponse:
    table_ = table_of(tournament, number, table)
    record = _penalty(table_, penalty)
    seats = _seats(table_)
    if request.method == "POST":
        form = PenaltyForm(
            request.POST,
            players=_players(seats),
            hands_per_game=_hands(table_),
            preset=tournament.rules,
        )
        if call_service(
            form,
            lambda: correct_penalty(penalty=record, entered_by=request.user, **form.cleaned_data),
            PenaltyForm.ERROR_FIELDS,
        ):
            messages.success(request, _("The penalty is corrected."))
            return _back(table_)
        status = INVALID
    else:
        form = PenaltyForm(
            initial=PenaltyForm.initial_for(record),
            players=_players(seats),
            hands_per_game=_hands(table_),
            preset=tournament.rules,
        )
        status = 200
    context = {
        "tournament": tournament,
        "round": table_.round,
        "table": table_,
        "penalty": record,
        "form": form,
        **sheet_context(table_, seats),
    }
    return render(request, "tournament/organiser/penalty_form.html", context, status=status)


@organiser_page("POST")
def remove_penalty_view(
    request: AuthenticatedRequest, tournament: Tournament, number: int, table: int, penalty: int
) -> HttpResponse:
    table_ = table_of(tournament, number, table)
    record = _penalty(table_, penalty)
    return _action(
        request,
        tournament,
        table_,
        lambda: remove_penalty(penalty=record, entered_by=request.user),
        _("The penalty on %(name)s (%(reason)s) is removed.")
        % {"name": record.seat.player.name, "reason": record.reason_text},
    )
