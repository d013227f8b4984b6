"""Every page and API URL of the tournament, tried by people who have no right to it.

The URL patterns are read from the URL configuration, so a page added later is swept too.
For a private tournament with results:

- an anonymous visitor never gets a page or JSON body of it (only a login redirect, 401, 403,
  404 or 405; lists of public tournaments must not name it), and a POST changes nothing;
- a logged-in user with no role gets 401/403/404/405, never a page, and changes nothing;
- a referee of table 1 gets nothing from the organiser's pages and the organiser's API calls,
  and nothing from another table.
"""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from factories import make_players, make_user, seated_round

from tournament.models import (
    ApiToken,
    AuditEntry,
    Deal,
    Penalty,
    Player,
    Registration,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournament.services import (
    DealInput,
    create_round,
    record_deal,
    record_penalty,
)

pytestmark = pytest.mark.django_db

NAMESPACES = {"public", "organiser", "referee", "tournament_api", "seating", "outputs", "stats"}
ORGANISER_ONLY = {"organiser", "seating", "outputs"}
DENIED = {401, 403, 404, 405}
MODELS = (ApiToken, AuditEntry, Deal, Penalty, Player, Registration, Round, Seat, Table, Tournament)


def swept_routes() -> list[tuple[str, str, str]]:
    """(namespace, name, route with converters) for every URL of the swept namespaces."""
    routes = []

    def walk(patterns, prefix: str, namespace: str | None) -> None:
        for entry in patterns:
            route = str(entry.pattern)
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, prefix + route, entry.namespace or namespace)
            elif isinstance(entry, URLPattern) and namespace in NAMESPACES:
                routes.append((namespace, entry.name or "", prefix + route))

    walk(get_resolver().url_patterns, "/", None)
    return routes


def fill(route: str, values: dict[str, object]) -> str:
    def value(match: re.Match) -> str:
        name = match.group(2)
        for key, filled in values.items():
            if key in name:
                return str(filled)
        return "1"

    return re.sub(r"<(?:(\w+):)?(\w+)>", value, route).replace("^", "").replace("$", "")


@pytest.fixture
def world(tournament, organiser):
    tournament.public = False
    tournament.save()
    players = make_players(tournament, name="P{}")
    Player.objects.filter(pk=players[0].pk).update(team="Alpha")  # the team pages exist
    Player.objects.filter(pk=players[1].pk).update(team="Beta")
    _, tables = seated_round(tournament, organiser, [players[:4], players[4:]])
    record_deal(
        table=tables[0],
        number=1,
        deal=DealInput(result="win", winner=players[0], fan=8),
        entered_by=organiser,
    )
    record_deal(table=tables[1], number=1, deal=DealInput(result="draw"), entered_by=organiser)
    penalty = record_penalty(table=tables[0], player=players[1], points=10, distributed=False,
                             reason="Slow", entered_by=organiser)  # fmt: skip
    create_round(tournament=tournament, actor=organiser)
    referee = make_user("ref1", password="ref-pass-1234")
    tables[0].referees.add(referee)
    stranger = make_user("stranger", password="stranger-1234")
    registration = Registration.objects.create(
        tournament=tournament, name="Reg One", family_name="One", status="pending"
    )
    return {
        "tournament": tournament,
        "tables": tables,
        "referee": referee,
        "stranger": stranger,
        "values": {
            "slug": tournament.slug,
            "key": "1",
            "penalty": penalty.pk,
            "token": 1,
            "username": "ref1",
            "user": referee.pk,
            "pk": penalty.pk,
            "id": penalty.pk,
            "registration": registration.pk,
            "action": "accept",
            "team": "alpha",
        },
    }


def refused(response, slug: str) -> bool:
    """Refused, or sent from a form-only address to a page that neither names nor shows the
    private tournament (the user's own list of API tokens): such a redirect happens whatever
    the address names."""
    if response.status_code in DENIED:
        return True
    sent_to = getattr(response, "sent_to", None)
    return sent_to is not None and slug not in sent_to and slug.encode() not in response.content


def snapshot() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def test_the_sweep_finds_the_pages_of_every_role():
    namespaces = {namespace for namespace, _, _ in swept_routes()}
    assert {"public", "organiser", "referee"} <= namespaces


def attempt(client, url: str, method: str):
    if method == "GET":
        response = client.get(url)
        # A visit to a form-only address is sent to the address above it
        # (tournament.web.form_only), made from the address alone: what counts is how that
        # page answers.
        for _hop in range(5):
            location = response.get("Location", "") if response.status_code == 303 else ""
            if not (location and url.startswith(location) and url != location):
                break
            url = location
            response = client.get(url)
            response.sent_to = url
        return response
    return client.post(url, data={}, content_type="application/x-www-form-urlencoded")


def refused_for_anonymous(response) -> bool:
    if response.status_code in DENIED:
        return True
    return response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_anonymous_visitors_get_nothing_of_a_private_tournament(client, world, method):
    before = snapshot()
    leaks = []
    for namespace, name, route in swept_routes():
        url = fill(route, world["values"])
        response = attempt(client, url, method)
        if "<" not in route and method == "GET" and response.status_code == 200:
            # A list of what everybody may see: the private tournament must not be in it.
            if world["tournament"].slug.encode() in response.content:
                leaks.append(f"{method} {url} ({namespace}:{name}) lists the tournament")
            continue
        if not refused_for_anonymous(response):
            leaks.append(f"{method} {url} ({namespace}:{name}) -> {response.status_code}")
    assert leaks == []
    assert snapshot() == before


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_users_without_a_role_get_nothing_of_a_private_tournament(client, world, method):
    client.force_login(world["stranger"])
    before = snapshot()
    leaks = []
    for namespace, name, route in swept_routes():
        if "<" not in route:
            continue  # lists of "my" tournaments and tables, and creating a new tournament
        url = fill(route, world["values"])
        response = attempt(client, url, method)
        if not refused(response, world["tournament"].slug):
            leaks.append(f"{method} {url} ({namespace}:{name}) -> {response.status_code}")
    assert leaks == []
    assert snapshot() == before


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_referee_gets_nothing_from_the_organiser_pages(client, world, method):
    client.force_login(world["referee"])
    before = snapshot()
    leaks = []
    for namespace, name, route in swept_routes():
        if namespace not in ORGANISER_ONLY or "<" not in route:
            continue
        url = fill(route, world["values"])
        response = attempt(client, url, method)
        if not refused(response, world["tournament"].slug):
            leaks.append(f"{method} {url} ({namespace}:{name}) -> {response.status_code}")
    assert leaks == []
    assert snapshot() == before


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_referee_gets_nothing_at_another_table(client, world, method):
    client.force_login(world["referee"])
    before = snapshot()
    leaks = []
    values = {**world["values"], "table": 2}
    for namespace, name, route in swept_routes():
        if namespace != "referee" or "table" not in route:
            continue
        url = fill(route, values)
        response = attempt(client, url, method)
        if not refused(response, world["tournament"].slug):
            leaks.append(f"{method} {url} ({namespace}:{name}) -> {response.status_code}")
    assert leaks == []
    assert snapshot() == before


def test_the_swept_urls_reach_real_pages_for_the_organiser(client, world, organiser):
    """Guards the sweep itself: filled-in URLs must name existing things, or it proves little."""
    client.force_login(organiser)
    missing = []
    for namespace, name, route in swept_routes():
        if (namespace, name) == ("tournament_api", "unknown") or "<int:job>" in route:
            continue  # the API's JSON 404 for addresses it does not know; no seating job exists
        url = fill(route, world["values"])
        if client.get(url).status_code == 404:
            missing.append(f"{url} ({namespace}:{name})")
    assert missing == []


# --- A visit to an address that only takes a submitted form ------------------------------

WEB = NAMESPACES - {"tournament_api"}


def visits_of_form_only_addresses(client, world, keep) -> dict[str, object]:
    """GET and HEAD of every web address in the sweep; the answers of those that take no visit."""
    answers = {}
    for namespace, name, route in swept_routes():
        if namespace not in WEB or not keep(namespace, route) or "<int:job>" in route:
            continue
        url = fill(route, world["values"])
        for method in ("get", "head"):
            response = getattr(client, method)(url)
            if response.status_code in (303, 405):
                answers[f"{method.upper()} {url} ({namespace}:{name})"] = response
    return answers


def assert_sent_above(client, answers) -> None:
    bare = [where for where, response in answers.items() if response.status_code == 405]
    assert bare == []  # every form-only address the user may use has a page above it
    for where, response in answers.items():
        url = where.split()[1]
        location = response["Location"]
        assert url.startswith(location) and url != location, where  # the page above it
        assert client.get(location).status_code == 200, where


def test_the_organiser_visiting_a_form_only_address_is_sent_to_the_page_of_the_form(
    client, world, organiser
):
    client.force_login(organiser)
    answers = visits_of_form_only_addresses(client, world, lambda namespace, route: True)
    assert_sent_above(client, answers)
    slug = world["tournament"].slug
    sent = {where.split()[1]: response["Location"] for where, response in answers.items()}
    # The addresses of the reviewer's report, among the many the sweep found.
    assert sent[f"/manage/{slug}/referees/new/"] == f"/manage/{slug}/referees/"
    assert sent[f"/manage/{slug}/players/1/remove/"] == f"/manage/{slug}/players/1/"
    assert sent[f"/manage/{slug}/rounds/1/seat/"] == f"/manage/{slug}/rounds/1/"
    assert sent[f"/manage/{slug}/seating/publish/"] == f"/manage/{slug}/seating/"
    assert sent[f"/manage/{slug}/rounds/1/tables/1/end/"] == f"/manage/{slug}/rounds/1/tables/1/"
    assert sent[f"/manage/{slug}/referees/ref1/password/"] == f"/manage/{slug}/referees/"
    assert len(answers) >= 40


def test_a_referee_visiting_a_form_only_address_is_sent_to_the_table_screen(client, world):
    client.force_login(world["referee"])
    answers = visits_of_form_only_addresses(
        client, world, lambda namespace, route: namespace == "referee"
    )
    assert_sent_above(client, answers)
    slug = world["tournament"].slug
    sent = {where.split()[1]: response["Location"] for where, response in answers.items()}
    for entry in ("win", "false-win", "correct", "undo"):
        assert sent[f"/referee/{slug}/1/1/{entry}/"] == f"/referee/{slug}/1/1/"


def test_the_api_still_answers_a_wrong_method_with_its_own_405(client, world, organiser):
    client.force_login(organiser)
    response = client.get("/api/score")
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")
