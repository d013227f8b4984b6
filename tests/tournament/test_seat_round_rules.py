"""Seating one round at once ("Seat at random") follows the seating plan's rules: the same
engine, separations, fixed tables and rounds by standing."""

from __future__ import annotations

from itertools import combinations

import pytest
from django.core.exceptions import ValidationError

from tournament.models import Seat, SeatingJob
from tournament.services import add_player, create_round, seat_round, set_seating

pytestmark = pytest.mark.django_db


def tables_of(round):
    tables: dict[int, list] = {}
    for seat in Seat.objects.filter(round=round).select_related("player", "table"):
        tables.setdefault(seat.table.number, []).append(seat.player)
    return tables


def test_clubs_set_always_apart_are_kept_apart(tournament, organiser):
    # Sixteen players of four clubs: each table can take one of each.
    for number in range(1, 17):
        add_player(tournament=tournament, key=str(number), name=f"P{number}",
                   club=f"Club {number % 4}")  # fmt: skip
    tournament.separate_clubs = "hard"
    tournament.save()
    round = create_round(tournament=tournament, actor=organiser)
    for seed in range(5):
        seat_round(round=round, actor=organiser, seed=seed)
        for players in tables_of(round).values():
            assert len({player.club for player in players}) == 4


def test_a_separation_that_cannot_be_kept_is_refused_and_changes_nothing(tournament, organiser):
    # Eight players of one country at two tables: "always apart" cannot hold.
    for number in range(1, 9):
        add_player(tournament=tournament, key=str(number), name=f"P{number}", country="SE")
    tournament.separate_countries = "hard"
    tournament.save()
    round = create_round(tournament=tournament, actor=organiser)
    with pytest.raises(ValidationError) as error:
        seat_round(round=round, actor=organiser, seed=1)
    assert "apart" in error.value.messages[0]
    assert not Seat.objects.exists()


def test_a_fixed_table_is_kept(tournament, organiser):
    for number in range(1, 17):
        add_player(tournament=tournament, key=str(number), name=f"P{number}",
                   fixed_table=3 if number == 11 else None)  # fmt: skip
    round = create_round(tournament=tournament, actor=organiser)
    for seed in range(4):
        seat_round(round=round, actor=organiser, seed=seed)
        assert "11" in [player.key for player in tables_of(round)[3]]


def test_other_rounds_seated_later_count_too(tournament, organiser):
    players = [add_player(tournament=tournament, key=str(n), name=f"P{n}") for n in range(1, 17)]
    one = create_round(tournament=tournament, actor=organiser)
    two = create_round(tournament=tournament, actor=organiser)
    set_seating(round=two, tables=[players[i : i + 4] for i in range(0, 16, 4)], actor=organiser)
    seat_round(round=one, actor=organiser, seed=2)
    pairs = [
        frozenset(pair)
        for round in (one, two)
        for table in tables_of(round).values()
        for pair in combinations([player.key for player in table], 2)
    ]
    assert len(pairs) == len(set(pairs))


def test_seating_waits_while_the_seating_plan_is_generated(tournament, organiser):
    for number in range(1, 5):
        add_player(tournament=tournament, key=str(number), name=f"P{number}")
    SeatingJob.objects.create(tournament=tournament, created_by=organiser, seed=1)
    round = create_round(tournament=tournament, actor=organiser)
    with pytest.raises(ValidationError) as error:
        seat_round(round=round, actor=organiser, seed=1)
    assert error.value.code == "job_running"
