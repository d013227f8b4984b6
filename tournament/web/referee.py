"""The referee's pages: my tables, and the table screen where a game's hands are entered.

Every write goes through `tournament.services`; a refused entry is shown on its form with the
values kept (the service's message), a recorded one redirects back to the table with a
message (post/redirect/get).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from scoring.engine import HandError, get_preset, parse_compact
from scoring.services import score_request
from scoring.views import present_verdict, tile_groups
from tournament import services
from tournament.clock import Clock, clock_of
from tournament.models import HANDS_PER_GAME, Hand, Penalty, Round, Seat, Table, Tournament
from tournament.permissions import can_referee, can_view, is_organiser, referees_in
from tournament.rotation import prevailing_wind, seat_wind
from tournament.selectors import ScoreSheetLine, format_points, score_sheet, table_results
from tournament.services._common import refuse_unless_playing
from tournament.web.forms_referee import (
    WIND_NAMES,
    CorrectForm,
    DrawForm,
    EndForm,
    FalseWinForm,
    FullForm,
    PenaltyForm,
    SeatView,
    UndoForm,
    WinForm,
)

# Which form field a service's error code is about; the others go above the form's fields.
ERROR_FIELDS = {
    "winner_required": "winner",
    "not_seated": "winner",
    "offender_cannot_win": "winner",
    "discarder_is_winner": "discarder",
    "below_minimum": "fan",
    "fan_required": "fan",
    "bad_flowers": "flowers",
    "scoring_unavailable": "tiles",
    "invalid_tiles": "tiles",
    "fan_mismatch": "tiles",
    "offender_won": "offender",
    "bad_hand_number": "number",
    "reason_required": "reason",
    "not_divisible": "points",
    "deduction_out_of_range": "points",
}
# The form's idempotency key cannot be used: the form gets a new one (see `refused`).
KEY_ERRORS = {"submission_key_reused", "bad_submission_key"}
# Errors about the whole table rather than one entry: shown at the top of the page.
PAGE_ERRORS = {"round_not_playing", "game_ended", "already_ended"}
# Full entry has no fan field: what the tiles are worth is about the tiles.
TILE_ERRORS = {"below_minimum": "tiles", "fan_required": "tiles"}


# --- Finding the table --------------------------------------------------------------------


def referee_table(request: HttpRequest, *, slug: str, round: int, table: int) -> Table:
    """The table of the URL, if the user may enter results there (404 unknown, 403 no role)."""
    found = get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament__slug=slug,
        round__number=round,
        number=table,
    )
    if not can_view(request.user, found.round.tournament):
        raise Http404("No such table.")
    if not can_referee(request.user, found):
        raise PermissionDenied("You are not a referee of this table.")
    return found


def table_url(table: Table) -> str:
    return reverse(
        "referee:table",
        kwargs={
            "slug": table.round.tournament.slug,
            "round": table.round.number,
            "table": table.number,
        },
    )


# --- My tables ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundGroup:
    round: Round
    tables: list[Table]


@dataclass(frozen=True)
class TournamentGroup:
    tournament: Tournament
    rounds: list[RoundGroup]
    sheets_to_confirm: int | None  # None: the user does not confirm sheets here

    @property
    def name(self) -> str:
        return self.tournament.name


@require_safe
@login_required
def index(request: HttpRequest) -> HttpResponse:
    """Tables I referee, and for organisers every table of their rounds in play."""
    user = request.user
    in_play = Q(round__status=Round.Status.PLAYING)
    mine = Q(referees=user) | (
        in_play if user.is_superuser else in_play & Q(round__tournament__organisers=user)
    )
    tables = (
        Table.objects.filter(pk__in=Table.objects.filter(mine).values("pk"))
        .select_related("round__tournament")
        .annotate(hands_entered=Count("hands"))
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("round__tournament__name", "round__tournament_id", "-round__number", "number")
    )
    tables = list(tables)
    for table in tables:
        table.players = [seat.player for seat in sorted(table.seats.all(), key=lambda s: s.index)]
    groups = []
    for _id, tournament_tables in groupby(tables, key=lambda table: table.round.tournament_id):
        tournament_tables = list(tournament_tables)
        rounds = [
            RoundGroup(round=round_tables[0].round, tables=round_tables)
            for round_tables in (
                list(group) for _r, group in groupby(tournament_tables, key=lambda t: t.round_id)
            )
        ]
        tournament = tournament_tables[0].round.tournament
        groups.append(
            TournamentGroup(
                tournament=tournament,
                rounds=rounds,
                sheets_to_confirm=sheets_to_confirm(user, tournament),
            )
        )
    return render(
        request,
        "tournament/referee/index.html",
        {"groups": groups, "hands_per_game": HANDS_PER_GAME},
    )


def sheets_to_confirm(user, tournament: Tournament) -> int | None:
    """How many submitted sheets of `tournament` wait for a second referee's confirmation that
    `user` may give; None where the tournament does not ask referees to confirm."""
    if tournament.confirmation != Tournament.Confirmation.SECOND_REFEREE:
        return None
    waiting = Table.objects.filter(
        round__tournament=tournament, ended_at__isnull=False, confirmed_at__isnull=True
    )
    if is_organiser(user, tournament):
        return waiting.count()
    if not referees_in(user, tournament):
        return None
    # Any referee of the tournament confirms the sheets, except those they submitted.
    return waiting.exclude(submitted_by=user).count()


# --- The table screen ---------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerLine:
    seat: Seat
    wind: str  # seat wind in the next hand ("" when no hand is left)
    wind_name: str
    dealer: bool


@dataclass(frozen=True)
class TableState:
    table: Table
    seats: list[Seat]  # starting order E, S, W, N
    last_hand: Hand | None
    next_number: int  # HANDS_PER_GAME + 1 once every hand is entered
    not_playing: str  # why results cannot be entered now, or ""

    @property
    def ended(self) -> bool:
        return self.table.ended_at is not None

    @property
    def can_enter(self) -> bool:
        return not self.not_playing and not self.ended

    @property
    def hand_in_play(self) -> bool:
        return self.can_enter and self.next_number <= HANDS_PER_GAME

    def winds(self) -> list[str]:
        if self.ended or self.next_number > HANDS_PER_GAME:
            return [""] * 4
        scheme = self.table.round.tournament.seat_rotation
        return [
            seat_wind(scheme=scheme, starting_seat=seat.index, number=self.next_number)
            for seat in self.seats
        ]

    def correct_kwargs(self, number: int) -> dict[str, Any]:
        """The correction form's arguments: the players with their seat winds in hand `number`
        (the hand corrected, not the next one)."""
        scheme = self.table.round.tournament.seat_rotation
        number = min(max(number, 1), HANDS_PER_GAME)
        views = [
            SeatView(
                seat=seat, wind=seat_wind(scheme=scheme, starting_seat=seat.index, number=number)
            )
            for seat in self.seats
        ]
        return {"seats": views, "next_number": self.next_number}

    def form_kwargs(self) -> dict[str, Any]:
        views = [
            SeatView(seat=seat, wind=wind)
            for seat, wind in zip(self.seats, self.winds(), strict=True)
        ]
        return {"seats": views, "next_number": self.next_number}


def table_state(table: Table) -> TableState:
    seats = sorted(table.seats.select_related("player"), key=lambda seat: seat.index)
    last_hand = (
        table.hands.select_related("winner__player", "discarder__player")
        .order_by("-number")
        .first()
    )
    try:
        refuse_unless_playing(table)
        not_playing = ""
    except ValidationError as error:
        not_playing = " ".join(error.messages)
    return TableState(
        table=table,
        seats=seats,
        last_hand=last_hand,
        next_number=(last_hand.number if last_hand else 0) + 1,
        not_playing=not_playing,
    )


def empty_forms(state: TableState) -> dict[str, forms.Form]:
    kwargs = state.form_kwargs()
    rules = get_preset(state.table.round.tournament.preset).false_win
    return {
        "win": WinForm(**kwargs),
        "full": FullForm(**kwargs),
        "draw": DrawForm(**kwargs),
        "false_win": FalseWinForm(
            **kwargs,
            below_minimum_each=rules.below_minimum_each,
            invalid_hand_each=rules.invalid_hand_each,
        ),
        "penalty": PenaltyForm(**kwargs),
        "correct": (
            CorrectForm(**state.correct_kwargs(state.last_hand.number), hand=state.last_hand)
            if state.last_hand
            else None
        ),
        "end": EndForm(),
    }


def sheet_status(table: Table) -> tuple[str, str]:
    """Where the game sheet of `table` stands: a key (in_play, submitted, confirmed) and what
    the screen says about it."""
    texts = {
        "open": ("in_play", _("In play")),
        "submitted": ("submitted", _("Submitted, awaiting confirmation")),
        "confirmed": ("confirmed", _("Confirmed")),
    }
    return texts[table.sheet]


def who_confirms(tournament: Tournament) -> str:
    """Who confirms a submitted game sheet in `tournament`, in a sentence for the referee."""
    confirmation = tournament.confirmation
    if confirmation == Tournament.Confirmation.SECOND_REFEREE:
        return _(
            "A second referee of the tournament (not the one who submitted it) or the "
            "organiser confirms the sheet; until then the game counts as provisional."
        )
    if confirmation == Tournament.Confirmation.NONE:
        return _("This tournament needs no confirmation: the sheet counts once it is submitted.")
    return _("The organiser confirms the sheet; until then the game counts as provisional.")


def live_context(table: Table, state: TableState, clock: Clock | None = None) -> dict[str, Any]:
    """What the live part of the table screen shows: the round clock, hands played, the sheet
    status, and the players' seat winds and scores (or the result of an ended game)."""
    winds = state.winds()
    players = [
        PlayerLine(seat=seat, wind=wind, wind_name=WIND_NAMES.get(wind, ""), dealer=wind == "E")
        for seat, wind in zip(state.seats, winds, strict=True)
    ]
    results = []
    if state.ended:
        results = [
            {"result": result, "points": format_points(result.table_points)}
            for result in table_results(table)
        ]
    clock = clock or clock_of(table.round)
    hands_played = state.next_number - 1
    upcoming = not state.ended and state.next_number <= HANDS_PER_GAME
    status, status_text = sheet_status(table)
    return {
        "table": table,
        "state": state,
        "players": players,
        "prevailing_wind": prevailing_wind(state.next_number) if upcoming else "",
        "results": results,
        "clock": clock,
        "behind": clock.behind(hands_played, state.ended),
        "hands_played": hands_played,
        "hands_per_game": HANDS_PER_GAME,
        "sheet_status": status,
        "sheet_status_text": status_text,
        "who_confirms": who_confirms(table.round.tournament) if status == "submitted" else "",
    }


def render_table(
    request: HttpRequest,
    table: Table,
    *,
    state: TableState | None = None,
    bound: tuple[str, forms.Form] | None = None,
    page_errors: list[str] | None = None,
    verdict: dict[str, Any] | None = None,
    offer_false_win: bool = False,
) -> HttpResponse:
    state = state or table_state(table)
    tournament = table.round.tournament
    page_forms = empty_forms(state)
    open_form = "win" if state.hand_in_play else "end"
    if bound is not None:
        open_form, page_forms[bound[0]] = bound
    preset = get_preset(tournament.preset)
    lines = score_sheet(table)
    upcoming = not state.ended and state.next_number <= HANDS_PER_GAME
    prevailing = prevailing_wind(state.next_number) if upcoming else ""
    context = {
        **live_context(table, state),
        "tournament": tournament,
        "round": table.round,
        "prevailing_wind": prevailing,
        "prevailing_name": WIND_NAMES.get(prevailing, ""),
        "last_hand_text": describe_hand(state.last_hand) if state.last_hand else "",
        "hands_per_game": HANDS_PER_GAME,
        "forms": page_forms,
        "open_form": open_form,
        "page_errors": page_errors or [],
        "verdict": verdict,
        "offer_false_win": offer_false_win,
        "false_win_each": preset.false_win.below_minimum_each,
        "hand_scoring": preset.hand_scoring_available,
        "tile_groups": tile_groups(),
        "lines": lines,
        "seats": state.seats,
        "offer_submission": uuid.uuid4(),
        "correct_open": open_form == "correct"
        or (
            state.last_hand is not None
            and request.GET.get("correct") == str(state.last_hand.number)
        ),
        "recorded_keys": recorded_keys(lines),
    }
    return render(request, "tournament/referee/table.html", context)


def recorded_keys(lines: list[ScoreSheetLine]) -> list[str]:
    """The submission keys of the hands and penalties on a score sheet: the page's script drops
    a saved draft whose key is among them (it was recorded after all)."""
    records = [
        record
        for line in lines
        for record in ([line.hand] if line.hand else []) + list(line.penalties)
    ]
    return [str(record.submission) for record in records if record.submission]


@require_safe
@login_required
def table_page(request: HttpRequest, **where: Any) -> HttpResponse:
    return render_table(request, referee_table(request, **where))


def refused(
    request: HttpRequest,
    table: Table,
    name: str,
    form: forms.Form,
    error: ValidationError,
    *,
    fields: dict[str, str] | None = None,
    **extra: Any,
) -> HttpResponse:
    """Show a service's refusal on the form it answers, keeping what was typed.

    `fields` names the field an error code is about where the form differs from ERROR_FIELDS.
    """
    code = getattr(error, "code", None) or ""
    if code in KEY_ERRORS:
        renew_key(form)
        error = ValidationError(
            _(
                "This form was sent with a key already used for another entry, so nothing was "
                "recorded. It has a new key now: check the values and record again."
            ),
            code=code,
        )
    if code in PAGE_ERRORS:
        return render_table(request, table, page_errors=list(error.messages), **extra)
    field = {**ERROR_FIELDS, **(fields or {})}.get(code)
    form.add_error(field if field in form.fields else None, error)
    return render_table(request, table, bound=(name, form), **extra)


def renew_key(form: forms.Form) -> None:
    """Give a bound form a new submission key (its old one cannot record anything)."""
    form.data = form.data.copy()
    form.data[form.add_prefix("submission")] = str(uuid.uuid4())


def invalid(request: HttpRequest, table: Table, name: str, form: forms.Form) -> HttpResponse:
    """A form that did not validate, shown again with what was typed (and its key, unless the
    key itself was damaged)."""
    if "submission" in form.errors:
        renew_key(form)
    return render_table(request, table, bound=(name, form))


def recorded(request: HttpRequest, table: Table, record: Hand | Penalty) -> HttpResponse:
    """Back to the table after a hand or a penalty was recorded, or found already recorded
    under the form's key (a resubmission: nothing new was recorded)."""
    if getattr(record, "replayed", False):
        if isinstance(record, Hand):
            text = _("Hand %(number)s was already recorded; nothing was recorded twice.") % {
                "number": record.number
            }
        else:
            text = _("%(entry)s was already recorded; nothing was recorded twice.") % {
                "entry": penalty_title(record)
            }
        messages.info(request, text)
        return back_to_table(table)
    if isinstance(record, Hand):
        return done(request, table, describe_hand(record))
    return done(request, table, describe_penalty(record))


def penalty_title(penalty: Penalty) -> str:
    names = {
        "kind": penalty.get_kind_display(),
        "name": penalty.seat.player.name,
        "number": penalty.hand_number,
    }
    if penalty.hand_number:
        return _("%(kind)s for %(name)s in hand %(number)s") % names
    return _("%(kind)s for %(name)s") % names


def back_to_table(table: Table) -> HttpResponse:
    # "#top": the forms post to an address with their own fragment (to show a refusal next
    # to the form); after a redirect the browser would keep it unless told otherwise.
    return redirect(table_url(table) + "#top")


def done(request: HttpRequest, table: Table, message: str) -> HttpResponse:
    messages.success(request, message)
    return back_to_table(table)


def describe_hand(hand: Hand) -> str:
    if hand.result == Hand.Result.DRAW:
        return _("Hand %(number)s: drawn hand, nobody pays.") % {"number": hand.number}
    names = {
        "number": hand.number,
        "winner": hand.winner.player.name,
        "discarder": hand.discarder.player.name if hand.discarder else "",
        "fan": hand.fan,
        "flowers": ngettext(" + %(count)s flower", " + %(count)s flowers", hand.flowers)
        % {"count": hand.flowers}
        if hand.flowers
        else "",
    }
    if hand.discarder:
        return (
            _("Hand %(number)s: %(winner)s won on %(discarder)s’s discard, %(fan)s fan%(flowers)s.")
            % names
        )
    return _("Hand %(number)s: %(winner)s won by self-draw, %(fan)s fan%(flowers)s.") % names


def describe_penalty(penalty: Penalty) -> str:
    names = {
        "kind": penalty.get_kind_display(),
        "name": penalty.seat.player.name,
        "number": penalty.hand_number,
        "each": penalty.points // 3,
        "points": penalty.points,
    }
    if penalty.kind in (Penalty.Kind.FALSE_WIN, Penalty.Kind.FALSE_WIN_INVALID_HAND):
        return (
            _(
                "%(kind)s by %(name)s in hand %(number)s: pays %(each)s to each other player. "
                "%(name)s cannot win that hand; the others still can."
            )
            % names
        )
    if penalty.distributed:
        return _("%(kind)s for %(name)s: %(points)s points, shared by the other three.") % names
    return _("%(kind)s for %(name)s: %(points)s points, given to nobody.") % names


# --- Hands --------------------------------------------------------------------------------


@require_POST
@login_required
def record_win(request: HttpRequest, **where: Any) -> HttpResponse:
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
            fan=form.cleaned_data["fan"],
            flowers=form.cleaned_data["flowers"],
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
    wind = seat_wind(scheme=tournament.seat_rotation, starting_seat=winner.index, number=number)
    payload = {
        "compact": form.cleaned_data["tiles"],
        **form.situation(),
        "seat_wind": wind,
        "prevalent_wind": prevailing_wind(number),
        "profile": tournament.profile,
    }
    verdict = present_verdict(score_request(payload))
    verdict["seat_wind"] = WIND_NAMES[wind]
    verdict["prevailing_wind"] = WIND_NAMES[prevailing_wind(number)]
    verdict["winner"] = winner.player.name
    verdict["number"] = number
    verdict["false_win"] = verdict["ok"] and not verdict["meets_minimum"]
    return verdict


def breakdown(
    request: HttpRequest,
    table: Table,
    *,
    verdict: dict[str, Any] | None = None,
    pending: Iterable[str] = (),
) -> HttpResponse:
    """The full entry's breakdown alone, for the table screen's script to show as the hand is
    built: the engine's verdict, or what the form still needs (`pending`). Records nothing."""
    context = {
        "verdict": verdict,
        "pending": list(pending),
        "false_win_each": get_preset(table.round.tournament.preset).false_win.below_minimum_each,
    }
    response = render(request, "tournament/referee/_breakdown.html", context)
    response["X-Referee-Fragment"] = "verdict"
    return response


def form_messages(form: forms.Form) -> list[str]:
    return [str(message) for errors in form.errors.values() for message in errors]


@require_POST
@login_required
def record_full(request: HttpRequest, **where: Any) -> HttpResponse:
    """Full entry: "check" shows the engine's breakdown, "save" records the win, and
    "false_win" records a hand under 8 fan as a false win by the winner.

    A check asked with `?fragment=verdict` answers the breakdown alone (see `breakdown`)."""
    table = referee_table(request, **where)
    form = FullForm(request.POST, **table_state(table).form_kwargs())
    action = request.POST.get("action", "save")
    fragment = action == "check" and request.GET.get("fragment") == "verdict"
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
    if not get_preset(table.round.tournament.preset).hand_scoring_available:
        error = ValidationError(
            _("This tournament's rule preset cannot score tiles yet; enter the fan."),
            code="scoring_unavailable",
        )
        if fragment:
            return breakdown(request, table, pending=error.messages)
        return refused(request, table, "full", form, error)
    verdict = check_tiles(table, form)
    if fragment:
        return breakdown(request, table, verdict=verdict)
    if action != "save":
        return render_table(request, table, bound=("full", form), verdict=verdict)
    try:
        hand = parse_compact(form.cleaned_data["tiles"], **form.situation())
    except HandError as error:
        form.add_error("tiles", error.message)
        return render_table(request, table, bound=("full", form), verdict=verdict)
    try:
        saved = services.record_hand(
            table=table,
            number=form.cleaned_data["number"],
            result=Hand.Result.WIN,
            winner=form.winner(),
            discarder=form.discarder(),
            flowers=form.cleaned_data["flowers"],
            tiles=hand.to_case(),
            entered_by=request.user,
            submission=form.submission_key(),
        )
    except ValidationError as error:
        return refused(request, table, "full", form, error, fields=TILE_ERRORS, verdict=verdict)
    return recorded(request, table, saved)


@require_POST
@login_required
def record_draw(request: HttpRequest, **where: Any) -> HttpResponse:
    table = referee_table(request, **where)
    form = DrawForm(request.POST, **table_state(table).form_kwargs())
    if not form.is_valid():
        return invalid(request, table, "draw", form)
    try:
        hand = services.record_hand(
            table=table,
            number=form.cleaned_data["number"],
            result=Hand.Result.DRAW,
            entered_by=request.user,
            submission=form.submission_key(),
        )
    except ValidationError as error:
        return refused(request, table, "draw", form, error)
    return recorded(request, table, hand)


# --- Penalties ----------------------------------------------------------------------------


@require_POST
@login_required
def record_false_win(request: HttpRequest, **where: Any) -> HttpResponse:
    table = referee_table(request, **where)
    rules = get_preset(table.round.tournament.preset).false_win
    form = FalseWinForm(
        request.POST,
        **table_state(table).form_kwargs(),
        below_minimum_each=rules.below_minimum_each,
        invalid_hand_each=rules.invalid_hand_each,
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
def record_penalty(request: HttpRequest, **where: Any) -> HttpResponse:
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
            hand_number=form.cleaned_data["hand"],
            entered_by=request.user,
            submission=form.submission_key(),
        )
    except ValidationError as error:
        return refused(request, table, "penalty", form, error)
    return recorded(request, table, penalty)


# --- Undo and the end of the game ---------------------------------------------------------


@require_POST
@login_required
def undo_last_hand(request: HttpRequest, **where: Any) -> HttpResponse:
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
        with transaction.atomic():
            # Hold the table while checking, so the hand removed is the one confirmed.
            Table.objects.select_for_update(of=("self",)).filter(pk=table.pk).first()
            last = table.hands.order_by("-number").values_list("number", flat=True).first()
            if last != number:
                raise ValidationError(
                    _(
                        "Hand %(number)s is not the last hand entered any more; "
                        "nothing was removed."
                    ),
                    code="not_last_hand",
                    params={"number": number},
                )
            hand = services.remove_last_hand(table=table, entered_by=request.user)
    except ValidationError as error:
        return render_table(request, table, page_errors=list(error.messages))
    return done(request, table, _("Hand %(number)s removed.") % {"number": hand.number})


@require_POST
@login_required
def correct_last_hand(request: HttpRequest, **where: Any) -> HttpResponse:
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
    number = form.cleaned_data["number"]
    try:
        with transaction.atomic():
            # Hold the table while checking, so the hand corrected is the one the referee saw.
            locked = Table.objects.select_for_update(of=("self",)).get(pk=table.pk)
            hand = (
                locked.hands.select_related("winner__player", "discarder__player")
                .filter(number=number)
                .first()
            )
            if hand is not None and form.matches(hand):
                messages.info(
                    request,
                    _("Hand %(number)s already has these values; nothing was changed.")
                    % {"number": number},
                )
                return back_to_table(table)
            refuse_correction(locked, number)
            hand = services.correct_hand(hand=hand, **form.corrected(), entered_by=request.user)
    except ValidationError as error:
        field = ERROR_FIELDS.get(getattr(error, "code", None) or "")
        form.add_error(field if field in form.fields else None, error)
        return render_table(request, table, bound=("correct", form))
    text = _("Hand %(number)s is corrected: %(hand)s") % {
        "number": hand.number,
        "hand": describe_hand(hand),
    }
    return done(request, table, text)


def refuse_correction(table: Table, number: int) -> None:
    """The table screen corrects only the last hand, only while the game is open."""
    if table.ended_at is not None:
        raise ValidationError(
            _(
                "The game sheet is submitted, so the referee no longer corrects hands here: "
                "ask the organiser to correct hand %(number)s."
            ),
            code="game_ended",
            params={"number": number},
        )
    refuse_unless_playing(table)
    last = table.hands.order_by("-number").values_list("number", flat=True).first()
    if last != number:
        raise ValidationError(
            _(
                "Hand %(number)s is not the last hand entered any more; only the last hand is "
                "corrected here (the organiser corrects earlier hands). Nothing was changed."
            ),
            code="not_last_hand",
            params={"number": number},
        )


class DryRun(Exception):
    """Raised inside a transaction to undo what a service did there: a check, not a change."""


@require_POST
@login_required
def end_game(request: HttpRequest, **where: Any) -> HttpResponse:
    """Submit the game sheet. With `review`, first show the final scores to confirm (nothing
    is changed then; the service is asked in a transaction that is rolled back)."""
    table = referee_table(request, **where)
    form = EndForm(request.POST)
    form.is_valid()  # checkboxes: always valid
    time_called = form.cleaned_data.get("time_called", False)
    try:
        if form.cleaned_data.get("review"):
            try:
                with transaction.atomic():
                    services.end_game(
                        table=table, ended_by_time=time_called, entered_by=request.user
                    )
                    raise DryRun
            except DryRun:
                pass
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
        "hands_per_game": HANDS_PER_GAME,
        "early": hands < HANDS_PER_GAME,
        "time_called": time_called,
        "results": results,
        "penalties": list(table.penalties.select_related("seat__player").order_by("pk")),
        "who_confirms": who_confirms(table.round.tournament),
    }
    return render(request, "tournament/referee/submit.html", context)
