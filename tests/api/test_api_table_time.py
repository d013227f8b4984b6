"""A table's own time through the API: `extra_minutes` and `remaining_seconds` on every table,
and POST .../tables/N/time for organisers (fixtures in conftest.py: round 1 in play, bob at
table 1, carol at table 2). Every answer is also checked against the OpenAPI document."""

from __future__ import annotations

from datetime import timedelta

import pytest
from preset_world import PRESETS, build

from tournament.models import AuditEntry, Round, Table, Tournament
from tournament.services import DealInput, end_game, give_table_time, record_deal

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"
R = f"{T}/rounds/1"
TIME = f"{R}/tables/1/time"


def run_clock(round: Round, now, minutes_ago: int = 30) -> None:
    Round.objects.filter(pk=round.pk).update(
        clock_minutes=120, clock_started_at=now - timedelta(minutes=minutes_ago)
    )


def test_an_organiser_gives_a_table_time(as_organiser, table, round, organiser, now):
    run_clock(round, now)

    response = as_organiser.post(TIME, {"minutes": 10, "reason": "Late start"})

    assert response.status_code == 200
    body = response.json()["table"]
    assert (body["extra_minutes"], body["remaining_seconds"]) == (10, 100 * 60)
    entry = AuditEntry.objects.get(action="table_time")
    assert (entry.table_id, entry.actor, entry.after["reason"]) == (
        table.pk,
        organiser,
        "Late start",
    )


def test_every_table_shows_its_own_time(as_organiser, anonymous, table, table2, round, now):
    run_clock(round, now)
    as_organiser.post(TIME, {"minutes": -10})

    tables = anonymous.get(R).json()["tables"]
    board = anonymous.get(f"{R}/board").json()["tables"]
    single = anonymous.get(f"{R}/tables/1").json()

    assert [(t["extra_minutes"], t["remaining_seconds"]) for t in tables] == [
        (-10, 80 * 60),
        (0, 90 * 60),
    ]
    assert [t["remaining_seconds"] for t in board] == [80 * 60, 90 * 60]
    assert (single["extra_minutes"], single["remaining_seconds"]) == (-10, 80 * 60)


def test_the_board_judges_behind_against_each_tables_own_time(
    as_organiser, anonymous, table, table2, round, now
):
    run_clock(round, now, minutes_ago=90)  # 12 of 16 hands expected
    as_organiser.post(TIME, {"minutes": 120})  # table 1: 90 of 240 minutes, 6 expected

    board = anonymous.get(f"{R}/board").json()

    assert [t["behind"] for t in board["tables"]] == [True, True]
    record_deal(
        table=table, number=1, deal=DealInput(result="draw"), entered_by=table.referees.get()
    )
    for number in range(2, 5):
        record_deal(
            table=table,
            number=number,
            deal=DealInput(result="draw"),
            entered_by=table.referees.get(),
        )
    board = anonymous.get(f"{R}/board").json()
    assert [t["behind"] for t in board["tables"]] == [False, True]
    assert board["behind"] == 1


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"minutes": 0}, "bad_table_time"),
        ({"minutes": 121}, "bad_table_time"),
        ({"minutes": -61}, "bad_table_time"),
        ({"minutes": 999}, "invalid"),
        ({"minutes": "ten"}, "invalid"),
        ({}, "invalid"),
        ({"minutes": 5, "reason": "x" * 201}, "invalid"),
        ({"minutes": 5, "colour": "red"}, "invalid"),
    ],
)
def test_refusals_are_400_with_a_code_and_change_nothing(as_organiser, table, body, code):
    response = as_organiser.post(TIME, body)

    assert response.status_code == 400
    assert response.json()["error"] == code
    assert Table.objects.get(pk=table.pk).extra_minutes == 0


def test_a_finished_round_or_an_ended_game_is_refused(as_organiser, table, bob, round):
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=bob)
    end_game(table=table, ended_by_time=True, entered_by=bob)

    ended = as_organiser.post(TIME, {"minutes": 5})
    Round.objects.filter(pk=round.pk).update(status=Round.Status.FINISHED)
    finished = as_organiser.post(TIME, {"minutes": 5})

    assert (ended.status_code, ended.json()["error"]) == (400, "game_ended")
    assert (finished.status_code, finished.json()["error"]) == (400, "round_not_open")


def test_a_table_that_does_not_exist_is_404(as_organiser, table):
    assert as_organiser.post(f"{R}/tables/9/time", {"minutes": 5}).status_code == 404


@pytest.mark.parametrize(
    ("role", "private", "status"),
    [
        ("anonymous", False, 401),
        ("table_referee", False, 403),
        ("other_referee", False, 403),
        ("no_role", False, 403),
        ("no_role", True, 404),
    ],
)
def test_only_organisers_give_time(
    api_as, bob, carol, make_user, tournament, table, table2, role, private, status
):
    if private:
        Tournament.objects.filter(pk=tournament.pk).update(public=False)
    user = {"anonymous": None, "table_referee": bob, "other_referee": carol}.get(
        role, make_user("nora") if role == "no_role" else None
    )

    response = api_as(user).post(TIME, {"minutes": 5})

    assert response.status_code == status
    assert Table.objects.get(pk=table.pk).extra_minutes == 0


def test_the_openapi_document_describes_the_endpoint(openapi):
    operation = openapi["paths"]["/api/tournaments/{slug}/rounds/{number}/tables/{table}/time"][
        "post"
    ]

    assert {"200", "400", "401", "403", "404"} <= set(operation["responses"])
    table = openapi["components"]["schemas"]["TableSummary"]["properties"]
    assert {"extra_minutes", "remaining_seconds"} <= set(table)


@pytest.mark.parametrize("key", PRESETS)
def test_every_preset_shows_the_tables_own_time(api_as, key, now):
    world = build(key)
    playing = world.playing
    run_clock(playing.round, now)
    give_table_time(table=playing, minutes=10, actor=world.organiser)
    url = f"/api/tournaments/{world.tournament.slug}/rounds/{playing.round.number}"

    table = api_as(None).get(f"{url}/tables/{playing.number}").json()
    sent = api_as(world.organiser).post(f"{url}/tables/{playing.number}/time", {"minutes": 5})

    assert (table["extra_minutes"], table["remaining_seconds"]) == (10, 100 * 60)
    assert sent.json()["table"]["extra_minutes"] == 15
