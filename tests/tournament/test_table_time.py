"""A table's own time: its clock is the round's with `Table.extra_minutes` added (a late start,
a long ruling), and `give_table_time` changes those minutes, audited.

Fixtures (tests/conftest.py): round 1 in play, table 1 with players 1-4; `organiser` (alice).
Under every preset: tests/preset_world.py (round 2 in play, its table `playing`).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from factories import make_round, make_table
from preset_world import PRESETS, build

from tournament.models import AuditEntry, LiveVersion, Round, Table
from tournament.reads.clock import clock_of, table_clock
from tournament.services import DealInput, end_game, give_table_time, record_deal

pytestmark = pytest.mark.django_db

START = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def clocked(round: Round, **fields) -> Round:
    """`round` with its clock started at START for 120 minutes (and `fields`), saved."""
    values = {"clock_minutes": 120, "clock_started_at": START, **fields}
    Round.objects.filter(pk=round.pk).update(**values)
    round.refresh_from_db()
    return round


def with_extra(table: Table, minutes: int) -> Table:
    Table.objects.filter(pk=table.pk).update(extra_minutes=minutes)
    table.refresh_from_db()
    return table


def code_of(call, **kwargs) -> str:
    with pytest.raises(ValidationError) as error:
        call(**kwargs)
    return error.value.code


# --- The arithmetic -----------------------------------------------------------------------


def test_a_table_with_extra_minutes_has_that_much_more_left(round, table):
    clocked(round)
    with_extra(table, 10)

    own = table_clock(table, at(30))

    assert (own.state, own.total_seconds, own.remaining_seconds) == ("running", 130 * 60, 100 * 60)
    assert own.display == "1:40:00"
    assert (own.extra_minutes, own.signed_extra) == (10, "+10")
    assert clock_of(round, at(30)).remaining_seconds == 90 * 60


def test_a_table_without_extra_minutes_has_the_rounds_clock(round, table):
    clocked(round)

    assert table_clock(table, at(30)) == clock_of(round, at(30))
    assert table_clock(table, at(30)).signed_extra == ""


def test_a_table_with_extra_minutes_is_over_later(round, table):
    clocked(round)
    with_extra(table, 10)

    assert clock_of(round, at(125)).state == "over"
    own = table_clock(table, at(125))
    assert (own.state, own.remaining_seconds, own.elapsed_seconds) == ("running", 300, 125 * 60)
    over = table_clock(table, at(131))
    assert (over.state, over.remaining_seconds, over.elapsed_seconds) == ("over", 0, 130 * 60)


def test_a_table_with_fewer_minutes_is_over_sooner(round, table):
    clocked(round)
    with_extra(table, -15)

    own = table_clock(table, at(110))

    assert clock_of(round, at(110)).state == "running"
    assert (own.state, own.remaining_seconds, own.signed_extra) == ("over", 0, "-15")
    assert table_clock(table, at(100)).remaining_seconds == 5 * 60


def test_a_paused_round_pauses_the_tables_clock(round, table):
    clocked(round, clock_paused_at=at(130))  # the round's time was up when it was paused
    with_extra(table, 20)

    own = table_clock(table, at(200))

    assert clock_of(round, at(200)).state == "paused"
    assert (own.state, own.remaining_seconds) == ("paused", 10 * 60)


def test_a_finished_round_stops_the_tables_clock(round, table):
    clocked(round, status=Round.Status.FINISHED, clock_paused_at=at(100))
    with_extra(table, 10)

    own = table_clock(table, at(300))

    assert (own.state, own.remaining_seconds) == ("finished", 30 * 60)
    assert not own.behind(0, ended=False)


def test_a_clock_not_started_has_the_tables_whole_time(round, table):
    with_extra(table, 10)

    own = table_clock(table, at(50))

    assert (own.state, own.total_seconds) == ("not_started", (120 + 10) * 60)
    assert own.expected_hands == 0


def test_behind_is_judged_against_the_tables_own_total(round, table):
    clocked(round)
    with_extra(table, 60)

    # At 90 of 120 minutes an even pace has played 12 hands; of the table's 180, 8.
    assert clock_of(round, at(90)).expected_hands == 12
    assert table_clock(table, at(90)).expected_hands == 8
    assert clock_of(round, at(90)).behind(7, ended=False)
    assert not table_clock(table, at(90)).behind(7, ended=False)
    assert table_clock(table, at(90)).behind(5, ended=False)


def test_the_rounds_clock_worked_out_once_serves_every_table(round, table):
    clocked(round)
    with_extra(table, 5)
    shared = clock_of(round, at(30))

    assert table_clock(table, round_clock=shared) == table_clock(table, at(30))


# --- The service ---------------------------------------------------------------------------


def test_giving_time_adds_minutes_audits_and_updates_the_live_pages(
    round, table, organiser, tournament
):
    version = LiveVersion.objects.filter(tournament=tournament).values_list("number", flat=True)
    before = version.first() or 0

    give_table_time(table=table, minutes=10, actor=organiser, reason="Late start")
    given = give_table_time(table=table, minutes=5, actor=organiser)

    assert given.extra_minutes == 15
    assert Table.objects.get(pk=table.pk).extra_minutes == 15
    entries = AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_TIME).order_by("pk")
    assert [(entry.table, entry.actor) for entry in entries] == [(table, organiser)] * 2
    first = entries[0]
    assert first.before == {"round": 1, "extra_minutes": 0}
    assert first.after["extra_minutes"] == 10
    assert (first.after["minutes"], first.after["reason"]) == (10, "Late start")
    assert entries[1].before["extra_minutes"] == 10
    assert entries[1].after["extra_minutes"] == 15
    assert version.first() == before + 2


def test_negative_minutes_take_time_back(table, organiser):
    give_table_time(table=table, minutes=10, actor=organiser)

    assert give_table_time(table=table, minutes=-25, actor=organiser).extra_minutes == -15


@pytest.mark.parametrize(
    ("first", "minutes"),
    [
        (0, 0),  # nothing given
        (0, 121),  # past 120
        (100, 25),  # past 120 in all
        (0, -61),  # short of -60
        (-50, -11),  # short of -60 in all
    ],
)
def test_out_of_bounds_is_refused_and_nothing_changes(table, organiser, first, minutes):
    with_extra(table, first)

    code = code_of(give_table_time, table=table, minutes=minutes, actor=organiser)

    assert code == "bad_table_time"
    assert Table.objects.get(pk=table.pk).extra_minutes == first
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_TIME).exists()


def test_the_bounds_themselves_are_taken(table, organiser):
    assert give_table_time(table=table, minutes=120, actor=organiser).extra_minutes == 120
    assert give_table_time(table=table, minutes=-180, actor=organiser).extra_minutes == -60


def test_a_table_is_never_left_without_time(tournament, organiser, players):
    round = make_round(tournament, number=2)
    table = make_table(round, players[:4])
    clocked(round, clock_minutes=30, clock_extra_minutes=20)  # the round has 50 minutes

    assert code_of(give_table_time, table=table, minutes=-50, actor=organiser) == ("bad_table_time")
    assert give_table_time(table=table, minutes=-49, actor=organiser).extra_minutes == -49


@pytest.mark.parametrize("status", [Round.Status.FINISHED, Round.Status.DRAFT])
def test_a_finished_or_draft_round_is_refused(tournament, organiser, players, status):
    round = make_round(tournament, number=2, status=status)
    table = make_table(round, players[:4])

    assert code_of(give_table_time, table=table, minutes=10, actor=organiser) == "round_not_open"
    assert Table.objects.get(pk=table.pk).extra_minutes == 0


def test_a_seated_round_takes_time_before_play(tournament, organiser, players):
    round = make_round(tournament, number=2, status=Round.Status.SEATED)
    table = make_table(round, players[:4])

    assert give_table_time(table=table, minutes=10, actor=organiser).extra_minutes == 10


def test_a_table_whose_game_ended_is_refused(table, organiser, referee):
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=referee)
    end_game(table=table, ended_by_time=True, entered_by=referee)

    assert code_of(give_table_time, table=table, minutes=10, actor=organiser) == "game_ended"
    assert Table.objects.get(pk=table.pk).extra_minutes == 0


def test_a_long_reason_is_refused(table, organiser):
    code = code_of(give_table_time, table=table, minutes=5, actor=organiser, reason="x" * 201)

    assert code == "reason_too_long"


def test_the_reason_is_kept_without_surrounding_spaces(table, organiser):
    give_table_time(table=table, minutes=5, actor=organiser, reason="  Long ruling \n")

    assert AuditEntry.objects.get(action="table_time").after["reason"] == "Long ruling"


# --- Every preset ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", PRESETS)
def test_every_preset_judges_a_table_against_its_own_time(key):
    world = build(key)
    playing = world.playing
    round = clocked(playing.round)
    give_table_time(table=playing, minutes=60, actor=world.organiser, reason="Long ruling")
    playing.refresh_from_db()

    own = table_clock(playing, at(90))
    rounds = clock_of(round, at(90))

    deals = world.tournament.rules.least_deals
    assert own.hands_per_game == rounds.hands_per_game == deals
    assert rounds.expected_hands == deals * 90 // 120
    assert own.expected_hands == deals * 90 // 180
    assert own.remaining_seconds == rounds.remaining_seconds + 60 * 60
    assert AuditEntry.objects.filter(table=playing, action="table_time").count() == 1


def test_the_tables_own_minutes_read_alike_as_an_array_or_apart(round, table):
    """The live tags' own minutes: PostgreSQL's array annotation, and the query of their own
    that databases without arrays (SQLite, the quick start) use, give the same minutes."""
    from django.db.models import OuterRef

    from tournament.web.live import minutes_of, own_minutes

    with_extra(table, 10)
    annotated = Round.objects.annotate(extras=own_minutes(OuterRef("pk"))).get(pk=round.pk)

    assert annotated.extras == [10]
    assert minutes_of(None, round.pk) == minutes_of(annotated.extras, round.pk) == [10]
    assert minutes_of(None, None) == []
