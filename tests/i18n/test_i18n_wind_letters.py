"""Wind letters in dense tables: E S W N in English, 东 南 西 北 in Chinese; the stored letter stays
in classes, data attributes and form values."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from tournament.management.demo import DEMO_TOURNAMENT_SLUG, load_demo_data
from tournament.templatetags.winds import wind_letter

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.mark.parametrize(("wind", "chinese"), [("E", "东"), ("S", "南"), ("W", "西"), ("N", "北")])
def test_a_wind_letter_is_the_chinese_character_in_chinese(wind, chinese):
    with translation.override("zh-hans"):
        assert wind_letter(wind) == chinese
    with translation.override("en"):
        assert wind_letter(wind) == wind


@pytest.mark.parametrize("value", ["", None, "X", "EE", 3])
def test_anything_but_a_wind_letter_is_left_as_it_is(value):
    with translation.override("zh-hans"):
        assert wind_letter(value) == value


@pytest.fixture
def demo(db):
    return load_demo_data()


def seat_wind_cells(page: str) -> list[str]:
    return re.findall(r'<td class="seat-wind(?: dealer)?">([^<]*)</td>', page)


def test_the_printed_game_sheets_show_chinese_seat_winds_in_chinese(client, demo):
    client.force_login(demo.organiser)
    address = reverse("outputs:sheets", kwargs={"slug": DEMO_TOURNAMENT_SLUG, "number": 2})
    chinese = client.get(address, **ZH).content.decode()
    english = client.get(address, **EN).content.decode()
    assert set(seat_wind_cells(chinese)) == {"东", "南", "西", "北"}
    assert set(seat_wind_cells(english)) == {"E", "S", "W", "N"}
    # The dealer is still found by the stored letter.
    assert '<td class="seat-wind dealer">东</td>' in chinese


def test_the_referee_seat_badges_keep_the_letter_as_data_and_show_the_character(client, demo):
    client.force_login(demo.referee)
    address = reverse(
        "referee:table", kwargs={"slug": DEMO_TOURNAMENT_SLUG, "round": 2, "table": 2}
    )
    page = client.get(address, **ZH).content.decode()
    badges = re.findall(r'data-wind="([ESWN])">([^<]*)</span>', page)
    assert sorted(badges) == sorted([("E", "东"), ("S", "南"), ("W", "西"), ("N", "北")])
