"""Referees stay with their table numbers: kept when a round is seated again, taken by the next
round's first seating (at random or by the seating plan), and not carried where a seating is
stored as given (archives load through `set_seating` without carrying)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from factories import make_user
from test_seating_plan import BY_HAND, plan, seat_by_hand

from tournament.models import Round
from tournament.services import (
    add_player,
    assign_round_referees,
    create_round,
    seat_round,
    set_seating,
)
from tournament.services.seating_plan import start_seating_job

pytestmark = pytest.mark.django_db


def referees_of(round: Round) -> dict[int, list[str]]:
    return {
        table.number: sorted(user.username for user in table.referees.all())
        for table in round.tables.prefetch_related("referees")
    }


@pytest.fixture(autouse=True)
def inline_jobs(settings):
    settings.SEATING_JOBS_INLINE = True


@pytest.fixture
def field(tournament):
    """16 players keyed 1..16."""
    return {n: add_player(tournament=tournament, key=str(n), name=f"P{n}") for n in range(1, 17)}


@pytest.fixture
def refs(db):
    return [make_user(f"ref-{n}") for n in range(1, 5)]


def test_the_seating_plan_carries_the_referees_round_after_round(
    tournament, organiser, field, refs
):
    round_1 = seat_by_hand(tournament, organiser, field, BY_HAND)
    assign_round_referees(
        round=round_1,
        referees={1: [refs[0]], 2: [refs[1]], 3: [refs[0], refs[2]], 4: []},
        actor=organiser,
    )
    plan(tournament, organiser, planned=3)
    job = start_seating_job(tournament=tournament, actor=organiser, seed=5)
    assert job.status == "done", job.message
    expected = {1: ["ref-1"], 2: ["ref-2"], 3: ["ref-1", "ref-3"], 4: []}
    for number in (2, 3):
        assert referees_of(tournament.rounds.get(number=number)) == expected


def test_a_seating_stored_as_given_takes_no_referees_from_before(tournament, organiser, field):
    round_1 = seat_by_hand(tournament, organiser, field, BY_HAND)
    assign_round_referees(round=round_1, referees={1: [make_user("ref-9")]}, actor=organiser)
    round_2 = create_round(tournament=tournament, actor=organiser)
    set_seating(
        round=round_2, tables=[[field[n] for n in table] for table in BY_HAND], actor=organiser
    )
    assert referees_of(round_2) == {1: [], 2: [], 3: [], 4: []}


def test_fewer_tables_after_seating_again_drop_only_the_missing_ones(
    tournament, organiser, field, refs
):
    round_1 = seat_by_hand(tournament, organiser, field, BY_HAND, status="draft")
    assign_round_referees(round=round_1, referees={1: [refs[0]], 4: [refs[3]]}, actor=organiser)
    set_seating(
        round=round_1,
        tables=[[field[n] for n in table] for table in BY_HAND[:3]],
        actor=organiser,
    )
    assert referees_of(round_1) == {1: ["ref-1"], 2: [], 3: []}
    seat_round(round=round_1, actor=organiser, seed=1)  # all 16 again: table 4 is new
    assert referees_of(round_1) == {1: ["ref-1"], 2: [], 3: [], 4: []}


def test_an_unknown_table_changes_nothing(tournament, organiser, field, refs):
    round_1 = seat_by_hand(tournament, organiser, field, BY_HAND, status="draft")
    with pytest.raises(ValidationError) as refused:
        assign_round_referees(round=round_1, referees={1: [refs[0]], 9: [refs[1]]}, actor=organiser)
    assert refused.value.code == "unknown_table"
    assert referees_of(round_1) == {1: [], 2: [], 3: [], 4: []}
