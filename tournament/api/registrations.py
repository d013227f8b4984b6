"""Endpoints of a tournament's registrations: the list and the organiser's decisions, and the
registration settings. For its organisers only; registering is done on the public page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router

from tournament.api.auth import ORGANISERS, reach
from tournament.api.schemas import EMPTY, Empty
from tournament.api.schemas.registrations import Registration as RegistrationAnswer
from tournament.api.schemas.registrations import (
    RegistrationList,
    RegistrationMove,
    RegistrationSettings,
    RegistrationSettingsChange,
)
from tournament.api.tournaments import READ, WRITE
from tournament.models import Registration, Tournament
from tournament.services import registrations as service

router = Router(auth=ORGANISERS, exclude_unset=True)

T = "/{slug:slug}"
ONE = f"{T}/registrations/{{int:registration}}"
ORGANISER_READ = {**READ, 403: WRITE[403]}


def _answer(registration: Registration, place: int | None) -> dict[str, Any]:
    return {
        "id": registration.pk,
        "created": registration.created,
        "status": registration.status,
        "waiting_place": place,
        "player": registration.player.key if registration.player else None,
        **{name: getattr(registration, name) for name in service.FIELDS},
    }


@router.get(
    f"{T}/registrations",
    url_name="registrations",
    response={200: RegistrationList, **ORGANISER_READ},
    summary="The registrations and their counts",
)
def list_registrations(request: HttpRequest, slug: str) -> dict[str, Any]:
    """Every registration in order of arrival, with the contact each gave, and the counts at
    a glance.

    Who: an organiser of the tournament."""
    tournament = reach(request).tournament
    registrations = list(tournament.registrations.select_related("player"))
    waiting = [r.pk for r in registrations if r.status == Registration.Status.WAITING]
    rows = [_answer(r, waiting.index(r.pk) + 1 if r.pk in waiting else None) for r in registrations]
    return {"registrations": rows, "counts": service.counts(tournament)}


def _decided(request: HttpRequest, decide: Any) -> dict[str, Any]:
    found = decide(reach(request).named, actor=request.user)
    return _answer(found, service.waiting_place(found))


@router.post(
    f"{ONE}/accept",
    response={200: RegistrationAnswer, **WRITE},
    summary="Accept a registration into the field",
)
def accept_registration(
    request: HttpRequest, slug: str, registration: int, payload: Empty = EMPTY
) -> dict[str, Any]:
    """A pending or waiting registration becomes a player (the next free numeric key). 409
    field_full when the field has no free place (raise the cap first); 409
    registration_status when it is not pending or waiting; 400 duplicate_ema_number or
    duplicate_name when a player entered since has its EMA number, or its name and country.
    The body is empty or {}.

    Who: an organiser of the tournament."""
    return _decided(request, service.accept)


@router.post(
    f"{ONE}/reject",
    response={200: RegistrationAnswer, **WRITE},
    summary="Reject a registration",
)
def reject_registration(
    request: HttpRequest, slug: str, registration: int, payload: Empty = EMPTY
) -> dict[str, Any]:
    """A pending, waiting or accepted one (its player is removed; 409 registration_seated
    while seated). A place it held goes to the first on the waiting list before the
    tournament starts: accepted at once in instant mode, pending in approval mode. The body
    is empty or {}.

    Who: an organiser of the tournament."""
    return _decided(request, service.reject)


@router.post(
    f"{ONE}/withdraw",
    response={200: RegistrationAnswer, **WRITE},
    summary="Withdraw a registration",
)
def withdraw_registration(
    request: HttpRequest, slug: str, registration: int, payload: Empty = EMPTY
) -> dict[str, Any]:
    """As rejecting, for a player who gives up their place. The body is empty or {}.

    Who: an organiser of the tournament."""
    return _decided(request, service.withdraw)


@router.post(
    f"{ONE}/move",
    response={200: RegistrationAnswer, **WRITE},
    summary="Move a registration between the waiting list and the field",
)
def move_registration(
    request: HttpRequest, slug: str, registration: int, payload: RegistrationMove
) -> dict[str, Any]:
    """Who: an organiser of the tournament."""
    move = service.move_to_field if payload.to == "field" else service.move_to_waiting
    return _decided(request, move)


def _settings(tournament: Tournament) -> dict[str, Any]:
    return {
        **{name: getattr(tournament, name) for name in service.SETTINGS},
        "open": service.is_open(tournament),
    }


@router.get(
    f"{T}/registrations/settings",
    url_name="registration_settings",
    response={200: RegistrationSettings, **ORGANISER_READ},
    summary="The registration settings",
)
def get_registration_settings(request: HttpRequest, slug: str) -> dict[str, Any]:
    """With `open`: whether the public may register now.

    Who: an organiser of the tournament."""
    return _settings(reach(request).tournament)


@router.patch(
    f"{T}/registrations/settings",
    response={200: RegistrationSettings, **WRITE},
    summary="Change the registration settings",
)
def change_registration_settings(
    request: HttpRequest, slug: str, payload: RegistrationSettingsChange
) -> dict[str, Any]:
    """Only the fields given change. Raising the cap gives the new places to the waiting
    list, before the tournament starts. 400 bad_registration_times when it would close
    before it opens.

    Who: an organiser of the tournament."""
    values = payload.model_dump(exclude_unset=True)
    return _settings(
        service.update_settings(reach(request).tournament, actor=request.user, **values)
    )
