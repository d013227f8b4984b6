"""The statistics pages of an MCR, a JT and a WA tournament (tests/preset_world.py): each
preset's own words, wins and patterns, in English and in Chinese."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from preset_world import build

from tournament.models import Deal, ExtraWin, Penalty

pytestmark = pytest.mark.django_db

MCR, JT, WA = "mcr", "japanese-transitional", "wilmington-12-tile"


def page(client, world, key=None, language="en") -> str:
    slug = world.tournament.slug
    if key is None:
        url = reverse("stats:tournament", kwargs={"slug": slug})
    else:
        url = reverse("stats:player", kwargs={"slug": slug, "key": key})
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def visible(html: str) -> str:
    """The text a reader sees: no tags, scripts, styles or head."""
    html = re.sub(r"<(script|style|head)\b.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def figure(html: str, ident: str) -> str:
    match = re.search(rf'<dd id="{ident}">(.*?)</dd>', html, re.S)
    assert match, ident
    return " ".join(re.sub(r"<[^>]+>", " ", match.group(1)).split())


def counts(world):
    hands = Deal.objects.filter(table__round__tournament=world.tournament)
    extra = ExtraWin.objects.filter(deal__table__round__tournament=world.tournament)
    wins = hands.filter(result=Deal.Result.WIN)
    return {
        "hands": hands.count(),
        "wins": wins.count() + extra.count(),
        "tiled": wins.filter(tiles__isnull=False).count()
        + extra.filter(tiles__isnull=False).count(),
        "draws": hands.filter(result=Deal.Result.DRAW).count(),
        "faulty": hands.filter(result=Deal.Result.FAULTY_OUT).count()
        + Penalty.objects.filter(table__round__tournament=world.tournament)
        .filter(kind__startswith="false_win")
        .count(),
    }


@pytest.mark.parametrize("key", [JT, WA])
def test_the_wins_entered_by_tiles_are_counted_under_every_preset(client, key):
    world = build(key)
    known = counts(world)
    assert known["tiled"] > 0
    html = page(client, world)
    assert f"Based on the {known['tiled']} of {known['wins']} wins entered with their tiles" in (
        figure(html, "favourite-fan")
    )
    assert f"From the {known['tiled']} of {known['wins']} wins entered with their tiles" in html


def test_a_jt_faulty_out_is_no_draw(client):
    world = build(JT)
    known = counts(world)
    assert known["faulty"] > 0
    html = page(client, world)
    assert figure(html, "hands") == str(known["hands"])
    assert figure(html, "draws") == str(known["draws"])
    assert figure(html, "false-wins") == str(known["faulty"])
    assert "<dt>Faulty outs</dt>" in html and "<dt>Drawn deals</dt>" in html
    # the offender's own page counts it too
    offender = Deal.objects.filter(result=Deal.Result.FAULTY_OUT).first().offender.player
    own = Deal.objects.filter(result=Deal.Result.FAULTY_OUT, offender__player=offender).count()
    assert figure(page(client, world, offender.key), "false-wins") == str(own)


def test_mcr_false_wins_stay_apart_from_draws(client):
    world = build(MCR)
    known = counts(world)
    html = page(client, world)
    assert figure(html, "draws") == str(known["draws"])
    assert figure(html, "false-wins") == str(known["faulty"])
    assert "<dt>False wins</dt>" in html


def test_wa_every_winner_of_a_deal_is_a_win(client):
    world = build(WA)
    known = counts(world)
    won_deals = Deal.objects.filter(
        table__round__tournament=world.tournament, result=Deal.Result.WIN
    ).count()
    assert known["wins"] > won_deals  # further winners on one discard
    html = page(client, world)
    assert figure(html, "wins") == str(known["wins"])
    # each further winner's value counts in the average
    values = list(
        Deal.objects.filter(
            table__round__tournament=world.tournament, result=Deal.Result.WIN
        ).values_list("value", flat=True)
    ) + list(ExtraWin.objects.values_list("value", flat=True))
    assert figure(html, "average-fan") == f"{sum(values) / len(values):.1f} points"
    # the player who won only as a further winner: a seat (W of the long game) two after the
    # dealer of the double wins
    third = world.players[2]
    own = ExtraWin.objects.filter(winner__player=third)
    won_first = Deal.objects.filter(result=Deal.Result.WIN, winner__player=third).count()
    assert own.exists()
    assert figure(page(client, world, third.key), "hands-won") == str(own.count() + won_first)


@pytest.mark.parametrize("key", [JT, WA])
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_no_fan_and_no_none_on_the_pages_of_points_presets(client, key, language):
    world = build(key)
    for html in (page(client, world, language=language),
                 page(client, world, world.players[1].key, language=language)):  # fmt: skip
        text = visible(html)
        assert "None" not in text
        assert not re.search(r"\bfans?\b", text, re.I)
        assert "flower" not in text.lower()
        assert "番" not in text
        assert "盘" not in text  # a deal is 局 under the presets whose dealer repeats


def test_jt_shows_its_own_patterns_doubles_and_limit_hands(client):
    world = build(JT)
    html = page(client, world)
    patterns = html.split('<table class="fans">')[1].split("</table>")[0]
    body = patterns.split("<tbody>")[1]
    rows = [visible(row) for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]
    assert "Hidden Treasure 四暗刻 limit" in rows[0]
    assert any(row.startswith("Declaration of Ready (Riichi) 立直 1 dbl") for row in rows)
    assert '<th scope="col">Pattern</th>' in patterns
    assert re.search(r'<p id="limit-hands">Limit hands: \d+ of the \d+ wins', html)
    limit = int(re.search(r"Limit hands: (\d+)", html).group(1))
    tiled_limits = Deal.objects.filter(result=Deal.Result.WIN, value=1500, tiles__isnull=False)
    assert limit == tiled_limits.count() > 0
    doubles = html.split('<table class="doubles">')[1].split("</table>")[0]
    assert "Doubles" in doubles
    assert re.findall(r'<th scope="row" class="number">(\d+)</th>', doubles) == ["0", "2"]
    assert figure(html, "favourite-fan").startswith("Hidden Treasure 四暗刻 · in ")


def test_wa_shows_its_own_patterns(client):
    world = build(WA)
    html = page(client, world)
    patterns = visible(html.split('<table class="fans">')[1].split("</table>")[0])
    assert "Little Three Dragons 小三元 40 pts" in patterns
    assert "3 Chows of 1 suit, step 3" in patterns  # only the further winner's tiles have it
    assert '<table class="doubles">' not in html  # WA counts no doubles


def test_mcr_still_shows_its_fans(client):
    world = build(MCR)
    html = page(client, world)
    assert figure(html, "favourite-fan").startswith("Mixed Shifted Chows 三色三步高")
    assert "<dt>Most frequent fan</dt>" in html
    assert "fan, flowers not counted" in figure(html, "average-fan")
    assert '<p id="limit-hands">' not in html and '<table class="doubles">' not in html


@pytest.mark.parametrize("key", [JT, WA])
def test_the_chinese_pages_name_the_patterns_in_chinese(client, key):
    world = build(key)
    html = page(client, world, language="zh-hans")
    favourite = figure(html, "favourite-fan")
    assert favourite.startswith("四暗刻" if key == JT else "只有两种花色")
    assert "Hidden Treasure" not in html and "Two suits only" not in html
    assert "<dt>诈和</dt>" in html and "<dt>已录入局数</dt>" in html
    assert "分" in figure(html, "average-fan")
    player = page(client, world, world.players[1].key, language="zh-hans")
    assert "<dt>已打局数</dt>" in player and "<dt>最常和出的牌型</dt>" in player


@pytest.mark.parametrize("key", [JT, WA])
def test_the_query_counts_stay_bounded(client, key, django_assert_max_num_queries):
    world = build(key)
    # tournament, rounds, hands, false wins, further winners
    with django_assert_max_num_queries(5):
        page(client, world)
    # tournament, player, players, seats of ended games, the player's hands, further winners,
    # false wins
    with django_assert_max_num_queries(7):
        page(client, world, world.players[1].key)
