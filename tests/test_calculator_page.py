"""The hand calculator page, including its no-JavaScript fallback (?hand=...)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.urls import reverse

URL = reverse("scoring:calculator")


def get(client, **params):
    return client.get(f"{URL}?{urlencode(params)}" if params else URL)


def test_page_renders_for_an_anonymous_visitor(client):
    response = get(client)

    assert response.status_code == 200
    html = response.content.decode()
    assert "Hand calculator" in html
    assert "No hand yet." in html
    # The script asks for the verdict with htmx, from this site.
    assert 'hx-post="/scoring/calculator/verdict/"' in html
    assert "vendor/htmx/htmx.min.js" in html


def test_page_offers_all_34_tiles_as_labelled_buttons(client):
    html = get(client).content.decode()

    assert html.count('class="tile" data-tile=') == 34
    assert 'aria-label="5 Dots"' in html
    assert 'aria-label="Green dragon"' in html
    assert "發" in html


def test_page_links_its_own_static_files(client):
    html = get(client).content.decode()

    assert "scoring/calculator.js" in html
    assert "scoring/calculator.css" in html
    # Vendored, never from a CDN: every script and stylesheet comes from this site.
    for url in re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', html):
        assert url.startswith("/"), url


def test_hand_parameter_renders_the_fans_without_javascript(client):
    response = get(client, hand="44m 333p 44p 55s 77s 88s 3p", seat_wind="S", flowers="1")

    html = response.content.decode()
    assert response.status_code == 200
    assert "Meets the 8-fan minimum" in html
    assert "Seven Pairs" in html
    assert "七对" in html
    assert "<dd data-total>29</dd>" in html
    assert "<dd data-total-excl-flowers>28</dd>" in html


def test_hand_parameter_keeps_the_situation_in_the_form(client):
    html = get(client, hand="44m 333p 44p 55s 77s 88s 3p", self_drawn="on", seat_wind="W").content
    html = html.decode()

    assert re.search(r'<input[^>]*name="self_drawn"[^>]*checked', html)
    assert '<option value="W" selected>' in html
    assert "自摸" in html


def test_false_win_is_shown_as_such(client):
    html = get(client, hand="234456p 77s EE [789m] E", seat_wind="N", prevalent_wind="S")
    html = html.content.decode()

    assert "False win (below 8 fan)" in html
    assert "幺九刻" in html


@pytest.mark.parametrize(
    ("hand", "words"),
    [
        ("123m 456m 789m 123p 55p 5s", "right number of tiles"),
        ("123m 5p", "4 of 14 tiles: add 10 more."),
        ("123m 456p 789s 11x 1s", "does not know"),
        ("135m 246p 789s EWN C 5s", "do not form a winning hand"),
    ],
)
def test_bad_hand_is_explained_in_plain_language(client, hand, words):
    response = get(client, hand=hand)

    assert response.status_code == 200
    assert words in response.content.decode()


def test_profile_choice_changes_the_score(client):
    hand = "45566m 66s (SSSS) (9999s) 4m"
    green_book = get(client, hand=hand, prevalent_wind="S", flowers="2").content.decode()
    chinese = get(client, hand=hand, prevalent_wind="S", flowers="2", profile="cn-1998")

    assert "<dd data-total>17</dd>" in green_book
    assert "<dd data-total>15</dd>" in chinese.content.decode()


def test_the_page_says_which_rules_scored_the_hand(client):
    hand = "44m 333p 44p 55s 77s 88s 3p"

    green_book = get(client, hand=hand).content.decode()
    chinese = get(client, hand=hand, profile="cn-1998").content.decode()

    assert "Scored by the WMO Green Book 2006." in green_book
    assert "Scored by the Chinese rules 1998." in chinese


def test_where_the_other_rules_differ_both_totals_and_the_differing_fans_are_shown(client):
    html = get(client, hand="1133m 55p 99s EE CC 3p 3p", self_drawn="on").content.decode()

    section = html[html.index('<section class="verdict-compare" data-compare="cn-1998">') :]
    section = section[: section.index("</section>")]
    assert "Under the Chinese rules 1998 these tiles score differently" in section
    assert '<dd data-compare-total="wmo-2006">34</dd>' in section
    assert '<dd data-compare-total="cn-1998">31</dd>' in section
    rows = re.findall(r'<tr class="fan-difference" data-fan="([^"]+)">(.*?)</tr>', section, re.S)
    cells = {fan: re.findall(r'<td class="number">([^<]*)</td>', row) for fan, row in rows}
    assert cells == {"不求人": ["4 ×1", "—"], "自摸": ["—", "1 ×1"]}


def test_no_comparison_where_both_rules_agree(client):
    html = get(client, hand="44m 333p 44p 55s 77s 88s 3p").content.decode()

    assert "verdict-compare" not in html


def test_the_comparison_says_when_the_other_rules_make_a_false_win(client):
    html = get(client, hand="(3333m) (5555p) [345s] 11p 88s 8s", seat_wind="S").content.decode()

    assert "Meets the 8-fan minimum" in html
    assert "Under those rules the hand is below the 8-fan minimum: a false win." in html


def test_invalid_form_value_is_reported_not_scored(client):
    html = get(client, hand="44m 333p 44p 55s 77s 88s 3p", flowers="12").content.decode()

    assert "No hand yet." in html
    assert "errorlist" in html


def test_post_is_refused(client):
    assert client.post(URL).status_code == 405


# ----- Japanese Transitional ----------------------------------------------------------------


def test_page_offers_the_rule_set_switch_and_the_jt_flags(client):
    html = get(client).content.decode()

    assert re.search(r'<input[^>]*name="preset"[^>]*value="mcr"[^>]*checked', html)
    assert 'value="jt"' in html
    assert "Riichi declared" in html
    assert 'data-preset-only="jt"' in html


def test_a_jt_hand_is_scored_in_points_and_doubles_without_javascript(client):
    response = get(
        client, hand="34m 567p 345s 678s 99m 2m", preset="jt", self_drawn="on", seat_wind="N"
    )

    html = response.content.decode()
    assert "Japanese Transitional win" in html
    assert "<dd data-final>90</dd>" in html
    assert "<dd data-points>22</dd>" in html
    assert "<dd data-doubles>2</dd>" in html
    assert 'data-pattern="no_points_hand"' in html
    assert "No-points hand" in html
    assert "1 dbl" in html and "20 pts" in html


def test_the_mcr_boxes_become_jt_flags_by_self_drawn(client):
    # the last-tile box on a discard is JT's last discard: one more double, 60 -> 120
    plain = get(client, hand="34m 567p 345s 678s 99m 2m", preset="jt").content.decode()
    last = get(client, hand="34m 567p 345s 678s 99m 2m", preset="jt", last_wall_tile="on")

    assert "<dd data-final>60</dd>" in plain
    assert "<dd data-final>120</dd>" in last.content.decode()
    assert "Out on the last tile discard" in last.content.decode()


def test_riichi_with_a_melded_set_is_explained(client):
    html = get(client, hand="456p 789s 234s 5p [123m] 5p", preset="jt", riichi="on")

    assert "contradicts itself" in html.content.decode()


def test_a_jt_limit_hand_is_shown_as_such(client):
    html = get(client, hand="19m 19p 19s ESWNCFF P", preset="jt").content.decode()

    assert "Limit hand" in html
    assert "<dd data-final>1500</dd>" in html


# ----- Wilmington Advanced 12-Tile ----------------------------------------------------------

# WA-02 of the specification: the joker in the chow 4m-J-6m, self-drawn by North.
WA_HAND = "4m J 6m 678p 77s SS [PPP] 7s"


def test_page_offers_wilmington_with_its_joker_and_flags(client):
    html = get(client).content.decode()

    assert 'value="wa"' in html
    assert 'data-tile="J"' in html
    assert "Out at once on the fourth kong" in html
    assert 'name="joker_as"' in html


def test_a_wa_hand_is_scored_in_points_with_the_jokers_value_without_javascript(client):
    html = get(client, hand=WA_HAND, preset="wa", self_drawn="on", seat_wind="N").content.decode()

    assert "Meets the 15-point minimum" in html
    assert "<dd data-final>15</dd>" in html
    assert 'data-joker-as="5m"' in html
    assert 'data-pattern="all_types"' in html
    assert "All suits, Dragons and Winds" in html


def test_a_wa_hand_below_the_minimum_is_a_faulty_out_with_its_breakdown(client):
    html = get(
        client, hand="234m 567p 34567s J C C", preset="wa", self_drawn="on", seat_wind="W"
    ).content.decode()

    assert "Faulty out (below 15 points)" in html
    assert "<dd data-final>9</dd>" in html
    assert 'data-pattern="fully_concealed"' in html


def test_the_joker_of_a_declared_set_takes_the_chosen_value(client):
    hand = "678p 77s SS [PPP] [46m J] 7s"
    chosen = get(client, hand=hand, preset="wa", self_drawn="on", seat_wind="N", joker_as="5m")
    missing = get(client, hand=hand, preset="wa", self_drawn="on", seat_wind="N")

    assert 'data-joker-as="5m"' in chosen.content.decode()
    assert "The joker&#x27;s value does not fit its declared set" in missing.content.decode()


def test_a_wa_hand_without_its_joker_is_explained(client):
    html = get(client, hand="4m 5m 6m 678p 77s SS [PPP] 7s", preset="wa").content.decode()

    assert "A Wilmington hand holds exactly one joker" in html


def test_the_mcr_boxes_become_wa_flags_by_self_drawn(client):
    # the last-tile box on a discard is WA's last discard; self-drawn it is the last wall tile
    drawn = get(
        client, hand=WA_HAND, preset="wa", self_drawn="on", seat_wind="N", last_wall_tile="on"
    )
    html = drawn.content.decode()

    assert 'data-pattern="last_wall_tile"' in html
