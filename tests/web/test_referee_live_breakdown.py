"""The full entry's breakdown alone: what the table screen asks for with htmx as the hand is
built (a Check sent by htmx to update #breakdown). It is a Check: scored for the winner's seat
wind, nothing recorded."""

from __future__ import annotations

import re

import pytest
from test_referee_hands import EAST_PUNG, SMALL, fan_rows, full
from test_referee_pages import snapshot, table_url

pytestmark = pytest.mark.django_db


# What htmx sends along when the breakdown region asks: the request is htmx's, for #breakdown.
BREAKDOWN = {"HX-Request": "true", "HX-Target": "breakdown"}


def fragment_url(world) -> str:
    return table_url(world, "full")


def ask(client, world, data):
    return client.post(fragment_url(world), data, headers=BREAKDOWN)


def test_the_fragment_scores_for_the_winners_seat_wind(referee_client, world):
    response = ask(referee_client, world, full(winner="1", action="check"))
    assert response.status_code == 200
    assert response["X-Referee-Fragment"] == "verdict"
    html = response.content.decode()
    assert "<html" not in html and 'id="entry-full"' not in html
    assert "scored for Player 1 with East seat wind, prevailing wind East" in html
    assert re.search(r"data-total>12<", html)
    assert fan_rows(response)["门风刻"] == (2, 1)

    response = ask(referee_client, world, full(winner="2", discarder="1", action="check"))
    html = response.content.decode()
    assert "scored for Player 2 with South seat wind" in html
    assert re.search(r"data-total>10<", html)
    assert "门风刻" not in fan_rows(response)


def test_the_fragment_records_nothing(referee_client, world):
    before = snapshot()
    response = ask(referee_client, world, full(winner="1", action="check"))
    assert response.status_code == 200
    assert snapshot() == before


def test_a_fragment_asked_for_a_save_is_not_a_fragment(referee_client, world):
    """Only a check answers the fragment: a save still records and redirects."""
    response = ask(referee_client, world, full(winner="1", action="save"))
    assert response.status_code == 302
    assert world.table.deals.count() == 1


def test_a_bad_notation_gives_the_engines_message(referee_client, world):
    before = snapshot()
    for tiles in ("zzz ]]] ((", "1" * 190 + "m", "123m 456p 789s 11s 22s 33s"):
        response = ask(referee_client, world, full(tiles=tiles, action="check"))
        assert response.status_code == 200, tiles
        html = response.content.decode()
        assert 'class="verdict verdict--error"' in html, tiles
        assert re.search(r'class="verdict-message">\s*\S', html), tiles
    assert snapshot() == before


@pytest.mark.parametrize(
    "tiles, says",
    [
        ("1m", "13 tiles are missing"),
        ("123m 45p", "9 tiles are missing"),
        ("[123m] 456p 789s 1s", "4 tiles are missing"),
        ("(1111m) [222p] 345s 678s 9s", "1 tile is missing"),
    ],
)
def test_a_hand_still_being_built_says_how_many_tiles_are_missing(
    referee_client, world, tiles, says
):
    before = snapshot()
    response = ask(referee_client, world, full(winner="1", tiles=tiles, action="check"))
    html = response.content.decode()
    assert response.status_code == 200
    assert says in html
    assert "verdict--error" not in html and "data-total" not in html
    assert snapshot() == before


def test_a_hand_still_being_built_without_a_winner_says_both(referee_client, world):
    data = full(tiles="123m 45p", action="check")
    del data["winner"]
    html = ask(referee_client, world, data).content.decode()
    assert "9 tiles are missing" in html
    assert "Choose the winner." in html


def test_a_hand_under_8_fan_is_offered_as_a_false_win(referee_client, world):
    response = ask(referee_client, world, full(winner="3", tiles=SMALL, action="check"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "data-false-win" in html
    assert 'value="false_win"' in html
    assert "Record a false win by Player 3" in html
    assert world.table.deals.count() == 0


def test_an_incomplete_form_says_what_is_missing(referee_client, world):
    data = full(action="check")
    del data["winner"], data["discarder"]
    response = ask(referee_client, world, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Choose the winner." in html
    assert "Choose the discarder, or self-drawn." in html
    assert "data-total" not in html


def test_the_fragment_needs_the_table_screens_permission(client, world, django_user_model):
    data = full(winner="1", tiles=EAST_PUNG, action="check")
    response = ask(client, world, data)
    assert response.status_code == 302 and "/login/" in response["Location"]

    client.force_login(django_user_model.objects.get(username="carol"))  # table 2's referee
    assert ask(client, world, data).status_code == 403

    client.force_login(world.organiser)
    response = ask(client, world, data)
    assert response.status_code == 200
    assert "data-total>12<" in response.content.decode()


def test_the_fragment_is_not_served_on_get(referee_client, world):
    assert referee_client.get(fragment_url(world), headers=BREAKDOWN).status_code == 405


def test_a_check_sent_by_htmx_for_the_form_answers_the_whole_page(referee_client, world):
    """The Check button, sent by htmx, replaces the page's <main>: the whole table screen."""
    data = full(winner="1", action="check")
    response = referee_client.post(fragment_url(world), data, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200 and "X-Referee-Fragment" not in response
    assert "<main" in html and 'id="entry-full"' in html and "data-total>12<" in html


def test_the_table_screen_has_the_live_region_under_the_picker(referee_client, world):
    html = referee_client.get(table_url(world)).content.decode()
    picker = html.index('id="tile-picker"')
    region = re.search(r'<div class="ref-breakdown" id="breakdown" aria-live="polite"[^>]*>', html)
    assert region and region.start() > picker
    assert f'hx-post="{fragment_url(world)}"' in region.group(0)
    assert 'hx-trigger="input delay:400ms from:closest form, breakdown:ask"' in region.group(0)
    assert """hx-vals='{"action": "check"}'""" in region.group(0)
    assert 'data-breakdown-offline="Breakdown unavailable offline."' in html


def test_the_breakdown_names_its_rules_and_where_the_other_rules_differ(referee_client, world):
    """A self-drawn Seven Pairs under the tournament's Green Book profile: the referee sees the
    Chinese rules' total beside it and the fans that differ."""
    seven_pairs = "1133m 55p 99s EE CC 3p 3p"
    response = ask(referee_client, world, full(tiles=seven_pairs, discarder="self", action="check"))

    html = response.content.decode()
    assert response.status_code == 200
    assert "Scored by the WMO Green Book 2006." in html
    assert 'data-compare="cn-1998"' in html
    assert '<dd data-compare-total="wmo-2006">34</dd>' in html
    assert '<dd data-compare-total="cn-1998">31</dd>' in html
    assert re.findall(r'class="fan-difference" data-fan="([^"]+)"', html) == ["不求人", "自摸"]


def test_the_breakdown_shows_no_comparison_where_the_rules_agree(referee_client, world):
    html = ask(referee_client, world, full(action="check")).content.decode()

    assert "Scored by the WMO Green Book 2006." in html
    assert "verdict-compare" not in html
