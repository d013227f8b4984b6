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

from tournament.management.demo import DEMO_TOURNAMENT_SLUG, load_demo_data
from tournament.models import Penalty
from tournament.web.organiser.players import SAMPLE_CSV

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9"}
SLUG = DEMO_TOURNAMENT_SLUG
# Words that are the same in both languages: abbreviations, formats, the tile notation.
# "English" is the language switch naming English in itself; Ctrl and Mac name the keys to print.
ALLOWED = {"CSV", "EMA", "MCR", "WMO", "XLSX", "Excel", "UTF", "PPP", "English"}
ALLOWED |= {"API", "Ctrl", "Mac"}
# The referee accounts form's example of a name and the username made from it.
ALLOWED |= {"Anna", "Schmidt", "anna", "schmidt"}
WORD = r"[^\W\d_]+"


@pytest.fixture
def demo(db):
    return load_demo_data()


def data_words(demo) -> set[str]:
    tournament = demo.tournament
    # Every demo tournament's name: the referee's and organiser's lists show them all.
    texts = [text for each in demo.tournaments for text in (each.name, each.venue)]
    for user in (demo.organiser, demo.referee):
        texts += [user.username, user.get_full_name()]
    for player in tournament.players.all():
        texts += [player.name, player.country, player.club, player.team]
    # What a referee wrote as a penalty's reason is data too.
    texts += Penalty.objects.filter(table__round__tournament=tournament).values_list(
        "reason", flat=True
    )
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


def organiser_pages(demo) -> dict[str, str]:
    def manage(path: str = "") -> str:
        return reverse("organiser:dashboard", kwargs={"slug": SLUG}) + path

    def printout(path: str = "") -> str:
        return reverse("outputs:index", kwargs={"slug": SLUG}) + path

    statistics = reverse("stats:tournament", kwargs={"slug": SLUG})
    return {
        "tournaments": reverse("organiser:index"),
        "dashboard": manage(),
        "settings": manage("settings/"),
        "players": manage("players/"),
        "add player": manage("players/add/"),
        "import players": manage("players/import/"),
        "referees": manage("referees/"),
        "round 2": manage("rounds/2/"),
        "corrections": manage("rounds/2/tables/1/"),
        "audit": manage("audit/"),
        "seating plan": reverse("seating:plan", kwargs={"slug": SLUG}),
        "printouts": printout(),
        "ema printout": printout("ema/"),
        "standings printout": printout("standings/"),
        "seating by player": printout("seating-by-player/"),
        "round seating": printout("rounds/2/seating/"),
        "filled sheets": printout("rounds/2/sheets/"),
        "blank sheets": printout("rounds/2/sheets/blank/"),
        "statistics": statistics,
        "player statistics": statistics + "players/1/",
        "calculator": "/scoring/calculator/",
    }


# Files whose words a machine reads stay English: the EMA ranking file's column headers, and
# the player file's column names, its yes/no and its sample (the sample's names are data).
FILE_WORDS = {
    "ema printout": {"Position", "Name", "Surname", "Nationality", "Licence", "Ranking", "Points"},
    "import players": set(re.findall(WORD, SAMPLE_CSV)),
}


def test_the_organiser_pages_and_printouts_in_chinese_have_no_english_left(client, demo):
    client.force_login(demo.organiser)
    allowed = data_words(demo)
    leftovers = {}
    for name, address in organiser_pages(demo).items():
        response = client.get(address, **ZH)
        assert response.status_code == 200, name
        page = response.content.decode()
        assert '<html lang="zh-hans">' in page, name
        words = english_words(page, allowed | FILE_WORDS.get(name, set()))
        if words:
            leftovers[name] = words
    assert leftovers == {}


def test_the_login_page_in_chinese_has_no_english_left(client, demo):
    response = client.get(reverse("login"), **ZH)
    assert response.status_code == 200
    page = response.content.decode()
    assert '<html lang="zh-hans">' in page
    assert english_words(page, set()) == []
