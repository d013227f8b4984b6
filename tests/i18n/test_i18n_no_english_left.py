"""Pages of the demo tournament in Chinese: no English words left in what a reader sees.

Visible text is the page without scripts, styles and tags, plus the attributes read aloud or
shown on hover (title, aria-label, placeholder, alt). Names from the data (players, clubs,
countries, the tournament, users) are allowed, and so are the notation's letters.
"""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tournament.demo import DEMO_TOURNAMENT_SLUG, load_demo_data

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9"}
SLUG = DEMO_TOURNAMENT_SLUG
# Words that are the same in both languages: abbreviations, formats, the tile notation.
# "English" is the language switch naming English in itself.
ALLOWED = {"CSV", "EMA", "MCR", "WMO", "XLSX", "Excel", "UTF", "PPP", "English"}
WORD = r"[^\W\d_]+"


@pytest.fixture
def demo(db):
    return load_demo_data()


def data_words(demo) -> set[str]:
    tournament = demo.tournament
    texts = [tournament.name, tournament.venue, demo.organiser.username, demo.referee.username]
    for player in tournament.players.all():
        texts += [player.name, player.country, player.club, player.team]
    return {word for text in texts for word in re.findall(WORD, text or "")}


def visible_text(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<!--.*?-->", " ", page, flags=re.S)
    shown = re.findall(r'\s(?:title|aria-label|placeholder|alt)="([^"]*)"', page)
    body = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(" ".join([body, *shown]))


def english_words(page: str, allowed: set[str]) -> list[str]:
    text = visible_text(page)
    # Words of three letters or more with a Latin letter: not the tile notation (345p, EE)
    # nor the wind letters E S W N.
    words = [
        word for word in re.findall(WORD, text) if len(word) > 2 and re.search("[A-Za-z]", word)
    ]
    return sorted({word for word in words if word not in allowed and word not in ALLOWED})


def pages(demo) -> dict[str, str]:
    def url(name: str, **kwargs) -> str:
        return reverse(name, kwargs={"slug": SLUG, **kwargs})

    return {
        "tournament": url("public:tournament"),
        "standings": url("public:standings"),
        "provisional": url("public:standings") + "?provisional=1",
        "round 1": url("public:round", number=1),
        "round 2": url("public:round", number=2),
        "table 1/1": url("public:table", number=1, table=1),
        "table 2/2": url("public:table", number=2, table=2),
        "player": url("public:player", key="1"),
        "projector": url("public:projector"),
        "referee table in play": reverse(
            "referee:table", kwargs={"slug": SLUG, "round": 2, "table": 2}
        ),
        "referee table submitted": reverse(
            "referee:table", kwargs={"slug": SLUG, "round": 2, "table": 1}
        ),
        "referee tables": reverse("referee:index"),
        "board": url("organiser:board", number=2),
    }


def test_the_main_pages_in_chinese_have_no_english_left(client, demo):
    client.force_login(demo.organiser)
    allowed = data_words(demo)
    leftovers = {}
    for name, address in pages(demo).items():
        response = client.get(address, **ZH)
        assert response.status_code == 200, name
        page = response.content.decode()
        assert '<html lang="zh-hans">' in page, name
        words = english_words(page, allowed)
        if words:
            leftovers[name] = words
    assert leftovers == {}
