"""The OpenAPI document describes the tournament API exactly: every URL and method, no more.

(Each answer the other API tests receive is also checked against the document, by the test
client in conftest.py.)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import URLPattern

from scoring.openapi import SCHEMA, merge_part, served_schema
from tournament import api_urls
from tournament.openapi import PART

TOURNAMENT_PATHS = {
    name for name in served_schema()["paths"] if name.startswith("/api/tournaments")
}
SERVICES = Path(__file__).resolve().parents[2] / "tournament" / "services"
# Service codes of actions the API does not offer: removing a round, swapping two players,
# reopening a game, importing a CSV file of players.
# Services no API endpoint calls: the seating generator's jobs and referee accounts are on the
# organiser pages only.
SERVICES_WITHOUT_API = {"seating_plan", "accounts"}
NOT_EXPOSED = {
    "not_draft",
    "not_last_round",
    "same_player",
    "not_ended",
    "csv_empty",
    "csv_header",
    "csv_rows",
}


def served_routes() -> dict[str, set[str]]:
    """OpenAPI path -> methods, from the urlconf."""
    routes = {}
    for pattern in api_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        if pattern.name == "unknown":  # the JSON 404 for every other address
            continue
        route = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(pattern.pattern))
        routes[f"/api/{route}"] = {method.lower() for method in pattern.callback.methods}
    return routes


def documented_routes() -> dict[str, set[str]]:
    return {name: set(served_schema()["paths"][name]) - {"parameters"} for name in TOURNAMENT_PATHS}


def test_every_url_and_method_is_documented_and_nothing_else():
    assert served_routes() == documented_routes()


def test_path_parameters_match_the_routes():
    for name in TOURNAMENT_PATHS:
        declared = {p["name"] for p in served_schema()["paths"][name].get("parameters", [])}
        assert declared == set(re.findall(r"{(\w+)}", name)), name


def test_served_document_keeps_the_scoring_api(client):
    served = client.get("/api/openapi.json").json()

    assert set(SCHEMA["paths"]) == {"/api/score", "/api/openapi.json"}
    assert set(served["paths"]) == set(SCHEMA["paths"]) | TOURNAMENT_PATHS
    assert (
        served["components"]["schemas"]["ScoreResult"]
        == SCHEMA["components"]["schemas"]["ScoreResult"]
    )
    assert served["info"]["title"] == "MCR tournament manager and MCR hand scoring"
    assert set(served["components"]["securitySchemes"]) == {"bearerAuth", "cookieAuth"}


def refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if "$ref" in node else []
        return found + [ref for value in node.values() for ref in refs(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in refs(value)]
    return []


def test_every_reference_resolves():
    document = served_schema()
    for ref in refs(document):
        section, name = ref.removeprefix("#/components/").split("/")
        assert name in document["components"][section], ref


def operations():
    for name in TOURNAMENT_PATHS:
        for method, operation in served_schema()["paths"][name].items():
            if method != "parameters":
                yield name, method, operation


def test_every_operation_documents_its_error_statuses_and_security():
    for name, method, operation in operations():
        statuses = set(operation["responses"])
        assert {"401", "405"} <= statuses, (name, method)
        if method == "get":
            assert {"200"} | statuses == statuses
            assert {} in operation["security"]
        else:
            assert {"400", "401", "403", "405", "409"} <= statuses, (name, method)
            assert {} not in operation["security"]
            assert ("requestBody" in operation) == (method != "delete"), (name, method)
        if name != "/api/tournaments":
            assert "404" in statuses, (name, method)


def test_operation_ids_are_unique():
    ids = [operation["operationId"] for _, _, operation in operations()]
    assert len(ids) == len(set(ids))


def test_every_service_error_code_is_documented():
    codes = set()
    for module in SERVICES.glob("*.py"):
        if module.stem in SERVICES_WITHOUT_API:
            continue
        codes |= set(re.findall(r'code="(\w+)"', module.read_text()))
    description = served_schema()["components"]["schemas"]["ApiError"]["description"]

    missing = {code for code in codes - NOT_EXPOSED if f"`{code}`" not in description}

    assert missing == set()


def test_merging_refuses_to_replace_a_path():
    document = {"paths": dict(SCHEMA["paths"]), "components": {}, "info": {"description": ""}}

    with pytest.raises(ValueError, match="described twice"):
        merge_part(document, {"paths": {"/api/score": {}}})


def test_part_schemas_do_not_shadow_the_scoring_ones():
    assert not set(PART["components"]["schemas"]) & set(SCHEMA["components"]["schemas"])


@pytest.mark.parametrize(
    "url",
    [
        "/api/tournaments/",
        "/api/tournaments/spring-cup/",
        "/api/tournaments/spring-cup/rounds/one",
        "/api/tournaments/spring-cup/rounds/1/tables/1/hands/x",
        "/api/tournaments/spring-cup/everything",
    ],
)
def test_any_other_address_gets_a_json_404(client, url):
    response = client.post(url)

    assert response.status_code == 404
    assert response.json()["error"] == "not_found"
    assert response.json()["message"].startswith(f"There is nothing at {url}.")
