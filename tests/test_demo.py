"""The demo data, the home page and logging in."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from tournament.demo import DEMO_PASSWORD, DEMO_TOURNAMENT_SLUG, DEMO_USERNAME
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_load_demo_creates_organiser_and_public_tournament():
    call_command("load_demo")

    tournament = Tournament.objects.get(slug=DEMO_TOURNAMENT_SLUG)
    assert tournament.name == "Demo Open"
    assert tournament.public
    assert list(tournament.organisers.values_list("username", flat=True)) == [DEMO_USERNAME]
    assert get_user_model().objects.get(username=DEMO_USERNAME).check_password(DEMO_PASSWORD)


def test_load_demo_twice_creates_nothing_new(capsys):
    call_command("load_demo")
    call_command("load_demo")

    assert Tournament.objects.count() == 1
    assert get_user_model().objects.count() == 1
    assert "Already present" in capsys.readouterr().out


def test_load_demo_restores_the_demo_password():
    call_command("load_demo")
    user = get_user_model().objects.get(username=DEMO_USERNAME)
    user.set_password("something-else-123")
    user.save()

    call_command("load_demo")

    user.refresh_from_db()
    assert user.check_password(DEMO_PASSWORD)


def test_home_lists_the_demo_tournament_and_links_the_calculator(client):
    call_command("load_demo")

    response = client.get("/")

    assert response.status_code == 200
    assert "Demo Open" in response.text
    assert 'href="/scoring/calculator/"' in response.text


def test_home_hides_private_tournaments_from_visitors(client, tournament):
    Tournament.objects.create(name="Closed Club Night", slug="club-night", public=False)

    response = client.get("/")

    assert "Spring Cup" in response.text
    assert "Closed Club Night" not in response.text


def test_home_shows_organisers_their_private_tournaments(client, organiser):
    private = Tournament.objects.create(name="Closed Club Night", slug="club-night")
    private.organisers.add(organiser)
    Tournament.objects.create(name="Someone Else's Night", slug="other-night")
    client.force_login(organiser)

    response = client.get("/")

    assert "Closed Club Night" in response.text
    assert "Someone Else" not in response.text


def test_home_is_one_query_however_many_tournaments(client, django_assert_num_queries):
    Tournament.objects.bulk_create(
        Tournament(name=f"Open {n}", slug=f"open-{n}", public=True) for n in range(30)
    )
    with django_assert_num_queries(1):
        response = client.get("/")
    assert response.text.count('class="card"') == 31  # 30 tournaments + the calculator card


def test_home_refuses_post(client):
    assert client.post("/").status_code == 405


def test_login_page_renders(client):
    response = client.get(reverse("login"))

    assert response.status_code == 200
    assert 'name="username"' in response.text
    assert 'name="password"' in response.text


def test_demo_organiser_can_log_in(client):
    call_command("load_demo")

    response = client.post(reverse("login"), {"username": DEMO_USERNAME, "password": DEMO_PASSWORD})

    assert response.status_code == 302
    assert response.headers["Location"] == reverse("home")
    assert client.get("/").context["user"].username == DEMO_USERNAME


def test_wrong_password_shows_an_error(client):
    call_command("load_demo")

    response = client.post(reverse("login"), {"username": DEMO_USERNAME, "password": "nope"})

    assert response.status_code == 200
    assert "correct username and password" in response.text
