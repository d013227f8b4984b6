"""The generated OpenAPI document describes the tournament API exactly: every URL and method, no
more.

(Each answer the other API tests receive is also checked against the document, by the test
client in conftest.py.)
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from pydantic import BaseModel

import scoring.api
from config.api import urlpatterns
from tournament.api import errors, schemas

pytestmark = pytest.mark.django_db

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
SERVICES = Path(__file__).resolve().parents[2] / "tournament" / "services"
# Services no API endpoint calls: the seating generator's jobs and referee accounts are on the
# organiser pages only.
SERVICES_WITHOUT_API = {  # web only
    "seating_plan",
    "accounts",
    "attendance",
    "prize_giving",
    "rehearsal",
}
# Service codes of actions the API does not offer: removing a round, swapping two players,
# reopening a game, importing a CSV file of players.
NOT_EXPOSED = {
    "unknown_table",  # the round's referee form (web only)
    # The clock service's refusals that the API answers as `invalid` naming the field (and an
    # action the schema refuses first).
    "bad_clock_action",
    "minutes_required",
    "minutes_not_taken",
    "not_draft",
    "not_last_round",
    "same_player",
    "not_ended",
    "csv_empty",
    "csv_header",
    "csv_rows",
    "csv_too_large",
    # Registering (the public page only) and editing a registration (the organiser's page).
    "registration_closed",
    "too_many_registrations",
    "name_required",
    # From a player's private link (web only): checking in, calling a referee; answering a
    # call on the organiser's board.
    "self_check_in_closed",
    "not_playing",
    "call_open",
    "too_soon",
    "answered",
}


def served_routes() -> dict[str, set[str]]:
    """OpenAPI path -> methods, by asking each route of the urlconf with each method: a method
    it does not serve is answered 405 before anything else."""
    tournament_api = next(part for part in urlpatterns() if part.namespace == "tournament_api")
    client = Client()
    routes: dict[str, set[str]] = {}
    for pattern in tournament_api.url_patterns:
        if pattern.name == "unknown":  # the JSON 404 for every other address
            continue
        route = str(pattern.pattern)
        url = "/api/" + re.sub(r"<(\w+):\w+>", lambda m: {"int": "1"}.get(m[1], "x"), route)
        served = {
            method.lower()
            for method in METHODS
            if client.generic(method, url, "{}", content_type="application/json").status_code != 405
        }
        routes["/api/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)] = served
    return routes


def tournament_paths(openapi: dict) -> dict[str, dict]:
    return {name: item for name, item in openapi["paths"].items() if name.startswith("/api/t")}


def test_every_url_and_method_is_documented_and_nothing_else(openapi):
    documented = {name: set(item) for name, item in tournament_paths(openapi).items()}

    assert served_routes() == documented


def operations(openapi: dict):
    for name, item in tournament_paths(openapi).items():
        for method, operation in item.items():
            yield name, method, operation


def test_path_parameters_match_the_routes(openapi):
    for name, method, operation in operations(openapi):
        declared = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
        assert declared == set(re.findall(r"{(\w+)}", name)), (name, method)


def test_served_document_keeps_the_scoring_api(client, openapi):
    served = client.get("/api/openapi.json").json()

    assert set(served["paths"]) == {"/api/score"} | set(tournament_paths(openapi))
    assert {"ScoreResult", "CaseRequest", "CompactRequest"} <= set(served["components"]["schemas"])
    assert served["info"]["title"] == "MCR tournament manager and MCR hand scoring"
    assert set(served["components"]["securitySchemes"]) == {"bearerAuth", "cookieAuth"}


def refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if "$ref" in node else []
        return found + [ref for value in node.values() for ref in refs(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in refs(value)]
    return []


def test_every_reference_resolves(openapi):
    for ref in refs(openapi):
        section, name = ref.removeprefix("#/components/").split("/")
        assert name in openapi["components"][section], ref


def test_every_operation_documents_its_error_statuses_and_security(openapi):
    for name, method, operation in operations(openapi):
        statuses = set(operation["responses"])
        assert "401" in statuses, (name, method)
        if method == "get":
            assert "200" in statuses
            assert {} in operation["security"]
        else:
            assert {"400", "401", "403", "409"} <= statuses, (name, method)
            assert {} not in operation["security"]
            assert ("requestBody" in operation) == (method != "delete"), (name, method)
        if name != "/api/tournaments":
            assert "404" in statuses, (name, method)


def test_operation_ids_are_unique(openapi):
    ids = [operation["operationId"] for _, _, operation in operations(openapi)]
    assert len(ids) == len(set(ids))


def test_every_service_error_code_is_documented(openapi):
    codes = set()
    for module in SERVICES.glob("*.py"):
        if module.stem in SERVICES_WITHOUT_API:
            continue
        codes |= set(re.findall(r'code="(\w+)"', module.read_text()))
    description = openapi["components"]["schemas"]["ErrorAnswer"]["description"]

    missing = {code for code in codes - NOT_EXPOSED if f"`{code}`" not in description}

    assert missing == set()


def test_schema_names_are_not_shared():
    """The document names each schema by its class: two classes of one name would describe
    each other's answers."""
    names = [
        cls.__name__
        for module in (schemas, errors, scoring.api)
        for cls in vars(module).values()
        if inspect.isclass(cls) and issubclass(cls, BaseModel) and cls.__module__ == module.__name__
    ]

    assert len(names) == len(set(names))


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


def test_there_is_no_docs_page_that_needs_the_internet(client):
    # Ninja's Swagger page loads its script from a CDN unless ninja is an installed app.
    assert client.get("/api/docs").status_code == 404


def test_the_document_describes_the_deals_of_every_preset(openapi):
    documented = openapi["components"]["schemas"]
    hands = "/api/tournaments/{slug}/rounds/{number}/tables/{table}/hands"
    deal_facts = {"value", "also", "riichi", "faulty_claims", "ready", "faulty_riichi", "offender"}

    for path, method in ((hands, "post"), (hands + "/{hand}", "put")):
        body = openapi["paths"][path][method]["requestBody"]["content"]["application/json"]
        schema = documented[body["schema"]["$ref"].split("/")[-1]]
        assert deal_facts <= set(schema["properties"]), (path, method)
    # A further winner's value, or its tiles that the engine scores (WA).
    assert set(documented["FurtherWin"]["required"]) == {"player"}
    assert {"value", "tiles"} <= set(documented["FurtherWin"]["properties"])
    answer = documented["Hand"]
    assert deal_facts | {"prevailing_wind", "dealer", "extra_hands"} <= set(answer["required"])
    assert {"initial_points", "points"} <= set(documented["Table"]["required"])
    assert "points" in documented["ScoreSheetLine"]["required"]
    assert {"rule_settings", "rules"} <= set(documented["Tournament"]["required"])
    assert "initial_points" in documented["Rules"]["required"]
    create = openapi["paths"]["/api/tournaments"]["post"]["requestBody"]["content"]
    assert create["application/json"]["schema"] == {"$ref": "#/components/schemas/TournamentCreate"}
    assert "rule_settings" in documented["TournamentCreate"]["properties"]
