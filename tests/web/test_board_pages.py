"""The organiser's live board: who may open it, what it shows, its fragment, confirmations."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from factories import play, submit

from tournament.models import AuditEntry, Round, Table, Tournament

pytestmark = pytest.mark.django_db


def board_url(number=1, slug="spring-cup"):
    return reverse("organiser:board", args=[slug, number])


def table_card(html, number):
    match = re.search(
        rf'<article class="([^"]*)" id="board-table-{number}".*?</article>', html, re.S
    )
    assert match, f"no card for table {number}"
    return match.group(1), re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(0)))


# --- Who may open it ------------------------------------------------------------------------


def test_anonymous_users_are_sent_to_log_in(client, board):
    response = client.get(board_url())
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


@pytest.mark.parametrize("username", ["bob", "carol"])
def test_referees_and_users_without_a_role_get_403(client, board, username):
    user = get_user_model().objects.filter(username=username).first()
    user = user or get_user_model().objects.create_user(username=username)
    client.force_login(user)
    for headers in ({}, {"HX-Request": "true"}):  # the page, and its live update
        assert client.get(board_url(), headers=headers).status_code == 403
    clock = reverse("organiser:clock", args=["spring-cup", 1])
    assert client.post(clock, {"action": "start"}).status_code == 403
    confirm_all = reverse("organiser:confirm_all", args=["spring-cup", 1])
    assert client.post(confirm_all).status_code == 403


def test_the_organiser_of_another_tournament_gets_404_for_a_private_one(client, board):
    other = get_user_model().objects.create_user(username="dan")
    mine = Tournament.objects.create(name="Other Cup", slug="other-cup")
    mine.organisers.add(other)
    Tournament.objects.filter(slug="spring-cup").update(public=False)
    client.force_login(other)
    assert client.get(board_url()).status_code == 404
    assert client.get(board_url(slug="other-cup")).status_code == 404  # no round 1 there


def test_a_round_that_does_not_exist_is_404(client, board, organiser):
    client.force_login(organiser)
    assert client.get(board_url(7)).status_code == 404


def test_only_get_for_the_board_and_only_post_for_the_actions(client, board, organiser):
    client.force_login(organiser)
    assert client.post(board_url()).status_code == 405
    # A visit to an action is sent to the page of its form.
    round_page = reverse("organiser:round", args=["spring-cup", 1])
    for action in ("clock", "confirm_all"):
        response = client.get(reverse(f"organiser:{action}", args=["spring-cup", 1]))
        assert (response.status_code, response["Location"]) == (303, round_page)
    confirm = reverse("organiser:confirm_game", args=["spring-cup", 1, 1])
    response = client.get(confirm)
    assert (response.status_code, response["Location"]) == (
        303,
        reverse("organiser:table", args=["spring-cup", 1, 1]),
    )


# --- What it shows -------------------------------------------------------------------------


def test_tables_show_hands_scores_referees_status_and_links(client, board, organiser):
    table_one, table_two = board["tables"]
    play(table_one, 3, organiser)
    client.force_login(organiser)
    html = client.get(board_url()).content.decode()

    classes, text = table_card(html, 1)
    assert "sheet-in_play" in classes
    assert "3 of 16 hands" in text
    assert "in play" in text
    assert "Ann Archer 144" in text and "Ben Baker -48" in text
    assert "Referees: bob" in text
    assert reverse("organiser:table", args=["spring-cup", 1, 1]) in html
    assert reverse("public:table", args=["spring-cup", 1, 1]) in html

    classes, text = table_card(html, 2)
    assert "sheet-not_started" in classes
    assert "0 of 16 hands" in text and "not started" in text
    assert "No referee assigned" in text
    assert (
        'hx-get="/manage/spring-cup/rounds/1/board/" hx-trigger="every 10s, live:refresh"' in html
    )
    assert "vendor/htmx/htmx.min.js" in html and "tournament/live.js" in html


def test_submitted_and_confirmed_sheets_are_told_apart(client, board, organiser):
    table_one, table_two = board["tables"]
    submit(table_one, board["referee"])
    submit(table_two, organiser, hands=5)
    Table.objects.filter(pk=table_two.pk).update(
        confirmed_at=timezone.now(), confirmed_by=organiser
    )
    client.force_login(organiser)
    html = client.get(board_url()).content.decode()

    classes, text = table_card(html, 1)
    assert "sheet-submitted" in classes
    assert "submitted — awaiting confirmation" in text
    assert "Submitted by bob" in text
    assert "Confirm the sheet of table 1" in text
    classes, text = table_card(html, 2)
    assert "sheet-confirmed" in classes
    assert "✓ confirmed" in text and "ended by time" in text
    assert "Confirm the sheet" not in text
    assert "Confirm the submitted sheet" in html  # the confirm-all button, for one sheet


def test_tables_behind_the_clock_are_highlighted_and_say_why(client, board, organiser, now):
    table_one, table_two = board["tables"]
    round = board["round"]
    play(table_one, 6, organiser)
    play(table_two, 2, organiser)
    # Half of a 120-minute round gone: an even pace has played 8 hands; 2 is more than 2 behind.
    Round.objects.filter(pk=round.pk).update(
        clock_minutes=120, clock_started_at=now - timedelta(minutes=60)
    )
    client.force_login(organiser)
    html = client.get(board_url()).content.decode()

    classes, text = table_card(html, 1)
    assert "is-behind" not in classes and "Behind the clock" not in text  # 6 of 8: within 2
    classes, text = table_card(html, 2)
    assert "is-behind" in classes
    assert "Behind the clock: 2 hands played, an even pace would have 8 by now." in text
    assert 'href="#board-table-2"' in html
    assert "left, running" in html


def test_nothing_is_behind_before_the_clock_starts_or_once_the_game_ended(
    client, board, organiser, now
):
    table_one, table_two = board["tables"]
    client.force_login(organiser)
    html = client.get(board_url()).content.decode()
    assert "is-behind" not in html
    assert "not started" in html
    submit(table_one, organiser, hands=3)
    Round.objects.filter(pk=board["round"].pk).update(
        clock_minutes=120, clock_started_at=now - timedelta(minutes=119)
    )
    html = client.get(board_url()).content.decode()
    assert "is-behind" not in table_card(html, 1)[0]
    assert "is-behind" in table_card(html, 2)[0]


def test_the_fragment_is_the_live_content_only(client, board, organiser):
    client.force_login(organiser)
    response = client.get(board_url(), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    # Kept by the browser but asked about each time, with the tag of what it shows.
    assert response["Cache-Control"] == "no-cache" and response.has_header("ETag")
    assert "HX-Request" in response["Vary"]
    assert "<html" not in html and "site-header" not in html and "hx-get" not in html
    assert 'id="board-table-1"' in html and 'id="clock"' in html


# --- The clock -----------------------------------------------------------------------------


def clock_post(client, **data):
    return client.post(reverse("organiser:clock", args=["spring-cup", 1]), data)


def test_start_pause_resume_and_extend(client, board, organiser):
    client.force_login(organiser)
    response = clock_post(client, action="start", minutes="90")
    assert response.status_code == 302 and response.url == board_url()
    round = Round.objects.get(pk=board["round"].pk)
    assert round.clock_minutes == 90 and round.clock_started_at is not None
    html = client.get(board_url()).content.decode()
    assert "The clock of round 1 is running" in html
    assert "left, running" in html and "data-countdown-running" in html
    assert "Pause" in html and "Start the clock" not in html

    clock_post(client, action="pause")
    round.refresh_from_db()
    assert round.clock_paused_at is not None
    html = client.get(board_url()).content.decode()
    assert "left, paused" in html and "data-countdown-running" not in html
    assert ">Resume<" in html

    clock_post(client, action="resume")
    round.refresh_from_db()
    assert round.clock_paused_at is None

    clock_post(client, action="extend", minutes="10")
    clock_post(client, action="extend", minutes="-3")
    round.refresh_from_db()
    assert round.clock_extra_minutes == 7
    html = client.get(board_url()).content.decode()
    assert "extended by 7 min" in html
    events = [
        entry.after["event"]
        for entry in AuditEntry.objects.filter(action=AuditEntry.Action.CLOCK).order_by("pk")
    ]
    assert events == ["started", "paused", "resumed", "extended", "extended"]


def test_start_uses_the_tournament_round_time_by_default(client, board, organiser, tournament):
    tournament.round_minutes = 150
    tournament.save()
    client.force_login(organiser)
    html = client.get(board_url()).content.decode()
    assert 'name="minutes" value="150"' in html
    clock_post(client, action="start", minutes="")
    assert Round.objects.get(pk=board["round"].pk).clock_minutes == 150


@pytest.mark.parametrize(
    ("first", "data", "message", "kept"),
    [
        (None, {"action": "start", "minutes": "5"}, "A round lasts 10 to 600 minutes.", True),
        (None, {"action": "pause"}, "The clock of round 1 has not started.", False),
        (None, {"action": "extend", "minutes": "5"}, "The clock of round 1 has not started.", 0),
        ("start", {"action": "start"}, "The clock of round 1 has already started.", False),
        ("start", {"action": "resume"}, "The clock is not paused.", False),
        ("start", {"action": "extend", "minutes": "500"}, "Extend the round by 1 to 120", True),
        ("start", {"action": "extend", "minutes": ""}, "Say by how many minutes to extend", 0),
        ("start", {"action": "extend", "minutes": "ten"}, "Give the minutes as a whole", True),
        (None, {"action": "explode"}, "Unknown clock action.", False),
    ],
)
def test_refused_clock_actions_come_back_with_422_and_the_message(
    client, board, organiser, first, data, message, kept
):
    client.force_login(organiser)
    if first:
        clock_post(client, action=first)
    before = Round.objects.values().get(pk=board["round"].pk)
    response = clock_post(client, **data)
    html = response.content.decode()
    assert response.status_code == 422
    assert message in html
    assert 'role="alert"' in html
    assert Round.objects.values().get(pk=board["round"].pk) == before
    if kept:
        assert f'value="{data["minutes"]}"' in html  # the typed value is kept


def test_the_clock_is_refused_while_the_round_is_not_in_play(client, board, organiser):
    round = board["round"]
    Round.objects.filter(pk=round.pk).update(status=Round.Status.SEATED)
    client.force_login(organiser)
    html = client.get(board_url()).content.decode()
    assert "The clock runs only while the round is in play." in html
    assert "Start the clock" not in html
    response = clock_post(client, action="start")
    assert response.status_code == 422
    assert "Round 1 is seated: the clock runs only while a round is in play." in (
        response.content.decode()
    )


def test_a_finished_rounds_board_shows_its_clock_stopped(client, board, organiser):
    client.force_login(organiser)
    client.post(reverse("organiser:clock", args=["spring-cup", 1]), {"action": "start"})
    for table in board["tables"]:
        submit(table, organiser)
    client.post(reverse("organiser:confirm_all", args=["spring-cup", 1]))
    status = reverse("organiser:round_status", args=["spring-cup", 1])
    client.post(status, {"status": "finished"})
    assert Round.objects.get(pk=board["round"].pk).status == Round.Status.FINISHED

    html = client.get(board_url()).content.decode()

    assert "data-countdown-running" not in html
    assert "left, running" not in html
    assert "The round is finished: its clock is stopped." in html
    assert "Pause" not in html


# --- Confirming sheets ---------------------------------------------------------------------


def test_confirm_one_sheet(client, board, organiser):
    table_one, _ = board["tables"]
    submit(table_one, board["referee"])
    client.force_login(organiser)
    response = client.post(reverse("organiser:confirm_game", args=["spring-cup", 1, 1]))
    assert response.status_code == 302 and response.url == board_url()
    table_one.refresh_from_db()
    assert table_one.confirmed_by == organiser
    html = client.get(board_url()).content.decode()
    assert "The sheet of table 1 is confirmed" in html
    assert "sheet-confirmed" in table_card(html, 1)[0]


def test_confirming_goes_back_to_a_next_page_of_this_site_only(client, board, organiser):
    table_one, table_two = board["tables"]
    submit(table_one, organiser)
    submit(table_two, organiser)
    client.force_login(organiser)
    table_page = reverse("organiser:table", args=["spring-cup", 1, 1])
    url = reverse("organiser:confirm_game", args=["spring-cup", 1, 1])
    assert client.post(url, {"next": table_page}).url == table_page
    url = reverse("organiser:confirm_game", args=["spring-cup", 1, 2])
    assert client.post(url, {"next": "https://evil.example/"}).url == board_url()


@pytest.mark.parametrize("target", ["0", "organiser:board", "board/", "//evil.example/"])
def test_a_next_that_is_not_a_path_of_this_site_goes_to_the_board(client, board, organiser, target):
    """Found by the attack suite: `next=0` was taken for a URL name and answered 500."""
    submit(board["tables"][0], organiser)
    client.force_login(organiser)
    url = reverse("organiser:confirm_game", args=["spring-cup", 1, 1])
    response = client.post(url, {"next": target})
    assert response.status_code == 302 and response.url == board_url()


def test_refused_confirmations_are_said_and_change_nothing(client, board, organiser):
    table_one, _ = board["tables"]
    client.force_login(organiser)
    url = reverse("organiser:confirm_game", args=["spring-cup", 1, 1])
    response = client.post(url, follow=True)
    assert "its sheet is not submitted yet" in response.content.decode()
    submit(table_one, organiser)
    client.post(url)
    response = client.post(url, follow=True)
    assert "The sheet of table 1 is already confirmed." in response.content.decode()
    assert AuditEntry.objects.filter(action=AuditEntry.Action.GAME_CONFIRMED).count() == 1
    missing = reverse("organiser:confirm_game", args=["spring-cup", 1, 9])
    assert client.post(missing).status_code == 404


def test_confirm_all_submitted_sheets(client, board, organiser):
    table_one, table_two = board["tables"]
    client.force_login(organiser)
    url = reverse("organiser:confirm_all", args=["spring-cup", 1])
    response = client.post(url, follow=True)
    assert "No submitted sheet was waiting for confirmation." in response.content.decode()

    submit(table_one, board["referee"])
    submit(table_two, organiser, hands=9)
    html = client.get(board_url()).content.decode()
    assert "Confirm all 2 submitted sheets" in html
    response = client.post(url, follow=True)
    assert "2 sheets confirmed (tables 1, 2)." in response.content.decode()
    assert Table.objects.filter(confirmed_at__isnull=True).count() == 0


def test_the_board_is_linked_from_the_round_page_and_the_dashboard(client, board, organiser):
    client.force_login(organiser)
    for url in (
        reverse("organiser:round", args=["spring-cup", 1]),
        reverse("organiser:dashboard", args=["spring-cup"]),
    ):
        assert f'href="{board_url()}"' in client.get(url).content.decode()
