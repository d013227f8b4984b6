"""Small factories of test data: users, tournaments, players, rounds, tables and played hands.

Each makes one thing as the application would. The fixtures of tests/conftest.py chain them
(organiser -> tournament -> players -> round -> table); a module that needs something special
composes them. This folder is on the test path, so every test module imports this one by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from tournament.models import Player, Round, Table, Tournament
from tournament.services import (
    DealInput,
    add_player,
    assign_referees,
    create_round,
    create_table,
    end_game,
    record_deal,
    set_round_status,
    set_seating,
)

# Eight full names for pages that show them; keys 1 to 8 in this order.
NAMES = ["Ann Archer", "Ben Baker", "Cai Chen", "Dora Diaz", "Eve Evans", "Fay Fox", "Gus Green",
         "Hal Hill"]  # fmt: skip


def make_user(username: str, *, password: str | None = None, **fields: Any) -> AbstractBaseUser:
    """A user; without a password it cannot log in by password (tests use force_login)."""
    return get_user_model().objects.create_user(username=username, password=password, **fields)


def make_tournament(
    *,
    organisers: Iterable[AbstractBaseUser] = (),
    name: str = "Spring Cup",
    slug: str = "spring-cup",
    public: bool = True,
    **fields: Any,
) -> Tournament:
    tournament = Tournament.objects.create(name=name, slug=slug, public=public, **fields)
    tournament.organisers.add(*organisers)
    return tournament


def make_players(
    tournament: Tournament,
    count: int = 8,
    *,
    name: str = "Player {}",
    names: Sequence[str] | None = None,
    **fields: Any,
) -> list[Player]:
    """Players keyed "1", "2", ...: `count` of them named by the pattern `name` ("P{}" makes
    P1, P2, ...), or one for each of `names`; `fields` apply to every one."""
    names = names or [name.format(number) for number in range(1, count + 1)]
    return [
        add_player(tournament=tournament, key=str(number), name=each, **fields)
        for number, each in enumerate(names, start=1)
    ]


def make_round(
    tournament: Tournament, *, number: int = 1, status: str = Round.Status.PLAYING
) -> Round:
    """A round stored as it is asked for, without the organiser's steps (and their audit
    entries) in between: for tests of what happens within a round."""
    return Round.objects.create(tournament=tournament, number=number, status=status)


def make_table(
    round: Round,
    players: Sequence[Player],
    *,
    number: int = 1,
    referees: Sequence[AbstractBaseUser] = (),
    actor: AbstractBaseUser | None = None,
) -> Table:
    """Table `number` of `round` with `players` starting at East, South, West and North, and
    `referees` assigned by `actor`."""
    table = create_table(round=round, number=number, players=players)
    if referees:
        assign_referees(table=table, referees=referees, actor=actor)
    return table


def seated_round(
    tournament: Tournament,
    organiser: AbstractBaseUser,
    tables: Sequence[Sequence[Player]],
    *,
    status: str = Round.Status.PLAYING,
) -> tuple[Round, list[Table]]:
    """The tournament's next round, taken by the organiser's steps: created, seated with
    `tables` (four players each, East to North, numbered from 1), then published (seated) and
    started (playing) as far as `status` asks ("draft" stops after the seating). Returns the
    round and its tables."""
    round = create_round(tournament=tournament, actor=organiser)
    seated = set_seating(round=round, tables=tables, actor=organiser)
    if status in (Round.Status.SEATED, Round.Status.PLAYING):
        set_round_status(round=round, status=Round.Status.SEATED, actor=organiser)
    if status == Round.Status.PLAYING:
        set_round_status(round=round, status=Round.Status.PLAYING, actor=organiser)
    return round, seated


def draws(table: Table, count: int, by: AbstractBaseUser) -> None:
    """`count` drawn hands at `table` after those already entered, entered by `by`."""
    start = table.deals.count()
    for number in range(start + 1, start + count + 1):
        record_deal(table=table, number=number, deal=DealInput(result="draw"), entered_by=by)


def play(table: Table, hands: int, by: AbstractBaseUser, winner_index: int = 0) -> None:
    """`hands` self-drawn 8-fan wins at `table` after those already entered, won by the player
    who started at seat `winner_index` (0 East ... 3 North)."""
    seats = sorted(table.seats.select_related("player"), key=lambda seat: seat.index)
    start = table.deals.count()
    for number in range(start + 1, start + hands + 1):
        record_deal(
            table=table,
            number=number,
            deal=DealInput(result="win", winner=seats[winner_index].player, fan=8),
            entered_by=by,
        )


def submit(table: Table, by: AbstractBaseUser, hands: int = 16) -> Table:
    """Play the game at `table` on to `hands` hands and submit its sheet (ended by time when
    short of 16)."""
    play(table, hands - table.deals.count(), by)
    return end_game(table=table, ended_by_time=hands < 16, entered_by=by)
