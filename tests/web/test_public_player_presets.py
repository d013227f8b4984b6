"""A player's page under each preset: every deal that moved the player's points, told from the
player's side with the preset's own value (fan or points), the seat wind of that deal, and past
deal 16 where the dealer repeats."""

from __future__ import annotations

import re

import pytest
from preset_world import build

from tournament.models import Deal, ExtraWin

pytestmark = pytest.mark.django_db


def stories(client, world, key: str) -> list[tuple[int, str]]:
    """(deal number, what happened) of each line of the player's deals in round 1 (the long
    game), in the page's order."""
    html = client.get(f"/t/{world.tournament.slug}/players/{key}/").content.decode()
    section = html[html.index('id="hands"') : html.index('id="penalties"')]
    rows = re.findall(
        r"rounds/1/tables/\d+/#hand-(\d+)\">.*?<td class=\"story\">(.*?)</td>", section, re.S
    )
    return [(int(number), re.sub(r"\s+", " ", story).strip()) for number, story in rows]


@pytest.mark.parametrize("key", ["japanese-transitional", "wilmington-12-tile"])
def test_a_long_games_deals_past_16_are_listed_in_points(client, key):
    world = build(key)
    for player in world.players[:4]:
        lines = stories(client, world, player.key)
        assert any(number > 16 for number, _story in lines)
        assert not any(re.search(r"\bfan\b|None", story) for _number, story in lines)


def test_jt_draws_that_paid_say_who_was_ready_and_faulty_outs_are_listed(client):
    world = build("japanese-transitional")
    ready = Deal.objects.filter(table=world.long_game, result="draw").exclude(ready=[]).first()
    faulty = Deal.objects.filter(table=world.long_game, result="faulty_out").first()
    assert ready is not None and faulty is not None
    seats = {seat.starting_wind: seat.player for seat in world.long_game.seats.all()}
    one_ready = seats[ready.ready[0]]
    lines = dict(stories(client, world, one_ready.key))
    assert lines[ready.number] == "Drawn deal: ready"
    offender = faulty.offender.player
    assert dict(stories(client, world, offender.key))[faulty.number] == "Own faulty out"


def test_wa_each_winner_on_one_discard_sees_their_own_value_and_the_discarder_pays_both(client):
    world = build("wilmington-12-tile")
    extra = ExtraWin.objects.filter(deal__table=world.long_game).select_related("deal").first()
    assert extra is not None
    hand = extra.deal
    further = extra.winner.player
    lines = dict(stories(client, world, further.key))
    assert lines[hand.number].endswith(f", {extra.value} points")
    assert lines[hand.number].startswith("Won on")
    discarder = hand.discarder.player
    paid = dict(stories(client, world, discarder.key))[hand.number]
    assert paid.count("Discarded to") == 2
    assert f"{hand.value} points" in paid and f"{extra.value} points" in paid


def test_wa_false_win_penalties_are_called_faulty_outs_wherever_they_are_shown(client):
    world = build("wilmington-12-tile")
    client.force_login(world.organiser)
    offender = world.long_game.penalties.filter(kind="false_win").first().seat.player
    slug = world.tournament.slug
    pages = [
        f"/t/{slug}/players/{offender.key}/",
        f"/t/{slug}/rounds/1/tables/1/",
        f"/manage/{slug}/rounds/1/tables/1/",
        f"/manage/{slug}/print/rounds/1/sheets/",
        f"/manage/{slug}/audit/",
    ]
    for url in pages:
        html = client.get(url).content.decode()
        assert "Faulty out" in html, url
        assert "False win" not in html and "false win" not in html, url
