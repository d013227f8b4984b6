"""Wilmington on the table screen's full entry: the joker on the tile keypad and in the
notation help, a hand with the joker counted as it is built, and two winners on one discard,
one below the 15-point minimum: each verdict under that winner's own tiles, and the faulty out
of the claimant below the minimum recorded in one tap while the other's win stays to be
saved."""

from __future__ import annotations

import re

import pytest
from test_referee_hands import errors_of
from test_referee_pages import table_url

from tournament.models import Deal, ExtraWin, Penalty

pytestmark = pytest.mark.django_db

# WA-22 of the shared cases: South (player 2) goes out on West's (player 3's) discard: 45.
DRAGONS = "CCC FFF 56p 234m P J 7p"
# East (player 1) on the same discard: 21.
STRAIGHT = "123456789m CCC J 7p"
# WA-01 of the shared cases, won on a discard by East: 5 points, below the minimum.
SMALL = "234m 567p 34567s J C C"
BREAKDOWN = {"HX-Request": "true", "HX-Target": "breakdown"}


@pytest.fixture
def wilmington(world):
    world.tournament.preset = "wilmington-12-tile"
    world.tournament.seat_rotation = "none"
    world.tournament.save()
    return world


def entry(action="check", winner="2", tiles=DRAGONS, **fields):
    return {"number": 1, "winner": winner, "discarder": "3", "tiles": tiles, "action": action,
            **fields}  # fmt: skip


def main_verdict(html: str) -> str:
    """The winner's verdict: from #verdict to the situation flags."""
    return html[html.index('id="verdict"') : html.index('class="ref-flags"')]


def further_verdict(html: str, key: str) -> str:
    """The verdict under further winner `key`'s tiles, to the next field or the fieldset's end."""
    start = html.index(f'id="verdict-also_tiles_{key}"')
    ends = [html.find(mark, start) for mark in ('class="ref-field', "</fieldset>")]
    return html[start : min([end for end in ends if end >= 0] or [len(html)])]


def test_the_keypad_has_the_joker_and_the_help_names_it(referee_client, wilmington):
    html = referee_client.get(table_url(wilmington)).content.decode()

    assert re.search(
        r'class="ref-picker-row"[^>]*aria-label="Joker"[^>]*data-tiles="J\|J\|joker\|Joker;"', html
    )
    help_text = re.search(r"<p class=\"ref-hint\" data-joker-help>(.*?)</p>", html, re.S)
    assert help_text and "<code>J</code> is the joker" in help_text.group(1)


def test_an_mcr_keypad_has_no_joker(referee_client, world):
    html = referee_client.get(table_url(world)).content.decode()

    assert "J|J|joker|Joker" not in html
    assert "data-joker-help" not in html


@pytest.mark.parametrize(
    "tiles, says",
    [("CCC FFF 56p 234m J", "2 tiles are missing"), ("CCC FFF 56p 234m P J", "1 tile is missing")],
)
def test_the_joker_counts_as_a_tile_while_the_hand_is_built(
    referee_client, wilmington, tiles, says
):
    response = referee_client.post(
        table_url(wilmington, "full"), entry(tiles=tiles), headers=BREAKDOWN
    )

    html = response.content.decode()
    assert says in html
    assert "verdict--error" not in html


def test_check_scores_every_winner_under_his_own_tiles(referee_client, wilmington):
    response = referee_client.post(table_url(wilmington, "full"), entry(also_tiles_1=SMALL))

    html = response.content.decode()
    mine = main_verdict(html)
    assert "scored for Player 2" in mine
    assert re.search(r"data-final>45<", mine)
    assert "data-false-win" not in mine and "faulty out" not in mine
    theirs = further_verdict(html, "1")
    assert "scored for Player 1 with East seat wind" in theirs
    assert re.search(r"data-final>5<", theirs)
    assert "data-false-win" in theirs
    assert "Player 1 made a faulty out" in theirs
    assert re.search(r'name="false_win_of" value="1"', theirs)
    assert not Deal.objects.exists() and not Penalty.objects.exists()


def test_the_breakdown_sends_each_further_winners_verdict_to_its_place(referee_client, wilmington):
    response = referee_client.post(
        table_url(wilmington, "full"), entry(also_tiles_1=SMALL), headers=BREAKDOWN
    )

    html = response.content.decode()
    assert re.search(r"data-final>45<", html[: html.index('id="verdict-also_tiles_1"')])
    region = re.search(r'<div [^>]*id="verdict-also_tiles_1"[^>]*>', html)
    assert region and 'hx-swap-oob="true"' in region.group(0)
    assert re.search(r"data-final>5<", further_verdict(html, "1"))
    # The other claimants' places are emptied.
    assert re.search(r'id="verdict-also_tiles_4"[^>]*>\s*</div>', html)


def test_a_save_refused_for_a_further_winner_says_so_under_his_tiles(referee_client, wilmington):
    response = referee_client.post(table_url(wilmington, "full"), entry("save", also_tiles_1=SMALL))

    html = response.content.decode()
    assert not Deal.objects.exists()
    assert "Player 1&#x27;s tiles are worth 5 points" in html
    field = html[html.index('name="also_tiles_1"') : html.index('id="verdict-also_tiles_1"')]
    assert "worth 5 points" in field
    tiles = html[html.index('name="tiles"') : html.index('id="tile-picker"')]
    assert "worth 5 points" not in tiles


def test_one_tap_records_the_faulty_out_and_keeps_the_other_win_to_save(referee_client, wilmington):
    sent = entry(also_tiles_1=SMALL, submission="11111111-1111-4111-8111-111111111111")
    del sent["action"]
    response = referee_client.post(table_url(wilmington, "full"), {**sent, "false_win_of": "1"})

    assert response.status_code == 200, errors_of(response)
    penalty = Penalty.objects.get()
    assert (penalty.seat.player.key, penalty.deal_number) == ("1", 1)
    assert not Deal.objects.exists()
    html = response.content.decode()
    assert "Player 1" in html and "messages" in html
    # The entry again: Player 2's tiles, Player 1's emptied, and a new key to save with.
    assert re.search(r'name="tiles" value="CCC FFF 56p 234m P J 7p"', html)
    assert re.search(r'<input type="text" name="also_tiles_1"(?![^>]*value=)[^>]*>', html)
    key = re.search(r'<input[^>]*name="submission" value="([^"]+)"[^>]*id="full_submission"', html)
    assert key and key.group(1) != sent["submission"]
    assert re.search(r"data-final>45<", main_verdict(html))

    response = referee_client.post(
        table_url(wilmington, "full"), entry("save", submission=key.group(1))
    )
    assert response.status_code == 302, errors_of(response)
    hand = Deal.objects.get()
    assert (hand.winner.player.key, hand.value) == ("2", 45)
    assert not ExtraWin.objects.exists()


def test_a_winner_below_the_minimum_leaves_the_win_to_the_further_winner(
    referee_client, wilmington
):
    sent = entry(winner="1", tiles=SMALL, also_tiles_2=DRAGONS)
    del sent["action"]
    response = referee_client.post(table_url(wilmington, "full"), {**sent, "action": "false_win"})

    assert response.status_code == 200, errors_of(response)
    assert Penalty.objects.get().seat.player.key == "1"
    html = response.content.decode()
    assert re.search(r'name="tiles" value="CCC FFF 56p 234m P J 7p"', html)
    assert re.search(r'name="winner" value="2"[^>]*checked', html)
    assert "scored for Player 2" in main_verdict(html)


def test_one_winner_below_the_minimum_alone_goes_back_to_the_table(referee_client, wilmington):
    response = referee_client.post(
        table_url(wilmington, "full"), entry(winner="1", tiles=SMALL, action="false_win")
    )

    assert response.status_code == 302
    assert Penalty.objects.get().seat.player.key == "1"
