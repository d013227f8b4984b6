"""The shapes of a player's private link in the API: the new link, shown once, and its state."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from tournament.api.schemas.base import Answer


class PlayerLink(Answer):
    player: str = Field(description="The player's key.")
    url: str = Field(
        description="The player's private address, with its secret: shown this once, never "
        "again (only a digest of the secret is stored)."
    )
    issued_at: datetime


class PlayerLinkRevoked(Answer):
    player: str = Field(description="The player's key.")
    link: bool = Field(description="Whether the player has a private link: false now.")
