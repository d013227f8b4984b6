"""The referee's full entry with tiles takes the deal's winds from the game's flow, never from
the number the form sends: a number past 16 is refused, not a server error, and a JT deal
after the dealer repeated is checked with that deal's own winds."""

from __future__ import annotations

import re

import pytest
from test_referee_hands import EAST_PUNG, full
from test_referee_pages import table_url

from tournament.models import Deal
from tournament.reads import deals
from tournament.services import DealInput, record_deal

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("number", [17, 18, 999])
@pytest.mark.parametrize("action", ["check", "save"])
def test_a_tile_entry_numbered_past_the_game_is_refused(referee_client, world, number, action):
    response = referee_client.post(
        table_url(world, "full"), full(number=number, tiles=EAST_PUNG, action=action)
    )

    assert response.status_code in (200, 302)  # shown again, or sent back with a message
    assert not Deal.objects.exists()


def test_a_jt_deal_past_16_after_repeats_is_checked_with_its_own_winds(referee_client, world):
    tournament, table = world.tournament, world.table
    tournament.preset = "japanese-transitional"
    tournament.seat_rotation = "none"
    tournament.save()
    east = world.players[0]
    for number in range(1, 17):  # East wins them all and deals every one
        record_deal(
            table=table,
            number=number,
            deal=DealInput(result="win", winner=east, value=60),
            entered_by=world.referee,
        )
    south = world.players[1]
    at = deals.next_deal(table)
    assert at is not None and at.number == 17 and at.seat_winds[1] == "S"

    response = referee_client.post(
        table_url(world, "full"),
        full(
            number=17, winner="2", discarder="1", tiles="345m 567p 345s 678s 99m 2m", action="check"
        ),  # fmt: skip
    )

    assert response.status_code == 200
    html = re.sub(r"\s+", " ", response.content.decode())
    assert f"scored for {south.name} with South seat wind, prevailing wind East" in html
    assert Deal.objects.filter(table=table).count() == 16
