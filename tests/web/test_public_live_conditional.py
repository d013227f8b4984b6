"""Live updates of the public pages answer 304 when nothing changed (tournament.web.live)."""

from __future__ import annotations

import pytest

from tournament.services import DealInput, add_player, record_deal

HTMX = {"HX-Request": "true"}


@pytest.mark.parametrize("page", ["standings", "round", "table"])
def test_a_live_update_is_answered_304_when_nothing_changed(client, live_urls, page):
    first = client.get(live_urls[page], headers=HTMX)
    assert first.status_code == 200
    assert first["Cache-Control"] == "no-cache"

    again = client.get(live_urls[page], headers={**HTMX, "If-None-Match": first["ETag"]})

    assert again.status_code == 304
    assert again.content == b""


@pytest.mark.parametrize("page", ["standings", "round", "table"])
def test_the_304_costs_at_most_two_queries(client, live_urls, page, django_assert_max_num_queries):
    etag = client.get(live_urls[page], headers=HTMX)["ETag"]

    with django_assert_max_num_queries(2):
        response = client.get(live_urls[page], headers={**HTMX, "If-None-Match": etag})

    assert response.status_code == 304


def test_a_recorded_hand_gives_new_content_and_a_new_etag(client, live_urls, board, organiser):
    first = client.get(live_urls["table"], headers=HTMX)

    record_deal(
        table=board["tables"][0], number=1, deal=DealInput(result="draw"), entered_by=organiser
    )
    response = client.get(live_urls["table"], headers={**HTMX, "If-None-Match": first["ETag"]})

    assert response.status_code == 200
    assert response["ETag"] != first["ETag"]
    assert response.content != first.content


def test_a_new_player_changes_the_standings_etag(client, live_urls, tournament, organiser):
    etag = client.get(live_urls["standings"], headers=HTMX)["ETag"]

    add_player(tournament=tournament, name="Zoe Zhang", key="99")
    response = client.get(live_urls["standings"], headers={**HTMX, "If-None-Match": etag})

    assert response.status_code == 200
    assert "Zoe Zhang" in response.content.decode()


def test_the_whole_page_is_always_rendered(client, live_urls):
    response = client.get(live_urls["standings"])

    assert response.status_code == 200
    assert not response.has_header("ETag")
    assert client.get(live_urls["standings"], headers={"If-None-Match": "*"}).status_code == 200


def test_another_address_or_language_has_another_etag(client, live_urls):
    etag = client.get(live_urls["standings"], headers=HTMX)["ETag"]

    other_page = client.get(live_urls["standings"] + "?provisional=1", headers=HTMX)
    chinese = client.get(live_urls["standings"], headers={**HTMX, "Accept-Language": "zh-hans"})

    assert len({etag, other_page["ETag"], chinese["ETag"]}) == 3


def test_a_private_tournament_is_never_answered_304(client, live_urls, tournament, organiser):
    client.force_login(organiser)
    tournament.public = False
    tournament.save()

    response = client.get(live_urls["standings"], headers={**HTMX, "If-None-Match": "*"})

    assert response.status_code == 200
    assert not response.has_header("ETag")
