"""GET /api/tournaments/{slug}/ema-readiness: the problems, the weight's factors and estimate
(never official) and the base ranks, for the tournament's organisers only; the same answer as
the organiser's page."""

from __future__ import annotations

from datetime import date

import pytest
from preset_world import PRESETS, build

from tournament.models import Player
from tournament.reads.ema_readiness import readiness

pytestmark = pytest.mark.django_db

URL = "/api/tournaments/spring-cup/ema-readiness"


@pytest.fixture(params=PRESETS)
def world(request, organiser, bob):
    return build(request.param, organiser, referee=bob)


def test_an_organiser_reads_the_problems_weight_and_base_ranks(as_organiser, world):
    Player.objects.filter(pk=world.players[1].pk).update(ema_number="4010001")
    response = as_organiser.get(URL)

    assert response.status_code == 200
    answer = response.json()
    assert answer["ready"] is False
    kinds = [problem["kind"] for problem in answer["problems"]]
    assert kinds == [problem.kind for problem in readiness(world.tournament).problems]
    bad = next(problem for problem in answer["problems"] if problem["kind"] == "ema_number_bad")
    assert bad["blocking"] is True and bad["player"] == "2"
    assert bad["fix_url"] == "/manage/spring-cup/players/2/"
    assert "eight digits" in bad["message"]
    in_play = next(problem for problem in answer["problems"] if problem["kind"] == "game_in_play")
    assert (in_play["round"], in_play["table"]) == (2, 1)
    assert answer["ranked"] == 8
    assert [row["base_rank"] for row in answer["base_ranks"]] == [
        1000, 857, 714, 714, 714, 714, 143, 0,
    ]  # fmt: skip
    weight = answer["weight"]
    assert weight["official"] is False and weight["estimate"] is None and weight["days"] is None
    assert [factor["name"] for factor in weight["factors"]] == [
        "days", "players", "countries", "qualification",
    ]  # fmt: skip


def test_the_estimate_is_given_once_the_tournament_has_dates(as_organiser, world):
    world.tournament.start_date = date(2026, 5, 2)
    world.tournament.end_date = date(2026, 5, 3)
    world.tournament.save()
    for player, code in zip(world.players, ["SE", "DK", "FI", "NL", "DE", "FR"], strict=False):
        Player.objects.filter(pk=player.pk).update(country=code)
    weight = as_organiser.get(URL).json()["weight"]
    assert weight["days"] == 2 and weight["countries"] == 6
    assert weight["estimate"] == 2.5 and weight["estimate_if_qualifying"] == 3.5


def test_a_referee_of_the_tournament_is_refused(as_bob, world):
    assert as_bob.get(URL).status_code == 403


def test_a_visitor_without_a_token_is_refused_a_public_tournaments_readiness(anonymous, world):
    response = anonymous.get(URL)
    assert response.status_code == 403
    assert "organiser" in response.json()["message"]


def test_an_unknown_tournament_is_404(as_organiser, world):
    assert as_organiser.get("/api/tournaments/nowhere/ema-readiness").status_code == 404
