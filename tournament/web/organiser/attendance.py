"""The attendance page: closing check-in with the field it gives, then who plays each round
not yet in play, late arrivals and absences. Each form sends one decision to one service
(`tournament.services.attendance`); a refusal shows the page again with its message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.domain.names import natural_key
from tournament.domain.text import listed
from tournament.models import Player, Round, Tournament
from tournament.reads.access import AuthenticatedRequest
from tournament.services.attendance import (
    Outcome,
    absent_from,
    arrive_late,
    close_check_in,
    first_open_round,
    last_round,
    proposal,
    reopen_check_in,
    rounds_ahead,
)
from tournament.web.organiser.access import INVALID, call_service, organiser_page
from tournament.web.organiser.forms.attendance import (
    AbsenceForm,
    CloseCheckInForm,
    LateArrivalForm,
)


def _players(tournament: Tournament) -> list[Player]:
    return sorted(tournament.players.all(), key=lambda player: natural_key(player.key))


def _open_rounds(tournament: Tournament) -> list[int]:
    rounds = list(tournament.rounds.all())
    return list(range(first_open_round(rounds), last_round(tournament, rounds) + 1))


def _forms(tournament: Tournament, data: Any = None, which: str = "") -> dict[str, forms.Form]:
    """The page's forms; the one named `which` bound to `data`."""
    offer = proposal(tournament)
    players = _players(tournament)
    rounds = _open_rounds(tournament)
    substitutes = [p for p in players if p.substitute]
    late = [
        p for p in players if not p.substitute and rounds and not all(p.plays_in(n) for n in rounds)
    ]
    present = [p for p in players if any(p.plays_in(n) for n in rounds)]
    initial = {"substitutes": [p.key for p in offer.suggested]}
    return {
        "close_form": CloseCheckInForm(
            data if which == "close" else None,
            initial=initial,
            substitutes=offer.substitutes,
            checked_in=offer.checked_in,
        ),
        "late_form": LateArrivalForm(
            data if which == "late" else None,
            players=late,
            rounds=rounds,
            substitutes=substitutes,
            prefix="late",
        ),
        "absent_form": AbsenceForm(
            data if which == "absent" else None,
            players=present,
            rounds=rounds,
            substitutes=substitutes,
            prefix="absent",
        ),
        "reopen_form": forms.Form(data if which == "reopen" else None),
    }


def _page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    bound: dict[str, forms.Form] | None = None,
    status: int = 200,
) -> HttpResponse:
    page_forms = _forms(tournament)
    page_forms.update(bound or {})
    first = tournament.rounds.filter(number=1).first()
    context = {
        "tournament": tournament,
        "offer": proposal(tournament),
        "rounds_ahead": rounds_ahead(tournament),
        "can_reopen": tournament.check_in_closed_at is not None
        and (first is None or first.status == Round.Status.DRAFT),
        **page_forms,
    }
    return render(request, "tournament/organiser/attendance.html", context, status=status)


def _told(request: HttpRequest, outcome: Outcome, done: str) -> None:
    messages.success(request, done)
    if outcome.refitted:
        messages.info(
            request,
            ngettext(
                "Round %(rounds)s keeps its tables: the players who arrive take the seats of "
                "those who leave.",
                "Rounds %(rounds)s keep their tables: the players who arrive take the seats of "
                "those who leave.",
                len(outcome.refitted),
            )
            % {"rounds": listed(outcome.refitted)},
        )
    if outcome.reseated:
        messages.info(
            request,
            ngettext(
                "Round %(rounds)s is seated again with the new field (it was a draft).",
                "Rounds %(rounds)s are seated again with the new field (they were drafts).",
                len(outcome.reseated),
            )
            % {"rounds": listed(outcome.reseated)},
        )
    if outcome.unseated:
        messages.warning(
            request,
            ngettext(
                "Round %(rounds)s needs seating again: its tables no longer fit the field.",
                "Rounds %(rounds)s need seating again: their tables no longer fit the field.",
                len(outcome.unseated),
            )
            % {"rounds": listed(outcome.unseated)},
        )


def _back(tournament: Tournament) -> HttpResponse:
    return redirect("organiser:attendance", slug=tournament.slug)


@organiser_page("GET", "HEAD")
def attendance(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _page(request, tournament)


@organiser_page("POST")
def close(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    form = _forms(tournament, request.POST, "close")["close_form"]
    done: list[Outcome] = []
    if call_service(
        form,
        lambda: done.append(
            close_check_in(
                tournament,
                actor=request.user,
                substitutes=form.cleaned_data["substitutes"],
                withdraw=form.cleaned_data["withdraw"],
            )
        ),
    ):
        _told(request, done[0], _("Check-in is closed: the field of round 1 is settled."))
        return _back(tournament)
    return _page(request, tournament, bound={"close_form": form}, status=INVALID)


@organiser_page("POST")
def reopen(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    form = _forms(tournament, request.POST, "reopen")["reopen_form"]
    done: list[Outcome] = []
    if call_service(
        form,
        lambda: done.append(reopen_check_in(tournament, actor=request.user)),
    ):
        _told(request, done[0], _("Check-in is open again."))
        return _back(tournament)
    return _page(request, tournament, bound={"reopen_form": form}, status=INVALID)


def _player(tournament: Tournament, key: str) -> Player:
    return get_object_or_404(Player, tournament=tournament, key=key)


def _round_decision(
    request: AuthenticatedRequest,
    tournament: Tournament,
    kind: str,
    decide: Callable[..., Outcome],
    fields: dict[str, str],
    done: str,
) -> HttpResponse:
    """A decision about one player from a round on (a late arrival or an absence), with an
    optional substitute: `decide(player, round, actor=, substitute=)`; `done` is said after it,
    with the player's key and the round."""
    form = _forms(tournament, request.POST, kind)[f"{kind}_form"]
    outcomes: list[Outcome] = []
    if call_service(
        form,
        lambda: outcomes.append(
            decide(
                _player(tournament, form.cleaned_data["player"]),
                form.cleaned_data["round"],
                actor=request.user,
                substitute=form.cleaned_data["substitute"] or None,
            )
        ),
        fields,
    ):
        data = form.cleaned_data
        _told(request, outcomes[0], done % {"key": data["player"], "round": data["round"]})
        return _back(tournament)
    return _page(request, tournament, bound={f"{kind}_form": form}, status=INVALID)


@organiser_page("POST")
def late(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    return _round_decision(
        request,
        tournament,
        "late",
        lambda player, round, **rest: arrive_late(player, from_round=round, **rest),
        {"two_stretches": "round", "round_in_play": "round", "no_such_round": "round"},
        _("%(key)s plays from round %(round)s on."),
    )


@organiser_page("POST")
def absent(request: AuthenticatedRequest, tournament: Tournament) -> HttpResponse:
    return _round_decision(
        request,
        tournament,
        "absent",
        absent_from,
        {"round_in_play": "round", "no_such_round": "round", "not_playing": "player"},
        _("%(key)s plays no round from round %(round)s on."),
    )
