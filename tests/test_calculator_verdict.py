"""The calculator's verdict fragment (POST /scoring/calculator/verdict/): the calculator's form
as the page's script posts it with htmx, answered with `scoring/_verdict.html` alone, under
each rule set, in the reader's language."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

URL = reverse("scoring:calculator_verdict")
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9,en;q=0.5"}

# The form's fields as the browser sends them: unchecked boxes are absent.
MCR = {"preset": "mcr", "seat_wind": "E", "prevalent_wind": "E", "flowers": "0"}
MCR["profile"] = "wmo-2006"
JT = {"preset": "jt", "seat_wind": "E", "prevalent_wind": "E"}
WA = {"preset": "wa", "seat_wind": "E", "prevalent_wind": "E", "joker_as": ""}
WA_HAND = "4m J 6m 678p 77s SS [PPP] 7s"


def verdict(client, fields, **headers):
    response = client.post(URL, fields, **headers)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "<html" not in html  # the fragment alone, not the page
    return html


def summary(html: str) -> tuple[str, str]:
    found = re.search(r'class="verdict-summary" data-summary-kind="(\w*)" hidden>([^<]*)<', html)
    assert found, html
    return found.group(1), found.group(2)


# ----- MCR -------------------------------------------------------------------------------------


def test_an_mcr_win_is_rendered_with_its_fans_and_summary(client):
    html = verdict(
        client, {**MCR, "hand": "44m 333p 44p 55s 77s 88s 3p", "seat_wind": "S", "flowers": "1"}
    )

    assert "verdict--win" in html
    assert "Meets the 8-fan minimum" in html
    assert "<dd data-total>29</dd>" in html
    assert 'data-fan="七对"' in html and "Seven Pairs" in html
    assert 'data-profile="wmo-2006"' in html
    assert summary(html) == ("win", "29 fan: meets the 8-fan minimum.")


def test_an_mcr_hand_below_8_fan_is_a_false_win(client):
    html = verdict(
        client, {**MCR, "hand": "234456p 77s EE [789m] E", "seat_wind": "N", "prevalent_wind": "S"}
    )

    assert "verdict--false" in html
    assert "False win (below 8 fan)" in html
    assert "<dd data-total-excl-flowers>1</dd>" in html
    assert summary(html) == ("false", "False win: 1 fan without flowers, below 8.")


def test_an_mcr_verdict_shows_where_the_other_profile_differs(client):
    html = verdict(client, {**MCR, "hand": "1133m 55p 99s EECC 3p 3p", "self_drawn": "on"})

    assert 'data-compare="cn-1998"' in html
    assert '<dd data-compare-total="wmo-2006">34</dd>' in html
    assert '<dd data-compare-total="cn-1998">31</dd>' in html
    assert 'data-fan="不求人"' in html


def test_tiles_that_are_no_hand_are_refused_with_the_reason(client):
    html = verdict(client, {**MCR, "hand": "135m 246p 789s EWN C 5s"})

    assert "verdict--error" in html
    assert "These tiles do not form a winning hand" in html
    assert summary(html) == ("error", "These tiles do not form a winning hand")


def test_a_hand_still_being_built_says_how_many_tiles_are_missing(client):
    html = verdict(client, {**MCR, "hand": "[789m] 123m 5p"})

    assert "verdict--pending" in html
    assert "The hand is not complete yet" in html
    assert "7 of 14 tiles: add 7 more." in html
    assert summary(html) == ("", "7 of 14 tiles: add 7 more.")


def test_too_many_tiles_are_refused_not_pending(client):
    html = verdict(client, {**MCR, "hand": "123m 456m 789m 123p 55p 5s"})

    assert "verdict--error" in html
    assert "The hand does not have the right number of tiles" in html


def test_an_empty_hand_has_no_verdict_yet(client):
    html = verdict(client, {**MCR, "hand": "  "})

    assert "No hand yet." in html
    assert "verdict-summary" not in html


def test_a_value_the_form_does_not_offer_is_refused(client):
    html = verdict(client, {**MCR, "hand": "44m 333p 44p 55s 77s 88s 3p", "preset": "riichi"})

    assert "verdict--error" in html
    assert "riichi is not one of the available choices" in html


def test_the_verdict_is_in_the_readers_language(client):
    html = verdict(client, {**MCR, "hand": "44m 333p 44p 55s 77s 88s 3p"}, **ZH)

    assert "达到 8 番起和" in html
    assert "Meets the 8-fan minimum" not in html
    assert '<span class="fan-name">七对</span>' in html


def test_a_visit_is_sent_to_the_calculator_page(client):
    # As every address that only takes a submitted form (tournament.web.form_only).
    response = client.get(URL, {**MCR, "hand": "44m 333p 44p 55s 77s 88s 3p"})

    assert response.status_code == 303
    assert response["Location"] == reverse("scoring:calculator")


def test_a_post_needs_the_pages_csrf_token():
    client = Client(enforce_csrf_checks=True)
    fields = {**MCR, "hand": "44m 333p 44p 55s 77s 88s 3p"}

    assert client.post(URL, fields).status_code == 403

    page = client.get(reverse("scoring:calculator")).content.decode()
    token = re.search(r'hx-headers=\'\{"X-CSRFToken": "(\w+)"\}\'', page)
    assert token
    answer = client.post(URL, fields, HTTP_X_CSRFTOKEN=token.group(1))
    assert answer.status_code == 200
    assert "<dd data-total>28</dd>" in answer.content.decode()


# ----- Japanese Transitional -------------------------------------------------------------------


def test_a_jt_win_is_rendered_in_points_and_doubles(client):
    html = verdict(
        client, {**JT, "hand": "34m 567p 345s 678s 99m 2m", "self_drawn": "on", "seat_wind": "N"}
    )

    assert "Japanese Transitional win" in html
    assert "<dd data-final>90</dd>" in html
    assert "<dd data-points>22</dd>" in html
    assert "<dd data-doubles>2</dd>" in html
    assert 'data-pattern="no_points_hand"' in html and "1 dbl" in html
    assert summary(html) == ("win", "90 points: 22 points and 2 doubles.")


def test_jt_tiles_that_are_no_win_are_refused(client):
    # JT has no minimum: tiles are a win or not one (at the table, a faulty out).
    html = verdict(client, {**JT, "hand": "135m 246p 789s EWN C 5s"})

    assert "verdict--error" in html
    assert "These tiles do not form a winning hand" in html


def test_jt_riichi_with_a_declared_set_is_refused_with_the_reason(client):
    html = verdict(client, {**JT, "hand": "456p 789s 234s 5p [123m] 5p", "riichi": "on"})

    assert "verdict--error" in html
    assert "contradicts itself" in html


def test_a_jt_verdict_in_chinese(client):
    html = verdict(
        client,
        {**JT, "hand": "34m 567p 345s 678s 99m 2m", "self_drawn": "on", "seat_wind": "N"},
        **ZH,
    )

    assert "日本过渡规则和牌" in html
    assert "Japanese Transitional win" not in html


# ----- Wilmington ------------------------------------------------------------------------------


def test_a_wa_win_is_rendered_with_the_jokers_value(client):
    html = verdict(client, {**WA, "hand": WA_HAND, "self_drawn": "on", "seat_wind": "N"})

    assert "Meets the 15-point minimum" in html
    assert "<dd data-final>15</dd>" in html
    assert 'data-joker-as="5m"' in html
    assert 'data-pattern="all_types"' in html
    assert summary(html) == ("win", "15 points: meets the 15-point minimum.")


def test_a_wa_hand_below_the_minimum_is_a_faulty_out(client):
    html = verdict(client, {**WA, "hand": WA_HAND, "seat_wind": "N"})

    assert "verdict--false" in html
    assert "Faulty out (below 15 points)" in html
    assert "<dd data-final>14</dd>" in html
    assert summary(html) == ("false", "Faulty out: 14 points, below 15.")


def test_a_wa_hand_without_its_joker_is_refused(client):
    html = verdict(client, {**WA, "hand": "4m 5m 6m 678p 77s SS [PPP] 7s"})

    assert "verdict--error" in html
    assert "A Wilmington hand holds exactly one joker" in html


def test_a_wa_hand_with_the_joker_still_being_built_counts_the_joker(client):
    html = verdict(client, {**WA, "hand": "46p J [PPP] 5s"})

    assert "7 of 14 tiles: add 7 more." in html


def test_a_wa_verdict_in_chinese(client):
    english = verdict(client, {**WA, "hand": WA_HAND, "seat_wind": "N"})
    chinese = verdict(client, {**WA, "hand": WA_HAND, "seat_wind": "N"}, **ZH)

    assert "Faulty out (below 15 points)" in english
    assert "Faulty out (below 15 points)" not in chinese
    assert "<dd data-final>14</dd>" in chinese
    assert summary(chinese)[0] == "false"
    assert "Faulty out" not in summary(chinese)[1]
