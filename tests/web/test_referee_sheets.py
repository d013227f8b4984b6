"""The live part of the table screen (round clock, hands played, sheet status, scores) and the
confirmation of game sheets by a second referee."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from factories import draws
from test_referee_pages import messages_of, snapshot, table_url

from tournament.models import Round, Table, Tournament
from tournament.services import (
    DealInput,
    confirm_game,
    end_game,
    pause_clock,
    record_deal,
    start_clock,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def second_referee_world(world):
    Tournament.objects.filter(pk=world.tournament.pk).update(confirmation="referee")
    world.tournament.refresh_from_db()
    return world


def live(client, world, table: int = 1):
    return client.get(table_url(world, "live", table=table), headers={"HX-Request": "true"})


# --- The live part -------------------------------------------------------------------------


def test_the_table_screen_polls_its_live_part(client, world):
    client.force_login(world.referee)
    html = client.get(table_url(world)).content.decode()
    live_url = table_url(world, "live")
    assert f'hx-get="{live_url}" hx-trigger="every 15s, live:refresh"' in html
    assert "vendor/htmx/htmx.min.js" in html and "tournament/live.js" in html
    assert "Round clock</span> <strong>not started</strong>" in html
    assert "Sheet: <strong>In play</strong>" in html


def test_the_live_part_is_a_fragment_with_clock_hands_scores_and_sheet(client, world, now):
    record_deal(
        table=world.table,
        number=1,
        deal=DealInput(result="win", winner=world.players[1], discarder=world.players[2], fan=10),
        entered_by=world.referee,
    )
    start_clock(round=world.round, actor=world.organiser, minutes=90)
    client.force_login(world.referee)
    response = live(client, world)
    assert response.status_code == 200
    # Kept by the browser but asked about each time (304 while nothing shown changed).
    assert response["Cache-Control"] == "no-cache" and response.has_header("ETag")
    html = response.content.decode()
    assert "<html" not in html and "<body" not in html
    assert 'data-hands-played="1"' in html
    assert "1 of 16 hands played" in html
    assert 'role="timer"' in html and "data-countdown-running" in html
    remaining = int(html.split('data-countdown="')[1].split('"')[0])
    assert remaining == 90 * 60
    assert "Sheet: <strong>In play</strong>" in html
    assert [part.split("<")[0] for part in html.split("data-score>")[1:]] == [
        "-8",
        "34",
        "-18",
        "-8",
    ]


def test_the_live_part_shows_a_paused_clock_and_a_table_behind_it(client, world, now):
    start_clock(round=world.round, actor=world.organiser, minutes=120)
    # An hour in, with one hand played: 8 hands are expected by now.
    Round.objects.filter(pk=world.round.pk).update(clock_started_at=now - timedelta(minutes=60))
    draws(world.table, 1, world.referee)
    world.round.refresh_from_db()
    pause_clock(round=world.round, actor=world.organiser)
    client.force_login(world.referee)
    html = live(client, world).content.decode()
    assert "paused" in html
    assert "data-countdown-running" not in html
    assert "Behind the clock: about 8 hands should be played by now." in html


def test_the_live_part_says_when_time_is_up(client, world, now):
    start_clock(round=world.round, actor=world.organiser, minutes=30)
    Round.objects.filter(pk=world.round.pk).update(clock_started_at=now - timedelta(minutes=31))
    client.force_login(world.referee)
    html = live(client, world).content.decode()
    assert "time is up" in html
    assert "data-countdown" not in html


def test_the_live_part_of_a_submitted_and_a_confirmed_sheet(client, world):
    draws(world.table, 16, world.referee)
    end_game(table=world.table, ended_by_time=False, entered_by=world.referee)
    client.force_login(world.referee)
    html = live(client, world).content.decode()
    assert "Sheet: <strong>Submitted, awaiting confirmation</strong>" in html
    assert "The organiser confirms the sheet" in html
    assert "Result of the game" in html
    confirm_game(table=world.table, confirmed_by=world.organiser)
    html = live(client, world).content.decode()
    assert "Sheet: <strong>Confirmed</strong> by alice" in html
    assert "The organiser confirms" not in html


def test_who_may_read_the_live_part(client, world):
    url = table_url(world, "live")
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    client.force_login(world.other_referee)
    assert client.get(url).status_code == 403
    assert client.get(table_url(world, "live", table=9)).status_code == 404
    assert client.get(table_url(world, "live", slug="no-such-cup")).status_code == 404
    client.force_login(world.organiser)
    assert client.get(url).status_code == 200
    assert client.post(url).status_code == 405


def test_a_private_tournament_live_part_is_hidden_from_strangers(client, world):
    Tournament.objects.filter(pk=world.tournament.pk).update(public=False)
    client.force_login(get_user_model().objects.create_user(username="dave"))
    assert client.get(table_url(world, "live")).status_code == 404


# --- Second referee confirmation -----------------------------------------------------------


def sheets_url(world, slug=None) -> str:
    return reverse("referee:sheets", args=[slug or world.tournament.slug])


def test_the_index_links_the_sheets_to_confirm(client, second_referee_world):
    world = second_referee_world
    draws(world.table, 16, world.referee)
    end_game(table=world.table, ended_by_time=False, entered_by=world.referee)
    client.force_login(world.other_referee)
    html = client.get(reverse("referee:index")).content.decode()
    assert f'<a href="{sheets_url(world)}">1 game sheet to confirm</a>' in html
    # bob submitted it himself: nothing for him to confirm.
    client.force_login(world.referee)
    html = client.get(reverse("referee:index")).content.decode()
    assert f'<a href="{sheets_url(world)}">0 game sheets to confirm</a>' in html


def test_no_sheets_link_where_the_organiser_confirms(client, world):
    client.force_login(world.referee)
    html = client.get(reverse("referee:index")).content.decode()
    assert sheets_url(world) not in html


def test_a_second_referee_sees_and_confirms_a_submitted_sheet(client, second_referee_world):
    world = second_referee_world
    record_deal(
        table=world.table,
        number=1,
        deal=DealInput(result="win", winner=world.players[0], fan=8),
        entered_by=world.referee,
    )
    end_game(table=world.table, ended_by_time=True, entered_by=world.referee)
    client.force_login(world.other_referee)
    html = client.get(sheets_url(world)).content.decode()
    assert "Round 1, table 1" in html
    assert "Submitted by bob." in html
    assert "1 hand, time was called." in html
    sheet_link = reverse("public:table", args=[world.tournament.slug, 1, 1])
    assert f'href="{sheet_link}"' in html
    assert '<td>Player 1</td><td class="number">48</td>' in html
    assert '<td>Player 2</td><td class="number">-16</td>' in html

    response = client.post(table_url(world, "confirm"))
    assert response.status_code == 302
    assert response["Location"] == sheets_url(world)
    assert messages_of(response) == [
        "The sheet of table 1, round 1, is confirmed: it counts in the standings."
    ]
    table = Table.objects.get(pk=world.table.pk)
    assert table.confirmed_by == world.other_referee and table.confirmed_at is not None
    html = client.get(sheets_url(world)).content.decode()
    assert "No submitted sheet is waiting for your confirmation." in html

    # A second press (a retry after a lost answer) changes nothing and says so.
    response = client.post(table_url(world, "confirm"))
    assert response.status_code == 302
    assert messages_of(response) == ["The sheet of table 1 was already confirmed; nothing changed."]


def test_the_referee_who_submitted_cannot_confirm(client, second_referee_world):
    world = second_referee_world
    draws(world.table, 16, world.referee)
    end_game(table=world.table, ended_by_time=False, entered_by=world.referee)
    client.force_login(world.referee)
    html = client.get(sheets_url(world)).content.decode()
    assert "Your sheets waiting for another referee" in html
    assert table_url(world, "confirm") not in html
    before = snapshot()
    response = client.post(table_url(world, "confirm"))
    assert response.status_code == 422
    assert (
        "You submitted the sheet of table 1: another referee or the organiser confirms it."
        in response.content.decode()
    )
    assert Table.objects.get(pk=world.table.pk).confirmed_at is None
    assert snapshot() == before


def test_a_sheet_not_submitted_cannot_be_confirmed(client, second_referee_world):
    world = second_referee_world
    client.force_login(world.other_referee)
    response = client.post(table_url(world, "confirm"))
    assert response.status_code == 422
    assert (
        "Table 1 has not submitted its game sheet yet: there is nothing to confirm."
        in response.content.decode()
    )


def test_the_organiser_sees_every_submitted_sheet(client, world):
    for table in (world.table, world.table2):
        draws(table, 16, world.organiser)
        end_game(table=table, ended_by_time=False, entered_by=world.organiser)
    client.force_login(world.organiser)
    html = client.get(sheets_url(world)).content.decode()
    assert "Confirm table 1" in html and "Confirm table 2" in html
    client.post(table_url(world, "confirm", table=2))
    assert Table.objects.get(pk=world.table2.pk).confirmed_by == world.organiser


def test_who_may_open_and_post_to_the_sheets(client, world, second_referee_world):
    url = sheets_url(world)
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    response = client.post(table_url(world, "confirm"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))

    stranger = get_user_model().objects.create_user(username="dave")
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    assert client.post(table_url(world, "confirm")).status_code == 403
    assert client.get(sheets_url(world, slug="no-such-cup")).status_code == 404
    assert client.post(table_url(world, "confirm", table=9)).status_code == 404

    # Where only the organiser confirms, a referee may not.
    Tournament.objects.filter(pk=world.tournament.pk).update(confirmation="organiser")
    client.force_login(world.other_referee)
    assert client.get(url).status_code == 403
    draws(world.table, 16, world.referee)
    end_game(table=world.table, ended_by_time=False, entered_by=world.referee)
    assert client.post(table_url(world, "confirm")).status_code == 403
    assert Table.objects.get(pk=world.table.pk).confirmed_at is None

    # A private tournament is not revealed to strangers.
    Tournament.objects.filter(pk=world.tournament.pk).update(public=False)
    client.force_login(stranger)
    assert client.get(url).status_code == 404
