"""The registrations endpoints: the organiser's list and decisions, and the settings. Nothing
for referees or visitors."""

from __future__ import annotations

import pytest
from factories import make_players, make_tournament
from preset_world import PRESETS

from tournament.models import Registration
from tournament.services import registrations as service

pytestmark = pytest.mark.django_db

T = "/api/tournaments/spring-cup"
Status = Registration.Status


@pytest.fixture
def cup(tournament):
    tournament.registration = "approval"
    tournament.registration_cap = 4
    tournament.save()
    return tournament


def sign_up(tournament, family, **fields):
    return service.register(tournament, {"family_name": family, **fields}, address="192.0.2.1")


def test_the_organiser_lists_registrations_with_counts_and_contact(as_organiser, cup):
    made = [sign_up(cup, f"F{number}", contact=f"f{number}@example.org") for number in range(5)]

    answer = as_organiser.get(f"{T}/registrations").json()

    rows = answer["registrations"]
    assert [row["id"] for row in rows] == [r.pk for r in made]
    assert [row["status"] for row in rows] == ["pending"] * 4 + ["waiting"]
    assert rows[4]["waiting_place"] == 1 and rows[0]["waiting_place"] is None
    assert rows[0]["contact"] == "f0@example.org"
    counts = answer["counts"]
    assert (counts["pending"], counts["waiting"], counts["field"], counts["cap"]) == (4, 1, 0, 4)


@pytest.mark.parametrize("preset", PRESETS)
def test_accepting_makes_a_player(as_organiser, cup, preset):
    cup.preset = preset
    cup.save()
    registration = sign_up(cup, "Berg", given_name="Anna", country="SE")

    response = as_organiser.post(f"{T}/registrations/{registration.pk}/accept")

    assert response.status_code == 200
    assert (response.json()["status"], response.json()["player"]) == ("accepted", "1")
    assert cup.players.get().name == "Anna Berg"


def test_accepting_beyond_the_cap_is_a_conflict(as_organiser, cup):
    make_players(cup, 4)
    registration = sign_up(cup, "Berg")

    response = as_organiser.post(f"{T}/registrations/{registration.pk}/accept", {})

    assert (response.status_code, response.json()["error"]) == (409, "field_full")
    registration.refresh_from_db()
    assert registration.status == Status.WAITING


def test_rejecting_offers_the_place_to_the_first_waiting(as_organiser, cup):
    made = [sign_up(cup, f"F{number}") for number in range(5)]

    response = as_organiser.post(f"{T}/registrations/{made[0].pk}/reject")

    assert response.json()["status"] == "rejected"
    made[4].refresh_from_db()
    assert made[4].status == Status.PENDING


def test_withdrawing(as_organiser, cup):
    registration = sign_up(cup, "Berg")

    response = as_organiser.post(f"{T}/registrations/{registration.pk}/withdraw")

    assert response.json()["status"] == "withdrawn"


def test_moving_between_the_waiting_list_and_the_field(as_organiser, cup):
    registration = sign_up(cup, "Berg")
    url = f"{T}/registrations/{registration.pk}/move"

    waiting = as_organiser.post(url, {"to": "waiting"})
    field = as_organiser.post(url, {"to": "field"})
    again = as_organiser.post(url, {"to": "field"})
    wrong = as_organiser.post(url, {"to": "somewhere"})

    assert (waiting.json()["status"], waiting.json()["waiting_place"]) == ("waiting", 1)
    assert (field.json()["status"], field.json()["player"]) == ("accepted", "1")
    assert (again.status_code, again.json()["error"]) == (409, "registration_status")
    assert (wrong.status_code, wrong.json()["error"]) == (400, "invalid")


def test_a_registration_of_another_tournament_is_not_found(as_organiser, cup, organiser):
    other = make_tournament(organisers=[organiser], slug="other", registration="instant")
    theirs = sign_up(other, "Berg")

    response = as_organiser.post(f"{T}/registrations/{theirs.pk}/reject")

    assert (response.status_code, response.json()["error"]) == (404, "not_found")
    theirs.refresh_from_db()
    assert theirs.status == Status.ACCEPTED


def test_settings_are_read_and_changed(as_organiser, cup):
    made = [sign_up(cup, f"F{number}") for number in range(5)]

    changed = as_organiser.patch(
        f"{T}/registrations/settings",
        {"registration": "instant", "registration_cap": 5, "registration_closes": None},
    )
    read = as_organiser.get(f"{T}/registrations/settings").json()

    assert changed.status_code == 200
    assert (read["registration"], read["registration_cap"], read["open"]) == ("instant", 5, True)
    made[4].refresh_from_db()
    assert made[4].status == Status.ACCEPTED  # the new place went to the waiting list


def test_settings_refuse_closing_before_opening_and_bad_values(as_organiser, cup):
    times = {
        "registration_opens": "2026-05-02T10:00:00+00:00",
        "registration_closes": "2026-05-01T10:00:00+00:00",
    }

    refused = as_organiser.patch(f"{T}/registrations/settings", times)
    small = as_organiser.patch(f"{T}/registrations/settings", {"registration_cap": 3})
    mode = as_organiser.patch(f"{T}/registrations/settings", {"registration": "open"})

    assert (refused.status_code, refused.json()["error"]) == (400, "bad_registration_times")
    assert small.status_code == 400 and "registration_cap" in small.json()["fields"]
    assert mode.status_code == 400 and "registration" in mode.json()["fields"]
    cup.refresh_from_db()
    assert (cup.registration, cup.registration_cap) == ("approval", 4)


def test_nothing_for_referees_or_visitors(anonymous, as_bob, cup):
    registration = sign_up(cup, "Berg")

    assert anonymous.get(f"{T}/registrations").status_code == 403
    assert as_bob.get(f"{T}/registrations").status_code == 403
    assert as_bob.get(f"{T}/registrations/settings").status_code == 403
    assert anonymous.post(f"{T}/registrations/{registration.pk}/accept").status_code == 401
    assert as_bob.post(f"{T}/registrations/{registration.pk}/accept").status_code == 403
    assert as_bob.patch(f"{T}/registrations/settings", {"registration": "off"}).status_code == 403
    registration.refresh_from_db()
    assert registration.status == Status.PENDING


def test_a_private_tournament_is_not_found_for_strangers(anonymous, cup):
    cup.public = False
    cup.save()

    assert anonymous.get(f"{T}/registrations").status_code == 404
