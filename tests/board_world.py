"""A round in play for the board, projector and provisional standings tests (no tests here).

Eight players, round 1 in play at two tables; bob referees table 1. Helpers play hands and
submit sheets through the services.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tournament.models import Round
from tournament.services import (
    add_player,
    create_round,
    end_game,
    record_hand,
    set_round_status,
    set_seating,
)

NAMES = ["Ann Archer", "Ben Baker", "Cai Chen", "Dora Diaz", "Eve Evans", "Fay Fox", "Gus Green",
         "Hal Hill"]  # fmt: skip


def build_world(tournament, organiser):
    players = [
        add_player(tournament=tournament, key=str(n), name=name)
        for n, name in enumerate(NAMES, start=1)
    ]
    round = create_round(tournament=tournament, actor=organiser)
    tables = set_seating(round=round, tables=[players[:4], players[4:]], actor=organiser)
    set_round_status(round=round, status=Round.Status.SEATED, actor=organiser)
    set_round_status(round=round, status=Round.Status.PLAYING, actor=organiser)
    users = get_user_model().objects
    referee = users.create_user(username="bob", password="referee-pass-42")
    tables[0].referees.add(referee)
    return {"players": players, "round": round, "tables": tables, "referee": referee}


def play(table, hands, by, winner_index=0):
    """Record `hands` self-drawn 8-fan wins at `table`, won by the seat at `winner_index`."""
    seats = sorted(table.seats.select_related("player"), key=lambda seat: seat.index)
    start = table.hands.count()
    for number in range(start + 1, start + hands + 1):
        record_hand(
            table=table,
            number=number,
            result="win",
            winner=seats[winner_index].player,
            fan=8,
            entered_by=by,
        )


def submit(table, by, hands=16):
    """Play the game at `table` to `hands` hands and submit its sheet."""
    play(table, hands - table.hands.count(), by)
    return end_game(table=table, ended_by_time=hands < 16, entered_by=by)
