"""Entering hands: a win by its fan or by its tiles (with the engine's breakdown), a drawn
hand, and taking back or correcting the last hand."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring.engine import HandError, parse_compact
from scoring.engine_messages import engine_message
from scoring.services import score_request
from scoring.views import present_verdict
from tournament import services
from tournament.access import AuthenticatedRequest
from tournament.models import Hand, Table
from tournament.rotation import prevailing_wind, seat_wind
from tournament.web.htmx import AuthenticatedHtmxRequest
from tournament.web.referee.answers import (
    ERROR_FIELDS,
    TILE_ERRORS,
    back_to_table,
    done,
    invalid,
    recorded,
    refused,
)
from tournament.web.referee.describe import describe_hand
from tournament.web.referee.forms import (
    WIND_NAMES,
    CorrectForm,
    DrawForm,
    FaultyOutForm,
    FullForm,
    UndoForm,
    WinForm,
)
from tournament.web.referee.screen import referee_table, render_table, table_state


@require_POST
@login_required
def record_win(request: AuthenticatedRequest, **where: Any) -> HttpResponse:
    table = referee_table(request, **where)
    form = WinForm(request.POST, **table_state(table).form_kwargs())
    if not form.is_valid():
        return invalid(request, table, "win", form)
    try:
        hand = services.record_hand(
            table=table,
            number=form.cleaned_data["number"],
            result=Hand.Result.WIN,
            winner=form.winner(),
            discarder=form.discarder(),
            **form.facts(),
            entered_by=request.user,
            submission=form.submission_key(),
        )
    except ValidationError as error:
        offer = error.code == "below_minimum"  # offer to record a false win instead
        return refused(request, table, "win", form, error, offer_false_win=offer)
    return recorded(request, table, hand)


def check_tiles(table: Table, form: FullForm) -> dict[str, Any]:
    """The engine's verdict on the tiles for the winner's seat wind and prevailing wind."""
    number = form.cleaned_data["number"]
    winner = next(
        view.seat for view in form.seats if view.player.key == form.cleaned_data["winner"]
    )
    tournament = table.round.tournament
    rules = tournament.rules
    payload: dict[str, Any] = {"compact": form.cleaned_data["tiles"], **form.situation()}
    if rules.counts_fan:
        wind = seat_wind(scheme=tournament.seat_rotation, starting_seat=winner.index, number=number)
        prevailing = prevailing_wind(number)
        payload["profile"] = tournament.profile
    else:  # the deal's winds follow from the deals before it (JT: the dealer may repeat)
        upcoming = table_state(table).upcoming
        wind = upcoming.seat_winds[winner.index] if upcoming else "E"
        prevailing = upcoming.prevailing_wind if upcoming else "E"
        payload["preset"] = rules.scorer
        if rules.deal.riichi_stake:
            payload["riichi"] = winner.player in form.players_of("riichi")
        if form.cleaned_data.get("joker_as"):
            payload["joker_as"] = form.cleaned_data["joker_as"]
    payload |= {"seat_wind": wind, "prevalent_wind": prevailing}
    verdict = present_verdict(score_request(payload))
    verdict["seat_wind"] = WIND_NAMES[wind]
    verdict["prevailing_wind"] = WIND_NAMES[prevailing]
    verdict["winner"] = winner.player.name
    verdict["number"] = number
    below = verdict.get("error") == "BELOW_MINIMUM"  # WA: a faulty out
    verdict["false_win"] = (
        rules.rulebook.false_win_penalty
        and verdict["ok"]
        and (below or not verdict.get("meets_minimum", True))
    )
    return verdict


def breakdown(
    request: HttpRequest,
    table: Table,
    *,
    verdict: dict[str, Any] | None = None,
    pending: Iterable[str] = (),
) -> HttpResponse:
    """The full entry's breakdown alone, which the table screen asks for (with htmx) as the
    hand is built: the engine's verdict, what the form still needs (`pending`), or nothing
    before a tile is entered. Records nothing."""
    context = {
        "verdict": verdict,
        "pending": list(pending),
        "false_win_each": table.round.tournament.rules.faulty_out.each,
    }
    response = render(request, "tournament/referee/_breakdown.html", context)
    response["X-Referee-Fragment"] = "verdict"
    return response


def tiles_missing(text: str) -> str | None:
    """How many tiles the hand in `text` still lacks, said in words; None when it lacks none
    (or cannot be read: the breakdown then says what is wrong)."""
    try:
        hand = parse_compact(text)
    except HandError:
        return None
    # 13 tiles before the winning one: standing tiles, and three for each declared set (a
    # kong's fourth tile is its replacement).
    count = 13 - len(hand.concealed) - 3 * len(hand.melds)
    if count <= 0:
        return None
    return ngettext(
        "%(count)s tile is missing: a winning hand has 14 (each kong adds one more).",
        "%(count)s tiles are missing: a winning hand has 14 (each kong adds one more).",
        count,
    ) % {"count": count}


def form_messages(form: forms.Form) -> list[str]:
    return [str(message) for errors in form.errors.values() for message in errors]


@require_POST
@login_required
def record_full(request: AuthenticatedHtmxRequest, **where: Any) -> HttpResponse:
    """Full entry: "check" shows the engine's breakdown, "save" records the win, and
    "false_win" records a hand under 8 fan as a false win by the winner.

    A check that htmx sends to update the breakdown (HX-Target `breakdown`) answers the
    breakdown alone (see `breakdown`)."""
    table = referee_table(request, **where)
    form = FullForm(request.POST, **table_state(table).form_kwargs())
    action = request.POST.get("action", "save")
    fragment = action == "check" and bool(request.htmx) and request.htmx.target == "breakdown"
    if fragment and not request.POST.get("tiles", "").strip():
        return breakdown(request, table)
    missing = tiles_missing(request.POST.get("tiles", "")) if fragment else None
    if missing:  # a hand still being built: how far it is, not the engine's refusal
        others = [] if form.is_valid() else form_messages(form)
        return breakdown(request, table, pending=[missing, *others])
    if not form.is_valid():
        if fragment:
            return breakdown(request, table, pending=form_messages(form))
        return invalid(request, table, "full", form)
    if action == "false_win":
        try:
            penalty = services.record_false_win(
                table=table,
                number=form.cleaned_data["number"],
                offender=form.winner(),
                invalid_hand=False,
                entered_by=request.user,
                submission=form.submission_key(),
            )
        except ValidationError as error:
            return refused(request, table, "full", form, error, fields={"offender_won": "winner"})
        return recorded(request, table, penalty)
    rules = table.round.tournament.rules
    if not rules.hand_scoring_available:
        unavailable = ValidationError(
            _("This tournament's rule preset cannot score tiles yet; enter the fan."),
            code="scoring_unavailable",
        )
        if fragment:
            return breakdown(request, table, pending=unavailable.messages)
        return refused(request, table, "full", form, unavailable)
    verdict = check_tiles(table, form)
    if fragment:
        return breakdown(request, table, verdict=verdict)
    if action != "save":
        return render_table(request, table, bound=("full", form), verdict=verdict)
    try:
        if rules.counts_fan:
            hand = parse_compact(form.cleaned_data["tiles"], **form.situation())
            tiles, facts = hand.to_case(), {"flowers": form.cleaned_data["flowers"]}
        else:  # the preset's engine scores the tiles (and any further winner's)
            tiles, facts = form.tiles_case(form.cleaned_data["tiles"]), form.facts()
    except HandError as error:
        form.add_error("tiles", engine_message(error))
        return render_table(request, table, bound=("full", form), verdict=verdict)
    try:
        saved = services.record_hand(
            table=table,
            number=form.cleaned_data["number"],
            result=Hand.Result.WIN,
            winner=form.winner(),
            discarder=form.discarder(),
            tiles=tiles,
            **facts,
            entered_by=request.user,
            submission=form.submission_key(),
        )
    except ValidationError as error:
        return refused(request, table, "full", form, error, fields=TILE_ERRORS, verdict=verdict)
    return recorded(request, table, saved)


@require_POST
@login_required
def record_draw(request: AuthenticatedRequest, **where: Any) -> HttpResponse:
    table = referee_table(request, **where)
    form = DrawForm(request.POST, **table_state(table).form_kwargs())
    if not form.is_valid():
        return invalid(request, table, "draw", form)
    try:
        hand = services.record_hand(
            table=table,
            number=form.cleaned_data["number"],
            result=Hand.Result.DRAW,
            **form.facts(),
            entered_by=request.user,
            submission=form.submission_key(),
        )
    except ValidationError as error:
        return refused(request, table, "draw", form, error)
    return recorded(request, table, hand)


@require_POST
@login_required
def record_faulty_out(request: AuthenticatedRequest, **where: Any) -> HttpResponse:
    """A faulty out that ends the deal (JT): the offender pays and the next deal starts."""
    table = referee_table(request, **where)
    form = FaultyOutForm(request.POST, **table_state(table).form_kwargs())
    if not form.is_valid():
        return invalid(request, table, "faulty_out", form)
    try:
        hand = services.record_hand(
            table=table,
            number=form.cleaned_data["number"],
            result=Hand.Result.FAULTY_OUT,
            **form.facts(),
            entered_by=request.user,
            submission=form.submission_key(),
        )
    except ValidationError as error:
        return refused(request, table, "faulty_out", form, error)
    return recorded(request, table, hand)


@require_POST
@login_required
def undo_last_hand(request: AuthenticatedRequest, **where: Any) -> HttpResponse:
    """First POST: ask to confirm, naming the hand. Second POST (confirm): remove it, if it is
    still the last hand."""
    table = referee_table(request, **where)
    form = UndoForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the hand to remove from the table page."))
        return back_to_table(table)
    number = form.cleaned_data["number"]
    if not form.cleaned_data["confirm"]:
        state = table_state(table)
        if state.last_hand is None or state.last_hand.number != number:
            messages.error(
                request,
                _("Hand %(number)s is not the last hand entered any more.") % {"number": number},
            )
            return back_to_table(table)
        confirm = UndoForm(initial={"number": number, "confirm": True})
        context = {
            "tournament": table.round.tournament,
            "round": table.round,
            "table": table,
            "hand": state.last_hand,
            "description": describe_hand(state.last_hand),
            "form": confirm,
        }
        return render(request, "tournament/referee/undo.html", context)
    try:
        hand = services.remove_last_hand(table=table, entered_by=request.user, number=number)
    except ValidationError as error:
        return render_table(request, table, page_errors=list(error.messages))
    return done(request, table, _("Hand %(number)s removed.") % {"number": hand.number})


@require_POST
@login_required
def correct_last_hand(request: AuthenticatedRequest, **where: Any) -> HttpResponse:
    """Correct the last hand in one step, while the game is open. A correction sent twice
    (the hand already has exactly these values) is answered as done; nothing changes."""
    table = referee_table(request, **where)
    try:
        number = int(request.POST.get("number", ""))
    except ValueError:
        number = 1  # the form says the number is wrong
    form = CorrectForm(request.POST, **table_state(table).correct_kwargs(number))
    if not form.is_valid():
        return invalid(request, table, "correct", form)
    try:
        hand = services.correct_last_hand(
            table=table,
            number=form.cleaned_data["number"],
            **form.corrected(),
            entered_by=request.user,
        )
    except ValidationError as error:
        field = ERROR_FIELDS.get(getattr(error, "code", None) or "")
        form.add_error(field if field in form.fields else None, error)
        return render_table(request, table, bound=("correct", form))
    if getattr(hand, "unchanged", False):
        messages.info(
            request,
            _("Hand %(number)s already has these values; nothing was changed.")
            % {"number": hand.number},
        )
        return back_to_table(table)
    text = _("Hand %(number)s is corrected: %(hand)s") % {
        "number": hand.number,
        "hand": describe_hand(hand),
    }
    return done(request, table, text)
