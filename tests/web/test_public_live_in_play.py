"""While games are played, a hand changes the live pages that show it and no others: the
standings stay 304 until a sheet is submitted (tournament.web.live)."""

from __future__ import annotations

import pytest

from tournament.services import DealInput, end_game, record_deal, record_penalty

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def etags(client, live_urls):
    return {page: client.get(url, headers=HTMX)["ETag"] for page, url in live_urls.items()}


def status(client, url, etag):
    return client.get(url, headers={**HTMX, "If-None-Match": etag}).status_code


def test_a_hand_in_play_changes_its_table_and_round_not_the_standings(
    client, live_urls, board, organiser
):
    before = etags(client, live_urls)

    east = board["players"][0]
    record_deal(
        table=board["tables"][0],
        number=1,
        deal=DealInput(result="win", winner=east, fan=8),
        entered_by=organiser,
    )

    assert status(client, live_urls["standings"], before["standings"]) == 304
    assert status(client, live_urls["table 2"], before["table 2"]) == 304
    assert status(client, live_urls["table"], before["table"]) == 200
    assert status(client, live_urls["round"], before["round"]) == 200


def test_a_penalty_in_play_changes_its_table_not_the_standings(client, live_urls, board, organiser):
    before = etags(client, live_urls)

    record_penalty(
        table=board["tables"][1], player=board["players"][5], points=10, distributed=False,
        reason="Late", entered_by=organiser,
    )  # fmt: skip

    assert status(client, live_urls["standings"], before["standings"]) == 304
    assert status(client, live_urls["table"], before["table"]) == 304
    assert status(client, live_urls["table 2"], before["table 2"]) == 200


def test_a_submitted_sheet_changes_the_standings(client, live_urls, board, organiser):
    record_deal(
        table=board["tables"][0], number=1, deal=DealInput(result="draw"), entered_by=organiser
    )
    before = etags(client, live_urls)

    end_game(table=board["tables"][0], ended_by_time=True, entered_by=organiser)

    assert status(client, live_urls["standings"], before["standings"]) == 200
    assert status(client, live_urls["table"], before["table"]) == 200


def test_a_hand_corrected_after_the_sheet_changes_the_standings(
    client, live_urls, board, organiser
):
    from tournament.services import correct_deal

    table = board["tables"][0]
    hand = record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=organiser)
    end_game(table=table, ended_by_time=True, entered_by=organiser)
    before = etags(client, live_urls)

    east = board["players"][0]
    correct_deal(hand=hand, deal=DealInput(result="win", winner=east, fan=8), entered_by=organiser)

    assert status(client, live_urls["standings"], before["standings"]) == 200
