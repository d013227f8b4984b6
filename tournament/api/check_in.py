"""Endpoints of the check-in desk: its state and counts, opening and closing it, allowing or
stopping self check-in, and checking a player in or out by key. Organisers only; nothing here
reads or shows a player's private link."""

from __future__ import annotations

from typing import Any

from django.db.models import Model
from django.http import HttpRequest
from ninja import Router

from tournament.api import schemas
from tournament.api.auth import ORGANISERS, reach
from tournament.api.errors import refusals
from tournament.models import Player, Tournament
from tournament.reads.access import AuthenticatedRequest
from tournament.services.check_in import (
    check_in_counts,
    desk_check_in,
    set_desk_open,
    set_self_check_in,
)

router = Router(auth=ORGANISERS, exclude_unset=True, tags=["check-in"])

T = "/{slug:slug}"
READ = refusals(401, 403, 404)
WRITE = refusals(400, 401, 403, 404, 409)


def _desk(tournament: Tournament) -> dict[str, Any]:
    return {
        "desk_open": tournament.check_in_open,
        "self_check_in": tournament.self_check_in,
        "closed_at": tournament.check_in_closed_at,
        "counts": check_in_counts(tournament),
    }


@router.get(
    f"{T}/check-in",
    url_name="check_in",
    response={200: schemas.CheckInDesk, **READ},
    summary="The check-in desk: open or closed, self check-in, the counts",
)
def get_check_in(request: HttpRequest, slug: str) -> dict[str, Any]:
    """Who: an organiser of the tournament."""
    return _desk(reach(request).tournament)


@router.patch(
    f"{T}/check-in",
    response={200: schemas.CheckInDesk, **WRITE},
    summary="Open or close the check-in desk; allow or stop self check-in",
)
def change_check_in(
    request: AuthenticatedRequest,
    slug: str,
    payload: schemas.CheckInDeskChange,
) -> dict[str, Any]:
    """Only what is sent changes; setting what is already set changes nothing. Self check-in
    cannot be allowed again once check-in is closed: 409 `check_in_closed`.

    Who: an organiser of the tournament."""
    tournament = reach(request).tournament
    values = payload.model_dump(exclude_unset=True)
    if "desk_open" in values:
        tournament = set_desk_open(tournament, values["desk_open"], actor=request.user)
    if "self_check_in" in values:
        tournament = set_self_check_in(tournament, values["self_check_in"], actor=request.user)
    return _desk(tournament)


@router.put(
    f"{T}/players/{{key}}/check-in",
    url_name="player_check_in",
    response={200: schemas.PlayerCheckIn, **WRITE},
    summary="Check a player in or out at the desk",
)
def check_in_player(
    request: AuthenticatedRequest,
    slug: str,
    key: str,
    payload: schemas.CheckInRequest,
) -> dict[str, Any]:
    """Answers the player's check-in and the desk's counts. Sending what is already so changes
    nothing. Only while the desk is open: 409 `desk_closed`; a withdrawn player is not checked
    in: 400 `withdrawn`.

    Who: an organiser of the tournament."""
    found = reach(request)
    done = desk_check_in(found.named, payload.checked_in, actor=request.user, source="api")
    return _player_answer(done, found.tournament)


def _player_answer(player: Player, tournament: Model) -> dict[str, Any]:
    return {
        "player": player.key,
        "name": player.name,
        "checked_in": player.checked_in_at is not None,
        "checked_in_at": player.checked_in_at,
        "counts": check_in_counts(tournament.pk),
    }
