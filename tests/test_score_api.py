"""POST /api/score and GET /api/openapi.json."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from scoring.engine import ScoreResult
from scoring.services import Refusal, score_request

SCORE_URL = "/api/score"

# 七对 24, 断幺 2, 四归一 2 (4p used twice over) and one flower: corpus case 0, in notation.
SEVEN_PAIRS = {
    "compact": "44m 333p 44p 55s 77s 88s 3p",
    "seat_wind": "S",
    "prevalent_wind": "E",
    "flowers": 1,
}
# Corpus case 9: two concealed kongs, worth 8 by the Green Book and 6 by the 1998 rules.
TWO_CONCEALED_KONGS = {
    "concealed": ["4m", "5m", "5m", "6m", "6m", "6s", "6s"],
    "melds": [
        {"type": "kong", "tiles": ["S", "S", "S", "S"], "concealed": True},
        {"type": "kong", "tiles": ["9s", "9s", "9s", "9s"], "concealed": True},
    ],
    "win_tile": "4m",
    "seat_wind": "E",
    "prevalent_wind": "S",
    "flowers": 2,
}
# Corpus case 1: a chow and pung of East on a discard, only 幺九刻 1: a false win.
FALSE_WIN = {"compact": "234456p 77s EE [789m] E", "seat_wind": "N", "prevalent_wind": "S"}


def post(client: Client, body: Any) -> Any:
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(SCORE_URL, data=data, content_type="application/json")


# ----- The OpenAPI document, checked with jsonschema ---------------------------------------


@functools.cache
def document() -> dict:
    return Client().get("/api/openapi.json").json()


def operation() -> dict:
    """POST /api/score in the served OpenAPI document."""
    return document()["paths"][SCORE_URL]["post"]


def schema_errors(value: Any, *where: str) -> list[str]:
    """What is wrong with `value` under the schema of POST /api/score at `where`, such as
    ("responses", "200"); an empty list when it fits."""
    node = operation()
    for key in where:
        node = node[key]
    schema = {
        **node["content"]["application/json"]["schema"],
        "components": document()["components"],
    }
    return [error.message for error in Draft202012Validator(schema).iter_errors(value)]


# ----- Scoring ------------------------------------------------------------------------------


def test_compact_hand_scores_with_200(client):
    response = post(client, SEVEN_PAIRS)

    assert response.status_code == 200
    body = response.json()
    assert body["error"] is None
    assert body["total"] == 29
    assert body["total_excl_flowers"] == 28
    assert body["meets_minimum"] is True
    fans = {fan["zh"]: (fan["en"], fan["points"], fan["count"]) for fan in body["fans"]}
    assert fans["七对"] == ("Seven Pairs", 24, 1)
    assert fans["花牌"][1:] == (1, 1)


def test_case_format_scores_with_200(client):
    response = post(client, TWO_CONCEALED_KONGS)

    assert response.status_code == 200
    assert response.json()["total"] == 17


def test_profile_switch_values_two_concealed_kongs_at_6(client):
    response = post(client, {**TWO_CONCEALED_KONGS, "profile": "cn-1998"})

    body = response.json()
    assert body["profile"] == "cn-1998"
    assert body["total"] == 15
    assert {"zh": "双暗杠", "points": 6}.items() <= next(
        fan for fan in body["fans"] if fan["zh"] == "双暗杠"
    ).items()


def test_false_win_answers_200_with_total_and_fans(client):
    response = post(client, FALSE_WIN)

    assert response.status_code == 200
    body = response.json()
    assert body["error"] == "BELOW_8_FAN"
    assert body["meets_minimum"] is False
    assert body["total"] == 1
    assert [fan["zh"] for fan in body["fans"]] == ["幺九刻"]


def test_fans_point_at_sets_of_the_arrangement(client):
    body = post(client, TWO_CONCEALED_KONGS).json()

    kongs = next(fan for fan in body["fans"] if fan["zh"] == "双暗杠")
    used = [body["arrangement"][i] for i in kongs["sets"]]
    assert sorted(group["tiles"][0] for group in used) == ["9s", "S"]
    assert all(group["kind"] == "kong" for group in used)


def test_comparison_with_the_other_profile_on_request(client):
    body = post(client, {**SEVEN_PAIRS, "self_drawn": True, "compare_profiles": True}).json()

    assert body["profile"] == "wmo-2006"
    assert body["total"] == 33
    comparison = body["comparison"]
    assert (comparison["profile"], comparison["error"]) == ("cn-1998", None)
    assert (comparison["total"], comparison["total_excl_flowers"]) == (30, 29)
    assert [
        (d["zh"], d["points"], d["count"], d["other_points"], d["other_count"])
        for d in comparison["differences"]
    ] == [("不求人", 4, 1, 4, 0), ("自摸", 1, 0, 1, 1)]


def test_comparison_of_a_hand_both_profiles_score_alike_lists_no_difference(client):
    body = post(client, {**SEVEN_PAIRS, "compare_profiles": True}).json()

    assert body["comparison"]["differences"] == []
    assert body["comparison"]["total"] == body["total"]


def test_no_comparison_unless_asked(client):
    assert "comparison" not in post(client, SEVEN_PAIRS).json()
    assert "comparison" not in post(client, {**SEVEN_PAIRS, "compare_profiles": False}).json()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("{not json", "BAD_INPUT"),
        (b"\xff\xfe", "BAD_INPUT"),
        ("[1, 2]", "BAD_INPUT"),
        ({"compact": 12}, "BAD_INPUT"),
        ({**SEVEN_PAIRS, "flowers": "two"}, "BAD_INPUT"),
        ({**SEVEN_PAIRS, "self_drawn": "yes"}, "BAD_INPUT"),
        ({**SEVEN_PAIRS, "profile": "house-rules"}, "BAD_INPUT"),
        ({**SEVEN_PAIRS, "compare_profiles": "yes"}, "BAD_INPUT"),
        ({"concealed": "1m2m", "win_tile": "1m"}, "BAD_INPUT"),
        ({"compact": "123m 456p 789s 11x 1s"}, "UNKNOWN_TILE"),
        ({"compact": "123m 5p"}, "WRONG_TILE_COUNT"),
        ({"compact": "11111m 234p 567s 99s 1m"}, "TILE_COUNT_GT_4"),
        ({"compact": "123m 456p 789s 1s [124m] 1s"}, "INVALID_MELD"),
        ({"compact": "135m 246p 789s EWN C 5s"}, "NOT_WIN"),
        ({**SEVEN_PAIRS, "self_drawn": True, "kong_related": True}, "CONTRADICTORY_SITUATION"),
    ],
)
def test_unscorable_request_answers_400_with_code(client, body, code):
    response = post(client, body)

    assert response.status_code == 400
    assert response.json()["error"] == code
    assert response.json()["message"]


def test_get_is_refused_with_405(client):
    response = client.get(SCORE_URL)

    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert response.json()["error"] == "METHOD_NOT_ALLOWED"


def test_no_csrf_token_needed():
    strict = Client(enforce_csrf_checks=True)

    assert post(strict, SEVEN_PAIRS).status_code == 200


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=20,
)
_tiles = st.sampled_from(["1m", "5p", "9s", "E", "P", "0m", "x", "", 5, None])
_case_like = st.fixed_dictionaries(
    {},
    optional={
        "concealed": st.lists(_tiles, max_size=16) | _json_values,
        "melds": st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    "type": st.sampled_from(["chow", "pung", "kong", "set"]) | _json_values,
                    "tiles": st.lists(_tiles, max_size=5) | _json_values,
                    "concealed": _json_values,
                    "claimed": _tiles,
                    "from": st.sampled_from(["left", "up"]),
                },
            ),
            max_size=5,
        )
        | _json_values,
        "win_tile": _tiles | _json_values,
        "compact": st.text(alphabet="123456789mpsESWNCFP[]() x0", max_size=30) | _json_values,
        "self_drawn": _json_values,
        "seat_wind": st.sampled_from(["E", "S", "Q"]) | _json_values,
        "flowers": st.integers(-3, 12) | _json_values,
        "kong_related": _json_values,
        "last_wall_tile": _json_values,
        "profile": st.sampled_from(["wmo-2006", "cn-1998", "?"]) | _json_values,
        "preset": st.sampled_from(["mcr", "jt", "jt", "wa"]) | _json_values,
        "riichi": _json_values,
        "robbing_kong": _json_values,
        "supplement_tile": _json_values,
    },
)


@given(body=st.binary(max_size=200) | _json_values.map(json.dumps) | _case_like.map(json.dumps))
def test_garbage_never_answers_500(body):
    response = Client().post(SCORE_URL, data=body, content_type="application/json")

    assert response.status_code in (200, 400)
    assert "error" in response.json()


# ----- OpenAPI ------------------------------------------------------------------------------


def test_openapi_schema_is_served(client):
    response = client.get("/api/openapi.json")

    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.1")


def test_openapi_schema_refuses_post_with_405(client):
    assert client.post("/api/openapi.json").status_code == 405


def test_openapi_schema_describes_the_served_path(client):
    paths = client.get("/api/openapi.json").json()["paths"]

    assert reverse("scoring_api:score") == SCORE_URL
    assert set(paths[SCORE_URL]) == {"post"}


def test_openapi_schema_lists_every_rejection_code():
    schema = document()["components"]["schemas"]["ScoringError"]
    codes = set(schema["properties"]["error"]["enum"])

    assert {
        "BAD_INPUT",
        "UNKNOWN_TILE",
        "WRONG_TILE_COUNT",
        "TILE_COUNT_GT_4",
        "INVALID_MELD",
        "CONTRADICTORY_SITUATION",
        "NOT_WIN",
    } <= codes


@pytest.mark.parametrize(
    "request_body",
    [
        SEVEN_PAIRS,
        TWO_CONCEALED_KONGS,
        {**TWO_CONCEALED_KONGS, "compare_profiles": True},
        {**FALSE_WIN, "compare_profiles": True},
    ],
)
def test_sample_request_and_answer_fit_the_schema(client, request_body):
    answer = post(client, request_body).json()

    assert schema_errors(request_body, "requestBody") == []
    assert schema_errors(answer, "responses", "200") == []


def test_error_answer_fits_the_schema(client):
    answer = post(client, {"compact": "123m 5p"}).json()

    assert schema_errors(answer, "responses", "400") == []


def test_schema_check_catches_a_wrong_answer():
    assert schema_errors({"error": None, "total": "29"}, "responses", "200")


# ----- The service behind the API, the calculator page and the referee's tiles --------------


def test_the_service_answers_a_result_or_a_refusal():
    scored = score_request(SEVEN_PAIRS)
    false_win = score_request(FALSE_WIN)
    refused = score_request({"compact": "123m 5p"})

    assert isinstance(scored, ScoreResult) and scored.total == 29
    assert isinstance(false_win, ScoreResult) and false_win.error == "BELOW_8_FAN"
    assert isinstance(refused, Refusal) and refused.code == "WRONG_TILE_COUNT"
    assert score_request([1, 2]) == Refusal("BAD_INPUT", "The request body must be a JSON object.")
