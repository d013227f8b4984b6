"""Endpoints of the players' private links: a new one (its address answered once) and none."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from ninja import Router
from ninja.responses import Status

from tournament.api.auth import reach
from tournament.api.schemas import EMPTY, Empty
from tournament.api.schemas.player_links import PlayerLink, PlayerLinkRevoked
from tournament.api.tournaments import WRITE, T
from tournament.models import Player
from tournament.reads.access import AuthenticatedRequest
from tournament.services.player_links import issue_link, revoke_link

router = Router(exclude_unset=True)

L = f"{T}/players/{{key}}/link"


@router.post(
    L,
    url_name="player_link",
    response={201: PlayerLink, **WRITE},
    summary="Make a player's private link (a new one replaces the old)",
)
def make_player_link(
    request: AuthenticatedRequest,
    response: HttpResponse,
    slug: str,
    key: str,
    payload: Empty = EMPTY,
) -> Status:
    """The player's new private address, answered this once: only a digest of its secret is
    kept. The player's previous link, if any, opens nothing any more. The body is empty or {}.

    Who: an organiser of the tournament."""
    player: Player = reach(request).named
    secret = issue_link(player, actor=request.user)
    player.refresh_from_db(fields=["link_issued_at"])
    response["Cache-Control"] = "no-store"
    return Status(
        201,
        {
            "player": player.key,
            "url": request.build_absolute_uri(reverse("player_link", args=[secret])),
            "issued_at": player.link_issued_at,
        },
    )


@router.delete(
    L,
    response={200: PlayerLinkRevoked, **WRITE},
    summary="Revoke a player's private link",
)
def revoke_player_link(request: AuthenticatedRequest, slug: str, key: str) -> Any:
    """The link opens nothing any more. 400 no_link when the player has none.

    Who: an organiser of the tournament."""
    player = reach(request).named
    revoke_link(player, actor=request.user)
    return {"player": player.key, "link": False}
