"""The final stage through the JSON API: its settings, the cut (preview, confirm) and the
standings carrying the stage. Every answer is checked against the OpenAPI document
(tests/api/conftest.py)."""

from __future__ import annotations

import pytest
from django.utils import timezone
from factories import make_players, make_tournament, make_user, seated_round

from tournament.models import Cut, Round, Seat, Table

pytestmark = pytest.mark.django_db

T = "/api/tournaments/final-cup"


@pytest.fixture
def cup(db):
    organiser = make_user("olga")
    tournament = make_tournament(
        organisers=[organiser],
        slug="final-cup",
        cut_after_round=2,
        cut_size=8,
        carry_over="1/2",
        planned_rounds=3,
    )
    players = make_players(tournament, 16)
    tables = [players[i : i + 4] for i in range(0, 16, 4)]
    now = timezone.now()
    for _ in range(2):
        round, made = seated_round(tournament, organiser, tables)
        for table in made:
            for seat, score in zip(table.seats_in_order, [41, 21, -21, -41], strict=True):
                Seat.objects.filter(pk=seat.pk).update(score=score)
        Table.objects.filter(round=round).update(ended_at=now, confirmed_at=now)
        Round.objects.filter(pk=round.pk).update(status=Round.Status.FINISHED)
    return tournament, organiser


def test_the_tournament_carries_its_stage_settings(api_as, cup):
    tournament, organiser = cup
    body = api_as(organiser).get(T).json()
    assert (body["cut_after_round"], body["cut_size"], body["carry_over"]) == (2, 8, "1/2")
    assert body["final_seating"] == "rank" and body["consolation"] is True
    assert body["stage"] == "main"


def test_the_organiser_sets_the_stage(api_as, cup):
    tournament, organiser = cup
    response = api_as(organiser).patch(T, {"cut_size": 4, "carry_over": "2/4"})
    assert response.status_code == 200
    assert (response.json()["cut_size"], response.json()["carry_over"]) == (4, "1/2")
    refused = api_as(organiser).patch(T, {"cut_size": 6})
    assert refused.status_code == 400


def test_cut_preview_then_confirm(api_as, cup):
    tournament, organiser = cup
    api = api_as(organiser)
    preview = api.get(f"{T}/cut").json()
    assert preview["confirmed"] is False and preview["size"] == 8
    inside = [row for row in preview["players"] if row["position"] is not None]
    assert len(inside) == 8
    assert inside[0]["carried_table_points"] == "4" and inside[0]["carried_score"] == "41"
    response = api.post(f"{T}/cut", {})
    assert response.status_code == 200
    assert response.json()["confirmed"] is True
    assert [row["position"] for row in response.json()["players"]] == list(range(1, 9))
    assert Cut.objects.filter(tournament=tournament).exists()
    assert api.post(f"{T}/cut", {}).json()["error"] == "cut_confirmed"
    assert api.get(T).json()["stage"] == "final"
    rows = api.get(f"{T}/standings").json()["standings"]
    assert rows[0]["stage"] == "final" and rows[0]["carried_score"] == "41"
    assert rows[8]["stage"] == "consolation"


def test_cut_is_for_organisers(api_as, anonymous, cup):
    assert anonymous.get(f"{T}/cut").status_code in (401, 403, 404)
    assert api_as(make_user("mallory")).get(f"{T}/cut").status_code in (403, 404)
    assert api_as(make_user("eve")).post(f"{T}/cut", {}).status_code in (403, 404)
    assert not Cut.objects.exists()


def test_cut_refused_before_its_round_is_finished(api_as, cup):
    tournament, organiser = cup
    Round.objects.filter(number=2).update(status=Round.Status.PLAYING)
    response = api_as(organiser).post(f"{T}/cut", {})
    assert response.status_code == 409
    assert response.json()["error"] == "rounds_open"


def test_no_stage_is_409(api_as, cup):
    tournament, organiser = cup
    tournament.cut_after_round = None
    tournament.cut_size = None
    tournament.save()
    response = api_as(organiser).get(f"{T}/cut")
    assert response.status_code == 409 and response.json()["error"] == "no_stage"


def test_the_organiser_undoes_the_cut_and_gets_the_preview_again(api_as, cup):
    tournament, organiser = cup
    api = api_as(organiser)
    assert api.delete(f"{T}/cut").json()["error"] == "no_cut"
    api.post(f"{T}/cut", {})
    response = api.delete(f"{T}/cut")
    assert response.status_code == 200
    assert response.json()["confirmed"] is False and response.json()["size"] == 8
    assert not Cut.objects.filter(tournament=tournament).exists()
    assert api.get(T).json()["stage"] == "main"
    assert tournament.audit.filter(action="cut_undone").count() == 1


def test_the_cut_stays_once_a_round_after_it_has_started(api_as, cup):
    tournament, organiser = cup
    api = api_as(organiser)
    api.post(f"{T}/cut", {})
    Round.objects.create(tournament=tournament, number=3, status=Round.Status.PLAYING)
    response = api.delete(f"{T}/cut")
    assert (response.status_code, response.json()["error"]) == (409, "final_stage_started")
    assert Cut.objects.filter(tournament=tournament).exists()


def test_only_an_organiser_undoes_the_cut(api_as, anonymous, cup):
    tournament, organiser = cup
    api_as(organiser).post(f"{T}/cut", {})
    assert anonymous.delete(f"{T}/cut").status_code in (401, 403, 404)
    assert api_as(make_user("mallory")).delete(f"{T}/cut").status_code in (403, 404)
    assert Cut.objects.filter(tournament=tournament).exists()
