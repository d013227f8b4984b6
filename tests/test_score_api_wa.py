"""POST /api/score with "preset": "wa": Wilmington Advanced 12-Tile hands (the joker J, the
15-point minimum as a faulty out), and the OpenAPI document describing them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.utils import translation
from test_score_api import document, post, schema_errors

from scoring.engine.wa import WaResult
from scoring.services import Refusal, score_request

CASES = Path(__file__).parent / "data" / "wa-cases.jsonl"


def worked_example(case_id: str) -> dict:
    for line in CASES.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        if case["id"] == case_id:
            return case
    raise LookupError(case_id)


def as_request(case: dict) -> dict:
    """A worked example's main hand as the body of POST /api/score."""
    skip = {"id", "title", "expected", "deal", "kind", "extra_winners"}
    return {**{k: v for k, v in case.items() if k not in skip}, "preset": "wa"}


# WA-02 in compact notation: the joker in the chow 4m-J-6m, a melded pung of white dragons.
ALL_TYPES = {
    "preset": "wa",
    "compact": "4m J 6m 678p 77s SS [PPP] 7s",
    "self_drawn": True,
    "seat_wind": "N",
}
# The same hand with the chow declared, its joker as 5m.
DECLARED_JOKER = {**ALL_TYPES, "compact": "678p 77s SS [PPP] [46m J] 7s", "joker_as": "5m"}


@pytest.mark.parametrize("case_id", ["WA-01", "WA-02", "WA-03", "WA-04"])
def test_a_worked_example_scores_as_the_specification_says(client, case_id):
    case = worked_example(case_id)
    expected = case["expected"]["hands"][0]

    response = post(client, as_request(case))

    assert response.status_code == 200
    body = response.json()
    assert body["preset"] == "wa"
    assert (body["error"], body["total"], body["final"], body["limit"]) == (
        expected["error"],
        expected["total"],
        expected["final"],
        expected["limit"],
    )
    assert {(p["key"], p["points"], p["count"]) for p in body["patterns"]} == {
        (key, points, count) for key, _en, points, _unit, count in expected["patterns"]
    }
    assert body["joker_as"] == expected["joker_as"]
    assert schema_errors(body, "responses", "200") == []


def test_below_the_minimum_is_a_faulty_out_answered_with_its_breakdown(client):
    body = post(client, as_request(worked_example("WA-01"))).json()

    assert body["error"] == "BELOW_MINIMUM"
    assert (body["total"], body["minimum"]) == (9, 15)
    assert "9 points" in body["message"]
    assert [p["key"] for p in body["patterns"]] == ["fully_concealed", "out_on_pair"]


def test_a_compact_hand_with_a_standing_joker_gets_the_best_value(client):
    body = post(client, ALL_TYPES).json()

    assert (body["error"], body["total"], body["joker_as"]) == (None, 15, "5m")
    chow = next(s for s in body["reading"] if s["tiles"][0] == "4m")
    assert (chow["tiles"], chow["declared"]) == (["4m", "5m", "6m"], False)


def test_a_joker_in_a_declared_set_keeps_its_declared_value(client):
    body = post(client, DECLARED_JOKER).json()

    assert body["joker_as"] == "5m"
    declared = [s["tiles"] for s in body["reading"] if s["declared"]]
    assert declared == [["P", "P", "P"], ["4m", "5m", "6m"]]


def test_patterns_carry_their_english_name_and_the_name_in_the_request_language(client):
    with translation.override("en"):
        body = post(client, ALL_TYPES).json()

    names = {p["key"]: (p["en"], p["name"]) for p in body["patterns"]}
    assert names["all_types"] == ("All suits, Dragons and Winds",) * 2


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({**ALL_TYPES, "compact": "4m 5m 6m 678p 77s SS [PPP] 7s"}, "JOKER_COUNT"),
        ({**ALL_TYPES, "compact": "4m J 6m 678p 77s S J [PPP] 7s"}, "JOKER_COUNT"),
        ({**ALL_TYPES, "compact": "4m 5m 6m 678p 77s SS [PPP] J"}, "JOKER_WIN_TILE"),
        ({**DECLARED_JOKER, "joker_as": "6m"}, "JOKER_AS_MISMATCH"),
        ({**DECLARED_JOKER, "joker_as": None}, "JOKER_AS_MISMATCH"),
        ({**ALL_TYPES, "joker_as": "5m"}, "JOKER_AS_MISMATCH"),
        ({**ALL_TYPES, "compact": "55555m J 77s SS [PPP] 7s"}, "TILE_COUNT_GT_4"),
        ({**ALL_TYPES, "compact": "4m J 6m 678p 77s SS [PPP] 7x"}, "UNKNOWN_TILE"),
        ({**ALL_TYPES, "compact": "4m J 6m 678p 77s [PPP] 7s"}, "WRONG_TILE_COUNT"),
        ({**ALL_TYPES, "compact": "4m J 6m 679p 77s SS [PPP] 7s"}, "NOT_WIN"),
        ({**ALL_TYPES, "self_drawn": False, "last_wall_tile": True}, "CONTRADICTORY_SITUATION"),
        ({**ALL_TYPES, "heavenly": "yes"}, "BAD_INPUT"),
        ({**ALL_TYPES, "compact": ""}, "BAD_INPUT"),
    ],
)
def test_an_unscorable_wa_request_answers_400_with_its_code(client, body, code):
    response = post(client, body)

    assert response.status_code == 400
    assert response.json()["error"] == code
    assert response.json()["message"]
    assert schema_errors(response.json(), "responses", "400") == []


def test_the_joker_as_winning_tile_is_refused(client):
    case = {**as_request(worked_example("WA-02")), "win_tile": "J"}

    assert post(client, case).json()["error"] == "JOKER_WIN_TILE"


@pytest.mark.parametrize("request_body", [ALL_TYPES, DECLARED_JOKER])
def test_wa_request_and_answer_fit_the_schema(client, request_body):
    answer = post(client, request_body).json()

    assert schema_errors(request_body, "requestBody") == []
    assert schema_errors(answer, "responses", "200") == []


def test_a_worked_example_fits_the_request_schema():
    assert schema_errors(as_request(worked_example("WA-03")), "requestBody") == []


def test_the_openapi_document_describes_the_wa_shapes():
    schemas = document()["components"]["schemas"]

    assert {"WaScoreResult", "WaCaseRequest", "WaCompactRequest"} <= set(schemas)
    assert schemas["WaScoreResult"]["properties"]["preset"]["const"] == "wa"
    assert schema_errors({"preset": "wa", "final": "15"}, "responses", "200")


def test_the_service_answers_a_wa_result_or_a_refusal():
    scored = score_request(ALL_TYPES)
    refused = score_request({**ALL_TYPES, "compact": "4m 5m 6m 678p 77s SS [PPP] 7s"})

    assert isinstance(scored, WaResult) and scored.final == 15
    assert isinstance(refused, Refusal) and refused.code == "JOKER_COUNT"
