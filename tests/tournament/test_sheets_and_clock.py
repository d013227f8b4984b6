"""Game sheets (submitted, confirmed), corrections after confirmation, provisional standings,
submission keys, and the round clock: its arithmetic and its services.

Fixtures (tests/conftest.py): round 1 in play, table 1 with players 1-4 at E, S, W, N;
`organiser` (alice) organises the tournament, `referee` (bob) referees nothing until assigned
here; `table2` (players 5-8) is refereed by carol, the `other_referee`.
"""

from __future__ import annotations

import importlib
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from factories import submit

from tournament.models import AuditEntry, Deal, Penalty, Round, Table, Tournament
from tournament.reads.clock import clock_of
from tournament.reads.selectors import standings
from tournament.services import (
    DealInput,
    assign_referees,
    confirm_game,
    confirm_submitted_games,
    correct_deal,
    create_table,
    end_game,
    extend_clock,
    pause_clock,
    record_deal,
    record_false_win,
    record_penalty,
    remove_penalty,
    reopen_game,
    resume_clock,
    set_round_status,
    start_clock,
)
from tournament.services.games import may_confirm

pytestmark = pytest.mark.django_db


def code_of(call, *args, **kwargs) -> str:
    with pytest.raises(ValidationError) as error:
        call(*args, **kwargs)
    return error.value.code


@pytest.fixture
def played(table, referee, organiser, east):
    """Table 1 refereed by bob: hand 1 won self-drawn by East for 8 (+48, -16 x 3)."""
    assign_referees(table=table, referees=[referee], actor=organiser)
    record_deal(
        table=table, number=1, deal=DealInput(result="win", winner=east, fan=8), entered_by=referee
    )
    return table


@pytest.fixture
def sheet(played, referee):
    """Table 1's game ended by time: its sheet submitted by bob."""
    return end_game(table=played, ended_by_time=True, entered_by=referee)


def set_confirmation(tournament, value):
    Tournament.objects.filter(pk=tournament.pk).update(confirmation=value)
    tournament.refresh_from_db()


# --- Submitting and confirming --------------------------------------------------------------


def test_ending_the_game_submits_the_sheet_unconfirmed(sheet, referee):
    sheet.refresh_from_db()
    assert sheet.ended_at is not None
    assert sheet.submitted_by == referee
    assert sheet.confirmed_at is None


def test_the_organiser_confirms_and_it_is_audited(sheet, organiser):
    confirmed = confirm_game(table=sheet, confirmed_by=organiser)

    assert confirmed.confirmed_by == organiser
    assert Table.objects.get(pk=sheet.pk).confirmed_at is not None
    entry = AuditEntry.objects.get(action=AuditEntry.Action.GAME_CONFIRMED)
    assert (entry.actor, entry.after) == (organiser, {"scores": [48, -16, -16, -16]})


def test_a_referee_may_not_confirm_where_the_organiser_confirms(sheet, table2, other_referee):
    assert (
        code_of(confirm_game, table=sheet, confirmed_by=other_referee) == "not_allowed_to_confirm"
    )
    assert not may_confirm(other_referee, sheet)


def test_a_second_referee_confirms_where_the_tournament_asks_for_one(
    tournament, sheet, table2, other_referee
):
    set_confirmation(tournament, "referee")
    sheet.refresh_from_db()

    confirm_game(table=sheet, confirmed_by=other_referee)

    assert Table.objects.get(pk=sheet.pk).confirmed_by == other_referee


def test_the_submitting_referee_does_not_confirm_their_own_sheet(tournament, sheet, referee):
    set_confirmation(tournament, "referee")
    sheet.refresh_from_db()

    assert code_of(confirm_game, table=sheet, confirmed_by=referee) == "confirm_own_sheet"


def test_someone_who_referees_nothing_does_not_confirm(tournament, sheet):
    set_confirmation(tournament, "referee")
    stranger = get_user_model().objects.create_user(username="sam", password="stranger-pass-42")

    assert code_of(confirm_game, table=sheet, confirmed_by=stranger) == "not_allowed_to_confirm"


def test_the_organiser_confirms_a_sheet_they_submitted(table, organiser, east):
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=organiser)
    end_game(table=table, ended_by_time=True, entered_by=organiser)

    assert confirm_game(table=table, confirmed_by=organiser).confirmed_at is not None


def test_a_sheet_is_not_confirmed_before_it_is_submitted(played, organiser):
    assert code_of(confirm_game, table=played, confirmed_by=organiser) == "not_submitted"


def test_a_sheet_is_not_confirmed_twice(sheet, organiser):
    confirm_game(table=sheet, confirmed_by=organiser)

    assert code_of(confirm_game, table=sheet, confirmed_by=organiser) == "already_confirmed"


def test_confirm_submitted_games_confirms_the_submitted_sheets_only(
    round, sheet, table2, organiser, other_referee
):
    confirmed = confirm_submitted_games(round=round, confirmed_by=organiser)

    assert [table.number for table in confirmed] == [1]
    assert Table.objects.get(pk=table2.pk).confirmed_at is None


def test_confirm_submitted_games_is_for_organisers(round, sheet, other_referee, table2):
    code = code_of(confirm_submitted_games, round=round, confirmed_by=other_referee)

    assert code == "not_allowed_to_confirm"
    assert Table.objects.get(pk=sheet.pk).confirmed_at is None


def test_without_confirmation_a_submitted_sheet_counts_at_once(tournament, played, referee):
    set_confirmation(tournament, "none")
    played.refresh_from_db()

    table = end_game(table=played, ended_by_time=True, entered_by=referee)

    assert (table.confirmed_at, table.confirmed_by) == (table.ended_at, referee)
    assert standings(tournament)[0].score == 48


# --- After confirmation ---------------------------------------------------------------------


@pytest.fixture
def confirmed(sheet, organiser):
    return confirm_game(table=sheet, confirmed_by=organiser)


def test_a_referee_cannot_correct_a_confirmed_sheet(confirmed, referee, east, south):
    hand = Deal.objects.get(table=confirmed, number=1)

    code = code_of(
        correct_deal,
        hand=hand,
        deal=DealInput(result="win", winner=south, fan=8),
        entered_by=referee,
    )

    assert code == "sheet_confirmed"
    assert Deal.objects.get(pk=hand.pk).winner.player == east


def test_a_referee_cannot_add_or_remove_penalties_on_a_confirmed_sheet(
    confirmed, referee, organiser, north
):
    penalty = dict(player=north, points=5, distributed=False, reason="Late")
    assert code_of(record_penalty, table=confirmed, entered_by=referee, **penalty) == (
        "sheet_confirmed"
    )
    recorded = record_penalty(table=confirmed, entered_by=organiser, **penalty)

    assert code_of(remove_penalty, penalty=recorded, entered_by=referee) == "sheet_confirmed"


def test_a_referee_cannot_reopen_a_confirmed_sheet(confirmed, referee):
    assert code_of(reopen_game, table=confirmed, entered_by=referee) == "sheet_confirmed"


def test_the_organiser_corrects_a_confirmed_sheet_in_the_audit_trail(
    tournament, confirmed, organiser, south
):
    hand = Deal.objects.get(table=confirmed, number=1)

    correct_deal(hand=hand, deal=DealInput(result="win", winner=south, fan=8), entered_by=organiser)

    entry = AuditEntry.objects.get(action=AuditEntry.Action.HAND_CORRECTED)
    assert entry.actor == organiser
    assert entry.before != entry.after
    assert Table.objects.get(pk=confirmed.pk).confirmed_at is not None
    assert [row.player.key for row in standings(tournament)][0] == "2"


def test_reopening_clears_the_confirmation(confirmed, organiser):
    table = reopen_game(table=confirmed, entered_by=organiser)

    table.refresh_from_db()
    assert (table.ended_at, table.submitted_by, table.confirmed_at, table.confirmed_by) == (
        None,
        None,
        None,
        None,
    )
    entry = AuditEntry.objects.get(action=AuditEntry.Action.GAME_REOPENED)
    assert entry.before["confirmed_at"] is not None


# --- Finishing a round ----------------------------------------------------------------------


def test_a_round_finishes_only_with_every_sheet_confirmed(round, sheet, organiser):
    code = code_of(set_round_status, round=round, status="finished", actor=organiser)
    assert code == "sheets_unconfirmed"

    confirm_game(table=sheet, confirmed_by=organiser)

    assert set_round_status(round=round, status="finished", actor=organiser).status == "finished"


# --- Standings ------------------------------------------------------------------------------


def test_standings_count_confirmed_games_and_provisional_ones_on_request(
    tournament, sheet, organiser
):
    assert {row.score for row in standings(tournament)} == {0}
    provisional = {row.player.key: row for row in standings(tournament, provisional=True)}
    assert provisional["1"].score == 48
    assert [provisional[key].provisional_games for key in "12345678"] == [1] * 4 + [0] * 4

    confirm_game(table=sheet, confirmed_by=organiser)

    rows = {row.player.key: row for row in standings(tournament, provisional=True)}
    assert rows["1"].score == 48
    assert {row.provisional_games for row in rows.values()} == {0}
    assert standings(tournament)[0].score == 48


def test_provisional_standings_leave_out_games_still_being_played(tournament, played):
    assert {row.score for row in standings(tournament, provisional=True)} == {0}


# --- Submission keys ------------------------------------------------------------------------


def test_a_replayed_hand_is_the_same_hand_and_records_nothing(played, referee, south):
    key = uuid.uuid4()
    first = record_deal(
        table=played, number=2, deal=DealInput(result="draw"), entered_by=referee, submission=key
    )
    audits = AuditEntry.objects.count()

    again = record_deal(
        table=played,
        number=2,
        deal=DealInput(result="draw"),
        entered_by=referee,
        submission=str(key),
    )

    assert again.pk == first.pk
    assert again.replayed is True
    assert not getattr(first, "replayed", False)
    assert Deal.objects.filter(table=played).count() == 2
    assert AuditEntry.objects.count() == audits


def test_a_replayed_penalty_and_false_win_record_nothing(played, referee, north, west):
    penalty_key, false_win_key = uuid.uuid4(), uuid.uuid4()
    for _ in range(2):
        record_penalty(
            table=played,
            player=north,
            points=5,
            distributed=False,
            reason="Late",
            entered_by=referee,
            submission=penalty_key,
        )
        record_false_win(
            table=played,
            number=2,
            offender=west,
            invalid_hand=False,
            entered_by=referee,
            submission=false_win_key,
        )

    assert Penalty.objects.filter(table=played).count() == 2


def test_a_key_at_another_table_is_another_key(played, table2, referee, organiser):
    key = uuid.uuid4()
    here = record_deal(
        table=played, number=2, deal=DealInput(result="draw"), entered_by=organiser, submission=key
    )

    there = record_deal(
        table=table2, number=1, deal=DealInput(result="draw"), entered_by=organiser, submission=key
    )

    assert there.pk != here.pk
    assert not getattr(there, "replayed", False)
    assert Deal.objects.filter(submission=key).count() == 2


def test_another_users_key_is_another_key(played, referee, organiser):
    key = uuid.uuid4()
    record_deal(
        table=played, number=2, deal=DealInput(result="draw"), entered_by=referee, submission=key
    )

    code = code_of(
        record_deal,
        table=played,
        number=2,
        deal=DealInput(result="draw"),
        entered_by=organiser,
        submission=key,
    )

    # Not answered with the referee's hand: taken as the organiser's own, which comes too late.
    assert code == "conflict"
    third = record_deal(
        table=played, number=3, deal=DealInput(result="draw"), entered_by=organiser, submission=key
    )
    assert (third.number, third.submitted_by, third.entered_by) == (3, organiser, organiser)
    assert not getattr(third, "replayed", False)


def test_a_key_sent_again_with_other_values_is_refused(played, referee, east):
    key = uuid.uuid4()
    record_deal(
        table=played, number=2, deal=DealInput(result="draw"), entered_by=referee, submission=key
    )
    audits = AuditEntry.objects.count()

    code = code_of(
        record_deal,
        table=played,
        number=2,
        deal=DealInput(result="win", winner=east, fan=8),
        entered_by=referee,
        submission=key,
    )

    assert code == "submission_key_reused"
    assert Deal.objects.get(table=played, number=2).result == "draw"
    assert AuditEntry.objects.count() == audits


def test_a_penalty_key_sent_again_with_another_reason_is_refused(played, referee, north):
    key = uuid.uuid4()
    sent = dict(
        table=played, player=north, points=5, distributed=False, entered_by=referee, submission=key
    )
    record_penalty(reason="Late", **sent)

    assert record_penalty(reason=" Late ", **sent).replayed is True  # the reason as kept
    assert code_of(record_penalty, reason="Slow play", **sent) == "submission_key_reused"
    assert Penalty.objects.get().reason == "Late"


def test_a_false_win_key_sent_again_for_another_offender_is_refused(played, referee, west, north):
    key = uuid.uuid4()
    sent = dict(table=played, number=2, invalid_hand=False, entered_by=referee, submission=key)
    record_false_win(offender=west, **sent)

    assert code_of(record_false_win, offender=north, **sent) == "submission_key_reused"
    assert Penalty.objects.get().seat.player == west


def test_a_key_kept_before_digests_is_replayed_whatever_is_sent(played, referee, east):
    key = uuid.uuid4()
    first = record_deal(
        table=played, number=2, deal=DealInput(result="draw"), entered_by=referee, submission=key
    )
    Deal.objects.filter(pk=first.pk).update(submission_digest="")

    again = record_deal(
        table=played,
        number=2,
        deal=DealInput(result="win", winner=east, fan=8),
        entered_by=referee,
        submission=key,
    )

    assert (again.pk, again.replayed) == (first.pk, True)


def test_a_correction_keeps_the_key_with_its_sender(played, referee, organiser):
    key = uuid.uuid4()
    hand = record_deal(
        table=played, number=2, deal=DealInput(result="draw"), entered_by=referee, submission=key
    )
    correct_deal(hand=hand, deal=DealInput(result="draw"), entered_by=organiser)

    again = record_deal(
        table=played, number=2, deal=DealInput(result="draw"), entered_by=referee, submission=key
    )

    assert (again.pk, again.replayed, again.entered_by) == (hand.pk, True, organiser)


def test_a_hand_key_is_not_taken_for_a_penalty(played, referee, north):
    key = uuid.uuid4()
    record_deal(
        table=played, number=2, deal=DealInput(result="draw"), entered_by=referee, submission=key
    )

    code = code_of(
        record_penalty,
        table=played,
        player=north,
        points=5,
        distributed=False,
        reason="Late",
        entered_by=referee,
        submission=key,
    )

    assert code == "submission_key_reused"


def test_a_key_that_is_not_a_uuid_is_refused(played, referee):
    code = code_of(
        record_deal,
        table=played,
        number=2,
        deal=DealInput(result="draw"),
        entered_by=referee,
        submission="x-1",
    )

    assert code == "bad_submission_key"
    assert Deal.objects.filter(table=played).count() == 1


def test_a_replay_after_the_end_of_the_game_returns_the_hand(played, referee):
    key = uuid.uuid4()
    first = record_deal(
        table=played, number=2, deal=DealInput(result="draw"), entered_by=referee, submission=key
    )
    end_game(table=played, ended_by_time=True, entered_by=referee)

    again = record_deal(
        table=played, number=2, deal=DealInput(result="draw"), entered_by=referee, submission=key
    )

    assert (again.pk, again.replayed) == (first.pk, True)


# --- Clock arithmetic -------------------------------------------------------------------------

START = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)


def clock_round(tournament, **fields) -> Round:
    """An unsaved round with these clock fields (the arithmetic needs no database)."""
    return Round(tournament=tournament, number=9, **fields)


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def test_a_clock_not_started_has_the_whole_round_left(tournament):
    clock = clock_of(clock_round(tournament), now=at(50))

    assert (clock.state, clock.remaining_seconds, clock.display) == ("not_started", 7200, "2:00:00")
    assert clock.expected_hands == 0
    assert not clock.behind(0, ended=False)


def test_a_running_clock_counts_down(tournament):
    clock = clock_of(clock_round(tournament, clock_minutes=120, clock_started_at=START), at(30))

    assert (clock.state, clock.elapsed_seconds, clock.remaining_seconds) == ("running", 1800, 5400)
    assert clock.display == "1:30:00"
    assert clock.expected_hands == 4


def test_a_paused_clock_stands_still(tournament):
    round = clock_round(
        tournament, clock_minutes=120, clock_started_at=START, clock_paused_at=at(30)
    )

    assert clock_of(round, at(90)).state == "paused"
    assert clock_of(round, at(90)).remaining_seconds == 5400


def test_earlier_pauses_do_not_count(tournament):
    round = clock_round(
        tournament, clock_minutes=60, clock_started_at=START, clock_paused_seconds=600
    )

    clock = clock_of(round, at(40))

    assert (clock.elapsed_seconds, clock.display) == (1800, "30:00")


def test_an_extension_adds_minutes(tournament):
    round = clock_round(
        tournament, clock_minutes=60, clock_extra_minutes=15, clock_started_at=START
    )

    assert clock_of(round, at(70)).remaining_seconds == 5 * 60
    assert clock_of(round, at(70)).state == "running"


def test_the_clock_is_over_at_the_end(tournament):
    round = clock_round(tournament, clock_minutes=60, clock_started_at=START)

    clock = clock_of(round, at(75))

    assert (clock.state, clock.remaining_seconds, clock.display) == ("over", 0, "0:00")
    assert clock.expected_hands == 16


def test_the_tournaments_round_time_is_the_default(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(round_minutes=90)
    tournament.refresh_from_db()

    assert clock_of(clock_round(tournament), at(0)).total_seconds == 90 * 60


@pytest.mark.parametrize(
    ("minutes", "hands", "ended", "behind"),
    [
        (60, 6, False, False),  # 8 expected: 2 fewer is still on pace
        (60, 5, False, True),  # 3 fewer
        (60, 5, True, False),  # a game that has ended is never behind
        (15, 0, False, False),  # 2 expected
        (120, 13, False, True),  # 16 expected at the end
    ],
)
def test_a_table_is_behind_when_more_than_two_hands_short(
    tournament, minutes, hands, ended, behind
):
    round = clock_round(tournament, clock_minutes=120, clock_started_at=START)

    assert clock_of(round, at(minutes)).behind(hands, ended) is behind


# --- Clock services ---------------------------------------------------------------------------


def test_the_clock_starts_pauses_resumes_and_extends_with_an_audit(round, organiser):
    round = start_clock(round=round, actor=organiser, minutes=90)
    assert (round.clock_minutes, clock_of(round).state) == (90, "running")
    round = pause_clock(round=round, actor=organiser)
    assert clock_of(round).state == "paused"
    round = resume_clock(round=round, actor=organiser)
    assert round.clock_paused_at is None
    round = extend_clock(round=round, actor=organiser, minutes=10)
    assert clock_of(round).total_seconds == 100 * 60

    events = [
        entry.after["event"]
        for entry in AuditEntry.objects.filter(action=AuditEntry.Action.CLOCK).order_by("pk")
    ]
    assert events == ["started", "paused", "resumed", "extended"]


def test_start_uses_the_tournaments_round_time(tournament, round, organiser):
    Tournament.objects.filter(pk=tournament.pk).update(round_minutes=150)
    round.tournament.refresh_from_db()

    assert start_clock(round=round, actor=organiser).clock_minutes == 150


@pytest.mark.parametrize("status", ["draft", "seated", "finished"])
def test_the_clock_starts_only_in_play(tournament, organiser, status):
    round = Round.objects.create(tournament=tournament, number=1, status=status)

    assert code_of(start_clock, round=round, actor=organiser) == "round_not_playing"


def test_clock_refusals(round, organiser):
    assert code_of(pause_clock, round=round, actor=organiser) == "clock_not_started"
    assert code_of(resume_clock, round=round, actor=organiser) == "clock_not_started"
    assert code_of(extend_clock, round=round, actor=organiser, minutes=5) == "clock_not_started"
    assert code_of(start_clock, round=round, actor=organiser, minutes=5) == "bad_minutes"
    assert code_of(start_clock, round=round, actor=organiser, minutes=601) == "bad_minutes"
    start_clock(round=round, actor=organiser)
    assert code_of(start_clock, round=round, actor=organiser) == "clock_started"
    assert code_of(resume_clock, round=round, actor=organiser) == "clock_running"
    assert code_of(extend_clock, round=round, actor=organiser, minutes=0) == "bad_extension"
    assert code_of(extend_clock, round=round, actor=organiser, minutes=121) == "bad_extension"
    assert code_of(extend_clock, round=round, actor=organiser, minutes=-120) == "bad_extension"
    pause_clock(round=round, actor=organiser)
    assert code_of(pause_clock, round=round, actor=organiser) == "clock_paused"


def test_a_clock_shortened_keeps_time_left(round, organiser):
    round = start_clock(round=round, actor=organiser, minutes=60)

    round = extend_clock(round=round, actor=organiser, minutes=-30)

    assert clock_of(round).total_seconds == 30 * 60


def test_a_finished_rounds_clock_stands_still(tournament):
    round = clock_round(
        tournament, status=Round.Status.FINISHED, clock_minutes=120, clock_started_at=START,
        clock_paused_at=at(50),
    )  # fmt: skip

    clock = clock_of(round, at(90))

    assert (clock.state, clock.running, clock.started) == ("finished", False, False)
    assert clock.remaining_seconds == 70 * 60
    assert not clock.behind(0, ended=False)


def test_finishing_a_round_stops_its_clock_and_reopening_finds_it_paused(
    board, organiser, monkeypatch
):
    from django.utils import timezone

    round = start_clock(round=board["round"], actor=organiser, minutes=120)
    for table in board["tables"]:
        confirm_game(table=submit(table, organiser), confirmed_by=organiser)
    monkeypatch.setattr(timezone, "now", lambda: round.clock_started_at + timedelta(minutes=50))
    round = set_round_status(round=round, status="finished", actor=organiser)
    monkeypatch.setattr(timezone, "now", lambda: round.clock_started_at + timedelta(minutes=90))

    assert clock_of(round).state == "finished"
    assert clock_of(round).remaining_seconds == 70 * 60
    round = set_round_status(round=round, status="playing", actor=organiser)
    assert (clock_of(round).state, clock_of(round).remaining_seconds) == ("paused", 70 * 60)


# --- The migration's data step ----------------------------------------------------------------


def test_the_migration_confirms_the_games_that_had_ended(round, players):
    migration = importlib.import_module(
        "tournament.migrations.0009_game_sheets_clock_and_submission_keys"
    )
    ended = create_table(round=round, number=1, players=players[:4])
    open_ = create_table(round=round, number=2, players=players[4:])
    Table.objects.filter(pk=ended.pk).update(ended_at=START)

    from django.apps import apps

    migration.confirm_ended_games(apps, None)

    assert Table.objects.get(pk=ended.pk).confirmed_at == START
    assert Table.objects.get(pk=open_.pk).confirmed_at is None


def test_the_migration_gives_each_key_to_whoever_entered_its_record(
    played, referee, organiser, north
):
    migration = importlib.import_module("tournament.migrations.0011_submission_keys_of_their_user")
    key, penalty_key = uuid.uuid4(), uuid.uuid4()
    record_deal(
        table=played, number=2, deal=DealInput(result="draw"), entered_by=referee, submission=key
    )
    record_penalty(
        table=played,
        player=north,
        points=5,
        distributed=False,
        reason="Late",
        entered_by=referee,
        submission=penalty_key,
    )
    # Another user in place of the one the step fills in (a key without its user is refused
    # by the constraint the next migration adds).
    for model in (Deal, Penalty):
        model.objects.filter(submission__isnull=False).update(submitted_by=organiser)

    class Models:
        """Today's models under the names the step knew them by (Deal was called Hand)."""

        def get_model(self, app: str, name: str) -> type:
            return {"Hand": Deal, "Penalty": Penalty}[name]

    migration.give_keys_their_user(Models(), None)

    assert Deal.objects.get(submission=key).submitted_by == referee
    assert Penalty.objects.get(submission=penalty_key).submitted_by == referee
    assert Deal.objects.get(number=1).submitted_by is None  # recorded without a key


def test_after_the_sheet_is_submitted_the_referee_enters_nothing_new(sheet, referee, north):
    """Hands, false wins and penalties alike: the game has ended."""
    assert code_of(
        record_deal, table=sheet, number=2, deal=DealInput(result="draw"), entered_by=referee
    ) == ("game_ended")
    assert code_of(
        record_false_win,
        table=sheet,
        number=1,
        offender=north,
        invalid_hand=False,
        entered_by=referee,
    ) == ("game_ended")
    assert code_of(
        record_penalty,
        table=sheet,
        player=north,
        points=5,
        distributed=False,
        reason="Late",
        entered_by=referee,
    ) == ("game_ended")
    assert not Penalty.objects.exists()


def test_the_organiser_records_a_penalty_on_a_submitted_sheet_as_a_correction(
    sheet, organiser, north
):
    record_penalty(
        table=sheet, player=north, points=5, distributed=False, reason="Late", entered_by=organiser
    )

    assert Penalty.objects.get().points == 5
