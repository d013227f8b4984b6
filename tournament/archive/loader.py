"""What an import holds while it loads: the document (for the places its messages name), the
importing user, the users and players found so far, and the hands whose tiles now score another
fan."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User

from tournament.archive.errors import place
from tournament.archive.schema import (
    DealRecord,
    HandRecord,
    PenaltyRecord,
    TableRecord,
)
from tournament.models import (
    Player,
)
from tournament.services import (
    AsRecorded,
    SheetAsRecorded,
)


@dataclass(frozen=True)
class RescoredHand:
    """A hand recorded with tiles whose tiles score another fan under today's rulings."""

    where: str  # "round 1, table 2, hand 5"
    recorded: int  # the fan the archive records (without flowers)
    now: int  # what the tiles score today

    def __str__(self) -> str:
        return f"{self.where}: recorded {self.recorded} fan, the tiles now score {self.now}"


@dataclass
class Loader:
    data: Any  # the document as given, for the places in messages
    actor: User
    users: dict[str, User]
    players: dict[str, Player] = field(default_factory=dict)
    rescored: list[RescoredHand] = field(default_factory=list)
    # Build each game in memory and write it in a few statements (see `load_rounds`);
    # False: hand by hand through the services, as a referee enters them.
    bulk: bool = True

    def where(self, *location: str | int) -> str:
        return place(location, self.data)

    def user(self, username: str | None) -> User:
        """The user of that name here, or the importing user."""
        return self.users.get(username or "", self.actor)

    def entered(self, record: HandRecord | DealRecord | PenaltyRecord) -> AsRecorded:
        """Who entered a result and when, as the archive says (the audit names the actor)."""
        return AsRecorded(self.user(record.entered_by), record.entered_at)

    def sheet(self, record: TableRecord, *, confirmed: bool) -> SheetAsRecorded:
        """Who submitted and confirmed a game sheet, and when, as the archive says."""
        return SheetAsRecorded(
            submitted_by=self.user(record.submitted_by),
            ended_at=record.ended_at,
            confirmed_by=self.user(record.confirmed_by) if confirmed else None,
            confirmed_at=record.confirmed_at if confirmed else None,
        )
