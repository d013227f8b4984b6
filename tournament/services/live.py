"""The version of what a tournament's live pages show, for their conditional requests."""

from __future__ import annotations

from django.db import connection

from tournament.models import LiveVersion


def note_change(tournament_id: int) -> None:
    """Count one change to what the live pages of the tournament show; called by the services
    that write results, seating, rounds, the clock, players and the tournament's settings,
    inside their transaction (the new number is seen with the change, never before it).

    One statement: the row is made at the first change and incremented after. Call it last in
    the transaction, so the row stays locked only until the commit."""
    table = LiveVersion._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (tournament_id, number) VALUES (%s, 1) "  # noqa: S608
            f"ON CONFLICT (tournament_id) DO UPDATE SET number = {table}.number + 1",
            [tournament_id],
        )
