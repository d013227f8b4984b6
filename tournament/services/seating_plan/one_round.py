"""Seating one round at once (the round page's "Seat at random", the API's random seating),
by the seating plan's rules: the same engine, separations and options as `seat_plan`.

Every other round that has a seating is kept as it is and counts: who has met whom, the
starting winds. The round's field is `players_to_seat`; fixed tables are kept; a round seated
by standing puts the top four together. A seed gives the same seating again.
"""

from __future__ import annotations

import secrets

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournament.domain import seating as engine
from tournament.models import Round, SeatingJob, Table
from tournament.reads.selectors import standings
from tournament.services.rounds import (
    _refuse_seating_change,
    lock_round,
    players_to_seat,
    set_seating,
)
from tournament.services.stages import seat_stage_round, stage_tables

from .plan import Plan, Segment, entrants, round_seatings, seat_plan, separations_of


@transaction.atomic
def seat_round(
    *, round: Round, actor: User, seed: int | None = None, effort: float = 1.0
) -> list[Table]:
    """Seat `round` with the seating engine; replaces its tables (see `set_seating`).

    Refused while the round is in play or finished, while the seating plan is being generated,
    when its field cannot fill tables of four, and when the separations set as "always apart"
    cannot all be kept (the engine's message)."""
    round = lock_round(round)
    _refuse_seating_change(round)
    tournament = round.tournament
    if SeatingJob.objects.filter(tournament=tournament, status=SeatingJob.Status.RUNNING).exists():
        raise ValidationError(
            _("The seating plan is being generated; wait for it to finish, then seat again."),
            code="job_running",
        )
    if stage_tables(round) is not None:  # after the cut: the final stage's seating
        return seat_stage_round(round=round, actor=actor)
    field = tuple(entrants(players_to_seat(round)))
    by_standing: tuple[tuple[int, tuple[str, ...]], ...] = ()
    if round.seat_by_standing:
        order = tuple(row.player.key for row in standings(tournament) if row.rank is not None)
        by_standing = ((round.number, order),)
    others = tuple(
        seating for number, seating in round_seatings(tournament).items() if number != round.number
    )
    plan = Plan(
        missing=(),
        drafts=(round.number,),
        frozen=others,
        segments=(Segment(rounds=(round.number,), field=field, by_standing=by_standing),),
        separations=separations_of(tournament),
    )
    try:
        seated = seat_plan(
            plan, seed=secrets.randbelow(1_000_000) if seed is None else seed, effort=effort
        )
    except engine.SeatingError as error:
        raise ValidationError(error.message, code=error.code) from error
    players = {player.key: player for player in tournament.players.all()}
    tables = [[players[key] for key in table.seats] for table in seated[round.number].tables]
    return set_seating(round=round, tables=tables, actor=actor, carry_referees=True)
