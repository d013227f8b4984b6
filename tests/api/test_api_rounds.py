"""Rounds through the API: creating, seating, status and referees."""

from __future__ import annotations

import pytest
from factories import make_tournament, make_user

from tournament.models import AuditEntry, Player, Round, Seat
from tournament.services.accounts import create_referee_accounts, set_referee_active

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"


@pytest.fixture
def eight(tournament):
    return [
        Player.objects.create(tournament=tournament, key=str(n), name=f"P{n}") for n in range(1, 9)
    ]


@pytest.fixture
def draft(as_organiser, tournament):
    assert as_organiser.post(f"{T}/rounds").status_code == 201
    return Round.objects.get(tournament=tournament, number=1)


TWO_TABLES = {
    "tables": [
        {"E": "1", "S": "2", "W": "3", "N": "4"},
        {"E": "8", "S": "7", "W": "6", "N": "5"},
    ]
}


def seating(round_body):
    return [
        {wind: seat["player"] for wind, seat in table["seats"].items()}
        for table in round_body["tables"]
    ]


def test_organiser_creates_the_next_round(as_organiser, tournament):
    first = as_organiser.post(f"{T}/rounds")
    second = as_organiser.post(f"{T}/rounds", {})

    assert first.status_code == 201
    assert first["Location"] == f"{T}/rounds/1"
    assert first.json() == {
        "number": 1,
        "status": "draft",
        "tables": [],
        "count": 0,
        "limit": 50,
        "offset": 0,
        "next": None,
    }
    assert second.json()["number"] == 2


def test_create_round_takes_no_fields(as_organiser, tournament):
    response = as_organiser.post(f"{T}/rounds", {"number": 5})

    assert response.status_code == 400
    assert response.json()["fields"] == {"number": "Unknown field."}
    assert not Round.objects.exists()


def test_draft_rounds_are_for_organisers_only(anonymous, as_organiser, draft):
    assert anonymous.get(f"{T}/rounds").json() == {"rounds": []}
    assert anonymous.get(f"{T}/rounds/1").status_code == 404
    assert as_organiser.get(f"{T}/rounds").json() == {
        "rounds": [{"number": 1, "status": "draft", "tables": 0}]
    }
    assert as_organiser.get(f"{T}/rounds/1").status_code == 200


def test_explicit_seating(as_organiser, eight, draft):
    response = as_organiser.post(f"{T}/rounds/1/seating", TWO_TABLES)

    assert response.status_code == 200
    assert seating(response.json()) == TWO_TABLES["tables"]
    table = response.json()["tables"][1]
    assert table["seats"]["E"] == {"player": "8", "name": "P8", "score": 0}
    assert (table["number"], table["hands"], table["ended"], table["referees"]) == (2, 0, False, [])
    assert Seat.objects.get(player__key="5").starting_wind == "N"


def test_random_seating_repeats_with_the_same_seed(as_organiser, eight, draft):
    first = as_organiser.post(f"{T}/rounds/1/seating", {"random": True, "seed": 7}).json()
    second = as_organiser.post(f"{T}/rounds/1/seating", {"random": True, "seed": 7}).json()

    assert seating(first) == seating(second)
    seated = sorted(key for table in seating(first) for key in table.values())
    assert seated == sorted(str(n) for n in range(1, 9))


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, 'Send {"random": true} or {"tables": [{"E": key, ...}, ...]}.'),
        ({"random": True, **TWO_TABLES}, "Send either random: true or tables, not both."),
        (
            {"tables": [{"E": "1", "S": "2", "W": "3"}]},
            "Fix the seating: table 1 needs the keys of its players at E, S, W and N (and "
            "perhaps its referees), nothing else.",
        ),
        (
            {"tables": [{"E": "1", "S": "2", "W": "3", "N": "44"}]},
            "Fix the seating: table 1: no player has the key 44.",
        ),
    ],
)
def test_malformed_seating_is_refused(as_organiser, eight, draft, body, message):
    response = as_organiser.post(f"{T}/rounds/1/seating", body)

    assert response.status_code == 400
    assert response.json()["message"] == message
    assert not Seat.objects.exists()


def test_a_player_at_two_tables_is_refused_and_nothing_is_seated(as_organiser, eight, draft):
    body = {
        "tables": [
            {"E": "1", "S": "2", "W": "3", "N": "4"},
            {"E": "1", "S": "6", "W": "7", "N": "8"},
        ]
    }

    response = as_organiser.post(f"{T}/rounds/1/seating", body)

    assert response.status_code == 400
    assert response.json()["error"] == "already_seated"
    assert not Seat.objects.exists()


def test_round_moves_through_its_status(as_organiser, anonymous, eight, draft):
    as_organiser.post(f"{T}/rounds/1/seating", TWO_TABLES)

    seated = as_organiser.post(f"{T}/rounds/1/status", {"status": "seated"})
    playing = as_organiser.post(f"{T}/rounds/1/status", {"status": "playing", "confirm": True})

    assert (seated.status_code, seated.json()["status"]) == (200, "seated")
    assert playing.json()["status"] == "playing"
    assert anonymous.get(f"{T}/rounds").json()["rounds"] == [
        {"number": 1, "status": "playing", "tables": 2}
    ]
    frozen = as_organiser.post(f"{T}/rounds/1/seating", TWO_TABLES)
    assert frozen.json()["error"] == "seating_frozen"


def test_round_cannot_finish_from_draft(as_organiser, draft):
    response = as_organiser.post(f"{T}/rounds/1/status", {"status": "finished"})

    assert response.status_code == 400
    assert response.json()["error"] == "bad_transition"


def test_everyone_must_be_seated_before_publishing(as_organiser, eight, draft):
    as_organiser.post(f"{T}/rounds/1/seating", {"tables": TWO_TABLES["tables"][:1]})

    response = as_organiser.post(f"{T}/rounds/1/status", {"status": "seated"})

    assert response.json()["error"] == "players_unseated"
    assert Round.objects.get().status == "draft"


def test_unknown_status_is_a_field_error(as_organiser, draft):
    response = as_organiser.post(f"{T}/rounds/1/status", {"status": "open"})

    assert response.json()["fields"] == {
        "status": "Choose one of: draft, seated, playing, finished."
    }


def referee_accounts(tournament, organiser, *usernames):
    return [
        user
        for user, _password in create_referee_accounts(
            tournament=tournament, usernames=list(usernames), actor=organiser
        )
    ]


def test_organiser_assigns_referees(as_organiser, anonymous, tournament, organiser, eight, draft):
    referee_accounts(tournament, organiser, "bob", "carol")
    as_organiser.post(f"{T}/rounds/1/seating", TWO_TABLES)

    response = as_organiser.put(f"{T}/rounds/1/tables/2/referees", {"referees": ["carol", "bob"]})

    assert response.status_code == 200
    assert response.json() == {"referees": ["bob", "carol"]}
    assert as_organiser.get(f"{T}/rounds/1").json()["tables"][1]["referees"] == ["bob", "carol"]
    as_organiser.post(f"{T}/rounds/1/status", {"status": "seated"})
    assert "referees" not in anonymous.get(f"{T}/rounds/1").json()["tables"][1]


def test_unknown_referee_is_refused(as_organiser, eight, draft):
    as_organiser.post(f"{T}/rounds/1/seating", TWO_TABLES)

    response = as_organiser.put(f"{T}/rounds/1/tables/1/referees", {"referees": ["nobody"]})

    assert response.status_code == 400
    assert response.json()["error"] == "unknown_user"


def test_an_organiser_of_the_tournament_may_referee_a_table(as_organiser, eight, draft):
    as_organiser.post(f"{T}/rounds/1/seating", TWO_TABLES)

    response = as_organiser.put(f"{T}/rounds/1/tables/1/referees", {"referees": ["alice"]})

    assert response.status_code == 200
    assert response.json() == {"referees": ["alice"]}


@pytest.mark.parametrize("who", ["plain user", "another tournament's", "deactivated"])
def test_only_the_tournaments_referees_may_be_assigned(
    as_organiser, tournament, organiser, eight, draft, who
):
    as_organiser.post(f"{T}/rounds/1/seating", TWO_TABLES)
    [ours] = referee_accounts(tournament, organiser, "ref-ours")
    if who == "plain user":
        make_user("dave")
        name = "dave"
    elif who == "another tournament's":
        other = make_tournament(slug="other-cup", organisers=[organiser])
        referee_accounts(other, organiser, "ref-theirs")
        name = "ref-theirs"
    else:
        [gone] = referee_accounts(tournament, organiser, "ref-gone")
        set_referee_active(account=gone.referee_account, active=False, actor=organiser)
        name = "ref-gone"
    audited = AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_REFEREES).count()

    response = as_organiser.put(f"{T}/rounds/1/tables/1/referees", {"referees": ["ref-ours", name]})

    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "not_a_referee"
    assert body["fields"]["referees"].startswith(f"{name} cannot referee here")
    assert "ref-ours" not in body["message"]
    assert as_organiser.get(f"{T}/rounds/1").json()["tables"][0]["referees"] == []
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_REFEREES).count() == audited
    assert ours.is_active


def test_a_referee_change_is_audited_per_table(as_organiser, tournament, organiser, eight, draft):
    referee_accounts(tournament, organiser, "bob", "carol")
    as_organiser.post(f"{T}/rounds/1/seating", TWO_TABLES)

    as_organiser.put(f"{T}/rounds/1/tables/2/referees", {"referees": ["carol"]})
    as_organiser.put(f"{T}/rounds/1/tables/2/referees", {"referees": ["carol", "bob"]})
    as_organiser.put(f"{T}/rounds/1/tables/2/referees", {"referees": ["bob", "carol"]})  # same
    as_organiser.put(f"{T}/rounds/1/tables/2/referees", {"referees": []})

    entries = AuditEntry.objects.filter(action=AuditEntry.Action.TABLE_REFEREES).order_by("pk")
    assert [(e.table.number, e.actor, e.before, e.after) for e in entries] == [
        (2, organiser, {"referees": []}, {"referees": ["carol"]}),
        (2, organiser, {"referees": ["carol"]}, {"referees": ["bob", "carol"]}),
        (2, organiser, {"referees": ["bob", "carol"]}, {"referees": []}),
    ]


def test_missing_round_and_table_are_not_found(as_organiser, draft):
    assert as_organiser.get(f"{T}/rounds/9").status_code == 404
    assert as_organiser.get(f"{T}/rounds/1/tables/3").json()["error"] == "not_found"
    assert as_organiser.get(f"{T}/rounds/99999999999999999999").status_code == 404
