"""POST /api/score with "preset": "jt": Japanese Transitional wins, and the OpenAPI document
describing both shapes."""

from __future__ import annotations

import pytest
from django.utils import translation
from test_score_api import document, post, schema_errors

from scoring.engine.jt import JtResult
from scoring.services import Refusal, score_request

# JT-02 of the specification: a no-points hand, fully concealed, self-drawn by North.
NO_POINTS = {
    "preset": "jt",
    "compact": "34m 567p 345s 678s 99m 2m",
    "self_drawn": True,
    "seat_wind": "N",
}
# JT-14: a concealed kong of North, a melded pung of 9s, out on a pair, self-drawn.
KONG_CASE = {
    "preset": "jt",
    "concealed": ["1m", "2m", "3m", "7p", "8p", "9p", "S"],
    "melds": [
        {"type": "kong", "tiles": ["N", "N", "N", "N"], "concealed": True},
        {"type": "pung", "tiles": ["9s", "9s", "9s"], "concealed": False},
    ],
    "win_tile": "S",
    "self_drawn": True,
    "seat_wind": "N",
    "prevalent_wind": "S",
}


def test_a_jt_compact_hand_scores_with_200(client):
    response = post(client, NO_POINTS)

    assert response.status_code == 200
    body = response.json()
    assert body["preset"] == "jt"
    assert (body["final"], body["points"], body["doubles"], body["raw"]) == (90, 22, 2, 88)
    assert {(p["key"], p["value"], p["unit"]) for p in body["patterns"]} == {
        ("winning", 20, "pts"),
        ("self_drawn", 2, "pts"),
        ("fully_concealed", 1, "dbl"),
        ("no_points_hand", 1, "dbl"),
    }


def test_a_jt_case_scores_with_200_and_its_reading(client):
    body = post(client, KONG_CASE).json()

    assert body["final"] == 250
    points = next(p for p in body["patterns"] if p["key"] == "set_points")
    assert points["value"] == 36
    assert sorted(body["reading"][i]["tiles"][0] for i in points["sets"]) == ["9s", "N"]
    kong = next(s for s in body["reading"] if s["kind"] == "kong")
    assert (kong["declared"], kong["concealed"]) == (True, True)
    assert [s["kind"] for s in body["reading"] if s["winning"]] == ["pair"]


def test_riichi_and_a_situation_flag_add_doubles(client):
    body = post(client, {**NO_POINTS, "riichi": True, "last_wall_tile": True}).json()

    assert body["doubles"] == 4
    assert body["final"] == 350  # 22 x 16 = 352


def test_the_mcr_answer_is_unchanged_without_a_preset(client):
    body = post(client, {key: value for key, value in NO_POINTS.items() if key != "preset"}).json()

    assert "preset" not in body
    assert "total" in body and "fans" in body


def test_pattern_names_follow_the_language_of_the_request(client):
    with translation.override("en"):
        body = post(client, NO_POINTS).json()
    names = {p["key"]: (p["en"], p["name"]) for p in body["patterns"]}
    assert names["no_points_hand"] == ("No-points hand", "No-points hand")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({**NO_POINTS, "preset": "wa"}, "BAD_INPUT"),
        ({**NO_POINTS, "riichi": "yes"}, "BAD_INPUT"),
        ({**NO_POINTS, "compact": "34m 567p 345s 678s 99m 2x"}, "UNKNOWN_TILE"),
        ({**NO_POINTS, "compact": "567p 345s 678s 9999m 9m"}, "TILE_COUNT_GT_4"),
        ({**NO_POINTS, "compact": "34m 567p 345s 678s 2m"}, "WRONG_TILE_COUNT"),
        ({**NO_POINTS, "compact": "34m 567p 345s 99m [679s] 2m"}, "INVALID_MELD"),
        ({**NO_POINTS, "compact": "34m 567p 345s 678s 99m 7m"}, "NOT_WIN"),
        ({**NO_POINTS, "robbing_kong": True}, "CONTRADICTORY_SITUATION"),
        ({**KONG_CASE, "riichi": True}, "CONTRADICTORY_SITUATION"),
    ],
)
def test_an_unscorable_jt_request_answers_400_with_its_code(client, body, code):
    response = post(client, body)

    assert response.status_code == 400
    assert response.json()["error"] == code
    assert response.json()["message"]
    assert schema_errors(response.json(), "responses", "400") == []


@pytest.mark.parametrize("request_body", [NO_POINTS, KONG_CASE])
def test_jt_request_and_answer_fit_the_schema(client, request_body):
    answer = post(client, request_body).json()

    assert schema_errors(request_body, "requestBody") == []
    assert schema_errors(answer, "responses", "200") == []


def test_the_openapi_document_describes_both_shapes():
    schemas = document()["components"]["schemas"]

    assert {"ScoreResult", "JtScoreResult", "JtCaseRequest", "JtCompactRequest"} <= set(schemas)
    assert schemas["JtScoreResult"]["properties"]["preset"]["const"] == "jt"


def test_the_schema_tells_a_jt_answer_from_an_mcr_one():
    assert schema_errors({"preset": "jt", "final": "90"}, "responses", "200")


def test_the_service_answers_a_jt_result_or_a_refusal():
    scored = score_request(NO_POINTS)
    refused = score_request({**NO_POINTS, "preset": "wa"})

    assert isinstance(scored, JtResult) and scored.final == 90
    assert refused == Refusal("BAD_INPUT", "Unknown preset; choose one of: mcr, jt.")
