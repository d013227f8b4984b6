"""The organiser's EMA readiness page: the problems grouped with their links, the weight
preview called an estimate, the base ranks, and the EMA file's download confirmed while
blocking problems remain. Organisers only."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from factories import make_user
from preset_world import PRESETS, build

from tournament.models import Player, Round, Table
from tournament.services import add_player, confirm_game, end_game

pytestmark = pytest.mark.django_db

URL = "/manage/spring-cup/print/ema/readiness/"


@pytest.fixture(params=PRESETS)
def world(request):
    return build(request.param)


def _ready(world) -> None:
    """Round 2 finished and confirmed; dates, planned rounds, EMA numbers and countries."""
    for table in Table.objects.filter(round__tournament=world.tournament, round__number=2):
        end_game(table=table, ended_by_time=True, entered_by=world.referee)
        confirm_game(table=table, confirmed_by=world.organiser)
    tournament = world.tournament
    tournament.start_date = date(2026, 5, 2)
    tournament.planned_rounds = 2
    tournament.save()
    for index, player in enumerate(world.players, start=1):
        Player.objects.filter(pk=player.pk).update(ema_number=f"040100{index:02}", country="SE")


def test_the_organiser_sees_problems_weight_and_base_ranks_under_every_preset(client, world):
    client.force_login(world.organiser)
    response = client.get(URL)

    assert response.status_code == 200
    text = response.content.decode()
    assert "None" not in text
    assert "Blocking problems" in text and "Warnings" in text
    assert "Games not finished" in text
    assert 'href="/manage/spring-cup/rounds/2/tables/1/"' in text
    assert 'href="/manage/spring-cup/players/1/"' in text
    assert "MERS weight (estimate)" in text and "not an official figure" in text
    assert "No estimate without the tournament's dates." in text
    rows = response.context["readiness"].rows
    assert len(rows) == 8 and rows[0].base_rank == 1000 and rows[-1].base_rank == 0
    assert "714" in text  # the four level players of the timed game share 3rd place of 8


def test_blocking_problems_ask_for_a_confirmation_before_the_download(client, world):
    client.force_login(world.organiser)
    text = client.get(URL).content.decode()

    assert 'action="/manage/spring-cup/print/ema.csv"' in text
    assert 'name="confirm" value="1" required' in text
    assert "blocking problems remain" in text
    # The download itself is the existing export, whatever the readiness.
    response = client.get("/manage/spring-cup/print/ema.csv?confirm=1")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")


def test_a_ready_tournament_offers_the_download_at_once(client, world):
    _ready(world)
    client.force_login(world.organiser)
    text = client.get(URL).content.decode()

    assert "Nothing blocks the EMA results file." in text
    assert 'class="button" href="/manage/spring-cup/print/ema.csv"' in text
    assert "required" not in text
    assert "Estimated weight: 1" in text  # one day, 8 players, one country


def test_a_fix_link_leads_to_a_page_the_organiser_can_open(client, world):
    Player.objects.filter(pk=world.players[1].pk).update(ema_number="123")
    client.force_login(world.organiser)
    response = client.get(URL)
    (item,) = [
        item
        for group in response.context["blocking"]
        for item in group["items"]
        if item["problem"].kind == "ema_number_bad"
    ]
    assert client.get(item["link"]).status_code == 200


def test_the_readiness_page_is_linked_where_the_ema_file_is(client, world):
    client.force_login(world.organiser)
    assert URL in client.get("/manage/spring-cup/print/").content.decode()
    assert URL in client.get("/manage/spring-cup/print/ema/").content.decode()


def test_the_dashboard_sends_a_finished_tournament_to_the_readiness_page(client, world):
    _ready(world)
    Round.objects.filter(tournament=world.tournament).update(status=Round.Status.FINISHED)
    client.force_login(world.organiser)
    text = client.get("/manage/spring-cup/").content.decode()
    assert f'href="{URL}">Send the EMA results file' in text


def test_a_visitor_is_asked_to_log_in(client, world):
    response = client.get(URL)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("who", ["referee", "stranger"])
def test_a_user_who_does_not_organise_the_tournament_gets_403(client, world, who):
    user = world.referee if who == "referee" else make_user("zed")
    client.force_login(user)
    assert client.get(URL).status_code == 403


def test_the_page_refuses_a_post(client, world):
    client.force_login(world.organiser)
    assert client.post(URL).status_code == 405


def test_the_page_is_in_chinese_too(client, world):
    client.force_login(world.organiser)
    response = client.get(URL, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 200
    assert "None" not in response.content.decode()


def test_the_page_asks_as_many_queries_for_a_bigger_field(client, world):
    client.force_login(world.organiser)
    with CaptureQueriesContext(connection) as small:
        assert client.get(URL).status_code == 200
    for key in range(30, 50):
        add_player(tournament=world.tournament, key=str(key), name=f"More {key}", country="NO")
    with CaptureQueriesContext(connection) as big:
        assert client.get(URL).status_code == 200
    assert len(big) == len(small)
