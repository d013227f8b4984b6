"""The organiser's board, the projector's parts and the referee's live part answer an htmx
poll 304 when nothing they show has changed (tournament.web.live.answer_live), and never
before the user's access is checked."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import make_user
from tournament.services import (
    DealInput,
    assign_referees,
    extend_clock,
    pause_clock,
    record_deal,
    record_penalty,
    start_clock,
    swap_players,
)

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
CLOCK = {**HTMX, "HX-Target": "pj-clock"}
PANEL = {**HTMX, "HX-Target": "pj-panel"}


def board_url(number: int = 1) -> str:
    return reverse("organiser:board", args=["spring-cup", number])


def referee_url(table: int = 1) -> str:
    return reverse("referee:live", args=["spring-cup", 1, table])


PROJECTOR = reverse("public:projector", args=["spring-cup"])


def first(client, url, headers=HTMX):
    response = client.get(url, headers=headers)
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-cache"
    return response["ETag"]


def again(client, url, etag, headers=HTMX):
    return client.get(url, headers={**headers, "If-None-Match": etag})


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


def test_the_board_is_304_until_a_hand_then_200(organiser_client, board, organiser):
    etag = first(organiser_client, board_url())
    response = again(organiser_client, board_url(), etag)
    assert response.status_code == 304
    assert response.content == b""

    record_deal(
        table=board["tables"][1], number=1, deal=DealInput(result="draw"), entered_by=organiser
    )
    changed = again(organiser_client, board_url(), etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert again(organiser_client, board_url(), changed["ETag"]).status_code == 304


def test_the_board_changes_with_a_penalty_and_the_referees(organiser_client, board, organiser):
    etag = first(organiser_client, board_url())
    record_penalty(
        table=board["tables"][1], player=board["players"][5], points=10, distributed=False,
        reason="Late", entered_by=organiser,
    )  # fmt: skip
    etag2 = again(organiser_client, board_url(), etag)["ETag"]
    assert etag2 != etag

    assign_referees(table=board["tables"][1], referees=[organiser], actor=organiser)
    assert again(organiser_client, board_url(), etag2).status_code == 200


def test_the_board_changes_with_the_seating(organiser_client, board, organiser, tournament):
    from tests.factories import seated_round
    from tournament.models import Round

    players = board["players"]
    round2, _tables = seated_round(
        tournament, organiser, [players[:4], players[4:]], status=Round.Status.SEATED
    )
    etag = first(organiser_client, board_url(2))
    assert again(organiser_client, board_url(2), etag).status_code == 304

    swap_players(round=round2, first=players[0], second=players[4], actor=organiser)
    assert again(organiser_client, board_url(2), etag).status_code == 200


def test_the_board_follows_the_clock(organiser_client, board, organiser, now, monkeypatch):
    from django.utils import timezone

    round = board["round"]
    etag = first(organiser_client, board_url())
    start_clock(round=round, actor=organiser, minutes=90)
    monkeypatch.setattr(timezone, "now", lambda: now + timedelta(seconds=5))  # 89:55 left
    running = again(organiser_client, board_url(), etag)
    assert running.status_code == 200
    running_etag = running["ETag"]

    # Within the same minute the countdown in the browser is right: 304.
    monkeypatch.setattr(timezone, "now", lambda: now + timedelta(seconds=55))  # 89:05 left
    assert again(organiser_client, board_url(), running_etag).status_code == 304
    # Into the next minute the time shown differs: 200.
    monkeypatch.setattr(timezone, "now", lambda: now + timedelta(seconds=65))  # 88:55 left
    later = again(organiser_client, board_url(), running_etag)
    assert later.status_code == 200

    pause_clock(round=round, actor=organiser)
    paused = again(organiser_client, board_url(), later["ETag"])
    assert paused.status_code == 200
    # A paused clock does not move: 304 however long after.
    monkeypatch.setattr(timezone, "now", lambda: now + timedelta(minutes=30))
    assert again(organiser_client, board_url(), paused["ETag"]).status_code == 304

    extend_clock(round=round, actor=organiser, minutes=5)
    assert again(organiser_client, board_url(), paused["ETag"]).status_code == 200


def test_the_board_differs_by_language_and_user(client, board, organiser):
    client.force_login(organiser)
    etag = first(client, board_url())
    other = again(client, board_url(), etag, headers={**HTMX, "Accept-Language": "zh-hans"})
    assert other.status_code == 200
    assert other["ETag"] != etag

    colleague = make_user("dora")
    board["round"].tournament.organisers.add(colleague)
    client.force_login(colleague)
    assert again(client, board_url(), etag).status_code == 200


def test_no_304_of_the_board_without_access(client, board, organiser, referee):
    client.force_login(organiser)
    etag = first(client, board_url())

    client.logout()
    response = again(client, board_url(), etag)
    assert response.status_code == 302  # to the login page

    client.force_login(referee)  # a referee, not an organiser
    assert again(client, board_url(), etag).status_code == 403

    board["round"].tournament.organisers.remove(organiser)
    client.force_login(organiser)
    assert again(client, board_url(), etag).status_code == 403


def test_no_304_of_a_private_projector_for_a_visitor(client, board, organiser):
    tournament = board["round"].tournament
    tournament.public = False
    tournament.save()
    client.force_login(organiser)
    etag = first(client, PROJECTOR, PANEL)
    assert again(client, PROJECTOR, etag, PANEL).status_code == 304

    client.logout()
    assert again(client, PROJECTOR, etag, PANEL).status_code == 404


def test_the_projector_parts(client, board, organiser, now, monkeypatch):
    from django.utils import timezone

    clock = first(client, PROJECTOR, CLOCK)
    panel = first(client, PROJECTOR, PANEL)
    assert clock != panel
    assert again(client, PROJECTOR, clock, CLOCK).status_code == 304
    assert again(client, PROJECTOR, panel, PANEL).status_code == 304
    # The other part's tag is not this part's.
    assert again(client, PROJECTOR, clock, PANEL).status_code == 200

    start_clock(round=board["round"], actor=organiser, minutes=90)
    clock = again(client, PROJECTOR, clock, CLOCK)["ETag"]
    monkeypatch.setattr(timezone, "now", lambda: now + timedelta(seconds=90))
    assert again(client, PROJECTOR, clock, CLOCK).status_code == 200

    # A hand in play shows nowhere on the projector; a swap of seats is another panel.
    panel = first(client, PROJECTOR, PANEL)
    record_deal(
        table=board["tables"][0], number=1, deal=DealInput(result="draw"), entered_by=organiser
    )
    assert again(client, PROJECTOR, panel, PANEL).status_code == 304
    assign_referees(table=board["tables"][1], referees=[organiser], actor=organiser)
    assert again(client, PROJECTOR, panel, PANEL).status_code == 200


def test_the_projector_whole_page_is_never_304(client, board):
    response = client.get(PROJECTOR)
    assert not response.has_header("ETag")


def test_the_referee_part(client, board, organiser, referee):
    client.force_login(referee)
    etag = first(client, referee_url(1))
    assert again(client, referee_url(1), etag).status_code == 304

    # A hand at the other table: nothing here changed.
    record_deal(
        table=board["tables"][1], number=1, deal=DealInput(result="draw"), entered_by=organiser
    )
    assert again(client, referee_url(1), etag).status_code == 304

    record_deal(
        table=board["tables"][0], number=1, deal=DealInput(result="draw"), entered_by=organiser
    )
    etag2 = again(client, referee_url(1), etag)["ETag"]
    assert etag2 != etag

    start_clock(round=board["round"], actor=organiser, minutes=90)
    assert again(client, referee_url(1), etag2).status_code == 200


def test_no_304_of_the_referee_part_without_access(client, board, referee, other_referee):
    client.force_login(referee)
    etag = first(client, referee_url(1))
    client.force_login(other_referee)  # referees no table here
    assert again(client, referee_url(1), etag).status_code in (403, 404)
    client.logout()
    assert again(client, referee_url(1), etag).status_code == 302

    board["tables"][0].referees.remove(referee)
    client.force_login(referee)
    assert again(client, referee_url(1), etag).status_code in (403, 404)


@pytest.mark.parametrize(
    ("who", "url", "headers"),
    [
        ("organiser", board_url(), HTMX),
        ("referee", referee_url(1), HTMX),
        ("organiser", PROJECTOR, CLOCK),
        (None, PROJECTOR, CLOCK),
        (None, PROJECTOR, PANEL),
    ],
)
def test_a_304_costs_at_most_three_queries(client, board, organiser, referee, who, url, headers):
    start_clock(round=board["round"], actor=organiser, minutes=90)
    if who is not None:
        client.force_login(organiser if who == "organiser" else referee)
    etag = first(client, url, headers)
    with CaptureQueriesContext(connection) as queries:
        response = again(client, url, etag, headers)
    assert response.status_code == 304
    # With a login: its session and user, then one query that checks access and tags.
    assert len(queries) <= 3, [query["sql"] for query in queries]
