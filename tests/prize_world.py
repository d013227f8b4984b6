"""A small tournament for the prize-giving tests: four players, two rounds of one table.

Round 1 (ten hands, sheet confirmed): Ann (East) wins every hand, so after it Ann leads alone and
the three others share second place. Round 2 (sixteen hands, confirmed): Dan (North) wins every
hand, so over both rounds Dan is first and Ann second, Ben and Cat level third. bob referees
round 2's table.
"""

from __future__ import annotations

from typing import Any

from factories import make_players, play, seated_round, submit

from tournament.models import Round, Tournament
from tournament.services import confirm_game, end_game, set_round_status

NAMES = ["Ann Archer", "Ben Baker", "Cat Carter", "Dan Dyer"]
# Key -> rank, every round counted and round 2 hidden.
FULL = {"4": 1, "1": 2, "2": 3, "3": 3}
BEFORE_ROUND_2 = {"1": 1, "2": 2, "3": 2, "4": 2}


def build(tournament: Tournament, organiser: Any, referee: Any) -> dict[str, Any]:
    players = make_players(tournament, names=NAMES)
    first, (table1,) = seated_round(tournament, organiser, [players])
    submit(table1, organiser, hands=10)
    confirm_game(table=table1, confirmed_by=organiser)
    set_round_status(round=first, status=Round.Status.FINISHED, actor=organiser)
    second, (table2,) = seated_round(tournament, organiser, [players])
    table2.referees.add(referee)
    seats = sorted(table2.seats.select_related("player"), key=lambda seat: seat.index)
    assert seats[3].player.key == "4"
    play(table2, 16, organiser, winner_index=3)
    end_game(table=table2, ended_by_time=False, entered_by=organiser)
    confirm_game(table=table2, confirmed_by=organiser)
    return {"players": players, "rounds": [first, second], "tables": [table1, table2]}
