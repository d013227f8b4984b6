"""The audit gate: every service that changes something a referee, organiser or player relies on
keeps it here, in one row of the tournament's audit trail (who, when, what before and after).
`record` (one row) and `record_all` (many rows in one statement, for an import's games) are
the only writers of `AuditEntry` rows; the audit page (`tournament.web.organiser.audit`)
reads them back in words."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from tournament.models import AuditEntry, Table, Tournament

# Who made a change: a user, or None (or an anonymous user) for a visitor without an account.
Actor = User | AnonymousUser | None


def record(
    tournament: Tournament | int,
    action: str,
    *,
    actor: Actor,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    table: Table | None = None,
    save: bool = True,
) -> AuditEntry:
    """Keep that `actor` did `action` in `tournament`, with the record `before` and `after`
    (plain JSON: names and numbers, never a password or a private link). `actor` is None, or
    an anonymous user, for what a visitor did without an account: a registration on the
    public page, a check-in or a referee call from a player's private link. With `save`
    False the row is made but not written: for `record_all`."""
    entry = AuditEntry(
        tournament_id=tournament if isinstance(tournament, int) else tournament.pk,
        table=table,
        actor=actor if isinstance(actor, User) else None,
        action=AuditEntry.Action(action),  # one of the trail's actions, or a ValueError
        before=before,
        after=after,
    )
    if save:
        entry.save()
    return entry


def record_all(entries: list[AuditEntry]) -> None:
    """Write rows made by `record(..., save=False)` in one statement (an import's games, a
    round at a time)."""
    AuditEntry.objects.bulk_create(entries)
