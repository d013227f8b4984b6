"""The organiser's check-in desk: search by name, key or EMA number; one tap in or out (htmx
swaps the row and the counts, without scripts a redirect); a private link's text checks its
player in; another tournament's link, an unknown one or any garbage is refused in words,
never a 500; the desk's switches; the live part's 304; who may open the desk."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from factories import make_players, make_tournament, make_user
from preset_world import build

from tournament.models import AuditEntry, Player
from tournament.services import add_player, update_player
from tournament.services.check_in import set_desk_open

pytestmark = pytest.mark.django_db

SLUG = "spring-cup"
DESK = reverse("organiser:check_in", kwargs={"slug": SLUG})
SCAN = reverse("organiser:check_in_scan", kwargs={"slug": SLUG})
SWITCH = reverse("organiser:check_in_switch", kwargs={"slug": SLUG})
SECRET = "Pq7-rS_tU1vW2xY3zA4bC5dE6fG7"
HTMX = {"HTTP_HX_REQUEST": "true"}

ABSENT_MESSAGE = (
    "Wes West is marked absent or withdrawn: a player who came after all is recorded with "
    "“Arrived late” on the Attendance page, which checks them in."
)


def tap_url(key: str, slug: str = SLUG) -> str:
    return reverse("organiser:check_in_player", kwargs={"slug": slug, "key": key})


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def give_link(player: Player, secret: str = SECRET) -> Player:
    player.link_digest = hashlib.sha256(secret.encode()).hexdigest()
    player.save(update_fields=["link_digest"])
    return player


@pytest.fixture
def field(tournament):
    """Ann (key 1, EMA 04010001), Ben, Müller, a substitute, and Wes who has withdrawn."""
    return {
        "ann": add_player(
            tournament=tournament, key="1", name="Ann Archer", ema_number="04010001"
        ),  # fmt: skip
        "ben": add_player(tournament=tournament, key="2", name="Ben Baker", club="Tiles"),
        "jo": add_player(tournament=tournament, key="10", name="Jörg Müller"),
        "sub": add_player(tournament=tournament, key="S1", name="Sam Stand-in", substitute=True),
        "wes": update_player(
            player=add_player(tournament=tournament, key="3", name="Wes West"),
            withdrawn_from_round=1,
        ),
    }


@pytest.fixture
def desk(client, organiser, tournament, field):
    """The organiser logged in, the desk open."""
    client.force_login(organiser)
    set_desk_open(tournament, True, actor=organiser)
    return client


def listed_keys(page: str) -> list[str]:
    """The keys of the players listed on `page`, in order."""
    return re.findall(r'data-key="([^"]+)"', page)


def listed(response) -> list[str]:
    return listed_keys(response.content.decode())


def test_the_desk_lists_every_player_with_the_counts(desk):
    response = desk.get(DESK)

    assert response.status_code == 200
    assert listed(response) == ["1", "2", "3", "10", "S1"]
    text = response.content.decode()
    assert 'data-count="checked_in">0<' in text
    assert 'data-count="missing">3<' in text  # Ann, Ben, Jörg; Wes has withdrawn
    assert 'data-count="substitutes_ready">0<' in text
    assert 'data-count="withdrawn">1<' in text
    assert "vendor/jsqr/jsQR.js" in text
    assert "tournament/check_in.js" in text
    assert 'href="/manage/spring-cup/check-in/"' in text  # in the organiser's navigation


def test_the_camera_is_allowed_on_the_desk_only(desk):
    policy = dict(item.split("=") for item in desk.get(DESK)["Permissions-Policy"].split(", "))
    assert policy["camera"] == "(self)"
    assert policy["microphone"] == policy["geolocation"] == "()"
    assert policy["fullscreen"] == "(self)"

    players = desk.get(reverse("organiser:players", kwargs={"slug": SLUG}))
    assert "camera=()" in players["Permissions-Policy"]
    assert "jsqr" not in players.content.decode().lower()


@pytest.mark.parametrize(
    ("search", "keys"),
    [
        ("ann", ["1"]),
        ("ARCHER ann", ["1"]),
        ("muller", ["10"]),  # accents aside
        ("2", ["2"]),  # a key
        ("s1", ["S1"]),
        ("04010001", ["1"]),  # an EMA number
        ("0401 0001", ["1"]),
        ("nobody", []),
    ],
)
def test_search_by_name_key_or_ema_number(desk, search, keys):
    response = desk.get(DESK, {"q": search})

    assert response.status_code == 200
    assert listed(response) == keys
    assert f'value="{search}"' in response.content.decode()


def test_search_as_htmx_answers_the_live_part_only(desk):
    response = desk.get(DESK, {"q": "ben"}, **HTMX)

    assert response.status_code == 200
    text = response.content.decode()
    assert listed(response) == ["2"]
    assert "<html" not in text and 'id="desk-counts"' in text


def test_a_search_by_link_finds_its_player(desk, field):
    give_link(field["ben"])

    response = desk.get(DESK, {"q": f"http://venue.local/p/{SECRET}/"})

    assert listed(response) == ["2"]


def test_a_tap_checks_in_and_out_without_scripts(desk, field):
    ann = field["ann"]

    response = desk.post(tap_url("1"), {"checked_in": "1", "q": "ann"})

    assert response.status_code == 303
    assert response["Location"] == DESK + "?q=ann"
    assert Player.objects.get(pk=ann.pk).checked_in_at is not None
    assert messages_of(response) == ["1 Ann Archer is checked in."]

    response = desk.post(tap_url("1"), {"checked_in": "0"})
    assert response["Location"] == DESK
    assert Player.objects.get(pk=ann.pk).checked_in_at is None
    assert messages_of(response)[-1:] == ["1 Ann Archer is checked out."]
    entries = AuditEntry.objects.filter(action=AuditEntry.Action.CHECK_IN)
    assert [entry.after.get("checked_in") for entry in entries.order_by("pk")][-2:] == [
        True,
        False,
    ]


def test_a_tap_with_htmx_swaps_the_row_and_the_counts(desk, field):
    response = desk.post(tap_url("S1"), {"checked_in": "1"}, **HTMX)

    assert response.status_code == 200
    text = response.content.decode()
    assert text.lstrip().startswith(
        f'<li class="desk-player is-in" id="desk-player-{field["sub"].pk}"'
    )
    assert 'hx-swap-oob="true"' in text
    assert 'data-count="substitutes_ready">1<' in text
    assert 'name="checked_in" value="0"' in text  # the row now offers to check out


def test_a_tap_twice_changes_nothing_more(desk, field):
    desk.post(tap_url("1"), {"checked_in": "1"})
    desk.post(tap_url("1"), {"checked_in": "1"})

    assert AuditEntry.objects.filter(action=AuditEntry.Action.CHECK_IN).count() == 2  # open+1


@pytest.mark.parametrize("value", ["", "yes", "2", None])
def test_a_tap_without_a_clear_direction_is_refused(desk, field, value):
    data = {} if value is None else {"checked_in": value}

    response = desk.post(tap_url("1"), data)

    assert response.status_code == 303
    assert messages_of(response) == ["Say whether to check the player in or out."]
    assert Player.objects.get(pk=field["ann"].pk).checked_in_at is None
    htmx = desk.post(tap_url("1"), data, **HTMX)
    assert htmx.status_code == 200
    assert "Say whether to check the player in or out." in htmx.content.decode()


def test_a_withdrawn_player_is_refused(desk, field):
    page = desk.get(DESK, {"q": "wes"}).content.decode()
    assert "Check in Wes West" not in page

    response = desk.post(tap_url("3"), {"checked_in": "1"}, **HTMX)

    assert ABSENT_MESSAGE in response.content.decode()
    assert Player.objects.get(pk=field["wes"].pk).checked_in_at is None


def test_a_closed_desk_checks_nobody_in(client, organiser, tournament, field):
    client.force_login(organiser)

    page = client.get(DESK).content.decode()
    response = client.post(tap_url("1"), {"checked_in": "1"})

    assert "Open the desk" in page and "Check in Ann Archer" not in page
    assert messages_of(response) == [
        "The check-in desk is closed: open it to check players in or out."
    ]
    assert Player.objects.get(pk=field["ann"].pk).checked_in_at is None


def test_an_unknown_player_is_404(desk):
    assert desk.post(tap_url("99"), {"checked_in": "1"}).status_code == 404


@pytest.mark.parametrize(
    "text",
    [SECRET, f"http://192.168.1.20:8000/p/{SECRET}/", f"  https://cup.example/p/{SECRET}\n"],
)
def test_scanning_a_link_checks_its_player_in(desk, field, text):
    give_link(field["ben"])

    response = desk.post(SCAN, {"q": text})

    assert response.status_code == 303 and response["Location"] == DESK
    assert messages_of(response) == ["2 Ben Baker is checked in."]
    ben = Player.objects.get(pk=field["ben"].pk)
    assert ben.checked_in_at is not None
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.CHECK_IN).latest("pk")
    assert entry.after == {"player": "2", "checked_in": True, "source": "qr"}
    assert SECRET not in str(entry.before) + str(entry.after)

    again = desk.post(SCAN, {"q": text})
    assert messages_of(again)[-1:] == ["2 Ben Baker was already checked in."]


def test_another_tournaments_link_is_refused_without_saying_whose(desk, field, organiser):
    other = make_tournament(slug="autumn-cup", name="Autumn Cup", organisers=[organiser])
    [stranger] = make_players(other, count=1, name="Stranger {}")
    give_link(stranger)

    response = desk.post(SCAN, {"q": f"http://venue/p/{SECRET}/"})
    unknown = desk.post(SCAN, {"q": "http://venue/p/" + "U" * 40})

    [message] = messages_of(response)
    assert messages_of(unknown)[-1:] == [message]
    assert "not the link of a player of this tournament" in message
    assert "Stranger" not in message and "Autumn" not in message
    assert Player.objects.get(pk=stranger.pk).checked_in_at is None
    assert not Player.objects.filter(tournament__slug=SLUG, checked_in_at__isnull=False).exists()


def test_a_bare_secret_nobody_here_has_is_searched_and_said_so(desk, field, organiser):
    other = make_tournament(slug="autumn-cup", name="Autumn Cup", organisers=[organiser])
    [stranger] = make_players(other, count=1, name="Stranger {}")
    give_link(stranger)

    response = desk.post(SCAN, {"q": SECRET})

    assert response["Location"] == DESK + "?q=" + SECRET
    page = desk.get(response["Location"]).content.decode()
    assert "No player of this tournament has this name, number or link." in page
    assert "Stranger" not in page and "Autumn" not in page
    assert listed_keys(page) == []
    assert Player.objects.get(pk=stranger.pk).checked_in_at is None


def test_a_long_name_typed_whole_is_found_not_taken_for_a_link(desk, tournament):
    add_player(tournament=tournament, key="77", name="Wolfeschlegelsteinhausen")

    response = desk.post(SCAN, {"q": "wolfeschlegelsteinhausen"})

    page = desk.get(response["Location"]).content.decode()
    assert listed_keys(page) == ["77"]


def test_a_link_on_a_closed_desk_is_refused(client, organiser, field):
    client.force_login(organiser)
    give_link(field["ann"])

    response = client.post(SCAN, {"q": SECRET})

    assert messages_of(response) == [
        "The check-in desk is closed: open it to check players in or out."
    ]
    assert Player.objects.get(pk=field["ann"].pk).checked_in_at is None


def test_scanning_a_withdrawn_players_link_is_refused(desk, field):
    give_link(field["wes"])

    response = desk.post(SCAN, {"q": SECRET})

    assert messages_of(response) == [ABSENT_MESSAGE]


@pytest.mark.parametrize(
    "text",
    [
        "https://example.com/menu",
        "http://x/p/short/",
        "\x00" * 30,
        "x\x00y/p/z",
        "/" * 5000,
        "mailto:desk@example.com/x",
    ],
)
def test_garbage_is_refused_in_words(desk, text):
    response = desk.post(SCAN, {"q": text})

    assert response.status_code == 303
    assert response["Location"] == DESK
    assert messages_of(response) == ["This is not a player's check-in link."]
    assert desk.get(response["Location"]).status_code == 200


@pytest.mark.parametrize(
    "text", ["Ann", " 04010001 ", "", "Jörg  Müller", "WIFI:S:venue;T:WPA;P:secret;;"]
)
def test_a_search_submitted_goes_to_its_results(desk, text):
    response = desk.post(SCAN, {"q": text})

    assert response.status_code == 303
    followed = desk.get(response["Location"])
    assert followed.status_code == 200
    assert messages_of(response) == []


@pytest.mark.parametrize("search", ["\x00", "a" * 5000, "%", "https://x/p/short/", "U" * 40])
def test_a_strange_search_is_answered(desk, search):
    assert desk.get(DESK, {"q": search}).status_code == 200
    assert desk.get(DESK, {"q": search}, **HTMX).status_code == 200


def test_the_switches(desk, tournament):
    response = desk.post(SWITCH, {"setting": "desk", "on": "0"})
    assert messages_of(response) == ["The check-in desk is closed."]
    desk.post(SWITCH, {"setting": "self_check_in", "on": "1"})
    tournament.refresh_from_db()
    assert not tournament.check_in_open and tournament.self_check_in

    response = desk.post(SWITCH, {"setting": "desk", "on": "1"})
    assert messages_of(response)[-1:] == ["The check-in desk is open."]
    tournament.refresh_from_db()
    assert tournament.check_in_open

    bad = desk.post(SWITCH, {"setting": "check_in_closed_at", "on": "1"})
    assert bad.status_code == 303
    assert messages_of(bad)[-1:] == ["Choose a setting of the desk to change."]


def test_the_live_part_is_304_until_something_changes(desk, field):
    first = desk.get(DESK, **HTMX)
    etag = first["ETag"]

    same = desk.get(DESK, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert same.status_code == 304

    desk.post(tap_url("2"), {"checked_in": "1"})
    changed = desk.get(DESK, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert changed.status_code == 200
    assert 'data-count="checked_in">1<' in changed.content.decode()

    other_search = desk.get(DESK, {"q": "ann"}, HTTP_IF_NONE_MATCH=changed["ETag"], **HTMX)
    assert other_search.status_code == 200  # the search is part of what the tag depends on


@pytest.mark.parametrize("url", [DESK, SCAN, SWITCH, tap_url("1")])
def test_anonymous_visitors_are_sent_to_log_in(client, field, url):
    response = client.post(url, {"q": SECRET, "checked_in": "1", "setting": "desk", "on": "1"})

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize("url", [DESK, SCAN, SWITCH, tap_url("1")])
def test_only_organisers_of_this_tournament(client, tournament, field, url, public):
    """A referee or another tournament's organiser: 403 for a public tournament, 404 for a
    private one (which does not say it exists); nothing changes."""
    tournament.public = public
    tournament.save()
    give_link(field["ann"])
    stranger = make_user("dan")
    make_tournament(slug="autumn-cup", name="Autumn Cup", organisers=[stranger])
    client.force_login(stranger)

    get = client.get(url, **HTMX) if url == DESK else None
    post = client.post(url, {"q": SECRET, "checked_in": "1", "setting": "desk", "on": "1"})

    expected = 403 if public else 404
    assert post.status_code == (405 if url == DESK else expected)
    if get is not None:
        assert get.status_code == expected
    tournament.refresh_from_db()
    assert not tournament.check_in_open
    assert not Player.objects.filter(checked_in_at__isnull=False).exists()


@pytest.mark.parametrize("preset", ["japanese-transitional", "wilmington-12-tile"])
def test_the_desk_under_another_preset(client, preset):
    world = build(preset)
    client.force_login(world.organiser)
    slug = world.tournament.slug
    set_desk_open(world.tournament, True, actor=world.organiser)

    page = client.get(reverse("organiser:check_in", kwargs={"slug": slug}))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-count="missing">7<' in text  # eight players, one withdrawn
    assert 'data-count="withdrawn">1<' in text

    response = client.post(
        reverse("organiser:check_in_player", kwargs={"slug": slug, "key": "9"}),
        {"checked_in": "1"},
        **HTMX,
    )
    assert 'data-count="substitutes_ready">1<' in response.content.decode()
    assert Player.objects.get(pk=world.substitute.pk).checked_in_at is not None


def test_only_the_players_not_checked_in(desk, field):
    desk.post(tap_url("1"), {"checked_in": "1"})

    response = desk.get(DESK, {"missing": "1"})

    assert listed(response) == ["2", "10", "S1"]  # not Ann (in), not Wes (withdrawn)
    assert 'id="desk-missing" name="missing" value="1" checked' in response.content.decode()
    assert listed(desk.get(DESK, {"missing": "1", "q": "ann"})) == []
    assert listed(desk.get(DESK, {"missing": "1", "q": "ben"}, **HTMX)) == ["2"]


def test_the_filter_is_kept_by_a_tap_and_a_search_without_scripts(desk, field):
    tap = desk.post(tap_url("2"), {"checked_in": "1", "q": "", "missing": "1"})
    search = desk.post(SCAN, {"q": "ann", "missing": "1"})

    assert tap["Location"] == DESK + "?missing=1"
    assert search["Location"] == DESK + "?q=ann&missing=1"
    htmx = desk.post(tap_url("1"), {"checked_in": "1", "missing": "1"}, **HTMX)
    assert 'name="missing" value="1"' in htmx.content.decode()
