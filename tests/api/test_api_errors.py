"""Bad requests get a clear 400 naming what is wrong, never a 500, and nothing is saved."""

from __future__ import annotations

import json

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament.models import AuditEntry, Deal, Penalty, Player, Seat
from tournament.services import DealInput, record_deal

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"
TABLE = f"{T}/rounds/1/tables/1"


@pytest.mark.parametrize(
    "raw",
    ["{not json", b"\xff\xfe{}", "", "[" * 100_000 + "]" * 100_000],
    ids=["broken", "not-utf8", "empty", "too-deep"],
)
def test_a_body_that_is_not_json_is_refused(as_bob, table, raw):
    response = as_bob.post(f"{TABLE}/hands", raw=raw)

    assert response.status_code == 400
    assert response.json() == {
        "error": "bad_request",
        "message": "The request body is not valid JSON (UTF-8 text).",
    }


@pytest.mark.parametrize("body", [[1, 2], "hand", 3, None])
def test_a_body_must_be_an_object(as_bob, table, body):
    response = as_bob.post(f"{TABLE}/hands", raw=json.dumps(body))

    assert response.status_code == 400
    assert response.json()["message"] == "The request body must be a JSON object."


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("number", True, "Give a whole number, not true."),
        ("number", 0, "Give a number of at least 1."),
        ("result", "won", "Choose one of: win, draw, faulty_out."),
        ("fan", "eight", 'Give a whole number, not "eight".'),
        ("fan", 8.0, "Give a whole number, not 8.0."),
        ("fan", 100_000, "Give a number of at most 1000."),
        ("flowers", 9, "Give a number of at most 8."),
        ("winner", 1, "Give text, not 1."),
        ("tiles", "123m", "Give a JSON object."),
        ("self_drawn", True, "Unknown field."),
    ],
)
def test_wrong_field_types_are_named(as_bob, table, field, value, message):
    body = {"number": 1, "result": "win", "winner": "1", "discarder": "2", "fan": 8, field: value}

    response = as_bob.post(f"{TABLE}/hands", body)

    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert response.json()["fields"] == {field: message}
    assert not Deal.objects.exists()


def test_missing_fields_are_named(as_bob, table):
    response = as_bob.post(f"{TABLE}/hands", {})

    assert response.json()["fields"] == {
        "number": "This field is required.",
        "result": "This field is required.",
    }


def test_tiles_and_compact_together_are_refused(as_bob, table):
    body = {"number": 1, "result": "win", "winner": "1", "compact": "x", "tiles": {}}

    response = as_bob.post(f"{TABLE}/hands", body)

    assert response.json()["fields"] == {
        "compact": "Send the tiles either as tiles or as compact, not both."
    }


def test_too_long_reason_is_refused_and_nothing_saved(as_bob, table):
    body = {"player": "1", "points": 10, "reason": "x" * 301}

    response = as_bob.post(f"{TABLE}/penalties", body)

    assert response.json()["fields"] == {"reason": "Give at most 300 characters."}
    assert not Penalty.objects.exists()
    assert not AuditEntry.objects.filter(action="penalty_recorded").exists()


def test_text_with_nul_is_refused(as_organiser, tournament):
    response = as_organiser.post(f"{T}/players", {"key": "1", "name": "A\x00B"})

    assert response.json()["fields"] == {"name": "Text cannot contain NUL characters."}
    assert not Player.objects.exists()


def test_blank_reason_is_the_services_rule(as_bob, table):
    response = as_bob.post(f"{TABLE}/penalties", {"player": "1", "points": 10, "reason": "  "})

    assert response.status_code == 400
    assert response.json()["error"] == "reason_required"


def test_bad_date_is_named(as_organiser, tournament):
    response = as_organiser.patch(T, {"start_date": "next spring"})

    assert response.json()["fields"] == {
        "start_date": 'Give a date as YYYY-MM-DD, not "next spring".'
    }


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
_keys = st.sampled_from(["1", "2", "3", "4", "5", "99", "", None, 1, True])
_hand = st.fixed_dictionaries(
    {},
    optional={
        "number": st.integers(-2, 20) | _json,
        "result": st.sampled_from(["win", "draw", "lose"]) | _json,
        "winner": _keys | _json,
        "discarder": _keys | _json,
        "fan": st.integers(-5, 2000) | _json,
        "flowers": st.integers(-1, 10) | _json,
        "tiles": _json
        | st.fixed_dictionaries(
            {"concealed": st.lists(st.sampled_from(["1m", "5p", "E", "x", 3]), max_size=14)},
            optional={"win_tile": st.sampled_from(["1m", "C", 0]), "melds": _json},
        ),
        "compact": st.text(alphabet="123456789mpsESWNCFP[]() x", max_size=20) | _json,
        "kong_related": _json,
    },
)
_penalty = st.fixed_dictionaries(
    {},
    optional={
        "player": _keys | _json,
        "points": st.integers(-3, 70_000) | _json,
        "distributed": _json,
        "reason": st.text(max_size=5) | _json,
        "hand_number": st.integers(-1, 40_000) | _json,
    },
)
_seating = st.fixed_dictionaries(
    {},
    optional={
        "random": _json,
        "seed": st.integers() | _json,
        "tables": st.lists(st.dictionaries(st.sampled_from("ESWNX"), _keys | _json), max_size=3)
        | _json,
    },
)
_player = st.dictionaries(
    st.sampled_from(["key", "name", "club", "substitute", "withdrawn_from_round", "ema_number"]),
    st.text(max_size=30) | st.integers(-(2**40), 2**40) | _json,
)
_tournament = st.dictionaries(
    st.sampled_from(["name", "start_date", "end_date", "table_points", "tie_breaks", "public"]),
    _json | st.lists(st.integers(-5, 5), min_size=4, max_size=4),
)
TARGETS = [
    ("POST", f"{TABLE}/hands", _hand),
    ("PUT", f"{TABLE}/hands/1", _hand),
    ("POST", f"{TABLE}/penalties", _penalty),
    ("POST", f"{TABLE}/false-wins", _penalty.map(lambda body: {**body, "number": 1})),
    ("POST", f"{T}/rounds/1/seating", _seating),
    ("POST", f"{T}/players", _player),
    ("PATCH", f"{T}/players/1", _player),
    ("PATCH", T, _tournament),
    ("POST", f"{TABLE}/end", st.dictionaries(st.just("ended_by_time"), _json)),
]


@pytest.mark.parametrize(("method", "url", "bodies"), TARGETS, ids=[t[1] for t in TARGETS])
def test_garbage_never_answers_500(as_organiser, table, organiser, method, url, bodies):
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=organiser)

    @settings(
        max_examples=40,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(body=bodies)
    def check(body):
        seats = list(Seat.objects.values_list("pk", "score"))
        with transaction.atomic():
            response = as_organiser.call(method, url, body)
            transaction.set_rollback(True)
        assert response.status_code in (200, 201, 400, 409), response.json()
        if response.status_code >= 400:
            assert set(response.json()) <= {"error", "message", "fields"}
            assert response.json()["message"]
        assert list(Seat.objects.values_list("pk", "score")) == seats

    check()


@pytest.mark.parametrize("raw", ["{not json", "[]", '{"number": "x"}', ""])
def test_a_stranger_gets_404_whatever_the_body(api_as, make_user, tournament, table, raw):
    tournament.public = False
    tournament.save()

    response = api_as(make_user("nora")).post(f"{TABLE}/hands", raw=raw)

    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


@pytest.mark.parametrize("raw", ["{not json", "[]", '{"number": "x"}', ""])
def test_a_referee_of_another_table_gets_403_whatever_the_body(api_as, carol, table, raw):
    response = api_as(carol).post(f"{TABLE}/hands", raw=raw)

    assert response.status_code == 403
    assert response.json()["error"] == "forbidden"


def test_a_body_of_blanks_is_no_body(as_bob, table):
    response = as_bob.post(f"{TABLE}/end", raw="  \n")

    assert response.json()["error"] == "hands_missing"  # the end asked for, without time called
