"""What an import keeps of a record as it was made: who entered an entry and when, who
submitted and confirmed a game sheet and when. A service given one of these writes them in
place of its own (the user it acts for, now); its audit entry still names the user it acts for,
now, as for any entry."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User

from tournament.models import Deal, Penalty


@dataclass(frozen=True)
class AsRecorded:
    """Who entered a hand or a penalty, and when (None: now)."""

    entered_by: User
    entered_at: datetime | None = None


@dataclass(frozen=True)
class SheetAsRecorded:
    """Who submitted a game sheet and when (None: now), and, once it is confirmed, who
    confirmed it and when (None: when it was submitted, else now)."""

    submitted_by: User
    ended_at: datetime | None = None
    confirmed_by: User | None = None
    confirmed_at: datetime | None = None


def keep_as_recorded(entry: Deal | Penalty, as_recorded: AsRecorded | None) -> None:
    """Who entered `entry` and when as a record says (see `AsRecorded`), if one is given."""
    if as_recorded is None:
        return
    entry.entered_by = as_recorded.entered_by
    if as_recorded.entered_at is not None:
        entry.entered_at = as_recorded.entered_at
