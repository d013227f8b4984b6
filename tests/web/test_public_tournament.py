"""The public tournament page and the home page's links to it."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from test_public_scenario import body_rows, build_cup, build_field

from tournament.models import Tournament

URL = reverse("public:tournament", args=["spring-cup"])


@pytest.fixture
def cup(tournament, organiser):
    tournament.start_date = datetime.date(2025, 4, 12)
    tournament.end_date = datetime.date(2025, 4, 13)
    tournament.venue = "Town Hall, Leiden"
    tournament.seat_rotation = Tournament.SeatRotation.HALF
    tournament.save()
    return build_cup(tournament, organiser)


def test_shows_name_dates_venue_and_rules(client, cup):
    html = client.get(URL).content.decode()

    assert "<h1>Spring Cup" in html
    assert "12 Apr 2025 – 13 Apr 2025" in html
    assert "Town Hall, Leiden" in html
    assert "Mahjong Competition Rules (Chinese Official)" in html
    assert "WMO Green Book (2006)" in html
    assert "Once, before the West wind round" in html
    assert "4 / 2 / 1 / 0 for first to last place" in html


def test_lists_published_rounds_with_status_and_games_ended(client, cup):
    rows = body_rows(client.get(URL).content.decode(), "rounds")

    # Round 3 is a draft: the public does not see it.
    assert rows == [["Round 1", "Finished", "2 of 2"], ["Round 2", "Playing", "0 of 2"]]


def test_organisers_also_see_draft_rounds(client, cup, organiser):
    client.force_login(organiser)

    rows = body_rows(client.get(URL).content.decode(), "rounds")

    assert rows[2] == ["Round 3", "Draft organisers only", "0 of 2"]


def test_links_rounds_standings_and_players(client, cup):
    html = client.get(URL).content.decode()

    assert f'href="{reverse("public:round", args=["spring-cup", 2])}"' in html
    assert f'href="{reverse("public:standings", args=["spring-cup"])}"' in html
    assert f'href="{reverse("public:player", args=["spring-cup", "9"])}"' in html
    assert f'href="{reverse("public:round", args=["spring-cup", 3])}"' not in html


def test_lists_players_by_name_with_marks(client, cup):
    rows = body_rows(client.get(URL).content.decode(), "players")

    assert [row[1] for row in rows] == [
        "Ann Archer",
        "Ben Baker",
        "Cai Chen",
        "Dora Diaz withdrawn from round 2",
        "Eve Evans",
        "Fay Fox",
        "Gus Green",
        "Hal Hill",
        "Ivy Ito substitute",
    ]
    assert rows[0] == ["1", "Ann Archer", "NL", "Dragons"]


def test_a_new_tournament_says_nothing_is_published_yet(client, tournament):
    html = client.get(URL).content.decode()

    assert "No rounds are published yet." in html
    assert "No players yet." in html
    assert "Dates to be announced" in html


@pytest.mark.parametrize("tables", [2, 6])
def test_query_count_does_not_grow_with_the_field(
    client, tournament, organiser, tables, django_assert_max_num_queries
):
    build_field(tournament, organiser, tables=tables)

    with django_assert_max_num_queries(3):
        response = client.get(URL)
    assert len(body_rows(response.content.decode(), "players")) == 4 * tables


def test_home_links_each_tournament_to_its_public_page(client, tournament):
    Tournament.objects.create(name="Autumn Open", slug="autumn-open", public=True)

    html = client.get(reverse("home")).content.decode()

    assert f'<a href="{URL}">Spring Cup</a>' in html
    assert '<a href="/t/autumn-open/">Autumn Open</a>' in html
    assert 'href="/t/autumn-open/standings/"' in html
