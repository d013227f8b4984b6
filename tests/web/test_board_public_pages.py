"""Public pages that update themselves, and provisional standings."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse
from factories import play, submit

from tournament.services import confirm_game

pytestmark = pytest.mark.django_db

STANDINGS = reverse("public:standings", args=["spring-cup"])
HTMX = {"HX-Request": "true"}  # a live update: htmx asks for the page's own address


def text(html):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def rows(html):
    body = re.search(r"<tbody.*?</tbody>", html, re.S).group(0)
    return [text(row) for row in re.findall(r"<tr.*?</tr>", body, re.S)]


def test_standings_count_confirmed_games_only_and_say_what_waits(client, board, organiser):
    table_one, table_two = board["tables"]
    submit(table_one, board["referee"])
    html = client.get(STANDINGS).content.decode()
    note = text(re.search(r'<p class="note">.*?</p>', html, re.S).group(0)).replace(" ,", ",")
    assert "Only confirmed games count: 0 games counted, 1 awaiting confirmation, 1 still in " \
        "play or not started." in note  # fmt: skip
    assert all(row.endswith("0 0 0") for row in rows(html))  # points, score, games
    assert "unconfirmed" not in html.split("<tbody")[1]
    assert f'href="{STANDINGS}?provisional=1"' in html


def test_provisional_standings_include_and_mark_submitted_games(client, board, organiser):
    table_one, table_two = board["tables"]
    submit(table_one, board["referee"])
    html = client.get(f"{STANDINGS}?provisional=1").content.decode()
    assert "Provisional standings" in html
    assert "Provisional: 0 confirmed games and 1 game awaiting confirmation count." in text(html)
    assert "† marks players whose results include games not confirmed yet" in text(html)
    lines = rows(html)
    assert lines[0].startswith("1 1 Ann Archer † includes 1 unconfirmed game")
    assert lines[0].endswith("4 768 1")
    assert sum("includes 1 unconfirmed game" in line for line in lines) == 4
    assert re.search(r'<tr class="provisional (even|odd)"', html)
    assert f'href="{STANDINGS}"' in html  # back to confirmed only

    confirm_game(table=table_one, confirmed_by=organiser)
    html = client.get(f"{STANDINGS}?provisional=1").content.decode()
    assert "unconfirmed game" not in html and "†" not in html
    assert rows(html)[0].endswith("4 768 1")
    html = client.get(STANDINGS).content.decode()
    assert rows(html)[0].startswith("1 1 Ann Archer") and rows(html)[0].endswith("4 768 1")


def test_exports_are_confirmed_only_unless_provisional_is_asked(client, board):
    table_one, _ = board["tables"]
    submit(table_one, board["referee"])
    response = client.get(f"{STANDINGS}?_export=csv")
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert "Unconfirmed games" not in lines[0]
    assert response["Content-Disposition"].endswith('spring-cup-standings.csv"')
    ann = next(line for line in lines if line[2] == "Ann Archer")
    assert ann[lines[0].index("Score")] == "0"

    response = client.get(f"{STANDINGS}?provisional=1&_export=csv")
    lines = list(csv.reader(io.StringIO(response.content.decode())))
    assert "standings-provisional.csv" in response["Content-Disposition"]
    ann = next(line for line in lines if line[2] == "Ann Archer")
    assert ann[lines[0].index("Score")] == "768"
    assert ann[lines[0].index("Unconfirmed games")] == "1"
    response = client.get(f"{STANDINGS}?provisional=1&_export=xlsx")
    assert response.status_code == 200 and response.content[:2] == b"PK"


def test_the_standings_fragment_keeps_sorting_and_the_toggle_but_not_itself(client, board):
    response = client.get(f"{STANDINGS}?provisional=1&sort=name")
    page = response.content.decode()
    assert 'hx-get="/t/spring-cup/standings/?provisional=1&amp;sort=name"' in page
    assert 'hx-trigger="every 30s, live:refresh"' in page
    assert "vendor/htmx/htmx.min.js" in page and "tournament/live.js" in page
    assert "HX-Request" in response["Vary"]  # no cache gives the page for the fragment
    response = client.get(f"{STANDINGS}?provisional=1&sort=name", headers=HTMX)
    html = response.content.decode()
    # kept by the browser but asked about each time, with the ETag (tournament.web.live)
    assert response["Cache-Control"] == "no-cache" and response.has_header("ETag")
    assert "HX-Request" in response["Vary"]
    assert "<html" not in html and "Provisional:" in html
    assert "hx-get" not in html  # the live region's content, not the region itself
    assert "?provisional=1&amp;sort=-name" in html  # sorting links lead to the page
    assert [row.split()[2] for row in rows(html)][:3] == ["Ann", "Ben", "Cai"]


def test_the_round_page_updates_itself_while_the_round_is_in_play(client, board, organiser):
    table_one, _ = board["tables"]
    url = reverse("public:round", args=["spring-cup", 1])
    page = client.get(url).content.decode()
    assert f'hx-get="{url}" hx-trigger="every 20s, live:refresh"' in page
    play(table_one, 2, organiser)
    response = client.get(url, headers=HTMX)
    html = response.content.decode()
    assert response["Cache-Control"] == "no-cache" and response.has_header("ETag")
    assert "<html" not in html and "in progress, 2 hands" in html
    submit(table_one, organiser)
    assert "awaiting confirmation" in client.get(url, headers=HTMX).content.decode()


def test_a_finished_round_page_does_not_poll(client, board, organiser):
    from tournament.services import confirm_submitted_games, set_round_status

    for table in board["tables"]:
        submit(table, organiser)
    confirm_submitted_games(round=board["round"], confirmed_by=organiser)
    set_round_status(round=board["round"], status="finished", actor=organiser)
    page = client.get(reverse("public:round", args=["spring-cup", 1])).content.decode()
    assert "hx-get" not in page and "live.js" not in page and "htmx.min.js" not in page
    assert "awaiting confirmation" not in page


def test_the_table_page_updates_itself_and_shows_the_sheet_status(client, board, organiser):
    table_one, _ = board["tables"]
    url = reverse("public:table", args=["spring-cup", 1, 1])
    page = client.get(url).content.decode()
    assert f'hx-get="{url}" hx-trigger="every 20s, live:refresh"' in page
    play(table_one, 3, organiser)
    html = client.get(url, headers=HTMX).content.decode()
    assert "<html" not in html and "Game in progress" in html
    assert len(re.findall(r"<tr", html.split("Score sheet")[1])) >= 3
    submit(table_one, organiser)
    html = text(client.get(url, headers=HTMX).content.decode())
    assert "Game ended after 16 hands · sheet submitted, awaiting confirmation" in html
    confirm_game(table=table_one, confirmed_by=organiser)
    html = text(client.get(url, headers=HTMX).content.decode())
    assert "sheet confirmed" in html


def test_fragments_follow_the_same_permissions(client, board, tournament):
    tournament.public = False
    tournament.save()
    for url in (
        STANDINGS,
        reverse("public:round", args=["spring-cup", 1]),
        reverse("public:table", args=["spring-cup", 1, 1]),
    ):
        assert client.get(url, headers=HTMX).status_code == 404


def test_the_tournament_page_links_the_projector(client, board):
    html = client.get(reverse("public:tournament", args=["spring-cup"])).content.decode()
    assert f'href="{reverse("public:projector", args=["spring-cup"])}"' in html
