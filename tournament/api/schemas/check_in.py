"""Schemas of the check-in desk: its state and counts, its switches, a player checked in or
out. Nothing here holds or reveals a player's private link."""

from __future__ import annotations

from pydantic import Field

from tournament.api.fields import Moment
from tournament.api.schemas.base import Answer, Request


class CheckInCounts(Answer):
    """Who has come. Withdrawn players count in `withdrawn` only; substitutes in `substitutes`
    and, once checked in, `substitutes_ready`; the others in `checked_in`, `missing` or
    `late` (not here, and joining from a later round)."""

    checked_in: int = Field(ge=0)
    missing: int = Field(ge=0)
    late: int = Field(ge=0)
    substitutes: int = Field(ge=0)
    substitutes_ready: int = Field(ge=0)
    withdrawn: int = Field(ge=0)


class CheckInDesk(Answer):
    desk_open: bool = Field(description="The check-in desk checks players in (and out).")
    self_check_in: bool = Field(
        description="Players may check themselves in from their private link."
    )
    closed_at: Moment | None = Field(description="When check-in was closed; null while open.")
    counts: CheckInCounts


class CheckInDeskChange(Request):
    """Only what is sent changes."""

    desk_open: bool = Field(None, description="Open (true) or close (false) the desk.")  # type: ignore[assignment]
    self_check_in: bool = Field(None, description="Allow (true) or stop (false) self check-in.")  # type: ignore[assignment]


class CheckInRequest(Request):
    checked_in: bool = Field(description="true checks the player in, false checks them out.")


class PlayerCheckIn(Answer):
    player: str = Field(description="The player's key.")
    name: str
    checked_in: bool
    checked_in_at: Moment | None = Field(description="When the player was checked in.")
    counts: CheckInCounts
