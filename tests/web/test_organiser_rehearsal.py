"""The dress rehearsal page: play a private copy through, look at it, delete it."""

from __future__ import annotations

import pytest
from factories import make_players, make_user, seated_round

from tournament.models import Deal, Rehearsal, Tournament

PAGE = "/manage/spring-cup/rehearsal/"
COPY = "spring-cup-rehearsal"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def inline(settings):
    settings.SEATING_JOBS_INLINE = True


@pytest.fixture
def field(tournament):
    tournament.planned_rounds = 2
    tournament.save()
    return make_players(tournament, 8)


def test_the_organiser_plays_a_rehearsal_and_looks_at_the_copy(client, organiser, field):
    client.force_login(organiser)
    page = client.get(PAGE)
    assert page.status_code == 200
    assert "plays it through: 2 rounds seated as configured" in page.content.decode()

    response = client.post(PAGE, {"seed": "42"}, follow=True)
    assert response.redirect_chain == [(PAGE, 302)]
    text = response.content.decode()
    assert "Played through: 4 games." in text
    assert 'http-equiv="refresh"' not in text
    rehearsal = Rehearsal.objects.get()
    assert rehearsal.seed == 42 and rehearsal.copy.slug == COPY

    dashboard = client.get(f"/manage/{COPY}/").content.decode()
    assert "A dress rehearsal of" in dashboard
    for url in (f"/t/{COPY}/", f"/t/{COPY}/standings/", f"/manage/{COPY}/print/standings/"):
        assert client.get(url).status_code == 200, url
    # The copy's own rehearsal page says what it is and offers no rehearsal of the copy.
    copy_page = client.get(f"/manage/{COPY}/rehearsal/").content.decode()
    assert "This tournament is a dress rehearsal of" in copy_page
    assert "Play a dress rehearsal" not in copy_page


def test_visitors_never_see_the_copy(client, organiser, field):
    client.force_login(organiser)
    client.post(PAGE, {"seed": "1"})
    client.logout()
    for url in (f"/t/{COPY}/", f"/t/{COPY}/standings/", "/t/"):
        response = client.get(url)
        assert response.status_code in (200, 404)
        assert "dress rehearsal" not in response.content.decode().lower(), url
    assert client.get(f"/t/{COPY}/").status_code == 404
    client.force_login(make_user("mallory"))
    assert client.get(f"/t/{COPY}/").status_code == 404
    assert client.get(PAGE).status_code == 403
    assert client.post(PAGE, {"seed": "1"}).status_code == 403
    assert Rehearsal.objects.count() == 1


def test_a_bad_seed_is_refused_and_nothing_is_made(client, organiser, field):
    client.force_login(organiser)
    for seed in ("abc", "0", str(2**31)):
        response = client.post(PAGE, {"seed": seed})
        assert response.status_code == 422
        assert 'class="errorlist' in response.content.decode()
    assert not Rehearsal.objects.exists()
    assert Tournament.objects.count() == 1


def test_refused_once_the_tournament_has_started(client, organiser, tournament, field):
    seated_round(tournament, organiser, [field[:4], field[4:]])
    client.force_login(organiser)
    page = client.get(PAGE).content.decode()
    assert "The tournament has started" in page
    assert "Play a dress rehearsal" not in page
    response = client.post(PAGE, {"seed": "1"})
    assert response.status_code == 422
    assert "The tournament has started" in response.content.decode()
    assert not Rehearsal.objects.exists()


def test_deleting_the_rehearsal(client, organiser, tournament, field):
    client.force_login(organiser)
    client.post(PAGE, {"seed": "3"})
    rehearsal = Rehearsal.objects.get()
    delete = f"{PAGE}{rehearsal.pk}/delete/"
    client.get(delete)  # a GET never deletes (it is led back to the page)
    assert Rehearsal.objects.exists()
    response = client.post(delete, follow=True)
    assert "The dress rehearsal is deleted" in response.content.decode()
    assert not Tournament.objects.filter(slug=COPY).exists()
    assert not Deal.objects.exists()
    assert client.post(delete).status_code == 404  # already gone


def test_a_running_rehearsal_reloads_its_page_and_is_not_deleted(client, organiser, field):
    client.force_login(organiser)
    client.post(PAGE, {"seed": "3"})
    rehearsal = Rehearsal.objects.get()
    Rehearsal.objects.filter(pk=rehearsal.pk).update(status="running", done=1, total=4)
    page = client.get(PAGE).content.decode()
    assert 'http-equiv="refresh"' in page
    assert "Being played: 1 of 4 games." in page
    assert "Delete this rehearsal" not in page
    response = client.post(f"{PAGE}{rehearsal.pk}/delete/", follow=True)
    assert "being played" in response.content.decode()
    assert Rehearsal.objects.exists()


def test_the_dashboard_links_the_rehearsal_before_the_start(client, organiser, field):
    client.force_login(organiser)
    assert "Dress rehearsal" in client.get("/manage/spring-cup/").content.decode()
