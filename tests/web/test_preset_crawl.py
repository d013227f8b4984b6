"""Every page reachable from a tournament of each preset speaks that preset: a crawl, as the
organiser, the referee and a visitor, in English and Chinese, of a tournament with long games
(deals past 16, dealer repeats), wins by tiles, faulty outs, paid draws, penalties, a
substitute and a game ended by time (tests/preset_world.py). No page answers 5xx, none shows
"None", no JT or WA page speaks of fan, and every seat wind a player page shows is the one of
the stored deal."""

from __future__ import annotations

import re
from collections import deque
from html import unescape
from urllib.parse import urldefrag, urlsplit

import pytest
from preset_world import PRESETS, build

from tournament.models import Deal, Player
from tournament.reads import deals

pytestmark = pytest.mark.django_db

# Links not to follow: they change state, end the session, or leave the tournament.
SKIP = re.compile(r"/logout|/accounts/|/admin/|/i18n/|/static/|/scoring/|/api/docs|/login")
MOST_PAGES = 400


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style|template)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def crawl(client, seeds: list[str], language: str) -> dict[str, tuple[int, str]]:
    """Each page reachable from `seeds` inside the site: its status and text."""
    seen: dict[str, tuple[int, str]] = {}
    queue = deque(seeds)
    while queue and len(seen) < MOST_PAGES:
        url = queue.popleft()
        if url in seen:
            continue
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        body = response.content.decode(errors="replace") if response.status_code == 200 else ""
        seen[url] = (response.status_code, body)
        if "html" not in response.get("Content-Type", ""):
            continue
        for href in re.findall(r'href="([^"]+)"', body):
            link = urldefrag(unescape(href)).url
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or not link.startswith("/") or SKIP.search(link):
                continue
            if link not in seen:
                queue.append(link)
    return seen


@pytest.fixture(params=PRESETS)
def world(request):
    return build(request.param)


def seeds(world) -> list[str]:
    slug = world.tournament.slug
    return [f"/t/{slug}/", f"/manage/{slug}/", "/manage/", "/referee/", "/"]


@pytest.mark.parametrize("role", ["organiser", "referee", "visitor"])
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_every_reachable_page_speaks_the_preset(client, world, role, language):
    if role != "visitor":
        client.force_login(getattr(world, role))
    pages = crawl(client, seeds(world), language)

    broken = [url for url, (status, _body) in pages.items() if status >= 500]
    assert broken == []
    assert len([url for url, (status, _) in pages.items() if status == 200]) > 10
    with_none = [
        url for url, (_s, body) in pages.items() if re.search(r"\bNone\b", visible_text(body))
    ]
    assert with_none == []
    if not world.tournament.rulebook.counts_fan:
        fan = r"\bfan\b" if language == "en" else "番"
        speaking_fan = [
            url
            for url, (_s, body) in pages.items()
            if url.startswith(("/t/", "/manage/", "/referee/"))
            and re.search(fan, visible_text(body), re.I)
        ]
        assert speaking_fan == []


def test_a_player_pages_seat_winds_are_the_stored_deals(client, world):
    tournament = world.tournament
    for player in Player.objects.filter(tournament=tournament):
        html = client.get(f"/t/{tournament.slug}/players/{player.key}/").content.decode()
        rows = re.findall(
            r'<td class="number"><a href="/t/[^/]+/rounds/(\d+)/tables/(\d+)/#hand-(\d+)">'
            r".*?</td>\s*<td[^>]*>[^<]*</td>\s*<td>(\w)</td>",
            html,
            flags=re.S,
        )
        for round_number, table_number, number, shown in rows:
            hand = Deal.objects.get(
                table__round__number=round_number, table__number=table_number, number=number,
                table__round__tournament=tournament,
            )  # fmt: skip
            seat = hand.table.seats.get(player=player)
            assert shown == deals.seat_winds_of(hand, tournament)[seat.index]
