"""Live updates of the public pages answer 304 when nothing changed (tournament.web.live)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament.services import add_player, record_hand

HTMX = {"HX-Request": "true"}


@pytest.fixture
def urls(board):
    round, table = board["round"], board["tables"][0]
    return {
        "standings": reverse("public:standings", args=["spring-cup"]),
        "round": reverse("public:round", args=["spring-cup", round.number]),
        "table": reverse("public:table", args=["spring-cup", round.number, table.number]),
    }


@pytest.mark.parametrize("page", ["standings", "round", "table"])
def test_a_live_update_is_answered_304_when_nothing_changed(client, urls, page):
    first = client.get(urls[page], headers=HTMX)
    assert first.status_code == 200
    assert first["Cache-Control"] == "no-cache"

    again = client.get(urls[page], headers={**HTMX, "If-None-Match": first["ETag"]})

    assert again.status_code == 304
    assert again.content == b""


@pytest.mark.parametrize("page", ["standings", "round", "table"])
def test_the_304_costs_at_most_two_queries(client, urls, page, django_assert_max_num_queries):
    etag = client.get(urls[page], headers=HTMX)["ETag"]

    with django_assert_max_num_queries(2):
        response = client.get(urls[page], headers={**HTMX, "If-None-Match": etag})

    assert response.status_code == 304


def test_a_recorded_hand_gives_new_content_and_a_new_etag(client, urls, board, organiser):
    first = client.get(urls["table"], headers=HTMX)

    record_hand(table=board["tables"][0], number=1, result="draw", entered_by=organiser)
    response = client.get(urls["table"], headers={**HTMX, "If-None-Match": first["ETag"]})

    assert response.status_code == 200
    assert response["ETag"] != first["ETag"]
    assert response.content != first.content


def test_a_new_player_changes_the_standings_etag(client, urls, tournament, organiser):
    etag = client.get(urls["standings"], headers=HTMX)["ETag"]

    add_player(tournament=tournament, name="Zoe Zhang", key="99")
    response = client.get(urls["standings"], headers={**HTMX, "If-None-Match": etag})

    assert response.status_code == 200
    assert "Zoe Zhang" in response.content.decode()


def test_the_whole_page_is_always_rendered(client, urls):
    response = client.get(urls["standings"])

    assert response.status_code == 200
    assert not response.has_header("ETag")
    assert client.get(urls["standings"], headers={"If-None-Match": "*"}).status_code == 200


def test_another_address_or_language_has_another_etag(client, urls):
    etag = client.get(urls["standings"], headers=HTMX)["ETag"]

    other_page = client.get(urls["standings"] + "?provisional=1", headers=HTMX)
    chinese = client.get(urls["standings"], headers={**HTMX, "Accept-Language": "zh-hans"})

    assert len({etag, other_page["ETag"], chinese["ETag"]}) == 3


def test_a_private_tournament_is_never_answered_304(client, urls, tournament, organiser):
    client.force_login(organiser)
    tournament.public = False
    tournament.save()

    response = client.get(urls["standings"], headers={**HTMX, "If-None-Match": "*"})

    assert response.status_code == 200
    assert not response.has_header("ETag")
