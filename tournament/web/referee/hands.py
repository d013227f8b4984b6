"""Entering hands: a win by its fan or by its tiles (with the engine's breakdown), a drawn
hand, and taking back or correcting the last hand."""

from __future__ import annotations

import uuid
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

from scoring.engine import HandError, RulePreset
from scoring.engine.rulebook import HAND_TILES, rulebook_for
from scoring.engine_messages import engine_message
from scoring.services import score_request
from scoring.views import present_verdict
from tournament import services
from tournament.models import Seat, Table
from tournament.reads.access import AuthenticatedRequest
from tournament.reads.deals import DealAt
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
from tournament.web.referee.describe import describe_hand, describe_penalty
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
        hand = services.record_deal(
            table=table,
            number=form.cleaned_data["number"],
            deal=form.deal(),
            entered_by=request.user,
            submission=form.submission_key(),
        )
    except ValidationError as error:
        offer = error.code == "below_minimum"  # offer to record a false win instead
        return refused(request, table, "win", form, error, offer_false_win=offer)
    return recorded(request, table, hand)


def check_winners(table: Table, form: FullForm) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The engine's verdict on the winner's tiles, and on each further winner's on the same
    discard (WA) by the player's key: each for that player's seat wind and the prevailing
    wind of the deal in play."""
    # The deal's winds follow from the deals before it (JT, WA: the dealer may repeat), never
    # from the number the form sends; after the game's end the services refuse the deal.
    upcoming = table_state(table).upcoming
    seats = {view.player.key: view.seat for view in form.seats}
    winner = seats[form.cleaned_data["winner"]]
    verdict = score_winner(table, form, winner, form.cleaned_data["tiles"], upcoming)
    further = {
        key: score_winner(table, form, seats[key], text, upcoming)
        for key, text in form.further_tiles().items()
        if key in seats
    }
    return verdict, further


def score_winner(
    table: Table, form: FullForm, winner: Seat, tiles: str, upcoming: DealAt | None
) -> dict[str, Any]:
    """The engine's verdict on one winner's tiles: for that winner's seat wind and the
    prevailing wind of the deal in play (`upcoming`), with the situation of the form."""
    number = form.cleaned_data["number"]
    tournament = table.round.tournament
    rules = tournament.rules
    rulebook = rulebook_for(rules)
    payload: dict[str, Any] = {"compact": tiles, **form.situation()}
    wind = upcoming.seat_winds[winner.index] if upcoming else "E"
    prevailing = upcoming.prevailing_wind if upcoming else "E"
    if rules.counts_fan:
        payload["profile"] = tournament.profile
    else:
        payload["preset"] = rulebook.key
        if rules.deal.riichi_stake:
            payload["riichi"] = winner.player in form.players_of("riichi")
        if form.cleaned_data.get("joker_as"):
            payload["joker_as"] = form.cleaned_data["joker_as"]
    payload |= {"seat_wind": wind, "prevalent_wind": prevailing}
    verdict = present_verdict(score_request(payload))
    verdict["seat_wind"] = WIND_NAMES[wind]
    verdict["prevailing_wind"] = WIND_NAMES[prevailing]
    verdict["winner"] = winner.player.name
    verdict["winner_key"] = winner.player.key
    verdict["number"] = number
    # How the preset calls a deal, and a win below its minimum (MCR: a false win in a hand).
    verdict["deal_is_hand"] = tournament.words.calls_deals_hands
    verdict["faulty_out"] = rulebook.calls_false_win_faulty_out
    below = verdict.get("error") == "BELOW_MINIMUM"  # WA: a faulty out
    verdict["false_win"] = (
        rulebook.false_win_penalty
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
    form: FullForm | None = None,
) -> HttpResponse:
    """The full entry's breakdown alone, which the table screen asks for (with htmx) as the
    hand is built: the engine's verdict, what the form still needs (`pending`), or nothing
    before a tile is entered; and, out of band, the verdict under each further winner's tiles
    (WA), emptied when there is none. Records nothing."""
    context = {
        "verdict": verdict,
        "pending": list(pending),
        "false_win_each": table.round.tournament.rules.faulty_out.each,
        "further_entries": form.also_entries if form is not None else [],
    }
    response = render(request, "tournament/referee/_breakdown.html", context)
    response["X-Referee-Fragment"] = "verdict"
    return response


def tiles_missing(text: str, rules: RulePreset) -> str | None:
    """How many tiles the hand in `text` still lacks, said in words; None when it lacks none
    (or cannot be read: the breakdown then says what is wrong). A tile the preset adds to the
    34 kinds (WA's joker) counts as a tile."""
    try:
        count = HAND_TILES - rulebook_for(rules).tiles_held(text)
    except HandError:
        return None
    if count <= 0:
        return None
    return ngettext(
        "%(count)s tile is missing: a winning hand has 14 (each kong adds one more).",
        "%(count)s tiles are missing: a winning hand has 14 (each kong adds one more).",
        count,
    ) % {"count": count}


def form_messages(form: forms.Form) -> list[str]:
    return [str(message) for errors in form.errors.values() for message in errors]


def without_claimant(request: HttpRequest, table: Table, key: str) -> FullForm:
    """The full entry as it was sent, without the tiles of `key`, whose faulty out was just
    recorded, and with a new submission key: the other winners' win is still to be saved. When
    `key` was the winner, the first further winner becomes the winner."""
    data = request.POST.copy()
    for name in ("action", "false_win_of"):
        data.pop(name, None)
    if data.get("winner") == key:
        further = [
            name for name in data if name.startswith("also_tiles_") and data.get(name, "").strip()
        ]
        if further:
            data["winner"], data["tiles"] = further[0][11:], data.get(further[0], "")
            data[further[0]] = ""
    data[f"also_tiles_{key}"] = ""
    data["submission"] = str(uuid.uuid4())
    return FullForm(data, **table_state(table).form_kwargs())


@require_POST
@login_required
def record_full(request: AuthenticatedHtmxRequest, **where: Any) -> HttpResponse:
    """Full entry: "check" shows the engine's breakdown of every winner's tiles, "save" records
    the win, and "false_win" records a hand under the minimum as a false win (WA: a faulty
    out) by the winner; "false_win_of" names the claimant who made it when several players
    won on one discard, and the others' win stays to be saved.

    A check that htmx sends to update the breakdown (HX-Target `breakdown`) answers the
    breakdown alone (see `breakdown`)."""
    table = referee_table(request, **where)
    form = FullForm(request.POST, **table_state(table).form_kwargs())
    action = request.POST.get("action", "save")
    offender_key = request.POST.get("false_win_of", "")
    if offender_key:
        action = "false_win"
    rules = table.round.tournament.rules
    fragment = action == "check" and bool(request.htmx) and request.htmx.target == "breakdown"
    if fragment and not request.POST.get("tiles", "").strip():
        return breakdown(request, table, form=form)
    missing = tiles_missing(request.POST.get("tiles", ""), rules) if fragment else None
    if missing:  # a hand still being built: how far it is, not the engine's refusal
        others = [] if form.is_valid() else form_messages(form)
        return breakdown(request, table, pending=[missing, *others], form=form)
    if not form.is_valid():
        if fragment:
            return breakdown(request, table, pending=form_messages(form), form=form)
        return invalid(request, table, "full", form)
    if action == "false_win":
        return record_claimant_false_win(request, table, form, offender_key)
    if not rules.hand_scoring_available:
        unavailable = ValidationError(
            _("This tournament's rule preset cannot score tiles yet; enter the fan."),
            code="scoring_unavailable",
        )
        if fragment:
            return breakdown(request, table, pending=unavailable.messages, form=form)
        return refused(request, table, "full", form, unavailable)
    verdict, form.further_verdicts = check_winners(table, form)
    if fragment:
        return breakdown(request, table, verdict=verdict, form=form)
    if action != "save":
        return render_table(request, table, bound=("full", form), verdict=verdict)
    try:
        deal = form.deal()  # the tiles for the preset's engine (and any further winner's)
    except HandError as error:
        form.add_error("tiles", engine_message(error))
        return render_table(request, table, bound=("full", form), verdict=verdict)
    try:
        saved = services.record_deal(
            table=table,
            number=form.cleaned_data["number"],
            deal=deal,
            entered_by=request.user,
            submission=form.submission_key(),
        )
    except ValidationError as error:
        fields = {**TILE_ERRORS, **further_error_field(form, form.further_verdicts, error)}
        return refused(request, table, "full", form, error, fields=fields, verdict=verdict)
    return recorded(request, table, saved)


def further_error_field(
    form: FullForm, verdicts: dict[str, dict[str, Any]], error: ValidationError
) -> dict[str, str]:
    """Where a refusal about a further winner's tiles goes: under that winner's tiles (the
    first further winner whose tiles are no win), not under the winner's."""
    code = getattr(error, "code", None) or ""
    if code not in ("below_minimum", "invalid_tiles", "value_disagrees_with_tiles"):
        return {}
    name = (getattr(error, "params", None) or {}).get("player")
    for key, verdict in verdicts.items():
        if verdict.get("winner") == name or (name is None and not verdict.get("ok")):
            return {code: f"also_tiles_{key}"}
    return {}


def record_claimant_false_win(
    request: AuthenticatedHtmxRequest, table: Table, form: FullForm, key: str
) -> HttpResponse:
    """Record the false win (WA: the faulty out) of the claimant `key` (by default the winner)
    for this deal. With another winner's tiles left, the entry is shown again with them, to
    be saved; otherwise back to the table."""
    key = key or form.cleaned_data["winner"]
    claimants = {form.cleaned_data["winner"], *form.further_tiles()}
    if key not in claimants:
        form.add_error(None, _("Only a player who declared the win can have made a false one."))
        return render_table(request, table, bound=("full", form))
    try:
        penalty = services.record_false_win(
            table=table,
            number=form.cleaned_data["number"],
            offender=form.player(key),
            invalid_hand=False,
            entered_by=request.user,
            submission=form.submission_key(),
        )
    except ValidationError as error:
        return refused(request, table, "full", form, error, fields={"offender_won": "winner"})
    if len(claimants) == 1 or getattr(penalty, "replayed", False):
        return recorded(request, table, penalty)
    messages.success(request, describe_penalty(penalty))
    rest = without_claimant(request, table, key)
    verdict = None
    if rest.is_valid():
        verdict, rest.further_verdicts = check_winners(table, rest)
    return render_table(request, table, bound=("full", rest), verdict=verdict)


@require_POST
@login_required
def record_draw(request: AuthenticatedRequest, **where: Any) -> HttpResponse:
    table = referee_table(request, **where)
    form = DrawForm(request.POST, **table_state(table).form_kwargs())
    if not form.is_valid():
        return invalid(request, table, "draw", form)
    try:
        hand = services.record_deal(
            table=table,
            number=form.cleaned_data["number"],
            deal=form.deal(),
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
        hand = services.record_deal(
            table=table,
            number=form.cleaned_data["number"],
            deal=form.deal(),
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
                _("%(deal)s is not the last one entered any more.")
                % {"deal": table.round.tournament.words.deal_named(number)},
            )
            return back_to_table(table)
        confirm = UndoForm(initial={"number": number, "confirm": True})
        context = {
            "tournament": table.round.tournament,
            "round": table.round,
            "table": table,
            "hand": state.last_hand,
            "deal_name": table.round.tournament.words.deal_named(number, capital=False),
            "description": describe_hand(state.last_hand),
            "form": confirm,
        }
        return render(request, "tournament/referee/undo.html", context)
    try:
        hand = services.remove_last_hand(table=table, entered_by=request.user, number=number)
    except ValidationError as error:
        return render_table(request, table, page_errors=list(error.messages))
    deal = table.round.tournament.words.deal_named(hand.number)
    return done(request, table, _("%(deal)s removed.") % {"deal": deal})


@require_POST
@login_required
def correct_last_deal(request: AuthenticatedRequest, **where: Any) -> HttpResponse:
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
        hand = services.correct_last_deal(
            table=table,
            number=form.cleaned_data["number"],
            deal=form.deal(),
            entered_by=request.user,
        )
    except ValidationError as error:
        field = ERROR_FIELDS.get(getattr(error, "code", None) or "")
        form.add_error(field if field in form.fields else None, error)
        return render_table(request, table, bound=("correct", form))
    if getattr(hand, "unchanged", False):
        messages.info(
            request,
            _("%(deal)s already has these values; nothing was changed.")
            % {"deal": table.round.tournament.words.deal_named(hand.number)},
        )
        return back_to_table(table)
    text = _("%(deal)s is corrected: %(hand)s") % {
        "deal": table.round.tournament.words.deal_named(hand.number),
        "hand": describe_hand(hand),
    }
    return done(request, table, text)
