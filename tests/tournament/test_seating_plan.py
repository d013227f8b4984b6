"""The seating plan service: generating the draft rounds, frozen rounds, failures, one job at a
time, the background thread, late changes, figures and publishing."""

from __future__ import annotations

import threading
import time
from collections import Counter, defaultdict
from datetime import timedelta
from itertools import combinations

import pytest
from django.core.exceptions import ValidationError

from tournament.domain import seating as engine
from tournament.models import AuditEntry, Player, Round, Seat, SeatingJob
from tournament.reads.selectors import standings
from tournament.services import (
    DealInput,
    add_player,
    confirm_submitted_games,
    create_round,
    end_game,
    record_deal,
    set_round_status,
    set_seating,
    update_player,
)
from tournament.services.seating_plan import (
    Abandoned,
    ProgressWriter,
    Segment,
    build_plan,
    enqueue,
    is_stale,
    jobs,
    publish_rounds,
    seating_figures,
    start_seating_job,
    update_seating_settings,
)

pytestmark = pytest.mark.django_db

CLUBS = ("Oak", "Elm", "Ash", "Yew")
# Round 1 as the organiser seated it by hand: start numbers in order, four to a table.
BY_HAND = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]


@pytest.fixture(autouse=True)
def inline_jobs(settings):
    settings.SEATING_JOBS_INLINE = True


@pytest.fixture
def field(tournament):
    """16 players keyed 1..16; player i is in club CLUBS[i % 4]."""
    return {
        n: add_player(tournament=tournament, key=str(n), name=f"P{n}", club=CLUBS[n % 4])
        for n in range(1, 17)
    }


def plan(tournament, organiser, planned=5, **separations):
    return update_seating_settings(
        tournament=tournament,
        planned_rounds=planned,
        separate_clubs=separations.get("clubs", "soft"),
        separate_countries=separations.get("countries", "soft"),
        separate_teams=separations.get("teams", "soft"),
        by_standing=separations.get("by_standing", ()),
        actor=organiser,
    )


def seat_by_hand(tournament, organiser, field, tables, status="finished"):
    """The next round seated with `tables` of start numbers, moved on to `status`."""
    round = create_round(tournament=tournament, actor=organiser)
    made = set_seating(
        round=round, tables=[[field[n] for n in table] for table in tables], actor=organiser
    )
    if status == "draft":
        return round
    set_round_status(round=round, status="seated", actor=organiser)
    if status == "seated":
        return round
    set_round_status(round=round, status="playing", actor=organiser)
    if status == "playing":
        return round
    for index, table in enumerate(made):
        winner = field[tables[index][index % 4]]
        record_deal(
            table=table,
            number=1,
            deal=DealInput(result="win", winner=winner, fan=8 + 2 * index),
            entered_by=organiser,
        )
        end_game(table=table, ended_by_time=True, entered_by=organiser)
    confirm_submitted_games(round=round, confirmed_by=organiser)
    set_round_status(round=round, status="finished", actor=organiser)
    return round


def seating(tournament) -> dict[int, dict[int, list[str]]]:
    """Player keys by round and table, in starting order E, S, W, N, from the Seat rows."""
    rounds: dict[int, dict[int, list[str]]] = defaultdict(dict)
    for seat in Seat.objects.filter(round__tournament=tournament).select_related(
        "round", "table", "player"
    ):
        rounds[seat.round.number].setdefault(seat.table.number, [""] * 4)[seat.index] = (
            seat.player.key
        )
    return dict(rounds)


def seat_ids(round) -> set[int]:
    return set(Seat.objects.filter(round=round).values_list("pk", flat=True))


def count_from_seats(tournament) -> dict:
    """Repeats, conflicts and winds counted straight from the Seat rows, without the engine."""
    tables: dict[tuple[int, int], list[Player]] = defaultdict(list)
    winds: dict[str, Counter] = defaultdict(Counter)
    for seat in Seat.objects.filter(round__tournament=tournament).select_related(
        "round", "table", "player"
    ):
        tables[seat.round.number, seat.table.number].append(seat.player)
        winds[seat.player.key][seat.starting_wind] += 1
    meetings: Counter = Counter()
    per_round: Counter = Counter()
    conflicts = {"club": 0, "country": 0, "team": 0}
    for (number, _), players in sorted(tables.items()):
        for a, b in combinations(players, 2):
            pair = frozenset((a.pk, b.pk))
            if meetings[pair]:
                per_round[number] += 1
            for attribute in conflicts:
                if getattr(a, attribute) and getattr(a, attribute) == getattr(b, attribute):
                    conflicts[attribute] += 1
        for a, b in combinations(players, 2):
            meetings[frozenset((a.pk, b.pk))] += 1
    spreads = [max(c[w] for w in "ESWN") - min(c[w] for w in "ESWN") for c in winds.values()]
    return {
        "repeats": sum(m - 1 for m in meetings.values()),
        "repeated_pairs": sum(1 for m in meetings.values() if m > 1),
        "club_conflicts": conflicts["club"],
        "country_conflicts": conflicts["country"],
        "team_conflicts": conflicts["team"],
        "wind_imbalance": sum(max(0, s - 1) for s in spreads),
        "worst_wind_spread": max(spreads),
        "rounds": dict(per_round),
    }


# --- Generating ----------------------------------------------------------------------------


def test_rounds_2_to_5_after_a_round_seated_by_hand(tournament, organiser, field):
    round_1 = seat_by_hand(tournament, organiser, field, BY_HAND)
    before = seat_ids(round_1)
    plan(tournament, organiser)

    job = start_seating_job(tournament=tournament, actor=organiser, seed=7)

    assert job.status == "done", job.message
    assert job.message == "Seated rounds 2–5."
    assert list(tournament.rounds.values_list("number", "status")) == [
        (1, "finished"),
        (2, "draft"),
        (3, "draft"),
        (4, "draft"),
        (5, "draft"),
    ]
    stored = seating(tournament)
    for number in range(2, 6):
        assert sorted(stored[number]) == [1, 2, 3, 4]
        keys = [key for table in stored[number].values() for key in table]
        assert sorted(keys, key=int) == [str(n) for n in range(1, 17)]
    assert seat_ids(round_1) == before
    counted = count_from_seats(tournament)
    figures = job.figures
    for name in (
        "repeats",
        "repeated_pairs",
        "club_conflicts",
        "country_conflicts",
        "team_conflicts",
        "wind_imbalance",
        "worst_wind_spread",
    ):
        assert figures[name] == counted[name], name
    assert {r["number"]: r["repeats"] for r in figures["rounds"] if r["repeats"]} == (
        counted["rounds"]
    )
    # 16 players can meet all 15 others once in five rounds (the affine plane of order 4), and
    # any seating of round 1 is one of its parallel classes after renaming the players.
    assert figures["repeats"] == 0
    # Then every one of the 120 pairs meets exactly once. Round 1 seats no two of a club
    # together, so all 4 x 6 pairs within the clubs meet in rounds 2-5.
    assert figures["club_conflicts"] == 24
    assert [r["number"] for r in figures["rounds"]] == [1, 2, 3, 4, 5]


def test_the_same_seed_gives_the_same_seating(tournament, organiser, field):
    plan(tournament, organiser, planned=3)
    start_seating_job(tournament=tournament, actor=organiser, seed=11)
    first = seating(tournament)
    start_seating_job(tournament=tournament, actor=organiser, seed=11)
    assert seating(tournament) == first


def test_published_rounds_are_frozen(tournament, organiser, field):
    round_1 = seat_by_hand(tournament, organiser, field, BY_HAND)
    shifted = [[1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [4, 8, 12, 16]]
    round_2 = seat_by_hand(tournament, organiser, field, shifted, status="seated")
    draft_3 = seat_by_hand(tournament, organiser, field, BY_HAND, status="draft")
    kept = {1: seat_ids(round_1), 2: seat_ids(round_2)}
    plan(tournament, organiser, planned=4)

    job = start_seating_job(tournament=tournament, actor=organiser, seed=3)

    assert job.status == "done", job.message
    assert seat_ids(round_1) == kept[1]
    assert seat_ids(round_2) == kept[2]
    assert not seat_ids(draft_3) & kept[1]
    stored = seating(tournament)
    assert stored[2] == {i + 1: [str(n) for n in table] for i, table in enumerate(shifted)}
    # Round 3 was seated again: it no longer repeats round 1 table for table.
    assert stored[3] != stored[1]
    assert job.figures["repeats"] == count_from_seats(tournament)["repeats"] == 0
    assert Round.objects.get(tournament=tournament, number=4).status == "draft"


def test_hard_club_separation_holds_in_the_stored_seats(tournament, organiser, field):
    plan(tournament, organiser, planned=4, clubs="hard")

    job = start_seating_job(tournament=tournament, actor=organiser, seed=5)

    assert job.status == "done", job.message
    clubs = {str(n): player.club for n, player in field.items()}
    for tables in seating(tournament).values():
        for keys in tables.values():
            assert len({clubs[key] for key in keys}) == 4
    assert job.figures["club_conflicts"] == 0


def test_club_names_are_compared_without_case_or_spaces(tournament, organiser, field):
    update_player(player=field[4], club="  oak ")  # club of 8, 12 and 16 spelled otherwise
    plan(tournament, organiser, planned=2, clubs="hard")

    job = start_seating_job(tournament=tournament, actor=organiser, seed=5)

    assert job.status == "done", job.message
    oak = {"4", "8", "12", "16"}
    for tables in seating(tournament).values():
        for keys in tables.values():
            assert len(oak & set(keys)) == 1


def test_a_fixed_table_is_kept_in_every_generated_round(tournament, organiser, field):
    update_player(player=field[6], fixed_table=3)
    plan(tournament, organiser, planned=3)

    job = start_seating_job(tournament=tournament, actor=organiser, seed=2)

    assert job.status == "done", job.message
    for tables in seating(tournament).values():
        assert "6" in tables[3]


def test_rounds_by_standing_put_the_leaders_together(tournament, organiser, field):
    seat_by_hand(tournament, organiser, field, BY_HAND)
    plan(tournament, organiser, planned=3, by_standing=[3])
    leaders = [row.player.key for row in standings(tournament)[:4]]
    assert Round.objects.get(tournament=tournament, number=3).seat_by_standing

    job = start_seating_job(tournament=tournament, actor=organiser, seed=4)

    assert job.status == "done", job.message
    assert sorted(seating(tournament)[3][1]) == sorted(leaders)
    # The winners of round 1 (one a table) lead: 1, 6, 11 and 16 won with 8, 10, 12, 14 fan.
    assert sorted(leaders, key=int) == ["1", "6", "11", "16"]


# --- Failures ------------------------------------------------------------------------------


def test_an_impossible_hard_separation_fails_and_changes_nothing(tournament, organiser, field):
    update_player(player=field[1], club="Yew")  # five of Yew for four tables
    draft = seat_by_hand(tournament, organiser, field, BY_HAND, status="draft")
    plan(tournament, organiser, planned=3, clubs="hard")
    before = seating(tournament)
    audit = AuditEntry.objects.count()
    rounds_before = list(tournament.rounds.values_list("number", "status"))

    job = start_seating_job(tournament=tournament, actor=organiser, seed=1)

    assert job.status == "failed"
    assert job.message == (
        "The 5 players of club 'Yew' cannot sit apart at 4 tables; make club separation soft."
    )
    assert job.finished is not None
    assert seating(tournament) == before
    assert list(tournament.rounds.values_list("number", "status")) == rounds_before
    assert seat_ids(draft)
    assert AuditEntry.objects.count() == audit


def test_a_field_short_of_substitutes_fails_with_the_count(tournament, organiser, field):
    update_player(player=field[16], withdrawn_from_round=2)
    seat_by_hand(tournament, organiser, field, BY_HAND)
    plan(tournament, organiser, planned=3)

    job = start_seating_job(tournament=tournament, actor=organiser, seed=1)

    assert job.status == "failed"
    assert job.message == (
        "15 players play in round 2: 1 more substitutes are needed to fill tables of four."
    )
    assert list(tournament.rounds.values_list("number", flat=True)) == [1]


def test_generating_needs_planned_rounds(tournament, organiser, field):
    with pytest.raises(ValidationError) as error:
        start_seating_job(tournament=tournament, actor=organiser)
    assert error.value.code == "no_planned_rounds"
    assert not SeatingJob.objects.exists()


def test_generating_needs_a_draft_round(tournament, organiser, field):
    seat_by_hand(tournament, organiser, field, BY_HAND)
    plan(tournament, organiser, planned=1)
    with pytest.raises(ValidationError) as error:
        start_seating_job(tournament=tournament, actor=organiser)
    assert error.value.code == "nothing_to_generate"
    assert not SeatingJob.objects.exists()


def test_a_change_while_generating_refuses_the_result(tournament, organiser, field, monkeypatch):
    from tournament.services.seating_plan import jobs

    plan(tournament, organiser, planned=2)
    real = jobs.seat_plan

    def withdraw_meanwhile(*args, **kwargs):
        result = real(*args, **kwargs)
        Player.objects.filter(pk=field[3].pk).update(withdrawn_from_round=1)
        Player.objects.create(tournament=tournament, key="S1", name="Sub", substitute=True)
        return result

    monkeypatch.setattr(jobs, "seat_plan", withdraw_meanwhile)
    job = start_seating_job(tournament=tournament, actor=organiser, seed=1)

    assert job.status == "failed"
    assert job.message == (
        "The players or rounds changed while the seating was generated; generate again."
    )
    assert not Seat.objects.exists()
    assert not tournament.rounds.exists()


# --- One job at a time ---------------------------------------------------------------------


def test_a_second_run_is_refused_while_one_is_running(tournament, organiser, field):
    plan(tournament, organiser, planned=2)
    SeatingJob.objects.create(tournament=tournament, created_by=organiser)

    with pytest.raises(ValidationError) as error:
        start_seating_job(tournament=tournament, actor=organiser)

    assert error.value.code == "job_running"
    assert "being generated already" in error.value.messages[0]
    assert SeatingJob.objects.count() == 1
    assert not Seat.objects.exists()


def test_a_run_older_than_ten_minutes_is_dead(tournament, organiser, field, now):
    plan(tournament, organiser, planned=2)
    dead = SeatingJob.objects.create(
        tournament=tournament,
        created_by=organiser,
        created=now - timedelta(minutes=11),
    )

    job = start_seating_job(tournament=tournament, actor=organiser, seed=1)

    assert job.status == "done"
    dead.refresh_from_db()
    assert dead.status == "failed"
    assert dead.message.startswith("This run stopped without finishing")


def test_a_long_run_with_a_recent_heartbeat_is_alive(tournament, organiser, field, now):
    plan(tournament, organiser, planned=2)
    alive = SeatingJob.objects.create(
        tournament=tournament,
        created_by=organiser,
        created=now - timedelta(minutes=30),
        heartbeat=now - timedelta(seconds=10),
    )

    assert not is_stale(alive)
    with pytest.raises(ValidationError) as error:
        start_seating_job(tournament=tournament, actor=organiser)
    assert error.value.code == "job_running"


def test_a_run_without_a_heartbeat_for_a_minute_has_died(tournament, organiser, field, now):
    """Its process stopped (a restart): any process, on any machine, sees it."""
    plan(tournament, organiser, planned=2)
    dead = SeatingJob.objects.create(
        tournament=tournament,
        created_by=organiser,
        created=now - timedelta(minutes=3),
        heartbeat=now - timedelta(seconds=61),
    )

    assert is_stale(dead)
    assert start_seating_job(tournament=tournament, actor=organiser, seed=1).status == "done"
    dead.refresh_from_db()
    assert dead.status == "failed"


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_is_written_while_the_job_runs(tournament, organiser, monkeypatch):
    monkeypatch.setattr(jobs, "HEARTBEAT_INTERVAL", 0.05)
    job = SeatingJob.objects.create(tournament=tournament, created_by=organiser)

    with jobs.Heartbeat(job.pk) as heartbeat:
        job.refresh_from_db()
        first = job.heartbeat
        assert first is not None
        deadline = time.monotonic() + 10
        while job.heartbeat == first and time.monotonic() < deadline:
            time.sleep(0.05)
            job.refresh_from_db()
        assert job.heartbeat > first
    assert not heartbeat.thread.is_alive()

    SeatingJob.objects.filter(pk=job.pk).update(status="done")
    with jobs.Heartbeat(job.pk):  # a finished job is left alone
        pass
    job.refresh_from_db()
    assert job.status == "done"


def test_progress_is_written_at_most_four_times_a_second(tournament, organiser):
    job = SeatingJob.objects.create(tournament=tournament, created_by=organiser)
    write = ProgressWriter(job.pk)
    segment = Segment(rounds=(2, 3, 4), field=(), by_standing=())

    write(segment, engine.Progress("search", 10, 100, 48))
    write(segment, engine.Progress("search", 20, 100, 24))  # too soon: not written

    job.refresh_from_db()
    assert (job.stage, job.done, job.total, job.figures) == (
        "rounds 2–4: search",
        10,
        100,
        {"cost": 48},
    )
    write.last_write -= 1
    write(segment, engine.Progress("search", 30, 100, 12))
    job.refresh_from_db()
    assert (job.done, job.figures) == (30, {"cost": 12})


def test_progress_stops_a_run_that_was_declared_dead(tournament, organiser):
    job = SeatingJob.objects.create(tournament=tournament, created_by=organiser, status="failed")
    with pytest.raises(Abandoned):
        ProgressWriter(job.pk)(Segment((1,), (), ()), engine.Progress("search", 1, 2, 3))


@pytest.mark.django_db(transaction=True)
def test_a_run_in_a_background_thread(settings, tournament, organiser, field):
    settings.SEATING_JOBS_INLINE = False
    plan(tournament, organiser, planned=3)

    job = start_seating_job(tournament=tournament, actor=organiser, seed=9)
    assert job.status == "running"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status != "running":
            break
        time.sleep(0.1)
    while any(t.name == f"seating-job-{job.pk}" for t in threading.enumerate()):
        time.sleep(0.05)

    assert job.status == "done", job.message
    assert job.finished is not None
    assert sorted(seating(tournament)) == [1, 2, 3]
    assert job.figures["repeats"] == count_from_seats(tournament)["repeats"] == 0


def test_enqueue_runs_the_job_at_once_when_inline():
    ran = []

    assert enqueue(ran.append, 7, name="seating-job-test") is True
    assert ran == [7]


def test_enqueue_starts_the_job_once_the_transaction_commits(
    settings, django_capture_on_commit_callbacks
):
    settings.SEATING_JOBS_INLINE = False
    ran = threading.Event()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert enqueue(ran.set, name="seating-job-test") is False
        assert not ran.is_set()
    assert len(callbacks) == 1
    assert ran.wait(10)


# --- Late changes --------------------------------------------------------------------------


def test_a_withdrawal_and_a_substitute_reseat_only_the_draft_rounds(tournament, organiser, field):
    round_1 = seat_by_hand(tournament, organiser, field, BY_HAND)
    plan(tournament, organiser, planned=4)
    start_seating_job(tournament=tournament, actor=organiser, seed=1)
    set_round_status(round=tournament.rounds.get(number=2), status="seated", actor=organiser)
    published = {1: seat_ids(round_1), 2: seat_ids(tournament.rounds.get(number=2))}
    update_player(player=field[5], withdrawn_from_round=3)
    add_player(tournament=tournament, key="S1", name="Sub", substitute=True)

    job = start_seating_job(tournament=tournament, actor=organiser, seed=2)

    assert job.status == "done", job.message
    assert job.message == "Seated rounds 3–4."
    assert seat_ids(round_1) == published[1]
    assert seat_ids(tournament.rounds.get(number=2)) == published[2]
    stored = seating(tournament)
    for number in (3, 4):
        keys = {key for table in stored[number].values() for key in table}
        assert "5" not in keys and "S1" in keys and len(keys) == 16


def test_a_withdrawal_from_a_later_draft_round_splits_the_run(tournament, organiser, field):
    seat_by_hand(tournament, organiser, field, BY_HAND)
    plan(tournament, organiser, planned=5)
    update_player(player=field[5], withdrawn_from_round=4)
    add_player(tournament=tournament, key="S1", name="Sub", substitute=True)

    segments = build_plan(tournament).segments
    assert [segment.rounds for segment in segments] == [(2, 3), (4, 5)]
    job = start_seating_job(tournament=tournament, actor=organiser, seed=2)

    assert job.status == "done", job.message
    stored = seating(tournament)
    for number, present, absent in ((2, "5", "S1"), (3, "5", "S1"), (4, "S1", "5"), (5, "S1", "5")):
        keys = {key for table in stored[number].values() for key in table}
        assert present in keys and absent not in keys and len(keys) == 16, number
    assert job.figures["repeats"] == count_from_seats(tournament)["repeats"]


# --- Figures -------------------------------------------------------------------------------


def test_figures_of_a_seating_made_by_hand(tournament, organiser, field):
    update_player(player=field[2], country="Wales")
    update_player(player=field[6], country="wales")
    seat_by_hand(tournament, organiser, field, BY_HAND)
    seat_by_hand(
        tournament,
        organiser,
        field,
        [[1, 2, 5, 6], [3, 4, 7, 8], [9, 13, 10, 14], [11, 15, 12, 16]],
        status="draft",
    )

    figures = seating_figures(tournament)

    # Round 2 repeats 1-2, 5-6, 3-4, 7-8, 9-10, 13-14, 11-12 and 15-16.
    assert figures.totals.repeats == 8
    assert [(r.number, r.repeats) for r in figures.rounds] == [(1, 0), (2, 8)]
    assert figures.repeat_tables == {(2, 1): 2, (2, 2): 2, (2, 3): 2, (2, 4): 2}
    # Clubs are i % 4: no table of round 1 shares one; in round 2, 1-5, 2-6, 3-7, 4-8, 9-13,
    # 10-14, 11-15 and 12-16 do.
    assert [r.club_conflicts for r in figures.rounds] == [0, 8]
    # Players 2 and 6 are both from Wales, however spelled; they meet in round 2 at table 1.
    assert [r.country_conflicts for r in figures.rounds] == [0, 1]
    assert figures.conflict_tables[2, 1] == ("club", "country")
    assert figures.conflict_tables[2, 4] == ("club",)
    # Player 1 started East in both rounds; player 5 East, then West.
    assert figures.winds["1"] == {"E": 2, "S": 0, "W": 0, "N": 0}
    assert figures.winds["5"] == {"E": 1, "S": 0, "W": 1, "N": 0}
    assert figures.worst_wind_spread == 2
    assert figures.totals.wind_imbalance == count_from_seats(tournament)["wind_imbalance"]


# --- Settings and publishing ---------------------------------------------------------------


def test_settings_are_saved(tournament, organiser):
    plan(tournament, organiser, planned=6, clubs="hard", countries="off", teams="soft")
    tournament.refresh_from_db()
    assert (
        tournament.planned_rounds,
        tournament.separate_clubs,
        tournament.separate_countries,
        tournament.separate_teams,
    ) == (6, "hard", "off", "soft")
    assert not tournament.rounds.exists()


def test_a_round_to_come_by_standing_is_created_as_a_draft(tournament, organiser):
    plan(tournament, organiser, planned=5, by_standing=[4])
    assert list(tournament.rounds.values_list("number", "status", "seat_by_standing")) == [
        (1, "draft", False),
        (2, "draft", False),
        (3, "draft", False),
        (4, "draft", True),
    ]
    plan(tournament, organiser, planned=5, by_standing=[3])
    assert list(
        tournament.rounds.filter(seat_by_standing=True).values_list("number", flat=True)
    ) == [3]


def test_fewer_planned_rounds_than_exist_are_refused(tournament, organiser, field):
    seat_by_hand(tournament, organiser, field, BY_HAND)
    create_round(tournament=tournament, actor=organiser)
    with pytest.raises(ValidationError) as error:
        plan(tournament, organiser, planned=1)
    assert error.value.message_dict == {
        "planned_rounds": [
            "Rounds 1 to 2 exist already; remove the last draft rounds to plan fewer."
        ]
    }


def test_a_published_round_cannot_be_seated_by_standing(tournament, organiser, field):
    seat_by_hand(tournament, organiser, field, BY_HAND)
    with pytest.raises(ValidationError) as error:
        plan(tournament, organiser, planned=3, by_standing=[1])
    assert error.value.message_dict == {
        "by_standing": [
            "Only draft rounds and rounds still to come can be seated by standing, not round 1."
        ]
    }


def test_publish_chosen_rounds(tournament, organiser, field):
    plan(tournament, organiser, planned=3)
    start_seating_job(tournament=tournament, actor=organiser, seed=1)

    publish_rounds(tournament=tournament, numbers=[1, 2], actor=organiser)

    assert list(tournament.rounds.values_list("status", flat=True)) == [
        "seated",
        "seated",
        "draft",
    ]


def test_publishing_is_all_or_nothing(tournament, organiser, field):
    plan(tournament, organiser, planned=2)
    start_seating_job(tournament=tournament, actor=organiser, seed=1)
    create_round(tournament=tournament, actor=organiser)  # round 3, not seated

    with pytest.raises(ValidationError) as error:
        publish_rounds(tournament=tournament, numbers=[1, 2, 3], actor=organiser)

    assert error.value.messages == ["Seat round 3 before publishing it."]
    assert set(tournament.rounds.values_list("status", flat=True)) == {"draft"}


def test_publishing_a_published_round_is_refused(tournament, organiser, field):
    seat_by_hand(tournament, organiser, field, BY_HAND, status="seated")
    with pytest.raises(ValidationError) as error:
        publish_rounds(tournament=tournament, numbers=[1], actor=organiser)
    assert error.value.messages == ["Round 1 is published already."]
