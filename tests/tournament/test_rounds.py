"""Rounds: creation, random seating avoiding repeats, manual edits and the status steps."""

from __future__ import annotations

from itertools import combinations

import pytest
from django.core.exceptions import ValidationError

from tournament.models import AuditEntry, Round, Seat
from tournament.services import (
    DealInput,
    add_player,
    confirm_submitted_games,
    create_round,
    end_game,
    record_deal,
    remove_round,
    seat_round,
    set_round_status,
    set_seating,
    swap_players,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(tournament):
    """Sixteen regular players keyed 1..16."""
    return [
        add_player(tournament=tournament, key=str(number), name=f"Player {number}")
        for number in range(1, 17)
    ]


def tables_of(round):
    tables = {}
    for seat in Seat.objects.filter(round=round).select_related("player", "table"):
        tables.setdefault(seat.table.number, {})[seat.starting_wind] = seat.player.key
    return tables


def meetings(tournament):
    pairs = []
    for round in tournament.rounds.all():
        for seats in tables_of(round).values():
            pairs += [frozenset(pair) for pair in combinations(seats.values(), 2)]
    return pairs


def test_rounds_are_numbered_in_order_and_start_as_drafts(tournament, organiser):
    first = create_round(tournament=tournament, actor=organiser)
    second = create_round(tournament=tournament, actor=organiser)
    assert (first.number, second.number) == (1, 2)
    assert second.status == Round.Status.DRAFT


def test_seat_round_seats_every_player_once_at_full_tables(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    tables = seat_round(round=round, actor=organiser, seed=7)
    assert len(tables) == 4
    seated = [key for seats in tables_of(round).values() for key in seats.values()]
    assert sorted(seated, key=int) == [str(number) for number in range(1, 17)]
    assert all(set(seats) == set("ESWN") for seats in tables_of(round).values())


def test_seat_round_is_repeatable_with_a_seed(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    seat_round(round=round, actor=organiser, seed=3)
    first = tables_of(round)
    seat_round(round=round, actor=organiser, seed=3)
    assert tables_of(round) == first


def test_three_rounds_of_sixteen_seated_one_by_one_have_no_repeats(tournament, organiser, field):
    """Each round is seated by the seating engine with the earlier rounds kept as they are."""
    for number in range(1, 4):
        round = create_round(tournament=tournament, actor=organiser)
        seat_round(round=round, actor=organiser, seed=number)
    pairs = meetings(tournament)
    assert len(pairs) == 3 * 4 * 6
    assert len(pairs) == len(set(pairs))


def test_substitutes_fill_the_last_table(tournament, organiser):
    for number in range(1, 7):
        add_player(tournament=tournament, key=str(number), name=f"P{number}")
    subs = [
        add_player(tournament=tournament, key=f"S{number}", name=f"Sub {number}", substitute=True)
        for number in range(1, 4)
    ]
    round = create_round(tournament=tournament, actor=organiser)
    seat_round(round=round, actor=organiser, seed=1)
    seated = {key for seats in tables_of(round).values() for key in seats.values()}
    assert len(seated) == 8
    assert seated >= {str(number) for number in range(1, 7)}
    assert len(seated & {sub.key for sub in subs}) == 2


def test_field_that_cannot_fill_tables_says_how_many_substitutes_are_needed(tournament, organiser):
    for number in range(1, 7):
        add_player(tournament=tournament, key=str(number), name=f"P{number}")
    round = create_round(tournament=tournament, actor=organiser)
    with pytest.raises(ValidationError) as error:
        seat_round(round=round, actor=organiser)
    assert error.value.code == "field_not_multiple_of_four"
    assert "2 more substitutes" in error.value.messages[0]


def test_withdrawn_players_are_not_seated_from_their_round(tournament, organiser, field):
    extra = [add_player(tournament=tournament, key=str(n), name=f"P{n}") for n in (17, 18)]
    for player in extra:
        player.withdrawn_from_round = 1
        player.save()
    round = create_round(tournament=tournament, actor=organiser)
    seat_round(round=round, actor=organiser, seed=1)
    seated = {key for seats in tables_of(round).values() for key in seats.values()}
    assert "17" not in seated and len(seated) == 16


def test_set_seating_replaces_the_tables(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    seat_round(round=round, actor=organiser, seed=1)
    set_seating(round=round, tables=[field[0:4], field[4:8], field[8:12], field[12:16]],
                actor=organiser)  # fmt: skip
    assert tables_of(round)[2] == {"E": "5", "S": "6", "W": "7", "N": "8"}
    assert AuditEntry.objects.filter(action="seating_changed").count() == 2


def test_set_seating_with_a_bad_table_saves_nothing(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    set_seating(round=round, tables=[field[0:4], field[4:8]], actor=organiser)
    with pytest.raises(ValidationError):
        set_seating(round=round, tables=[field[8:12], field[8:12]], actor=organiser)
    assert tables_of(round)[1] == {"E": "1", "S": "2", "W": "3", "N": "4"}


def test_swap_exchanges_two_seats(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    set_seating(round=round, tables=[field[0:4], field[4:8]], actor=organiser)
    swap_players(round=round, first=field[0], second=field[5], actor=organiser)
    assert tables_of(round) == {
        1: {"E": "6", "S": "2", "W": "3", "N": "4"},
        2: {"E": "5", "S": "1", "W": "7", "N": "8"},
    }


def test_swap_within_a_table_exchanges_winds(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    set_seating(round=round, tables=[field[0:4]], actor=organiser)
    swap_players(round=round, first=field[0], second=field[3], actor=organiser)
    assert tables_of(round)[1] == {"E": "4", "S": "2", "W": "3", "N": "1"}


def test_swap_puts_an_unseated_player_in_a_seat(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    set_seating(round=round, tables=[field[0:4]], actor=organiser)
    swap_players(round=round, first=field[2], second=field[9], actor=organiser)
    assert tables_of(round)[1] == {"E": "1", "S": "2", "W": "10", "N": "4"}


def test_swap_is_refused_at_a_table_with_results(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    tables = set_seating(
        round=round, tables=[field[0:4], field[4:8], field[8:12], field[12:16]], actor=organiser
    )
    set_round_status(round=round, status="seated", actor=organiser)
    set_round_status(round=round, status="playing", actor=organiser)
    record_deal(table=tables[0], number=1, deal=DealInput(result="draw"), entered_by=organiser)
    with pytest.raises(ValidationError) as error:
        swap_players(round=round, first=field[0], second=field[5], actor=organiser)
    assert error.value.code == "seating_frozen"
    # At two tables without results the seats can still change during play.
    swap_players(round=round, first=field[4], second=field[9], actor=organiser)
    assert tables_of(round)[2]["E"] == "10"


def test_round_goes_through_its_statuses(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    tables = seat_round(round=round, actor=organiser, seed=1)
    for status in ("seated", "draft", "seated", "playing"):
        round = set_round_status(round=round, status=status, actor=organiser)
        assert round.status == status
    for table in tables:
        end_game(table=table, ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=round, confirmed_by=organiser)
    round = set_round_status(round=round, status="finished", actor=organiser)
    assert Round.objects.get(pk=round.pk).status == "finished"
    steps = AuditEntry.objects.filter(action="round_status").values_list("after", flat=True)
    assert [step["status"] for step in steps] == [
        "draft", "seated", "draft", "seated", "playing", "finished",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("start", "target"),
    [("draft", "playing"), ("draft", "finished"), ("seated", "finished"), ("finished", "draft")],
)
def test_skipping_a_step_is_refused(tournament, organiser, field, start, target):
    round = Round.objects.create(tournament=tournament, number=1, status=start)
    with pytest.raises(ValidationError) as error:
        set_round_status(round=round, status=target, actor=organiser)
    assert error.value.code == "bad_transition"


def test_publishing_needs_everyone_seated(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    with pytest.raises(ValidationError) as error:
        set_round_status(round=round, status="seated", actor=organiser)
    assert error.value.code == "not_seated"
    set_seating(round=round, tables=[field[0:4]], actor=organiser)
    with pytest.raises(ValidationError) as error:
        set_round_status(round=round, status="seated", actor=organiser)
    assert error.value.code == "players_unseated"
    assert "Player 16" in error.value.messages[0]


def test_finishing_needs_every_game_ended(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    tables = seat_round(round=round, actor=organiser, seed=1)
    set_round_status(round=round, status="seated", actor=organiser)
    set_round_status(round=round, status="playing", actor=organiser)
    end_game(table=tables[0], ended_by_time=True, entered_by=organiser)
    with pytest.raises(ValidationError) as error:
        set_round_status(round=round, status="finished", actor=organiser)
    assert error.value.code == "games_open"
    assert "2, 3, 4" in error.value.messages[0]


def test_a_round_starts_only_after_the_earlier_ones_finish(tournament, organiser, field):
    one = create_round(tournament=tournament, actor=organiser)
    seat_round(round=one, actor=organiser, seed=1)
    set_round_status(round=one, status="seated", actor=organiser)
    two = create_round(tournament=tournament, actor=organiser)
    seat_round(round=two, actor=organiser, seed=2)
    set_round_status(round=two, status="seated", actor=organiser)
    with pytest.raises(ValidationError) as error:
        set_round_status(round=two, status="playing", actor=organiser)
    assert error.value.code == "earlier_round_open"


def test_play_cannot_be_undone_once_results_exist(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    tables = seat_round(round=round, actor=organiser, seed=1)
    set_round_status(round=round, status="seated", actor=organiser)
    set_round_status(round=round, status="playing", actor=organiser)
    record_deal(table=tables[0], number=1, deal=DealInput(result="draw"), entered_by=organiser)
    with pytest.raises(ValidationError) as error:
        set_round_status(round=round, status="seated", actor=organiser)
    assert error.value.code == "has_results"


def test_seating_is_frozen_once_play_starts(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    seat_round(round=round, actor=organiser, seed=1)
    set_round_status(round=round, status="seated", actor=organiser)
    set_round_status(round=round, status="playing", actor=organiser)
    before = tables_of(round)
    with pytest.raises(ValidationError) as error:
        seat_round(round=round, actor=organiser, seed=2)
    assert error.value.code == "seating_frozen"
    assert tables_of(round) == before


def test_results_are_refused_unless_the_round_is_in_play(tournament, organiser, field):
    round = create_round(tournament=tournament, actor=organiser)
    tables = seat_round(round=round, actor=organiser, seed=1)
    set_round_status(round=round, status="seated", actor=organiser)
    with pytest.raises(ValidationError) as error:
        record_deal(table=tables[0], number=1, deal=DealInput(result="draw"), entered_by=organiser)
    assert error.value.code == "round_not_playing"
    with pytest.raises(ValidationError) as error:
        end_game(table=tables[0], ended_by_time=True, entered_by=organiser)
    assert error.value.code == "round_not_playing"


def test_only_the_last_draft_round_can_be_removed(tournament, organiser, field):
    one = create_round(tournament=tournament, actor=organiser)
    create_round(tournament=tournament, actor=organiser)
    with pytest.raises(ValidationError) as error:
        remove_round(round=one, actor=organiser)
    assert error.value.code == "not_last_round"
    remove_round(round=tournament.rounds.get(number=2), actor=organiser)
    assert list(tournament.rounds.values_list("number", flat=True)) == [1]


def test_later_rounds_avoid_the_earlier_meetings(tournament, organiser, field):
    one = create_round(tournament=tournament, actor=organiser)
    set_seating(round=one, tables=[field[0:4], field[4:8], field[8:12], field[12:16]],
                actor=organiser)  # fmt: skip
    two = create_round(tournament=tournament, actor=organiser)
    seat_round(round=two, actor=organiser, seed=5)
    pairs = meetings(tournament)
    assert len(pairs) == len(set(pairs))
