"""A round: create it, seat it, change seats, assign referees, move it through its status."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.core.exceptions import NON_FIELD_ERRORS
from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _

from tournament.domain.names import natural_key
from tournament.models import Player, Round, Seat, Tournament
from tournament.reads import stages
from tournament.reads.access import AuthenticatedRequest
from tournament.reads.selectors import assignable_referees
from tournament.services import (
    assign_round_referees,
    create_round,
    remove_round,
    seat_round,
    set_round_status,
    swap_players,
)
from tournament.services.rounds import TRANSITIONS, referees_by_table
from tournament.web.organiser.access import (
    INVALID,
    call_service,
    organiser_page,
    round_of,
)
from tournament.web.organiser.forms.rounds import (
    RoundRefereesForm,
    RoundStatusForm,
    SeatRoundForm,
    SwapForm,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

Status = Round.Status

# What the button for each step of a round says.
STEPS: dict[tuple[str, str], StrOrPromise] = {
    (Status.DRAFT, Status.SEATED): _("Publish seating"),
    (Status.SEATED, Status.DRAFT): _("Back to draft"),
    (Status.SEATED, Status.PLAYING): _("Start play"),
    (Status.PLAYING, Status.SEATED): _("Back to seated"),
    (Status.PLAYING, Status.FINISHED): _("Finish round"),
    (Status.FINISHED, Status.PLAYING): _("Reopen round"),
}
STEP_ORDER = [Status.DRAFT, Status.SEATED, Status.PLAYING, Status.FINISHED]


def _steps(round: Round, *, seated: bool) -> list[tuple[str, StrOrPromise]]:
    """The status buttons of the round page; publishing only a round that has its seating."""
    allowed = TRANSITIONS[round.status]
    return [
        (status.value, STEPS[(round.status, status)])
        for status in sorted(allowed, key=STEP_ORDER.index)
        if seated or (round.status, status) != (Status.DRAFT, Status.SEATED)
    ]


def _by_key(players: list[Player]) -> list[Player]:
    """Players in the order of their keys, start numbers as numbers (2 before 10)."""
    return sorted(players, key=lambda player: natural_key(player.key))


def _playing_in(round: Round) -> list[Player]:
    return _by_key(list(round.tournament.players.playing_in(round.number)))


def round_page(
    request: HttpRequest,
    tournament: Tournament,
    round: Round,
    *,
    status: int = 200,
    **bound: Any,
) -> HttpResponse:
    """The round page; `bound` holds a form that was sent and refused, to show it again."""
    tables = list(
        round.tables.annotate(
            hand_count=Count("deals", distinct=True),
            penalty_count=Count("penalties", distinct=True),
        ).prefetch_related(Prefetch("seats", queryset=Seat.objects.with_players()), "referees")
    )
    seated: list[Player] = []
    rows = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda seat: seat.index)
        seated += [seat.player for seat in seats]
        rows.append(
            {
                "table": table,
                "seats": seats,
                "has_results": bool(
                    table.hand_count or table.penalty_count or table.ended_at is not None
                ),
                "referees": sorted(user.get_username() for user in table.referees.all()),
            }
        )
    playing = _playing_in(round)
    seated_ids = {player.pk for player in seated}
    context = {
        "tournament": tournament,
        "round": round,
        "rows": rows,
        "unseated": [player for player in playing if player.pk not in seated_ids],
        "steps": _steps(round, seated=bool(rows)),
        "is_last": not tournament.rounds.filter(number__gt=round.number).exists(),
        "seating_open": round.status in (Status.DRAFT, Status.SEATED),
        "stage_round": _after_cut(tournament, round),
        "seat_form": bound.pop("seat_form", None) or SeatRoundForm(),
        "swap_form": bound.pop("swap_form", None)
        or SwapForm(seated=_by_key(seated), players=playing),
        "status_form": bound.pop("status_form", None),
        "remove_form": bound.pop("remove_form", None),
        "start_question": bound.pop("start_question", None),
        "unrefereed": [
            table.number
            for table in tables
            if not any(user.is_active for user in table.referees.all())
        ]
        if round.status == Status.SEATED
        else [],
    }
    return render(request, "tournament/organiser/round.html", context, status=status)


@organiser_page("GET", "HEAD")
def detail(request: AuthenticatedRequest, tournament: Tournament, number: int) -> HttpResponse:
    return round_page(request, tournament, round_of(tournament, number))


@organiser_page("POST")
def create(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    round = create_round(tournament=tournament, actor=request.user)
    messages.success(
        request,
        _("Round %(number)s is created as a draft: seat it next.") % {"number": round.number},
    )
    return redirect("organiser:round", slug=tournament.slug, number=round.number)


def _back(tournament: Tournament, round: Round) -> HttpResponse:
    return redirect("organiser:round", slug=tournament.slug, number=round.number)


@organiser_page("POST")
def seat(request: AuthenticatedRequest, tournament: Tournament, number: int) -> HttpResponse:
    round = round_of(tournament, number)
    form = SeatRoundForm(request.POST)
    tables: list = []
    if call_service(
        form,
        lambda: tables.extend(
            seat_round(round=round, actor=request.user, seed=form.cleaned_data["seed"])
        ),
    ):
        text = (
            _("Round %(number)s is seated from the cut at %(count)s tables.")
            if _after_cut(tournament, round)
            else _("Round %(number)s is seated at random at %(count)s tables.")
        )
        messages.success(request, text % {"number": round.number, "count": len(tables)})
        return _back(tournament, round)
    return round_page(request, tournament, round, seat_form=form, status=INVALID)


def _after_cut(tournament: Tournament, round: Round) -> bool:
    """Whether `round` comes after a confirmed cut: it is seated from the cut."""
    if tournament.cut_after_round is None or round.number <= tournament.cut_after_round:
        return False
    return stages.confirmed_cut(tournament) is not None


@organiser_page("POST")
def swap(request: AuthenticatedRequest, tournament: Tournament, number: int) -> HttpResponse:
    round = round_of(tournament, number)
    players = _playing_in(round)
    seated = _by_key(list(Player.objects.filter(seats__round=round)))
    form = SwapForm(request.POST, seated=seated, players=players)
    if call_service(
        form,
        lambda: swap_players(
            round=round,
            first=form.cleaned_data["first"],
            second=form.cleaned_data["second"],
            actor=request.user,
        ),
        {"same_player": "second", "withdrawn": "second", "wrong_tournament": "second"},
    ):
        first, second = form.cleaned_data["first"], form.cleaned_data["second"]
        if second in seated:
            text = _("%(name)s and %(name2)s changed seats.")
        else:  # a substitute (or a player not seated in this round) takes the seat
            text = _("%(name2)s takes the seat of %(name)s.")
        messages.success(request, text % {"name": first.name, "name2": second.name})
        return _back(tournament, round)
    return round_page(request, tournament, round, swap_form=form, status=INVALID)


@organiser_page("POST")
def status(request: AuthenticatedRequest, tournament: Tournament, number: int) -> HttpResponse:
    round = round_of(tournament, number)
    form = RoundStatusForm(request.POST)
    if call_service(
        form,
        lambda: set_round_status(
            round=round,
            status=form.cleaned_data["status"],
            actor=request.user,
            unrefereed_ok=form.cleaned_data["confirm"],
        ),
    ):
        label = Status(form.cleaned_data["status"]).label.lower()
        messages.success(
            request,
            _("Round %(number)s is now %(label)s.") % {"number": round.number, "label": label},
        )
        return _back(tournament, round)
    if form.has_error(NON_FIELD_ERRORS, "tables_without_referees"):
        # Not an error: a question. The page asks it, with "Start anyway" and a way to the
        # referees; the message is the one the service gave.
        return round_page(request, tournament, round, start_question=form.non_field_errors())
    return round_page(request, tournament, round, status_form=form, status=INVALID)


@organiser_page("POST")
def remove(request: AuthenticatedRequest, tournament: Tournament, number: int) -> HttpResponse:
    round = round_of(tournament, number)
    form = forms.Form(request.POST)
    if call_service(form, lambda: remove_round(round=round, actor=request.user)):
        messages.success(request, _("Round %(number)s is removed.") % {"number": round.number})
        return redirect("organiser:dashboard", slug=tournament.slug)
    return round_page(request, tournament, round, remove_form=form, status=INVALID)


@organiser_page("GET", "HEAD", "POST")
def referees(request: AuthenticatedRequest, tournament: Tournament, number: int) -> HttpResponse:
    """The referees of every table of the round, in one form with a choice per table."""
    round = round_of(tournament, number)
    tables = list(
        round.tables.prefetch_related(Prefetch("seats", queryset=Seat.objects.with_players()))
    )
    choices = assignable_referees(tournament)
    assigned = referees_by_table(round)
    numbers = [table.number for table in tables]
    if request.method == "POST":
        form = RoundRefereesForm(request.POST, tables=numbers, referees=choices, assigned=assigned)
        if call_service(
            form,
            lambda: assign_round_referees(
                round=round, referees=form.assignments(), actor=request.user
            ),
        ):
            messages.success(
                request,
                _("The referees of round %(number)s are saved.") % {"number": round.number},
            )
            return redirect("organiser:round_referees", slug=tournament.slug, number=round.number)
        status = INVALID
    else:
        form = RoundRefereesForm(tables=numbers, referees=choices, assigned=assigned)
        status = 200
    by_number = {table.number: table for table in tables}
    return render(
        request,
        "tournament/organiser/round_referees.html",
        {
            "tournament": tournament,
            "round": round,
            "form": form,
            "rows": [
                {
                    "table": by_number[number],
                    "fields": [form[name] for name in names],
                }
                for number, names in form.rows
            ],
            "previous": tournament.rounds.filter(number=round.number - 1).first(),
        },
        status=status,
    )
