"""The table screen: the table a referee may enter results at, what the screen shows and
its forms."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring.engine.rulebook import rulebook_for
from scoring.views import tile_groups
from tournament.models import FALSE_WIN_KINDS, Deal, Seat, Table, Tournament, Wind
from tournament.reads.access import REFEREE, AuthenticatedRequest, table_access
from tournament.reads.clock import Clock, table_clock
from tournament.reads.deals import DealAt, following, last_deal, seat_winds_of
from tournament.reads.selectors import ScoreSheetLine, format_points, score_sheet, table_results
from tournament.services import check_results_open
from tournament.web.referee.describe import describe_hand
from tournament.web.referee.forms import (
    WIND_NAMES,
    CorrectForm,
    DrawForm,
    EndForm,
    FalseWinForm,
    FaultyOutForm,
    FullForm,
    PenaltyForm,
    SeatView,
    WinForm,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def referee_table(request: HttpRequest, *, slug: str, round: int, table: int) -> Table:
    """The table of the URL, if the user may enter results there (404 unknown, 403 no role)."""
    _access, found = table_access(request.user, slug, round, table, role=REFEREE)
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


@dataclass(frozen=True)
class PlayerLine:
    seat: Seat
    wind: str  # seat wind in the next hand ("" when no hand is left)
    wind_name: StrOrPromise
    dealer: bool


@dataclass(frozen=True)
class TableState:
    table: Table
    seats: list[Seat]  # starting order E, S, W, N
    last_hand: Deal | None
    next_deal: DealAt | None  # the deal in play; None once the game is over
    hands_per_game: int | None  # of the tournament's rule preset; None: as its wind rounds take
    not_playing: str  # why results cannot be entered now, or ""
    false_wins: frozenset[tuple[int, str]] = frozenset()  # (hand number, offender's key)

    def cannot_win(self, number: int) -> frozenset[str]:
        """The keys of the players who declared a false win in hand `number`: they cannot
        win it."""
        return frozenset(key for hand, key in self.false_wins if hand == number)

    @property
    def next_number(self) -> int:
        return (self.last_hand.number if self.last_hand else 0) + 1

    @property
    def ended(self) -> bool:
        return self.table.ended_at is not None

    @property
    def can_enter(self) -> bool:
        return not self.not_playing and not self.ended

    @property
    def upcoming(self) -> DealAt | None:
        """The deal to enter next, while the game is open."""
        return None if self.ended else self.next_deal

    @property
    def hand_in_play(self) -> bool:
        return self.can_enter and self.next_deal is not None

    def winds(self) -> list[str]:
        upcoming = self.upcoming
        return [""] * 4 if upcoming is None else list(upcoming.seat_winds)

    def correct_kwargs(self, number: int) -> dict[str, Any]:
        """The correction form's arguments: the players with their seat winds in hand `number`
        (the last hand, which the referee corrects; none for any other)."""
        last, tournament = self.last_hand, self.table.round.tournament
        winds = (
            list(seat_winds_of(last, tournament)) if last and last.number == number else [""] * 4
        )
        views = [
            SeatView(seat=seat, wind=wind) for seat, wind in zip(self.seats, winds, strict=True)
        ]
        return {
            "seats": views,
            "next_number": self.next_number,
            "hands_per_game": self.hands_per_game,
            "rules": self.table.round.tournament.rules,
            "in_play": self.next_deal is not None,
            "cannot_win": self.cannot_win(number),
        }

    def form_kwargs(self) -> dict[str, Any]:
        views = [
            SeatView(seat=seat, wind=wind)
            for seat, wind in zip(self.seats, self.winds(), strict=True)
        ]
        return {
            "seats": views,
            "next_number": self.next_number,
            "hands_per_game": self.hands_per_game,
            "rules": self.table.round.tournament.rules,
            "in_play": self.next_deal is not None,
            "cannot_win": self.cannot_win(self.next_number),
        }


def table_state(table: Table) -> TableState:
    seats = sorted(table.seats.select_related("player"), key=lambda seat: seat.index)
    tournament = table.round.tournament
    last_hand = last_deal(table)
    try:
        check_results_open(table=table)
        not_playing = ""
    except ValidationError as error:
        not_playing = " ".join(error.messages)
    return TableState(
        table=table,
        seats=seats,
        last_hand=last_hand,
        next_deal=following(tournament, last_hand),
        hands_per_game=tournament.rules.hands_per_game,
        not_playing=not_playing,
        false_wins=frozenset(
            (number, key)
            for number, key in table.penalties.filter(kind__in=FALSE_WIN_KINDS).values_list(
                "deal_number", "seat__player__key"
            )
            if number is not None
        ),
    )


def empty_forms(state: TableState) -> dict[str, forms.Form | None]:
    kwargs = state.form_kwargs()
    preset = state.table.round.tournament.rules
    rules = preset.faulty_out
    return {
        "win": WinForm(**kwargs),
        "full": FullForm(**kwargs),
        "draw": DrawForm(**kwargs),
        "faulty_out": FaultyOutForm(**kwargs) if rules.ends_deal else None,
        # A declared win that is not one is a penalty beside the deal where play goes on (MCR's
        # false win, WA's faulty out); where it ends the deal (JT) only the faulty out above.
        "false_win": (
            FalseWinForm(
                **kwargs,
                below_minimum_each=rules.each,
                invalid_hand_each=rules.invalid_hand_each,
            )
            if rulebook_for(preset).false_win_penalty
            else None
        ),
        "penalty": PenaltyForm(**kwargs),
        # The one-step correction covers an MCR hand's fan and flowers; under a preset that
        # counts points the referee takes the last deal back and enters it again.
        "correct": (
            CorrectForm(**state.correct_kwargs(state.last_hand.number), hand=state.last_hand)
            if state.last_hand and state.table.round.tournament.rules.counts_fan
            else None
        ),
        "end": EndForm(),
    }


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
    """What the live part of the table screen shows: the table's own clock (the round's with
    the table's extra minutes), hands played, the sheet status, and the players' seat winds and
    scores (or the result of an ended game)."""
    winds = state.winds()
    players = [
        PlayerLine(
            seat=seat, wind=wind, wind_name=WIND_NAMES.get(wind, ""), dealer=wind == Wind.EAST
        )
        for seat, wind in zip(state.seats, winds, strict=True)
    ]
    results = []
    if state.ended:
        results = [
            {"result": result, "points": format_points(result.table_points)}
            for result in table_results(table)
        ]
    clock = clock or table_clock(table)
    hands_played = state.next_number - 1
    upcoming = state.upcoming
    status = table.sheet
    return {
        "table": table,
        "state": state,
        "players": players,
        "prevailing_wind": upcoming.prevailing_wind if upcoming else "",
        "extra_hands": upcoming.extra_hands if upcoming else 0,
        "initial_points": table.round.tournament.rules.initial_points,
        "results": results,
        "clock": clock,
        "behind": clock.behind(hands_played, state.ended),
        "hands_played": hands_played,
        "hands_per_game": state.hands_per_game,
        "sheet_status": status,
        "who_confirms": (
            who_confirms(table.round.tournament) if status == Table.Sheet.SUBMITTED else ""
        ),
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
    preset = tournament.rules
    lines = score_sheet(table)
    upcoming = state.upcoming
    prevailing = upcoming.prevailing_wind if upcoming else ""
    context = {
        **live_context(table, state),
        "tournament": tournament,
        "round": table.round,
        "prevailing_wind": prevailing,
        "prevailing_name": WIND_NAMES.get(prevailing, ""),
        "last_hand_text": describe_hand(state.last_hand) if state.last_hand else "",
        "hands_per_game": state.hands_per_game,
        "forms": page_forms,
        "open_form": open_form,
        "page_errors": page_errors or [],
        "verdict": verdict,
        "offer_false_win": offer_false_win,
        "false_win_each": preset.faulty_out.each,
        "hand_scoring": preset.hand_scoring_available,
        "rules": preset,
        # the keypad: the 34 kinds and the tiles the preset's hands add (WA: the joker)
        "tile_groups": tile_groups(rulebook_for(preset).extra_tile_codes),
        "joker_tile": "J" in rulebook_for(preset).extra_tile_codes,
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
def table_page(request: AuthenticatedRequest, **where: Any) -> HttpResponse:
    return render_table(request, referee_table(request, **where))
