"""A table's own time on the pages: the board's "Extra time" form (organisers only), the
table's own time left on the board, the referee's table screen and the projector.

Fixtures (tests/conftest.py): `board` is round 1 in play, table 1 (refereed by bob) and
table 2, reached by alice's steps. Under every preset: tests/preset_world.py.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from factories import make_user
from preset_world import PRESETS, build

from tournament.models import AuditEntry, Round, Table
from tournament.services import DealInput, end_game, give_table_time, record_deal

pytestmark = pytest.mark.django_db


def time_url(table=1, number=1, slug="spring-cup"):
    return reverse("organiser:table_time", args=[slug, number, table])


def board_url(number=1, slug="spring-cup"):
    return reverse("organiser:board", args=[slug, number])


def referee_url(table=1, number=1, slug="spring-cup"):
    return reverse("referee:table", args=[slug, number, table])


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def card(html: str, number: int) -> str:
    match = re.search(rf'<article [^>]*id="board-table-{number}".*?</article>', html, re.S)
    assert match, f"no card for table {number}"
    return match.group(0)


def extra(table: Table) -> int:
    return Table.objects.get(pk=table.pk).extra_minutes


def run_clock(round: Round, now, minutes_ago: int = 30, **fields) -> None:
    values = {"clock_minutes": 120, "clock_started_at": now - timedelta(minutes=minutes_ago)}
    Round.objects.filter(pk=round.pk).update(**values, **fields)


# --- Who may give time ----------------------------------------------------------------------


def test_anonymous_users_are_sent_to_log_in(client, board):
    response = client.post(time_url(), {"quick": "10"})

    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert extra(board["tables"][0]) == 0


@pytest.mark.parametrize("username", ["bob", "carol"])
def test_referees_and_visitors_with_an_account_are_refused(client, board, username):
    user = get_user_model().objects.filter(username=username).first() or make_user(username)
    client.force_login(user)

    assert client.post(time_url(), {"quick": "10"}).status_code == 403
    assert extra(board["tables"][0]) == 0
    assert not AuditEntry.objects.filter(action="table_time").exists()


def test_a_visit_is_sent_to_the_tables_page_and_changes_nothing(client, board, organiser):
    client.force_login(organiser)

    response = client.get(time_url(), {"quick": "10"})

    assert (response.status_code, response["Location"]) == (
        303,
        reverse("organiser:table", args=["spring-cup", 1, 1]),
    )
    assert extra(board["tables"][0]) == 0


def test_a_table_that_does_not_exist_is_404(client, board, organiser):
    client.force_login(organiser)

    assert client.post(time_url(table=9), {"quick": "10"}).status_code == 404


# --- The form -------------------------------------------------------------------------------


def test_a_quick_button_gives_the_table_time_with_its_reason(client, board, organiser, now):
    run_clock(board["round"], now)
    client.force_login(organiser)

    response = client.post(time_url(), {"quick": "10", "reason": "Late start", "minutes": ""})

    assert response.status_code == 302
    assert response.url == board_url() + "#board-table-1"
    assert extra(board["tables"][0]) == 10
    entry = AuditEntry.objects.get(action="table_time")
    assert (entry.table_id, entry.actor, entry.after["reason"]) == (
        board["tables"][0].pk,
        organiser,
        "Late start",
    )
    html = client.get(response.url).content.decode()
    assert "Table 1 now has +10 min of its own: 1:40:00 left." in text(html)


def test_minutes_typed_in_are_added_and_can_be_taken_back(client, board, organiser):
    client.force_login(organiser)

    client.post(time_url(), {"minutes": "15"})
    client.post(time_url(), {"minutes": "-5"})
    assert extra(board["tables"][0]) == 10

    client.post(time_url(), {"clear": "1"})
    assert extra(board["tables"][0]) == 0


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"minutes": ""}, "Say how many minutes to give the table"),
        ({"minutes": "ten"}, "Give the minutes as a whole number."),
        ({"minutes": "125"}, "A table has from -60 to 120 minutes of its own in all"),
        ({"minutes": "0"}, "Give the table at least one minute more, or take at least one back."),
        ({"minutes": "99999"}, "Give at most 600 minutes."),
        ({"quick": "5", "reason": "x" * 201}, "Keep the reason to 200 characters."),
        ({"clear": "1"}, "Give the table at least one minute more, or take at least one back."),
    ],
)
def test_refusals_come_back_on_the_tables_card_with_422(client, board, organiser, data, message):
    client.force_login(organiser)

    response = client.post(time_url(), data)

    assert response.status_code == 422
    html = response.content.decode()
    first = card(html, 1)
    assert message in text(first)
    assert 'role="alert"' in first and 'id="board-time-1" open' in first
    assert message not in text(card(html, 2))
    assert extra(board["tables"][0]) == 0


def test_an_ended_game_is_refused_and_its_card_has_no_form(client, board, organiser, referee):
    table = board["tables"][0]
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=referee)
    end_game(table=table, ended_by_time=True, entered_by=referee)
    client.force_login(organiser)

    assert 'id="board-time-1"' not in card(client.get(board_url()).content.decode(), 1)
    response = client.post(time_url(), {"quick": "5"})
    assert response.status_code == 422
    assert "The game at table 1 has ended: reopen it first to give it time." in text(
        response.content.decode()
    )


def test_a_finished_round_is_refused_and_shows_no_form(client, board, organiser):
    Round.objects.filter(pk=board["round"].pk).update(status=Round.Status.FINISHED)
    client.force_login(organiser)

    assert "board-time-1" not in client.get(board_url()).content.decode()
    response = client.post(time_url(), {"quick": "5"})
    assert response.status_code == 422
    assert "Round 1 is finished" in text(response.content.decode())
    assert extra(board["tables"][0]) == 0


# --- What the board shows -------------------------------------------------------------------


def test_the_board_shows_a_tables_own_time_only_when_it_differs(client, board, organiser, now):
    run_clock(board["round"], now)
    give_table_time(table=board["tables"][0], minutes=10, actor=organiser)
    client.force_login(organiser)

    html = client.get(board_url()).content.decode()

    first, second = card(html, 1), card(html, 2)
    assert 'data-table-time="+10"' in first
    assert 'data-countdown="6000"' in first and "1:40:00" in first  # 90 + 10 minutes left
    assert "Extra time" in text(first) and "(+10 min)" in text(first)
    assert "data-table-time" not in second and "Own time" not in text(second)


def test_the_board_judges_behind_against_the_tables_own_time(client, board, organiser, now):
    run_clock(board["round"], now, minutes_ago=90)  # 12 of 16 hands expected by now
    give_table_time(table=board["tables"][0], minutes=60, actor=organiser)  # 8 of 16
    client.force_login(organiser)

    html = client.get(board_url()).content.decode()

    assert "is-behind" in card(html, 2)  # no hand played, 12 expected
    assert "is-behind" in card(html, 1)
    assert "an even pace would have 8 by now" in text(card(html, 1))


def test_the_boards_live_update_changes_when_time_is_given(client, board, organiser, now):
    run_clock(board["round"], now)
    client.force_login(organiser)
    live = {"HX-Request": "true"}
    first = client.get(board_url(), headers=live)

    give_table_time(table=board["tables"][0], minutes=10, actor=organiser)
    again = client.get(board_url(), headers=live, HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert 'data-table-time="+10"' in again.content.decode()


# --- The referee's table screen -------------------------------------------------------------


def test_the_referee_screen_shows_the_tables_own_time(client, board, organiser, referee, now):
    run_clock(board["round"], now)
    give_table_time(table=board["tables"][0], minutes=10, actor=organiser)
    client.force_login(referee)

    html = client.get(referee_url()).content.decode()

    assert 'data-countdown="6000"' in html and "1:40:00" in html
    assert "+10 min for this table" in text(html)
    live = client.get(reverse("referee:live", args=["spring-cup", 1, 1])).content.decode()
    assert 'data-countdown="6000"' in live and "+10 min for this table" in text(live)


def test_the_referee_screen_of_a_table_without_extra_time_is_unchanged(client, board, referee, now):
    run_clock(board["round"], now)
    client.force_login(referee)

    html = client.get(referee_url()).content.decode()

    assert 'data-countdown="5400"' in html and "for this table" not in html


def test_the_referee_screen_says_the_tables_time_is_up(client, board, organiser, referee, now):
    run_clock(board["round"], now, minutes_ago=110)
    give_table_time(table=board["tables"][0], minutes=-15, actor=organiser)
    client.force_login(referee)

    html = text(client.get(referee_url()).content.decode())

    assert "Table's clock time is up" in html and "-15 min for this table" in html


def test_the_referees_live_part_changes_when_the_table_gets_time(
    client, board, organiser, referee, now
):
    run_clock(board["round"], now)
    client.force_login(referee)
    url = reverse("referee:live", args=["spring-cup", 1, 1])
    first = client.get(url, headers={"HX-Request": "true"})

    give_table_time(table=board["tables"][0], minutes=10, actor=organiser)
    again = client.get(url, headers={"HX-Request": "true"}, HTTP_IF_NONE_MATCH=first["ETag"])

    assert again.status_code == 200 and "+10 min for this table" in text(again.content.decode())


# --- The projector --------------------------------------------------------------------------

CLOCK = {"HX-Request": "true", "HX-Target": "pj-clock"}


def test_the_projector_lists_tables_with_their_own_time(client, board, organiser, now):
    run_clock(board["round"], now)
    give_table_time(table=board["tables"][1], minutes=10, actor=organiser)
    projector = reverse("public:projector", args=["spring-cup"])

    html = client.get(projector, headers=CLOCK).content.decode()

    assert 'data-countdown="5400"' in html  # the round
    assert 'data-table-time="2"' in html and 'data-table-time="1"' not in html
    assert "Table 2 (+10 min):" in text(html) and 'data-countdown="6000"' in html
    assert "pj-own-time" in client.get(projector).content.decode()


def test_the_projector_leaves_out_ended_games(client, board, organiser, referee, now):
    run_clock(board["round"], now)
    table = board["tables"][0]
    give_table_time(table=table, minutes=10, actor=organiser)
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=referee)
    end_game(table=table, ended_by_time=True, entered_by=referee)
    projector = reverse("public:projector", args=["spring-cup"])

    assert "pj-own-time" not in client.get(projector, headers=CLOCK).content.decode()


# --- Every preset ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", PRESETS)
def test_every_preset_gives_time_on_the_board_and_shows_it_to_the_referee(client, key, now):
    world = build(key)
    round = world.playing.round
    run_clock(round, now)
    client.force_login(world.organiser)
    number = world.playing.number

    response = client.post(time_url(table=number, number=round.number), {"quick": "10"})

    assert response.status_code == 302
    html = client.get(board_url(number=round.number)).content.decode()
    assert 'data-table-time="+10"' in card(html, number)
    client.force_login(world.referee)
    screen = client.get(referee_url(table=number, number=round.number)).content.decode()
    assert 'data-countdown="6000"' in screen and "+10 min for this table" in text(screen)
