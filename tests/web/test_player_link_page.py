"""The page behind a player's private link, /p/<secret>/ (tournament/web/player_link.py): found by
its secret only, private in every header, live with 304s, marking what changed since the
player looked; self check-in, calling a referee (and the board that shows the call); the
organiser's pages that make, revoke and print the links."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from factories import make_players, make_tournament, make_user, play, seated_round
from preset_world import PRESETS, build

from hosting import live_cache
from tournament.models import (
    AuditEntry,
    Deal,
    Player,
    RefereeCall,
    Registration,
    Round,
    Tournament,
)
from tournament.services import (
    DealInput,
    confirm_game,
    correct_deal,
    end_game,
    pause_clock,
    record_deal,
    set_round_status,
    start_clock,
    update_player,
)
from tournament.services.player_links import (
    issue_link,
    issue_links,
    player_for_secret,
    revoke_link,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(secret: str) -> str:
    return reverse("player_link", args=[secret])


@pytest.fixture
def link(board, organiser) -> str:
    """The private link of Ann Archer (key 1), East at table 1 of round 1, which is in play."""
    return issue_link(board["players"][0], actor=organiser)


def _text(response) -> str:
    return response.content.decode()


def _assert_private(response) -> None:
    # Not no-referrer: browsers would send the forms' Origin as "null", refused as CSRF.
    assert response["Referrer-Policy"] == "same-origin"
    assert "private" in response["Cache-Control"]
    assert "public" not in response["Cache-Control"]


# --- Found by the secret only --------------------------------------------------------------


@pytest.mark.parametrize("secret", ["nope", "x" * 32, "a" * 300, "%E2%82%AC"])
def test_a_wrong_link_is_404(client, link, secret):
    response = client.get(url(secret))
    assert response.status_code == 404
    _assert_private(response)
    assert client.get(url(secret), **HTMX).status_code == 404


def test_a_revoked_or_replaced_link_is_404(client, board, organiser, link):
    assert client.get(url(link)).status_code == 200
    newer = issue_link(board["players"][0], actor=organiser)
    assert client.get(url(link)).status_code == 404
    assert client.get(url(newer)).status_code == 200
    revoke_link(board["players"][0], actor=organiser)
    assert client.get(url(newer)).status_code == 404
    assert client.post(reverse("player_link_call", args=[newer])).status_code == 404
    assert client.post(reverse("player_link_check_in", args=[newer])).status_code == 404
    assert not RefereeCall.objects.exists()


def test_the_page_is_private_not_indexed_and_sends_no_referrer_elsewhere(client, link):
    response = client.get(url(link))

    assert response.status_code == 200
    _assert_private(response)
    assert "no-store" in response["Cache-Control"]
    assert response["X-Accel-Expires"] == "0"
    text = _text(response)
    assert '<meta name="robots" content="noindex, nofollow">' in text
    assert '<meta name="referrer" content="same-origin">' in text


def test_nginx_never_keeps_the_private_page():
    for pages in (live_cache.LIVE_PAGES, live_cache.VISITOR_PAGES):
        pattern = re.compile(f"^{pages}$")
        assert pattern.match("/t/spring-cup/standings/")
        assert not pattern.match("/p/abc/")
        assert not pattern.match("/p/t/x/standings/")


def test_the_page_shows_the_players_tournament_table_and_opponents(client, board, link):
    text = _text(client.get(url(link)))

    assert "Spring Cup" in text
    assert "Ann Archer" in text
    assert "Your table now: table 1, seat East" in text
    assert "With Ben Baker (S), Cai Chen (W), Dora Diaz (N)" in text
    for name in ("Ben Baker", "Cai Chen", "Dora Diaz"):  # the opponents
        assert name in text
    assert "Eve Evans" not in text  # at the other table
    assert "Call a referee" in text
    assert "You are not checked in yet." in text


def test_nothing_private_of_other_players_is_shown(client, board, organiser, tournament, link):
    players = board["players"]
    update_player(player=players[1], ema_number="04010001")
    Registration.objects.create(
        tournament=tournament,
        name=players[1].name,
        contact="ben@example.org",
        status=Registration.Status.ACCEPTED,
        player=players[1],
    )
    other = issue_link(players[1], actor=organiser)

    text = _text(client.get(url(link)))

    assert "Ben Baker" in text
    assert "04010001" not in text
    assert "ben@example.org" not in text
    assert other not in text
    assert Player.objects.get(pk=players[1].pk).link_digest not in text


def test_a_link_shows_its_own_tournament_only(client, board, organiser):
    autumn = make_tournament(organisers=[organiser], slug="autumn", name="Autumn Open")
    theirs = make_players(autumn, names=["Ann Archer", "Zed Zane", "Yul Young", "Xia Xu"])
    seated_round(autumn, organiser, [theirs], status="seated")
    secret = issue_link(theirs[0], actor=organiser)

    text = _text(client.get(url(secret)))

    assert "Autumn Open" in text and "Spring Cup" not in text
    assert "Zed Zane" in text
    assert "Ben Baker" not in text
    assert "Your next table: table 1, seat East" in text


def test_a_private_tournament_is_shown_to_the_player_without_links_to_its_public_pages(
    client, board, tournament, link
):
    Tournament.objects.filter(pk=tournament.pk).update(public=False)
    response = client.get(url(link))
    assert response.status_code == 200
    assert "/t/spring-cup/" not in _text(response)


# --- Live ----------------------------------------------------------------------------------


def test_a_poll_is_304_until_something_the_player_sees_changes(client, board, link):
    referee = board["referee"]
    first = client.get(url(link), **HTMX)
    assert first.status_code == 200
    _assert_private(first)
    assert "no-cache" in first["Cache-Control"]
    etag = first["ETag"]

    assert client.get(url(link), HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304
    play(board["tables"][1], 1, referee)  # the other table: nothing of hers
    assert client.get(url(link), HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304

    play(board["tables"][0], 1, referee)  # her own table
    again = client.get(url(link), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert again.status_code == 200
    assert again["ETag"] != etag
    assert "Hand" in _text(again)


def test_a_poll_neither_marks_the_page_seen_nor_is_kept_for_others(client, board, link):
    player = board["players"][0]
    client.get(url(link), **HTMX)
    assert Player.objects.get(pk=player.pk).link_seen_at is None
    client.get(url(link))
    assert Player.objects.get(pk=player.pk).link_seen_at is not None


def test_a_check_in_moves_the_poll_on(client, board, tournament, link):
    Tournament.objects.filter(pk=tournament.pk).update(self_check_in=True)
    etag = client.get(url(link), **HTMX)["ETag"]
    client.post(reverse("player_link_check_in", args=[link]))
    assert client.get(url(link), HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 200


# --- What changed since the player looked --------------------------------------------------


def _ago(player: Player, minutes: int) -> None:
    Player.objects.filter(pk=player.pk).update(
        link_seen_at=timezone.now() - timedelta(minutes=minutes)
    )


def test_a_correction_at_the_players_table_is_marked_once(client, board, link):
    referee = board["referee"]
    table = board["tables"][0]
    play(table, 2, referee)
    client.get(url(link))  # she looks
    assert "New since you last looked" not in _text(client.get(url(link)))

    hand = Deal.objects.get(table=table, number=2)
    correct_deal(hand=hand, deal=DealInput(result="draw"), entered_by=referee)
    poll = client.get(url(link), **HTMX)
    page = _text(client.get(url(link)))

    assert "Round 1: hand 2 was corrected." in page
    assert "hand 2 was corrected" in _text(poll)
    # Seen: the next look marks nothing, but the page open since keeps its marks in its polls.
    since = re.search(r'hx-get="([^"]+)"', page)[1].replace("&amp;", "&")
    assert "since=" in since
    assert "hand 2 was corrected" not in _text(client.get(url(link)))
    assert "hand 2 was corrected" in _text(client.get(since, **HTMX))


def test_a_correction_at_another_table_is_not_marked(client, board, link):
    referee = board["referee"]
    play(board["tables"][1], 1, referee)
    client.get(url(link))
    correct_deal(
        hand=Deal.objects.get(table=board["tables"][1]),
        deal=DealInput(result="draw"),
        entered_by=referee,
    )
    assert "was corrected" not in _text(client.get(url(link)))


def test_a_newly_published_round_is_marked_with_the_table_and_seat(client, board, organiser, link):
    players = board["players"]
    for table in board["tables"]:
        play(table, 16, board["referee"])
    for table in board["tables"]:
        end_game(table=table, ended_by_time=False, entered_by=board["referee"])
        confirm_game(table=table, confirmed_by=organiser)
    set_round_status(round=board["round"], status="finished", actor=organiser)
    client.get(url(link))  # she looks before round 2 is out
    _ago(players[0], 1)
    second, _tables = seated_round(
        organiser.organised_tournaments.get(),
        organiser,
        [players[4:], [players[1], players[2], players[3], players[0]]],
        status="seated",
    )

    text = _text(client.get(url(link)))

    assert "Round 2 is seated: table 2, North." in text
    assert "Your next table: table 2, seat North" in text
    assert "Round 2 is seated" not in _text(client.get(url(link)))


def test_nothing_is_marked_on_the_first_look(client, board, link):
    record_deal(
        table=board["tables"][0],
        number=1,
        deal=DealInput(result="draw"),
        entered_by=board["referee"],
    )
    correct_deal(
        hand=Deal.objects.get(table=board["tables"][0]),
        deal=DealInput(result="win", winner=board["players"][0], fan=8),
        entered_by=board["referee"],
    )
    Player.objects.filter(pk=board["players"][0].pk).update(link_issued_at=timezone.now())
    assert "New since you last looked" not in _text(client.get(url(link)))


# --- Self check-in -------------------------------------------------------------------------


def test_self_check_in_while_allowed(client, board, tournament, link):
    Tournament.objects.filter(pk=tournament.pk).update(self_check_in=True)
    page = _text(client.get(url(link)))
    assert 'action="' + reverse("player_link_check_in", args=[link]) + '"' in page

    response = client.post(reverse("player_link_check_in", args=[link]), follow=True)

    assert response.status_code == 200
    assert "You are checked in" in _text(response)
    player = Player.objects.get(pk=board["players"][0].pk)
    assert player.checked_in_at is not None
    entry = AuditEntry.objects.get(action=AuditEntry.Action.CHECK_IN)
    assert entry.actor is None and entry.after["source"] == "link"


@pytest.mark.parametrize("closed", [False, True])
def test_self_check_in_refused_when_not_open(client, board, tournament, link, closed):
    fields = {"self_check_in": closed}
    if closed:
        fields["check_in_closed_at"] = timezone.now()
    Tournament.objects.filter(pk=tournament.pk).update(**fields)
    page = _text(client.get(url(link)))
    assert reverse("player_link_check_in", args=[link]) not in page

    response = client.post(reverse("player_link_check_in", args=[link]), follow=True)

    assert "please go to the check-in desk" in _text(response)
    assert Player.objects.get(pk=board["players"][0].pk).checked_in_at is None


def test_a_visit_to_a_form_only_address_goes_back_to_the_page(client, link):
    response = client.get(reverse("player_link_check_in", args=[link]))
    assert response.status_code == 303 and response["Location"] == url(link)


# --- Calling a referee ---------------------------------------------------------------------


def test_a_call_is_throttled_shown_on_the_board_and_answered(client, board, organiser, link):
    call_url = reverse("player_link_call", args=[link])
    response = client.post(call_url, follow=True)
    assert "A referee is called to table 1." in _text(response)
    assert "A referee was called at" in _text(response)
    assert "Call a referee" not in _text(response)

    again = client.post(call_url, follow=True)
    assert "has been called to table 1 already" in _text(again)
    assert RefereeCall.objects.count() == 1

    # Another player of the same table is refused too; one of the other table may call.
    ben = issue_link(board["players"][1], actor=organiser)
    client.post(reverse("player_link_call", args=[ben]))
    eve = issue_link(board["players"][4], actor=organiser)
    client.post(reverse("player_link_call", args=[eve]))
    assert sorted(RefereeCall.objects.values_list("table__number", flat=True)) == [1, 2]

    organiser_client = type(client)()
    organiser_client.force_login(organiser)
    board_url = reverse("organiser:board", args=["spring-cup", 1])
    etag = organiser_client.get(board_url, **HTMX)["ETag"]
    page = _text(organiser_client.get(board_url))
    assert "2 tables call a referee" in page
    assert "waiting 0 minutes" in page
    assert "by Ann Archer" in page

    call = RefereeCall.objects.get(table=board["tables"][0])
    answered = organiser_client.post(
        reverse("organiser:referee_call_answer", args=["spring-cup", call.pk]), follow=True
    )
    assert "The call from table 1 is answered." in _text(answered)
    call.refresh_from_db()
    assert call.answered_by == organiser
    assert organiser_client.get(board_url, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 200
    assert "A table calls a referee" in _text(organiser_client.get(board_url))

    # Answered, but within the minute: refused; the page shows the button again.
    assert "Call a referee" in _text(client.get(url(link)))
    soon = client.post(call_url, follow=True)
    assert "less than a minute ago" in _text(soon)
    assert RefereeCall.objects.count() == 2


def test_the_board_moves_when_a_call_comes(client, board, organiser, link):
    organiser_client = type(client)()
    organiser_client.force_login(organiser)
    board_url = reverse("organiser:board", args=["spring-cup", 1])
    etag = organiser_client.get(board_url, **HTMX)["ETag"]
    assert organiser_client.get(board_url, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304

    client.post(reverse("player_link_call", args=[link]))

    fresh = organiser_client.get(board_url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert fresh.status_code == 200
    assert "A table calls a referee" in _text(fresh)


def test_only_an_organiser_answers_a_call(client, board, link):
    client.post(reverse("player_link_call", args=[link]))
    call = RefereeCall.objects.get()
    client.force_login(board["referee"])
    response = client.post(reverse("organiser:referee_call_answer", args=["spring-cup", call.pk]))
    assert response.status_code in (403, 404)
    call.refresh_from_db()
    assert call.answered_at is None


def test_no_call_button_without_a_round_in_play(client, tournament, organiser):
    players = make_players(tournament, 4)
    seated_round(tournament, organiser, [players], status="seated")
    secret = issue_link(players[0], actor=organiser)
    text = _text(client.get(url(secret)))
    assert "Call a referee" not in text
    response = client.post(reverse("player_link_call", args=[secret]), follow=True)
    assert "You are not playing at a table now" in _text(response)


# --- Every preset --------------------------------------------------------------------------


@pytest.mark.parametrize("key", PRESETS)
def test_every_preset_shows_the_deals_game_by_game(client, key):
    world = build(key)
    secret = issue_link(world.players[0], actor=world.organiser)

    response = client.get(url(secret))

    assert response.status_code == 200
    text = _text(response)
    words = world.tournament.words
    assert words.deal in text
    assert "Hands won or paid" in text if key == "mcr" else "Deals won or paid" in text
    assert "Your table now: table 1" in text
    assert world.tournament.name in text
    # Round 1's and round 2's seating, with the schedule.
    assert 'id="schedule-1"' in text and 'id="schedule-2"' in text
    assert "finished" in text
    poll = client.get(url(secret), **HTMX)
    assert poll.status_code == 200
    assert client.get(url(secret), HTTP_IF_NONE_MATCH=poll["ETag"], **HTMX).status_code == 304


# --- The organiser's pages -----------------------------------------------------------------


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


def test_a_new_link_is_shown_once_with_its_qr_code(organiser_client, players):
    response = organiser_client.post(
        reverse("organiser:player_link", args=["spring-cup", "1"]), {"action": "issue"}
    )
    assert response.status_code == 302
    slips = organiser_client.get(response["Location"])

    text = _text(slips)
    assert "no-store" in slips["Cache-Control"]
    found = re.search(r"http://testserver/p/([A-Za-z0-9_-]+)/", text)
    assert found is not None
    assert player_for_secret(found[1]) == players[0]
    assert "<svg" in text and "Player 1" in text
    again = _text(organiser_client.get(response["Location"]))
    assert found[1] not in again and "shown once" in again

    players_page = _text(organiser_client.get(reverse("organiser:players", args=["spring-cup"])))
    assert "Revoke" in players_page and found[1] not in players_page


def test_a_link_is_revoked_from_the_players_page(organiser_client, players, organiser):
    secret = issue_link(players[0], actor=organiser)
    response = organiser_client.post(
        reverse("organiser:player_link", args=["spring-cup", "1"]),
        {"action": "revoke"},
        follow=True,
    )
    assert "link is revoked" in _text(response)
    assert player_for_secret(secret) is None
    refused = organiser_client.post(
        reverse("organiser:player_link", args=["spring-cup", "1"]),
        {"action": "revoke"},
        follow=True,
    )
    assert "has no private link to revoke" in _text(refused)


def test_slips_for_the_field_go_to_those_without_a_link(organiser_client, players, organiser):
    kept = issue_link(players[0], actor=organiser)
    links = reverse("organiser:player_links", args=["spring-cup"])

    slips = organiser_client.post(links, follow=True)

    text = _text(slips)
    secrets = re.findall(r"http://testserver/p/([A-Za-z0-9_-]+)/", text)
    assert len(set(secrets)) == 7
    assert player_for_secret(kept) == players[0]
    assert "7 private link slips" in text
    nothing = organiser_client.post(links, follow=True)
    assert "Every player has a link already" in _text(nothing)


def test_new_links_for_everyone_need_a_confirmation(organiser_client, players, organiser):
    kept = issue_link(players[0], actor=organiser)
    links = reverse("organiser:player_links", args=["spring-cup"])

    refused = organiser_client.post(links, {"everyone": "on"}, follow=True)
    assert "Tick the box to confirm" in _text(refused)
    assert player_for_secret(kept) == players[0]

    slips = organiser_client.post(links, {"everyone": "on", "confirm": "on"}, follow=True)
    assert len(set(re.findall(r"/p/([A-Za-z0-9_-]+)/", _text(slips)))) == 8
    assert player_for_secret(kept) is None


def test_a_referee_or_a_visitor_gets_no_link(client, players, organiser):
    referee = make_user("bob")
    client.force_login(referee)
    response = client.post(
        reverse("organiser:player_link", args=["spring-cup", "1"]), {"action": "issue"}
    )
    assert response.status_code == 403
    assert client.post(reverse("organiser:player_links", args=["spring-cup"])).status_code == 403
    client.logout()
    response = client.post(reverse("organiser:player_links", args=["spring-cup"]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Player.objects.exclude(link_digest="").exists()


def test_a_head_of_the_slips_page_uses_no_link_up(organiser_client, players):
    response = organiser_client.post(
        reverse("organiser:player_link", args=["spring-cup", "1"]), {"action": "issue"}
    )
    assert organiser_client.head(response["Location"]).status_code == 200
    text = _text(organiser_client.get(response["Location"]))
    assert re.search(r"/p/[A-Za-z0-9_-]+/", text)


def test_no_export_holds_a_link(organiser_client, players, organiser):
    issue_link(players[0], actor=organiser)
    digest = Player.objects.get(pk=players[0].pk).link_digest
    for address in (
        reverse("outputs:ema_csv", args=["spring-cup"]),
        reverse("outputs:ema", args=["spring-cup"]),
        reverse("public:standings", args=["spring-cup"]) + "?_export=csv",
        reverse("public:standings", args=["spring-cup"]) + "?_export=xlsx",
        reverse("organiser:players", args=["spring-cup"]),
    ):
        response = organiser_client.get(address)
        assert response.status_code == 200, address
        content = b"".join(response) if response.streaming else response.content
        assert digest.encode() not in content, address


def test_the_audit_trail_shows_links_and_calls_without_secrets(client, board, organiser, link):
    issue_links(board["round"].tournament, actor=organiser)
    client.post(reverse("player_link_call", args=[link]))
    client.force_login(organiser)
    response = client.get(reverse("organiser:audit", args=["spring-cup"]))
    assert response.status_code == 200
    text = _text(response)
    assert "Player&#x27;s private link" in text or "Player's private link" in text
    assert "Referee called" in text
    assert link not in text
    assert Player.objects.get(pk=board["players"][0].pk).link_digest not in text


def test_a_poll_with_nothing_new_and_a_wrong_link_cost_one_query(
    client, board, link, django_assert_num_queries, django_assert_max_num_queries
):
    for table in board["tables"]:
        play(table, 3, board["referee"])
    with django_assert_max_num_queries(16):
        client.get(url(link))
    etag = client.get(url(link), **HTMX)["ETag"]
    with django_assert_num_queries(1):
        assert client.get(url(link), HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304
    with django_assert_num_queries(1):
        assert client.get(url("wrong"), HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 404
    with django_assert_num_queries(1):
        assert client.get(url("wrong")).status_code == 404


def test_the_page_and_the_board_in_chinese(client, board, organiser, link):
    client.post(reverse("player_link_call", args=[link]))
    client.cookies["django_language"] = "zh-hans"
    assert client.get(url(link)).status_code == 200
    assert client.get(url(link), **HTMX).status_code == 200
    client.force_login(organiser)
    assert client.get(reverse("organiser:board", args=["spring-cup", 1])).status_code == 200
    assert client.get(reverse("organiser:players", args=["spring-cup"])).status_code == 200


def test_the_schedule_says_when_the_running_round_ends(client, board, organiser, link):
    start_clock(round=board["round"], actor=organiser, minutes=90)
    text = _text(client.get(url(link)))
    assert "Rounds of 120 minutes." in text
    ends = re.search(r"in progress, ends at about (\d\d:\d\d)", text)
    assert ends is not None
    etag = client.get(url(link), **HTMX)["ETag"]
    pause_clock(round=board["round"], actor=organiser)
    paused = client.get(url(link), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert paused.status_code == 200
    assert re.search(r"clock paused with [\d:]+ left", _text(paused))


def test_the_schedule_says_when_the_rounds_time_is_up(client, board, organiser, link):
    start_clock(round=board["round"], actor=organiser, minutes=90)
    # Started long ago: its time is up, and nobody has stopped it.
    started = timezone.now() - timedelta(hours=3)
    Round.objects.filter(pk=board["round"].pk).update(clock_started_at=started)
    text = _text(client.get(url(link)))
    assert re.search(r"Round 1:\s*in progress, time is up", text)
    assert "ends at about" not in text and "clock paused" not in text
