"""The end of a game."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from tournament.models import HANDS_PER_GAME, AuditEntry, Table
from tournament.services._common import (
    audit,
    lock_table,
    refuse_before_play,
    refuse_unless_playing,
)


@transaction.atomic
def end_game(*, table: Table, ended_by_time: bool, entered_by: AbstractBaseUser) -> Table:
    """Close the game at `table`: after all 16 hands, or earlier when time is called."""
    table = lock_table(table)
    refuse_unless_playing(table)
    if table.ended_at is not None:
        raise ValidationError("This game has already ended.", code="already_ended")
    hands = table.hands.count()
    if not ended_by_time and hands < HANDS_PER_GAME:
        raise ValidationError(
            "Only %(hands)s of %(all)s hands are entered; end the game early only when time is "
            "called.",
            code="hands_missing",
            params={"hands": hands, "all": HANDS_PER_GAME},
        )
    table.ended_at = timezone.now()
    table.ended_by_time = ended_by_time and hands < HANDS_PER_GAME
    table.save(update_fields=["ended_at", "ended_by_time"])
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.GAME_ENDED,
        before=None,
        after={"hands": hands, "ended_by_time": table.ended_by_time},
    )
    return table


@transaction.atomic
def reopen_game(*, table: Table, entered_by: AbstractBaseUser) -> Table:
    """Undo the end of the game at `table` so that more hands can be entered.

    The round must be in play (reopen a finished round first).
    """
    table = lock_table(table)
    refuse_before_play(table)
    if table.ended_at is None:
        raise ValidationError("This game has not ended.", code="not_ended")
    refuse_unless_playing(table)
    before = {"ended_at": table.ended_at.isoformat(), "ended_by_time": table.ended_by_time}
    table.ended_at = None
    table.ended_by_time = False
    table.save(update_fields=["ended_at", "ended_by_time"])
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.GAME_REOPENED,
        before=before,
        after=None,
    )
    return table
