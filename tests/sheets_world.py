"""Round 1 in play with some game sheets confirmed, some submitted and some still being played:
the set-up of the confirmation tests.

Shared by tests/tournament/test_standings_provisional_command.py,
tests/tournament/test_archive_sheets.py and tests/web/test_outputs_confirmation.py (this folder
is on the test path, so they import it by name).
"""

from __future__ import annotations

from factories import seated_round

from tournament.services import DealInput, assign_referees, confirm_game, end_game, record_deal


def build_sheets_round(tournament, organiser, players, *, referee=None):
    """A new round seating `players` four to a table in order, then in play.

    At every table East (the table's first player) wins hand 1 self-drawn for 8 fan (+48, the
    others -16 each). Tables 1 and 2 end their game; the organiser confirms table 1's sheet, so
    table 2's waits for confirmation and any further table is still being played. With a
    `referee`, the referee is assigned to every table and enters the hands; otherwise the
    organiser does. Returns the tables.
    """
    groups = [players[start : start + 4] for start in range(0, len(players), 4)]
    _, tables = seated_round(tournament, organiser, groups)
    entered_by = referee or organiser
    if referee is not None:
        for table in tables:
            assign_referees(table=table, referees=[referee], actor=organiser)
    for table in tables:
        east = min(table.seats.all(), key=lambda seat: seat.index).player
        record_deal(
            table=table,
            number=1,
            deal=DealInput(result="win", winner=east, fan=8),
            entered_by=entered_by,
        )
    end_game(table=tables[0], ended_by_time=True, entered_by=entered_by)
    end_game(table=tables[1], ended_by_time=True, entered_by=entered_by)
    confirm_game(table=tables[0], confirmed_by=organiser)
    return tables
