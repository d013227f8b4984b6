"""English and Simplified Chinese: the language switch, Accept-Language, and pages in Chinese."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse
from stats_cup import build_stats_cup

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9,en;q=0.5"}


@pytest.fixture
def cup(tournament, organiser):
    return build_stats_cup(tournament, organiser, draft_round=False)["players"]


def text(response) -> str:
    return response.content.decode()


def test_english_is_the_default(client):
    page = text(client.get(reverse("home")))
    assert '<html lang="en">' in page
    assert "Tournaments" in page and "比赛" not in page


def test_the_browsers_language_picks_chinese(client):
    page = text(client.get(reverse("home"), **ZH))
    assert '<html lang="zh-hans">' in page
    assert "<h1>比赛</h1>" in page


def test_every_page_has_the_language_switch(client):
    page = text(client.get(reverse("home")))
    form = re.search(r'<form class="lang-switch".*?</form>', page, re.S).group(0)
    assert f'action="{reverse("set_language")}"' in form
    assert ">Language<" in form
    assert ">English<" in form and ">简体中文<" in form
    assert 'value="zh-hans"' in form and 'name="next"' in form


def test_the_switch_sets_a_cookie_that_wins_over_the_browser(client):
    response = client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    # The cookie decides, whatever the browser asks for.
    page = text(client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en"))
    assert "<h1>比赛</h1>" in page
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = text(client.get(reverse("home"), **ZH))
    assert "<h1>Tournaments</h1>" in page


def test_an_unknown_language_changes_nothing(client):
    client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert "<h1>Tournaments</h1>" in text(client.get(reverse("home")))


def test_public_standings_in_chinese(client, cup):
    page = text(client.get(reverse("public:standings", kwargs={"slug": "spring-cup"}), **ZH))
    assert "排名" in page
    assert "标准分" in page


def test_statistics_page_in_chinese_with_fan_names_in_chinese(client, cup):
    url = reverse("stats:tournament", kwargs={"slug": "spring-cup"})
    page = text(client.get(url, **ZH))
    assert "最常见的番种" in page
    favourite = re.search(r'<dd id="favourite-fan">(.*?)</dd>', page, re.S).group(1)
    assert "清一色" in favourite and "Full Flush" not in favourite
    english = text(client.get(url))
    favourite = re.search(r'<dd id="favourite-fan">(.*?)</dd>', english, re.S).group(1)
    assert "Full Flush" in favourite and "清一色" in favourite  # the Chinese name beside it


def test_player_statistics_in_chinese(client, cup):
    url = reverse("stats:player", kwargs={"slug": "spring-cup", "key": "1"})
    page = text(client.get(url, **ZH))
    assert "和牌盘数" in page and "清一色" in page


def test_calculator_shows_fan_names_in_the_active_language(client):
    url = reverse("scoring:calculator") + "?hand=111222333m44455m"
    chinese = text(client.get(url, **ZH))
    assert '<span class="fan-name">清一色</span>' in chinese
    assert "Full Flush" not in chinese
    assert "达到 8 番起和" in chinese
    english = text(client.get(url))
    assert '<span class="fan-name">Full Flush</span>' in english
    assert '<span class="fan-zh" lang="zh-Hans">清一色</span>' in english


def test_calculator_engine_messages_are_translated(client):
    # 15 tiles (fewer are a hand still being built, counted: the next test).
    url = reverse("scoring:calculator") + "?hand=123m456m789m123p55p5s"
    assert "和牌应有 14 张牌" in text(client.get(url, **ZH))
    assert "A winning hand has 14 tiles" in text(client.get(url))


def test_calculator_counts_a_hand_being_built_in_the_active_language(client):
    url = reverse("scoring:calculator") + "?hand=123m"
    assert "3 / 14 张：还要加 11 张。" in text(client.get(url, **ZH))
    assert "3 of 14 tiles: add 11 more." in text(client.get(url))


def test_score_api_message_follows_the_request_language(client):
    body = {"compact": "123m"}
    answer = client.post(reverse("scoring_api:score"), body, content_type="application/json", **ZH)
    assert answer.status_code == 400
    assert answer.json()["error"] == "WRONG_TILE_COUNT"  # the code never changes
    assert answer.json()["message"].startswith("和牌应有 14 张牌")


def test_score_api_message_for_a_hand_in_the_case_format_is_translated(client):
    body = {"concealed": ["1m"], "melds": [{"type": "chow", "tiles": ["E", "S", "W"]}]}
    answer = client.post(reverse("scoring_api:score"), body, content_type="application/json", **ZH)
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "INVALID_MELD",
        "message": "第 1 组副露：字牌不能组成顺子（E S W）。",
    }


def test_organiser_dashboard_in_chinese(client, organiser, cup):
    client.force_login(organiser)
    page = text(client.get(reverse("organiser:dashboard", kwargs={"slug": "spring-cup"}), **ZH))
    assert "轮次" in page and "打印材料" in page
    assert "第 1 轮" in page


def test_a_printout_in_chinese(client, organiser, cup):
    client.force_login(organiser)
    url = reverse("outputs:sheets", kwargs={"slug": "spring-cup", "number": 1})
    page = text(client.get(url, **ZH))
    assert "第 1 轮 · 第 1 桌" in page
    assert "签名" in page


def test_a_service_refusal_is_shown_in_chinese(client, organiser, cup):
    """The services' ValidationError messages are lazy: a refusal reads in the page's language."""
    client.force_login(organiser)
    url = reverse("organiser:round_status", kwargs={"slug": "spring-cup", "number": 2})
    response = client.post(url, {"status": "draft"}, **ZH)
    assert response.status_code == 422
    assert "不能变为" in text(response)


def test_the_javascript_catalog_serves_chinese(client):
    catalog = text(client.get(reverse("javascript-catalog"), **ZH))
    assert "Tap the tile the hand was won on." in catalog
    assert "\\u70b9\\u548c\\u724c" in catalog  # 点和牌…
