"""Game sheets, the round clock, the live board, provisional standings and idempotency keys
through the API (fixtures in conftest.py: round 1 in play, bob at table 1, carol at table 2).

Every answer is also checked against the OpenAPI document by the test client.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission

from tournament.models import Deal, Penalty, Round, Tournament
from tournament.services import DealInput, confirm_game, end_game, record_deal

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"
R = f"{T}/rounds/1"
TABLE = f"{R}/tables/1"


def submitted(table, user, tournament, confirmation="organiser"):
    """Hand 1 drawn and the game ended by time: its sheet submitted by `user`."""
    Tournament.objects.filter(pk=tournament.pk).update(confirmation=confirmation)
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=user)
    return end_game(table=table, ended_by_time=True, entered_by=user)


# --- The role matrix ------------------------------------------------------------------------

ROLES = ("anonymous", "bad_token", "no_role", "other_referee", "table_referee", "organiser")
OUTSIDERS = {"anonymous", "no_role"}


@pytest.fixture
def clients(api_as, organiser, bob, carol, make_user, table, table2):
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    bad = api_as(None)
    bad.headers = {"Authorization": "Bearer mcr_not-a-real-token"}
    return {
        "anonymous": api_as(None),
        "bad_token": bad,
        "no_role": api_as(make_user("nora")),
        "other_referee": api_as(carol),
        "table_referee": api_as(bob),
        "organiser": api_as(organiser),
    }


def expected(role: str, private: bool, allowed: set[str], success: int, write: bool) -> int:
    if role == "bad_token":
        return 401
    if write and role == "anonymous":
        return 401
    if private and role in OUTSIDERS:
        return 404
    return success if role in allowed else 403


READS = [f"{R}/clock", f"{R}/board", f"{T}/standings?provisional=1", TABLE]


@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("url", READS)
def test_reads(clients, tournament, private, role, url):
    if private:
        Tournament.objects.filter(pk=tournament.pk).update(public=False)

    response = clients[role].get(url)

    assert response.status_code == expected(role, private, set(ROLES), 200, write=False)


@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
@pytest.mark.parametrize("role", ROLES)
def test_only_organisers_work_the_clock(clients, tournament, private, role):
    if private:
        Tournament.objects.filter(pk=tournament.pk).update(public=False)

    response = clients[role].post(f"{R}/clock", {"action": "start"})

    assert response.status_code == expected(role, private, {"organiser"}, 200, write=True)
    if response.status_code == 403:
        assert response.json()["error"] == "forbidden"


@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("confirmation", "allowed", "refusal"),
    [
        ("organiser", {"organiser"}, "not_allowed_to_confirm"),
        ("referee", {"organiser", "other_referee"}, "confirm_own_sheet"),
    ],
)
def test_who_confirms_a_sheet(
    clients, tournament, table, bob, private, role, confirmation, allowed, refusal
):
    submitted(table, bob, tournament, confirmation)
    if private:
        Tournament.objects.filter(pk=tournament.pk).update(public=False)

    response = clients[role].post(f"{TABLE}/confirm")

    assert response.status_code == expected(role, private, allowed, 200, write=True)
    table.refresh_from_db()
    assert (table.confirmed_at is not None) == (response.status_code == 200)
    if response.status_code == 403:
        code = response.json()["error"]
        if role == "no_role":
            assert code == "forbidden"
        elif role == "table_referee":  # bob submitted the sheet
            assert code == refusal
        else:
            assert code == "not_allowed_to_confirm"


@pytest.mark.parametrize(
    "url",
    [f"{R}/clock", f"{R}/board", f"{TABLE}/confirm"],
)
def test_other_methods_are_refused_with_405(clients, url):
    allowed = {
        f"{R}/clock": {"GET", "POST"},
        f"{R}/board": {"GET"},
        f"{TABLE}/confirm": {"POST"},
    }[url]
    for method in {"GET", "POST", "PUT", "PATCH", "DELETE"} - allowed:
        response = clients["organiser"].call(method, url, {})

        assert response.status_code == 405, method
        assert set(response["Allow"].split(", ")) == allowed | (
            {"HEAD"} if "GET" in allowed else set()
        )


# --- Confirming ---------------------------------------------------------------------------


def test_confirming_shows_on_the_table_and_counts_in_the_standings(
    as_organiser, anonymous, as_bob, table, bob, tournament, organiser
):
    submitted(table, bob, tournament)
    before = anonymous.get(TABLE).json()
    assert (before["sheet"], before["game_sheet"]["status"]) == ("submitted", "submitted")
    assert "submitted_by" not in before["game_sheet"]  # usernames are for insiders
    assert as_bob.get(TABLE).json()["game_sheet"]["submitted_by"] == "bob"

    table_body = as_organiser.post(f"{TABLE}/confirm", {}).json()["table"]

    sheet = table_body["game_sheet"]
    assert (table_body["sheet"], sheet["status"]) == ("confirmed", "confirmed")
    assert (sheet["submitted_by"], sheet["confirmed_by"]) == ("bob", "alice")
    assert sheet["confirmed_at"] is not None
    assert anonymous.get(R).json()["tables"][0]["sheet"] == "confirmed"


@pytest.mark.parametrize(
    ("prepare", "code"),
    [("nothing", "not_submitted"), ("confirm", "already_confirmed")],
)
def test_confirming_too_early_or_twice_is_refused(
    as_organiser, table, bob, tournament, organiser, prepare, code
):
    if prepare == "confirm":
        submitted(table, bob, tournament)
        assert as_organiser.post(f"{TABLE}/confirm").status_code == 200

    response = as_organiser.post(f"{TABLE}/confirm")

    assert (response.status_code, response.json()["error"]) == (400, code)


def test_a_confirmed_sheet_is_closed_to_the_referee(as_bob, table, bob, tournament, organiser):
    submitted(table, bob, tournament)
    confirm_game(table=table, confirmed_by=organiser)

    response = as_bob.post(f"{TABLE}/penalties", {"player": "1", "points": 5, "reason": "Late"})

    assert (response.status_code, response.json()["error"]) == (400, "sheet_confirmed")


def test_confirm_refuses_a_body_with_fields(as_organiser, table, bob, tournament):
    submitted(table, bob, tournament)

    response = as_organiser.post(f"{TABLE}/confirm", {"table": 1})

    assert response.status_code == 400
    assert response.json()["fields"] == {"table": "Unknown field."}


def test_finishing_a_round_waits_for_every_sheet(
    as_organiser, table, table2, bob, carol, tournament
):
    submitted(table, bob, tournament)
    record_deal(table=table2, number=1, deal=DealInput(result="draw"), entered_by=carol)
    end_game(table=table2, ended_by_time=True, entered_by=carol)
    as_organiser.post(f"{TABLE}/confirm")

    response = as_organiser.post(f"{R}/status", {"status": "finished"})

    assert (response.status_code, response.json()["error"]) == (400, "sheets_unconfirmed")
    as_organiser.post(f"{R}/tables/2/confirm")
    assert as_organiser.post(f"{R}/status", {"status": "finished"}).json()["status"] == "finished"


# --- Standings ----------------------------------------------------------------------------


def test_provisional_standings_count_the_submitted_sheet(anonymous, table, bob, players):
    record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=players[0], fan=8),
        entered_by=bob,
    )
    end_game(table=table, ended_by_time=True, entered_by=bob)

    confirmed = anonymous.get(f"{T}/standings").json()
    provisional = anonymous.get(f"{T}/standings?provisional=1").json()

    assert confirmed["provisional"] is False
    assert {row["score"] for row in confirmed["standings"]} == {0}
    assert provisional["provisional"] is True
    first = provisional["standings"][0]
    assert (first["player"], first["score"], first["provisional_games"]) == ("1", 48, 1)
    assert anonymous.get(f"{T}/standings?provisional=0").json()["provisional"] is False


@pytest.mark.parametrize(
    "value", ["maybe", "", "²", "%C2%B2", "-1", "2", "TRUE", "%201", "1%20", "x" * 500]
)
def test_a_provisional_value_not_listed_is_refused(anonymous, table, value):
    response = anonymous.get(f"{T}/standings?provisional={value}")

    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert response.json()["fields"]["provisional"].startswith(
        "Give provisional=1 (count unconfirmed sheets too) or provisional=0, not '"
    )


@pytest.mark.parametrize(
    ("query", "counted"),
    [("", False), ("?provisional=0", False), ("?provisional=no", False),
     ("?provisional=1", True), ("?provisional=true", True), ("?provisional=yes", True)],
)  # fmt: skip
def test_each_listed_provisional_value_is_taken(anonymous, table, query, counted):
    response = anonymous.get(f"{T}/standings{query}")

    assert response.status_code == 200
    assert response.json()["provisional"] is counted


def test_the_listed_provisional_values_are_those_of_the_openapi_document(client):
    document = client.get("/api/openapi.json").json()
    operation = document["paths"]["/api/tournaments/{slug}/standings"]["get"]
    (parameter,) = [p for p in operation["parameters"] if p["name"] == "provisional"]

    assert sorted(parameter["schema"]["enum"]) == ["0", "1", "false", "no", "true", "yes"]
    assert parameter["required"] is False


# --- The clock ------------------------------------------------------------------------------


def test_the_clock_starts_pauses_resumes_and_extends(as_organiser, anonymous, table, round, now):
    assert anonymous.get(f"{R}/clock").json()["state"] == "not_started"

    started = as_organiser.post(f"{R}/clock", {"action": "start", "minutes": 90}).json()
    assert (started["state"], started["minutes"], started["total_seconds"]) == (
        "running",
        90,
        5400,
    )
    assert as_organiser.post(f"{R}/clock", {"action": "pause"}).json()["state"] == "paused"
    assert as_organiser.post(f"{R}/clock", {"action": "resume"}).json()["state"] == "running"
    extended = as_organiser.post(f"{R}/clock", {"action": "extend", "minutes": 15}).json()
    assert (extended["extra_minutes"], extended["total_seconds"]) == (15, 6300)
    shown = anonymous.get(f"{R}/clock").json()
    assert shown["state"] == "running"
    assert shown["remaining_seconds"] == 6300  # paused and resumed at the same instant
    assert shown["display"] == "1:45:00"


def test_the_clock_runs_down(anonymous, as_organiser, table, round, now):
    as_organiser.post(f"{R}/clock", {"action": "start", "minutes": 60})
    Round.objects.filter(pk=round.pk).update(clock_started_at=now - timedelta(minutes=45))

    clock = anonymous.get(f"{R}/clock").json()

    assert clock["remaining_seconds"] == 15 * 60
    assert clock["expected_hands"] == 12


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"action": "pause"}, 400, "clock_not_started"),
        ({"action": "resume"}, 400, "clock_not_started"),
        ({"action": "extend", "minutes": 5}, 400, "clock_not_started"),
        ({"action": "start", "minutes": 5}, 400, "bad_minutes"),
        ({"action": "extend"}, 400, "invalid"),
        ({"action": "pause", "minutes": 5}, 400, "invalid"),
        ({"action": "stop"}, 400, "invalid"),
        ({}, 400, "invalid"),
    ],
)
def test_clock_refusals(as_organiser, table, body, status, code):
    response = as_organiser.post(f"{R}/clock", body)

    assert (response.status_code, response.json()["error"]) == (status, code)


def test_the_clock_refuses_a_second_start_and_a_zero_extension(as_organiser, table):
    as_organiser.post(f"{R}/clock", {"action": "start"})

    again = as_organiser.post(f"{R}/clock", {"action": "start"})
    zero = as_organiser.post(f"{R}/clock", {"action": "extend", "minutes": 0})
    resume = as_organiser.post(f"{R}/clock", {"action": "resume"})

    assert again.json()["error"] == "clock_started"
    assert zero.json()["error"] == "bad_extension"
    assert resume.json()["error"] == "clock_running"


def test_the_clock_of_a_seated_round_does_not_start(as_organiser, round, table):
    Round.objects.filter(pk=round.pk).update(status=Round.Status.SEATED)

    response = as_organiser.post(f"{R}/clock", {"action": "start"})

    assert response.json()["error"] == "round_not_playing"


# --- The board ------------------------------------------------------------------------------


def test_the_board_shows_sheets_scores_and_tables_behind(
    anonymous, as_organiser, table, table2, round, bob, tournament, players, now
):
    submitted(table, bob, tournament)
    as_organiser.post(f"{R}/clock", {"action": "start", "minutes": 120})
    Round.objects.filter(pk=round.pk).update(clock_started_at=now - timedelta(minutes=60))

    board = anonymous.get(f"{R}/board").json()

    assert board["clock"]["expected_hands"] == 8
    assert board["sheets"] == {"open": 1, "submitted": 1, "confirmed": 0}
    one, two = board["tables"]
    assert (one["sheet"], one["hands"], one["behind"]) == ("submitted", 1, False)
    assert (two["sheet"], two["hands"], two["behind"]) == ("open", 0, True)
    assert board["behind"] == 1
    assert "referees" not in one
    assert as_organiser.get(f"{R}/board").json()["tables"][0]["referees"] == ["bob"]


def test_the_board_of_a_draft_round_is_for_organisers(anonymous, as_organiser, tournament):
    Round.objects.create(tournament=tournament, number=1)

    assert anonymous.get(f"{R}/board").status_code == 404
    assert as_organiser.get(f"{R}/board").status_code == 200


# --- Idempotency keys -----------------------------------------------------------------------

SUBMISSIONS = [
    ("hands", {"number": 1, "result": "win", "winner": "1", "discarder": "2", "fan": 8}, Deal),
    ("false-wins", {"number": 1, "player": "3"}, Penalty),
    ("penalties", {"player": "4", "points": 5, "reason": "Late"}, Penalty),
]


def send(client, path, body, key, table=TABLE):
    headers = dict(client.headers)
    client.headers = {**headers, "Idempotency-Key": key}
    try:
        return client.post(f"{table}/{path}", body)
    finally:
        client.headers = headers


@pytest.mark.parametrize(("path", "body", "model"), SUBMISSIONS)
def test_a_resubmission_is_answered_with_the_first_record(as_bob, table, path, body, model):
    key = str(uuid.uuid4())

    first = send(as_bob, path, body, key)
    again = send(as_bob, path, body, key)

    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first
    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert model.objects.filter(table=table).count() == 1


@pytest.mark.parametrize(("path", "body", "model"), SUBMISSIONS)
def test_new_keys_record_new_submissions(as_bob, table, path, body, model):
    if path == "hands":
        second = {**body, "number": 2}
    else:
        second = body
    assert send(as_bob, path, body, str(uuid.uuid4())).status_code == 201
    assert send(as_bob, path, second, str(uuid.uuid4())).status_code == 201

    assert model.objects.filter(table=table).count() == 2


@pytest.mark.parametrize(("path", "body", "model"), SUBMISSIONS)
def test_a_key_that_is_not_a_uuid_is_refused(as_bob, table, path, body, model):
    response = send(as_bob, path, body, "hand-1-please")

    assert (response.status_code, response.json()["error"]) == (400, "bad_submission_key")
    assert not model.objects.exists()


def test_a_key_sent_to_another_table_is_another_key(as_organiser, table, table2):
    key = str(uuid.uuid4())
    send(as_organiser, "hands", {"number": 1, "result": "draw"}, key)

    response = send(as_organiser, "hands", {"number": 1, "result": "draw"}, key, f"{R}/tables/2")

    assert response.status_code == 201
    assert Deal.objects.filter(table=table2).count() == 1


# The same endpoint, the same key, another body: what each changes.
OTHER_BODIES = [
    ("hands", {"number": 1, "result": "win", "winner": "1", "discarder": "2", "fan": 9}, Deal),
    ("false-wins", {"number": 1, "player": "2"}, Penalty),
    ("penalties", {"player": "4", "points": 6, "reason": "Late"}, Penalty),
]


@pytest.mark.parametrize(
    ("path", "body", "other", "model"),
    [
        (path, body, other, model)
        for (path, body, model), (_, other, _) in zip(SUBMISSIONS, OTHER_BODIES, strict=True)
    ],
)
def test_a_key_sent_again_with_another_body_is_refused(as_bob, table, path, body, other, model):
    key = str(uuid.uuid4())
    first = send(as_bob, path, body, key)

    response = send(as_bob, path, other, key)

    assert first.status_code == 201
    assert (response.status_code, response.json()["error"]) == (422, "submission_key_reused")
    assert "nothing was recorded" in response.json()["message"]
    assert model.objects.filter(table=table).count() == 1


@pytest.mark.parametrize(("path", "body", "model"), SUBMISSIONS)
def test_another_callers_key_is_never_answered_with_the_first_record(
    api_as, as_bob, organiser, table, path, body, model
):
    key = str(uuid.uuid4())
    first = send(as_bob, path, body, key)
    again = {**body, "number": 2} if path == "hands" else body

    response = send(api_as(organiser), path, again, key)

    assert response.status_code == 201
    assert "Idempotent-Replayed" not in response
    assert response.json() != first.json()
    assert model.objects.filter(table=table).count() == 2


def test_a_hand_key_reused_for_a_penalty_is_refused(as_bob, table):
    key = str(uuid.uuid4())
    send(as_bob, "hands", {"number": 1, "result": "draw"}, key)

    response = send(as_bob, "penalties", {"player": "4", "points": 5, "reason": "Late"}, key)

    assert (response.status_code, response.json()["error"]) == (422, "submission_key_reused")
    assert not Penalty.objects.exists()


def test_a_replay_after_the_game_ended_still_answers_the_hand(as_bob, table, bob):
    key = str(uuid.uuid4())
    first = send(as_bob, "hands", {"number": 1, "result": "draw"}, key)
    end_game(table=table, ended_by_time=True, entered_by=bob)

    again = send(as_bob, "hands", {"number": 1, "result": "draw"}, key)

    assert again.status_code == 200
    assert again.json()["hand"] == first.json()["hand"]
