"""The projector page: who may see it, the clock in every state, the panels and their cycle."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from factories import submit

from tournament.models import Round, Table
from tournament.services import add_player, create_round, set_round_status, set_seating

pytestmark = pytest.mark.django_db

URL = reverse("public:projector", args=["spring-cup"])
# htmx's live updates of the page's two parts: the element to update says which part to answer.
CLOCK = {"HX-Request": "true", "HX-Target": "pj-clock"}
PANEL = {"HX-Request": "true", "HX-Target": "pj-panel"}


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def panel_of(html):
    match = re.search(r'data-live-next="([^"]+)" data-panel="(\w+)" data-page="(\d+)"', html)
    return match.group(2), int(match.group(3)), match.group(1).replace("&amp;", "&")


def test_a_private_tournament_is_404_to_strangers_and_shown_to_its_referees(
    client, board, tournament
):
    tournament.public = False
    tournament.save()
    assert client.get(URL).status_code == 404
    client.force_login(get_user_model().objects.create_user(username="carol"))
    assert client.get(URL).status_code == 404
    client.force_login(board["referee"])
    assert client.get(URL).status_code == 200
    assert client.get(reverse("public:projector", args=["nope"])).status_code == 404


def test_anyone_sees_a_public_tournament_on_the_projector(client, board):
    response = client.get(URL)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Spring Cup" in html
    assert "tournament/live.js" in html and "tournament/projector.css" in html
    assert "vendor/htmx/htmx.min.js" in html
    assert (
        f'id="pj-clock" class="pj-clock" hx-get="{URL}" hx-trigger="every 10s, live:refresh"'
        in html
    )
    assert "site-header" not in html  # full screen: no site menus
    assert client.post(URL).status_code == 405


# --- The clock -------------------------------------------------------------------------------


def set_clock(round, **fields):
    Round.objects.filter(pk=round.pk).update(**fields)


def clock_html(client):
    response = client.get(URL, headers=CLOCK)
    assert response["Cache-Control"] == "no-cache" and response.has_header("ETag")
    assert "HX-Target" in response["Vary"]
    html = response.content.decode()
    assert "<html" not in html
    return html


def test_the_clock_in_each_state(client, board, now):
    round = board["round"]
    html = clock_html(client)
    assert 'data-clock-state="not_started"' in html
    assert "Round 1" in text(html) and "The clock has not started" in text(html)

    set_clock(round, clock_minutes=120, clock_started_at=now - timedelta(minutes=30, seconds=5))
    html = clock_html(client)
    assert 'data-clock-state="running"' in html and "data-countdown-running" in html
    assert 'data-countdown="5395"' in html  # 89:55 left
    assert "1:29:55" in html and "left in this round" in html

    set_clock(round, clock_paused_at=now - timedelta(minutes=10))
    html = clock_html(client)
    assert 'data-clock-state="paused"' in html and "data-countdown-running" not in html
    assert "Paused" in text(html) and "1:39:55" in html  # 20 minutes 5 seconds played

    set_clock(round, clock_paused_at=None, clock_started_at=now - timedelta(minutes=121))
    html = clock_html(client)
    assert 'data-clock-state="over"' in html and "Time is up" in text(html)
    assert 'data-countdown="0"' in html and ">0:00<" in html


def test_without_a_round_in_play_the_clock_points_to_the_seating(client, board, organiser):
    round = board["round"]
    set_round_status(round=round, status="seated", actor=organiser)
    html = clock_html(client)
    assert 'data-clock-state="none"' in html
    assert "Round 1" in text(html) and "Seating is published" in text(html)
    Round.objects.filter(pk=round.pk).update(status=Round.Status.DRAFT)
    assert "No round in play" in text(clock_html(client))


# --- The panels ------------------------------------------------------------------------------


def test_panels_cycle_through_standings_pages_then_the_seating(client, board, organiser,
                                                              tournament):  # fmt: skip
    # 8 + 12 players: two pages of standings; round 1's two tables: one page of seating.
    for n in range(9, 21):
        add_player(tournament=tournament, key=str(n), name=f"Player {n}")
    html = client.get(URL).content.decode()
    assert panel_of(html)[:2] == ("standings", 1)
    assert "page 1 of 2" in text(html)
    assert len(re.findall(r"<tr", html)) == 1 + 16
    nexts = []
    url = f"{URL}?panel=standings&page=1"
    for _ in range(4):
        html = client.get(url).content.decode()
        name, page, following = panel_of(html)
        nexts.append((name, page))
        url = following
    assert nexts == [("standings", 1), ("standings", 2), ("seating", 1), ("standings", 1)]


def test_the_next_panel_is_given_for_scripts_and_without_them(client, board):
    html = client.get(f"{URL}?every=4").content.decode()
    assert 'content="4;url=/t/spring-cup/projector/?panel=seating&amp;page=1&amp;every=4"' in html
    assert (
        'hx-get="/t/spring-cup/projector/?panel=seating&amp;page=1&amp;every=4" '
        'hx-trigger="every 4s, live:refresh"' in html
    )
    fragment = client.get(f"{URL}?panel=seating&page=1", headers=PANEL)
    body = fragment.content.decode()
    assert fragment["Cache-Control"] == "no-cache" and fragment.has_header("ETag")
    assert "<html" not in body and panel_of(body)[:2] == ("seating", 1)
    assert panel_of(body)[2] == "/t/spring-cup/projector/?panel=standings&page=1"


@pytest.mark.parametrize("every", ["0", "-5", "abc", "100000"])
def test_odd_rotation_times_are_kept_in_range(client, board, every):
    html = client.get(f"{URL}?every={every}").content.decode()
    seconds = int(re.search(r'id="pj-panel"[^>]*hx-trigger="every (\d+)s', html, re.S).group(1))
    assert 2 <= seconds <= 300


@pytest.mark.parametrize("query", ["panel=bogus", "panel=standings&page=99", "page=x"])
def test_unknown_panels_fall_back_to_the_first(client, board, query):
    response = client.get(f"{URL}?{query}")
    assert response.status_code == 200
    assert panel_of(response.content.decode())[:2] == ("standings", 1)


def test_seating_shows_each_table_by_seat_wind(client, board):
    html = text(client.get(f"{URL}?panel=seating&page=1").content.decode())
    assert "Seating of round 1 (in play)" in html
    assert "Table 1 E Ann Archer S Ben Baker W Cai Chen N Dora Diaz" in html
    assert "Table 2 E Eve Evans S Fay Fox W Gus Green N Hal Hill" in html


def test_seating_is_of_the_next_seated_round_when_there_is_one(client, board, organiser,
                                                              tournament):  # fmt: skip
    players = board["players"]
    second = create_round(tournament=tournament, actor=organiser)
    set_seating(round=second, tables=[players[::2], players[1::2]], actor=organiser)
    html = text(client.get(f"{URL}?panel=seating&page=1").content.decode())
    assert "Seating of round 1 (in play)" in html  # round 2 is a draft: not shown
    set_round_status(round=second, status="seated", actor=organiser)
    html = text(client.get(f"{URL}?panel=seating&page=1").content.decode())
    assert "Seating of round 2" in html and "(in play)" not in html
    assert "Table 1 E Ann Archer S Cai Chen W Eve Evans N Gus Green" in html


def test_standings_count_confirmed_games_and_mark_players_awaiting_one(client, board, organiser):
    table_one, table_two = board["tables"]
    submit(table_one, organiser)  # Ann won all 16 hands: awaiting confirmation
    html = client.get(URL).content.decode()
    rows = [text(row) for row in re.findall(r"<tr.*?</tr>", html, re.S)][1:]
    assert rows[0].startswith("1 Ann Archer †")  # listed in order, not counted yet
    assert "0 confirmed games counted" in text(html) and "1 awaiting confirmation" in text(html)
    assert "has a game awaiting confirmation, not counted yet" in text(html)
    assert sum("†" in row for row in rows) == 4
    assert all(row.endswith("0 0") for row in rows)  # table points and score still 0

    Table.objects.filter(pk=table_one.pk).update(confirmed_at=timezone.now())
    html = client.get(URL).content.decode()
    rows = [text(row) for row in re.findall(r"<tr.*?</tr>", html, re.S)][1:]
    assert rows[0] == "1 Ann Archer 4 768"
    assert "†" not in html
    assert "1 confirmed game counted" in text(html)


def test_seating_by_name_lists_every_player_alphabetically_with_table_and_seat(client, board):
    response = client.get(f"{URL}?panel=seating&page=1&seating=name")
    html = text(response.content.decode())

    assert "Seating of round 1 (in play)" in html
    assert (
        "Ann Archer Table 1 E Ben Baker Table 1 S Cai Chen Table 1 W Dora Diaz Table 1 N "
        "Eve Evans Table 2 E Fay Fox Table 2 S Gus Green Table 2 W Hal Hill Table 2 N" in html
    )
    # The cycle keeps showing the seating by name.
    assert "seating=name" in panel_of(response.content.decode())[2]


def test_seating_by_name_comes_back_after_the_standings(client, board):
    html = client.get(f"{URL}?panel=standings&page=1&seating=name").content.decode()

    assert panel_of(html)[2] == f"{URL}?panel=seating&page=1&seating=name"
