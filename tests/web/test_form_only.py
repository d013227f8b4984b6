"""A visit to a form-only web address: sent to the address above it, or, with none, a page in
the site's layout (tournament.web.form_only)."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import override_settings
from django.urls import path
from django.views.decorators.http import require_POST

from config.urls import urlpatterns as site_urlpatterns
from tournament.models import ApiToken
from tournament.services import add_player
from tournament.web.form_only import ancestors
from tournament.web.organiser.accounts import NEW_SECRET


@require_POST
def lone_form(request) -> HttpResponse:
    return HttpResponse("done")


urlpatterns = [path("lone/form/", lone_form), *site_urlpatterns]


def test_the_addresses_above_stop_short_of_the_home_page():
    assert ancestors("/manage/cup/players/7/remove/") == [
        "/manage/cup/players/7/",
        "/manage/cup/players/",
        "/manage/cup/",
        "/manage/",
    ]
    assert ancestors("/lone/") == []


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=__name__)
def test_a_form_only_address_with_no_page_above_says_so_in_the_layout(client):
    response = client.get("/lone/form/")
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    text = response.content.decode()
    assert "This address only takes a submitted form" in text
    assert '<a href="/">' in text
    assert "<nav" in text or "<header" in text  # the site's layout, not a bare answer
    assert client.post("/lone/form/").content == b"done"


@pytest.mark.django_db
def test_a_message_waiting_to_be_shown_survives_a_visit_to_a_form_only_address(
    client, organiser, tournament
):
    add_player(tournament=tournament, key="1", name="Anna Berg")
    add_player(tournament=tournament, key="2", name="Ben Li")
    client.force_login(organiser)
    slug = tournament.slug
    client.post(f"/manage/{slug}/players/1/remove/")  # "1 Anna Berg is removed." waits
    visit = client.get(f"/manage/{slug}/players/2/remove/")
    assert (visit.status_code, visit["Location"]) == (303, f"/manage/{slug}/players/2/")
    shown = client.get(visit["Location"]).content.decode()
    assert "Anna Berg is removed." in shown


@pytest.mark.django_db
def test_the_page_above_is_drawn_only_when_the_browser_gets_there(client, organiser):
    """Deciding where to send a visit draws nothing: what a page does once on a visit (the
    tokens page shows a new token's secret once) happens when the visitor sees it."""
    client.force_login(organiser)
    client.post("/manage/tokens/", {"name": "scores"})  # the secret waits for the tokens page
    token = ApiToken.objects.get(user=organiser)
    secret = client.session[NEW_SECRET]

    visit = client.get(f"/manage/tokens/{token.pk}/revoke/")

    assert (visit.status_code, visit["Location"]) == (303, "/manage/tokens/")
    shown = client.get(visit["Location"]).content.decode()
    assert f'value="{secret}"' in shown
    assert "is created" in shown  # the message waited too
    assert NEW_SECRET not in client.session
