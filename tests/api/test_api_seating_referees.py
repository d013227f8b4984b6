"""The seating of a round through the API carries its tables' referees: the answer (and a GET
of the round) shows each table's referees by username; a table sent with `referees` gets
exactly those, which must be referees of the tournament (400 naming the table otherwise, and
nothing changes); a table sent without keeps its referees when seated again and takes the
previous round's on a first seating, as the seating pages do."""

from __future__ import annotations

import pytest
from factories import make_tournament

from tournament.models import Player, RefereeAccount, Round
from tournament.services import assign_referees
from tournament.services.accounts import create_referee_accounts

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"


@pytest.fixture
def eight(tournament):
    return [
        Player.objects.create(tournament=tournament, key=str(n), name=f"P{n}") for n in range(1, 9)
    ]


@pytest.fixture
def refs(tournament, organiser):
    made = create_referee_accounts(
        tournament=tournament, usernames=["referee-01", "referee-02"], actor=organiser
    )
    return [user for user, _password in made]


def tables(*referees: list[str] | None) -> dict:
    """Two tables, players 1-4 and 8-5, with the referees given (None: not sent)."""
    seated = [{"E": "1", "S": "2", "W": "3", "N": "4"}, {"E": "8", "S": "7", "W": "6", "N": "5"}]
    for table, names in zip(seated, referees, strict=False):
        if names is not None:
            table["referees"] = names
    return {"tables": seated}


def referees(body: dict) -> list[list[str]]:
    return [table["referees"] for table in body["tables"]]


def seat(api, number: int, body: dict):
    return api.post(f"{T}/rounds/{number}/seating", body)


@pytest.fixture
def draft(as_organiser, tournament, eight):
    assert as_organiser.post(f"{T}/rounds").status_code == 201
    return Round.objects.get(tournament=tournament, number=1)


def test_the_seating_sets_and_shows_the_referees(as_organiser, draft, refs):
    response = seat(as_organiser, 1, tables(["referee-02", "referee-01"], ["referee-01"]))

    assert response.status_code == 200
    assert referees(response.json()) == [["referee-01", "referee-02"], ["referee-01"]]
    assert referees(as_organiser.get(f"{T}/rounds/1").json()) == [
        ["referee-01", "referee-02"],
        ["referee-01"],
    ]


def test_seating_again_keeps_the_referees_of_tables_sent_without(as_organiser, draft, refs):
    seat(as_organiser, 1, tables(["referee-01"], ["referee-02"]))

    again = seat(as_organiser, 1, tables(None, []))

    assert referees(again.json()) == [["referee-01"], []]


def test_a_first_seating_takes_the_previous_rounds_referees(as_organiser, draft, refs):
    seat(as_organiser, 1, tables(["referee-01"], ["referee-02"]))
    as_organiser.post(f"{T}/rounds")

    second = seat(as_organiser, 2, tables(None, ["referee-01"]))

    assert referees(second.json()) == [["referee-01"], ["referee-01"]]


def test_a_random_seating_keeps_them_too(as_organiser, draft, refs):
    seat(as_organiser, 1, tables(["referee-01"], ["referee-02"]))

    again = seat(as_organiser, 1, {"random": True, "seed": 3})

    assert referees(again.json()) == [["referee-01"], ["referee-02"]]


def test_a_user_refereeing_another_table_here_may_be_given_one(as_organiser, draft, bob):
    """As the round's referee form offers them: the GET's referees can be sent back."""
    seat(as_organiser, 1, tables())
    # As an archive's import assigns a user who is no referee account here.
    assign_referees(
        table=draft.tables.get(number=1), referees=[bob], actor=draft.tournament.organisers.first()
    )
    body = as_organiser.get(f"{T}/rounds/1").json()

    response = seat(as_organiser, 1, tables(*referees(body)[::-1]))

    assert response.status_code == 200
    assert referees(response.json()) == [[], ["bob"]]


@pytest.mark.parametrize(
    ("sent", "message"),
    [
        (
            tables(["referee-01"], ["nobody"]),
            "Fix the referees: table 2: nobody is not a referee of this tournament (make "
            "referee accounts on the tournament's referee accounts page first).",
        ),
        (
            tables(["theirs", "alice"]),
            "Fix the referees: table 1: theirs is not a referee of this tournament "
            "(make referee accounts on the tournament's referee accounts page first).",
        ),
        (
            tables([f"ghost-{n}" for n in range(7)]),
            "Fix the referees: table 1: ghost-0, ghost-1, ghost-2, ghost-3, ghost-4, … are not "
            "referees of this tournament (make referee accounts on the tournament's referee "
            "accounts page first).",
        ),
        (tables("referee-01"), "Fix the referees: table 1: referees must be a list of usernames."),
        (tables([1]), "Fix the referees: table 1: referees must be a list of usernames."),
        (
            tables(["referee-01"] * 101),
            "Fix the referees: table 1: at most 100 referees, not 101.",
        ),
        (
            {"tables": [{"E": "1", "S": "2", "W": "3", "N": "4", "referee": "referee-01"}]},
            "Fix the seating: table 1 needs the keys of its players at E, S, W and N (and "
            "perhaps its referees), nothing else.",
        ),
    ],
    ids=[
        "unknown",
        "another tournament's (the organiser may)",
        "many unknown",
        "text",
        "number",
        "too many",
        "key",
    ],
)
def test_a_wrong_referee_is_refused_and_nothing_changes(
    as_organiser, draft, refs, organiser, sent, message
):
    other = make_tournament(slug="other-cup", organisers=[organiser])
    [(theirs, _password)] = create_referee_accounts(
        tournament=other, usernames=["theirs"], actor=organiser
    )
    seat(as_organiser, 1, tables(["referee-02"], ["referee-02"]))
    before = as_organiser.get(f"{T}/rounds/1").json()

    response = as_organiser.post(f"{T}/rounds/1/seating", sent)

    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert response.json()["fields"] == {"tables": message}
    assert as_organiser.get(f"{T}/rounds/1").json() == before
    assert RefereeAccount.objects.get(user=theirs).tournament == other


def test_outsiders_see_no_referees(as_organiser, anonymous, draft, refs):
    seat(as_organiser, 1, tables(["referee-01"]))
    as_organiser.post(f"{T}/rounds/1/status", {"status": "seated"})

    public = anonymous.get(f"{T}/rounds/1").json()

    assert all("referees" not in table for table in public["tables"])


def test_the_document_describes_a_tables_referees(openapi):
    seating = openapi["paths"]["/api/tournaments/{slug}/rounds/{number}/seating"]["post"]
    schema = seating["requestBody"]["content"]["application/json"]["schema"]
    if "$ref" in schema:
        schema = openapi["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    table = schema["properties"]["tables"]
    table = table.get("items") or next(
        option["items"] for option in table["anyOf"] if "items" in option
    )
    assert table["properties"]["referees"]["items"] == {"type": "string"}
    assert table["required"] == ["E", "S", "W", "N"]
    assert "referees" in seating["description"]
