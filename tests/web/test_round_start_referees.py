"""Starting play in a round whose tables have no referee asks first: the round page names the
tables that only organisers can enter and starts the round only when "Start anyway" is sent;
the API answers 409 tables_without_referees unless `confirm` is true. A deactivated referee
counts as none."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from factories import seated_round

from tournament.models import Round
from tournament.services import assign_referees, set_round_status
from tournament.services.rounds import tables_without_referees

pytestmark = pytest.mark.django_db

STATUS = reverse("organiser:round_status", kwargs={"slug": "spring-cup", "number": 1})
ROUND = reverse("organiser:round", kwargs={"slug": "spring-cup", "number": 1})
API = "/api/tournaments/spring-cup/rounds/1/status"


@pytest.fixture
def seated(tournament, organiser, players):
    round, _tables = seated_round(
        tournament, organiser, [players[:4], players[4:]], status="seated"
    )
    return round


@pytest.fixture
def logged_in(client, organiser):
    client.force_login(organiser)
    return client


def status_of(round: Round) -> str:
    round.refresh_from_db()
    return round.status


def test_the_service_names_the_tables_without_an_active_referee(
    seated, organiser, referee, other_referee
):
    assign_referees(table=seated.tables.get(number=1), referees=[referee], actor=organiser)
    assign_referees(table=seated.tables.get(number=2), referees=[other_referee], actor=organiser)
    other_referee.is_active = False
    other_referee.save()
    assert tables_without_referees(seated) == [2]

    with pytest.raises(ValidationError) as refused:
        set_round_status(round=seated, status="playing", actor=organiser, unrefereed_ok=False)

    assert refused.value.code == "tables_without_referees"
    assert refused.value.messages == [
        "Table 2 has no referee: only organisers can enter its results."
    ]
    assert status_of(seated) == "seated"
    set_round_status(round=seated, status="playing", actor=organiser, unrefereed_ok=True)
    assert status_of(seated) == "playing"


def test_the_page_warns_then_asks_then_starts_when_confirmed(logged_in, seated):
    page = logged_in.get(ROUND).content.decode()
    assert "Tables 1, 2 have no referee yet" in page

    asked = logged_in.post(STATUS, {"status": "playing"})

    assert asked.status_code == 200
    text = asked.content.decode()
    assert "Tables 1, 2 have no referee: only organisers can enter their results." in text
    assert "Start anyway?" in text
    assert 'name="confirm" value="1"' in text
    assert status_of(seated) == "seated"

    started = logged_in.post(STATUS, {"status": "playing", "confirm": "1"})

    assert started.status_code == 302
    assert status_of(seated) == "playing"


def test_a_round_with_every_table_refereed_starts_at_once(logged_in, seated, organiser, referee):
    for table in seated.tables.all():
        assign_referees(table=table, referees=[referee], actor=organiser)
    assert "no referee yet" not in logged_in.get(ROUND).content.decode()

    assert logged_in.post(STATUS, {"status": "playing"}).status_code == 302
    assert status_of(seated) == "playing"


def test_the_api_refuses_without_confirm(logged_in, seated, organiser, referee):
    assign_referees(table=seated.tables.get(number=2), referees=[referee], actor=organiser)

    refused = logged_in.post(API, {"status": "playing"}, content_type="application/json")

    assert refused.status_code == 409
    assert refused.json() == {
        "error": "tables_without_referees",
        "message": "Table 1 has no referee: only organisers can enter its results. "
        'Send "confirm": true to start anyway.',
    }
    assert status_of(seated) == "seated"
    started = logged_in.post(
        API, {"status": "playing", "confirm": True}, content_type="application/json"
    )
    assert started.status_code == 200
    assert started.json()["status"] == "playing"


def test_the_api_confirm_must_be_a_boolean(logged_in, seated):
    response = logged_in.post(
        API, {"status": "playing", "confirm": "yes"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert "confirm" in response.json()["fields"]
    assert status_of(seated) == "seated"


def test_other_steps_are_not_asked(logged_in, seated):
    """Going back to draft needs no referees."""
    assert (
        logged_in.post(API, {"status": "draft"}, content_type="application/json").json()["status"]
        == "draft"
    )
