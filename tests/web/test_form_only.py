"""A visit to a form-only web address with no page above it: a page in the site's layout."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import override_settings
from django.urls import path
from django.views.decorators.http import require_POST

from config.urls import urlpatterns as site_urlpatterns
from tournament.web.form_only import ancestors


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
