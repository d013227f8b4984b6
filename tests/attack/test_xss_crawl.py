"""Scripts typed into every text field never reach a page unescaped.

A tournament whose name, venue, players' keys, names, countries, clubs, teams and EMA numbers,
penalty reasons and API token names all hold markup payloads is played for a round (one game
confirmed, one in play, a penalty and a false win) and a second round is seated. Then every
page reachable from the home page and from the URL configuration is read as its organiser, a
referee and a visitor, following links (bounded): no page may hold a payload as it was typed
(it must be escaped), nor a `javascript:` address in a link or a form.
"""

from __future__ import annotations

from collections import deque

import pytest
from attack_kit import tally
from django.core.exceptions import ValidationError
from factories import make_tournament, make_user, seated_round
from site_map import fill, page_routes, parse

from tournament.infra.tokens import issue_token
from tournament.models import Player
from tournament.services import (
    DealInput,
    add_player,
    confirm_game,
    create_round,
    end_game,
    record_deal,
    record_false_win,
    record_penalty,
)

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
ATTRIBUTE = '"><img src=x onerror=alert(1)>'
QUOTE = "'><svg onload=alert(1)>"
TEXTAREA = "</textarea><script>alert(2)</script>"
LINK = "javascript:alert(1)"
PAYLOADS = [SCRIPT, ATTRIBUTE, QUOTE, TEXTAREA, LINK]
# Payloads that hold markup: found as typed in a page, they would run.
MARKUP = [SCRIPT, ATTRIBUTE, QUOTE, TEXTAREA, '"><b>', "<xss>"]
PAGES_PER_CALLER = 250
VARIANTS_PER_PATH = 3  # a page's ?sort=... and ?page=... links: a few are enough


def player_fields(index: int) -> dict[str, str]:
    payload = PAYLOADS[index % len(PAYLOADS)]
    return {
        "name": f"{payload} {index}",
        "country": PAYLOADS[(index + 1) % len(PAYLOADS)][:100],
        "club": PAYLOADS[(index + 2) % len(PAYLOADS)],
        "team": PAYLOADS[(index + 3) % len(PAYLOADS)],
        # EMA numbers are unique within a tournament.
        "ema_number": (['"><b>', "<xss>", LINK][index % 3] + str(index))[:20],
    }


def add_hostile_player(tournament, index: int) -> Player:
    """Player `index`: keyed with markup and with markup for EMA number (and country) when the
    application lets them be typed, else by its number and without."""
    fields = player_fields(index)
    key, plain = f"<xss>{index}", str(index)
    for attempt in (
        {"key": key},
        {"key": plain},
        {"key": key, "ema_number": ""},
        {"key": key, "ema_number": "", "country": ""},
    ):
        try:
            return add_player(tournament=tournament, **{**fields, **attempt})
        except ValidationError:
            pass
    return add_player(
        tournament=tournament, **{**fields, "key": plain, "ema_number": "", "country": ""}
    )


@pytest.fixture
def hostile(db):
    organiser = make_user("alice", password="correct-horse-42")
    referee = make_user("bob", password="referee-pass-42")
    tournament = make_tournament(
        organisers=[organiser], name=f"Cup {SCRIPT}", slug="hostile-cup", venue=ATTRIBUTE
    )
    players = [add_hostile_player(tournament, index) for index in range(1, 9)]
    round, tables = seated_round(tournament, organiser, [players[:4], players[4:]])
    tables[0].referees.add(referee)
    tables[1].referees.add(referee)
    for number in range(1, 17):
        record_deal(
            table=tables[0],
            number=number,
            deal=DealInput(
                result="win", winner=players[number % 4], discarder=players[(number + 1) % 4], fan=8
            ),
            entered_by=referee,
        )
    record_penalty(table=tables[0], player=players[1], points=10, distributed=False,
                   reason=f"{SCRIPT} {ATTRIBUTE} {QUOTE}", entered_by=organiser)  # fmt: skip
    end_game(table=tables[0], ended_by_time=False, entered_by=referee)
    confirm_game(table=tables[0], confirmed_by=organiser)
    record_deal(
        table=tables[1],
        number=1,
        deal=DealInput(result="win", winner=players[4], fan=8),
        entered_by=referee,
    )
    record_false_win(table=tables[1], number=2, offender=players[5], invalid_hand=True,
                     entered_by=referee)  # fmt: skip
    record_penalty(table=tables[1], player=players[6], points=6, distributed=True,
                   reason=TEXTAREA, entered_by=referee)  # fmt: skip
    create_round(tournament=tournament, actor=organiser)
    issue_token(user=organiser, name=SCRIPT)
    return {"tournament": tournament, "organiser": organiser, "referee": referee,
            "players": players}  # fmt: skip


def unescaped(html: str) -> list[str]:
    found = [payload for payload in MARKUP if payload in html]
    lowered = html.lower()
    for attribute in ("href", "src", "action", "formaction"):
        for quote in ('"', "'", ""):
            if f"{attribute}={quote}javascript:" in lowered:
                found.append(f"{attribute}=javascript:")
    return found


def crawl(client, seeds: list[str], caller: str) -> tuple[int, list[str], int]:
    """Reads pages from `seeds` on, following links. Returns the number of pages read, the
    payloads found unescaped (with their page) and the pages that showed a payload escaped."""
    queue = deque(seeds)
    seen: set[str] = set(seeds)
    variants: dict[str, int] = {}
    read = 0
    problems = []
    escaped = 0
    while queue and read < PAGES_PER_CALLER:
        url = queue.popleft()
        response = client.get(url)
        read += 1
        tally(f"pages {caller}", response.status_code)
        assert response.status_code < 500, url
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        problems += [f"{url}: {payload}" for payload in unescaped(html)]
        escaped += "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        _forms, links = parse(url, html)
        for link in links:
            path = link.split("?")[0]
            if link in seen or not path.startswith(("/t/", "/manage/", "/referee/", "/scoring/")):
                continue
            if "_export=" in link or path.endswith(".csv"):
                continue  # files, not pages: test_export_formulas.py reads them
            variants[path] = variants.get(path, 0) + 1
            if variants[path] > VARIANTS_PER_PATH:
                continue
            seen.add(link)
            queue.append(link)
    return read, problems, escaped


def seeds(hostile) -> list[str]:
    values = {"slug": hostile["tournament"].slug, "key": hostile["players"][0].key,
              "number": 1, "round": 1, "table": 1, "hand": 1}  # fmt: skip
    urls = ["/"]
    for _, route in page_routes():
        url = fill(route, values)
        if url.startswith(("/t/", "/manage/", "/referee/", "/scoring/")) and url not in urls:
            urls.append(url)
    return urls


@pytest.mark.parametrize("caller", ["organiser", "referee", "anonymous"])
def test_no_page_shows_a_typed_script_unescaped(client, hostile, caller):
    if caller != "anonymous":
        client.force_login(hostile[caller])
    read, problems, escaped = crawl(client, seeds(hostile), caller)
    assert problems == []
    # The crawl itself: it read the tournament's pages, where the payloads are shown escaped.
    assert read > 30
    assert escaped > 10
