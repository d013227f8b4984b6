"""The permission matrix: every endpoint and method, for every kind of caller.

Callers: anonymous, a bad token, a logged-in user with no role, the referee of another table
(carol, table 2), the table's referee (bob, table 1), the organiser (alice, who also holds the
permission to create tournaments) and the organiser of another tournament (olga). Each request
runs on a fresh database in the same state: round 1 in play with hand 1 and a deduction
recorded at table 1, and round 2 a draft. The same matrix runs again with the tournament
private: then outsiders get 404 (anonymous writes still get 401 first).
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from factories import make_round, make_tournament

from tournament.models import Round, Tournament
from tournament.services import DealInput, record_deal, record_penalty

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"
TABLE = f"{T}/rounds/1/tables/1"
ROLES = (
    "anonymous",
    "bad_token",
    "no_role",
    "other_referee",
    "table_referee",
    "organiser",
    "other_organiser",
)
OUTSIDERS = {"anonymous", "no_role", "other_organiser"}

# (method, url, body, who may, status on success). "{penalty}" is the deduction's id.
OPERATIONS = [
    ("GET", "/api/tournaments", None, "anyone", 200),
    ("POST", "/api/tournaments", {"name": "New", "slug": "new-cup"}, "creator", 201),
    ("GET", T, None, "reader", 200),
    ("PATCH", T, {"venue": "Hall 2"}, "organiser", 200),
    ("GET", f"{T}/players", None, "reader", 200),
    ("POST", f"{T}/players", {"key": "20", "name": "New Player"}, "organiser", 201),
    ("PATCH", f"{T}/players/1", {"club": "Dragons"}, "organiser", 200),
    # Player 1 has played: the organiser passes the check and is refused by the service.
    ("DELETE", f"{T}/players/1", None, "organiser", 409),
    ("GET", f"{T}/standings", None, "reader", 200),
    ("GET", f"{T}/rounds", None, "reader", 200),
    ("POST", f"{T}/rounds", None, "organiser", 201),
    ("GET", f"{T}/rounds/1", None, "reader", 200),
    (
        "POST",
        f"{T}/rounds/2/seating",
        {
            "tables": [
                {"E": "1", "S": "2", "W": "3", "N": "4"},
                {"E": "5", "S": "6", "W": "7", "N": "8"},
            ]
        },
        "organiser",
        200,
    ),
    ("POST", f"{T}/rounds/1/status", {"status": "playing"}, "organiser", 200),
    ("GET", TABLE, None, "reader", 200),
    ("PUT", f"{TABLE}/referees", {"referees": ["bob"]}, "organiser", 200),
    ("POST", f"{TABLE}/hands", {"number": 2, "result": "draw"}, "referee", 201),
    ("PUT", f"{TABLE}/hands/1", {"result": "draw"}, "organiser", 200),
    ("DELETE", f"{TABLE}/hands/1", None, "referee", 200),
    ("POST", f"{TABLE}/false-wins", {"number": 2, "player": "1"}, "referee", 201),
    ("POST", f"{TABLE}/penalties", {"player": "2", "points": 5, "reason": "Late"}, "referee", 201),
    ("PATCH", f"{TABLE}/penalties/{{penalty}}", {"points": 10}, "organiser", 200),
    ("DELETE", f"{TABLE}/penalties/{{penalty}}", None, "organiser", 200),
    ("POST", f"{TABLE}/end", {"ended_by_time": True}, "referee", 200),
]


def expected(who: str, role: str, private: bool, success: int) -> int:
    if role == "bad_token":
        return 401
    if who == "anyone":
        return success
    if who == "creator":
        return 401 if role == "anonymous" else success if role == "organiser" else 403
    if who == "reader":
        return 404 if private and role in OUTSIDERS else success
    if role == "anonymous":
        return 401
    if private and role in OUTSIDERS:
        return 404
    if role == "organiser" or (who == "referee" and role == "table_referee"):
        return success
    return 403


@pytest.fixture
def world(tournament, organiser, table, table2, bob, carol, players, make_user, api_as):
    """Round 1 in play (tables 1 and 2 of tests/api/conftest.py) with hand 1 and a deduction
    at table 1; round 2 a draft; olga organises another tournament; nora has no role."""
    olga, nora = make_user("olga"), make_user("nora")
    organiser.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    make_tournament(organisers=[olga], name="Other Cup", slug="other-cup")
    make_round(tournament, number=2, status=Round.Status.DRAFT)
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=bob)
    penalty = record_penalty(
        table=table, player=players[3], points=5, distributed=False, reason="Late", entered_by=bob
    )
    clients = {
        "anonymous": api_as(None),
        "no_role": api_as(nora),
        "other_referee": api_as(carol),
        "table_referee": api_as(bob),
        "organiser": api_as(organiser),
        "other_organiser": api_as(olga),
    }
    bad = api_as(None)
    bad.headers = {"Authorization": "Bearer mcr_not-a-real-token"}
    clients["bad_token"] = bad
    return clients, penalty.pk


@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("method", "url", "body", "who", "success"),
    OPERATIONS,
    ids=[f"{method} {url.removeprefix(T) or '/'}" for method, url, *_ in OPERATIONS],
)
def test_permission(world, tournament, private, role, method, url, body, who, success):
    clients, penalty = world
    if private:
        Tournament.objects.filter(pk=tournament.pk).update(public=False)

    response = clients[role].call(method, url.format(penalty=penalty), body)

    assert response.status_code == expected(who, role, private, success), response.json()
    if response.status_code >= 400:
        assert (
            response.json()["error"]
            in {
                401: {"invalid_token", "login_required"},
                403: {"forbidden"},
                404: {"not_found"},
                409: {"player_has_results"},
            }[response.status_code]
        )
    if response.status_code == 401:
        assert response["WWW-Authenticate"].startswith("Bearer")


URLS = sorted({url for _, url, *_ in OPERATIONS})


@pytest.mark.parametrize("url", URLS)
def test_other_methods_are_refused_with_405(world, url):
    clients, penalty = world
    allowed = {method for method, other, *_ in OPERATIONS if other == url}

    for method in {"GET", "POST", "PUT", "PATCH", "DELETE"} - allowed:
        response = clients["organiser"].call(method, url.format(penalty=penalty), {})

        assert response.status_code == 405, method
        assert response.json()["error"] == "method_not_allowed"
        listed = set(response["Allow"].split(", "))
        assert listed == allowed | ({"HEAD"} if "GET" in allowed else set())
