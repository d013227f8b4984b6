"""Entering hands on the table screen: quick entry, full entry with the engine, drawn hands."""

from __future__ import annotations

import re

import pytest
from test_referee_pages import messages_of, scores, snapshot, table_url

from tournament.models import Deal, Penalty, Round
from tournament.services import DealInput, record_deal, record_false_win

pytestmark = pytest.mark.django_db

# Worth 12 fan to a player with East seat wind in an East wind hand, 10 to anyone else:
# All Types 6, Dragon Pung 2, Prevalent Wind 2, and Seat Wind 2 for East.
EAST_PUNG = "345p 78s [EEE] [PPP] 11m 6s"
# 27 fan: Full Flush 24, Concealed Hand 2, Pung of Terminals or Honors 1.
FULL_FLUSH = "2245667888999p 2p"
# 2 fan to West in hand 1 (a pung of the seat wind, nothing else): a false win.
SMALL = "234m 456p 78s [WWW] 99s 6s"


def win(number=1, winner="2", discarder="3", fan=10, flowers=1, **extra):
    return {
        "number": number,
        "winner": winner,
        "discarder": discarder,
        "fan": fan,
        "flowers": flowers,
        **extra,
    }


def full(number=1, winner="1", discarder="2", tiles=EAST_PUNG, flowers=0, action="save", **flags):
    return {
        "number": number,
        "winner": winner,
        "discarder": discarder,
        "tiles": tiles,
        "flowers": flowers,
        "action": action,
        **flags,
    }


def errors_of(response) -> list[str]:
    html = response.content.decode()
    return [
        re.sub(r"<[^>]+>", "", item)
        for item in re.findall(r'<ul class="errorlist[^"]*"[^>]*>\s*<li>(.*?)</li>', html, re.S)
    ]


def checked(response, name: str) -> list[str]:
    """Values of the checked radio buttons or boxes named `name` on the page."""
    html = response.content.decode()
    return [
        value
        for tag in re.findall(r"<input[^>]*>", html)
        if f'name="{name}"' in tag and " checked" in tag
        for value in re.findall(r'value="([^"]*)"', tag)
    ]


def open_entry(response) -> list[str]:
    return re.findall(
        r'<details class="ref-entry" id="([^"]+)" name="entry" open>', response.content.decode()
    )


# --- Quick entry --------------------------------------------------------------------------


def test_quick_entry_discard_win_pays_eight_plus_value_and_eight(referee_client, world):
    response = referee_client.post(table_url(world, "win"), win(fan=10, flowers=1))
    assert response.status_code == 302
    assert response["Location"] == table_url(world) + "#next"
    # Player 2 (South) wins 10 + 1 on Player 3's discard: 8 + 11 = 19 and 8 each.
    assert scores(world.table) == [-8, 35, -19, -8]
    hand = Deal.objects.get()
    assert (hand.number, hand.fan, hand.flowers, hand.entered_by) == (1, 10, 1, world.referee)
    assert messages_of(response) == [
        "Hand 1: Player 2 won on Player 3’s discard, 10 fan + 1 flower."
    ]


def test_quick_entry_self_drawn_win_each_pays_eight_plus_value(referee_client, world):
    referee_client.post(
        table_url(world, "win"), win(winner="4", discarder="self", fan=8, flowers=2)
    )
    # 8 + 10 = 18 from each of the three others.
    assert scores(world.table) == [-18, -18, -18, 54]


def test_after_a_hand_the_screen_shows_the_new_scores_and_next_winds(referee_client, world):
    response = referee_client.post(table_url(world, "win"), win(), follow=True)
    html = response.content.decode()
    assert "Hand 1: Player 2 won on Player 3’s discard, 10 fan + 1 flower." in html
    assert re.search(r"Hand <span data-next-hand>2</span>", html)
    assert re.findall(r'data-wind="([ESWN])"', html) == ["N", "E", "S", "W"]
    assert re.findall(r"data-score>(-?\d+)<", html) == ["-8", "35", "-19", "-8"]


@pytest.mark.parametrize(
    "data, field, message",
    [
        (win(fan=5), "fan", "A win needs at least 8 fan, not counting flowers; 5 is a false win."),
        (win(fan=""), "fan", "Enter the fan, not counting flowers."),
        (win(winner=""), "winner", "Choose the winner."),
        (win(discarder=""), "discarder", "Choose the discarder, or self-drawn."),
        (win(discarder="2"), "discarder", "The winner cannot have discarded the winning tile."),
        (
            win(flowers=9),
            "flowers",
            "Select a valid choice. 9 is not one of the available choices.",
        ),
        (
            win(winner="7"),
            "winner",
            "Select a valid choice. 7 is not one of the available choices.",
        ),
    ],
)
def test_quick_entry_errors_keep_the_values(referee_client, world, data, field, message):
    response = referee_client.post(table_url(world, "win"), data)
    assert response.status_code == 200
    assert errors_of(response) == [message]
    assert open_entry(response) == ["entry-win"]
    assert not Deal.objects.exists()
    html = response.content.decode()
    entry = html[html.index('id="entry-win"') : html.index('id="entry-full"')]
    if data["fan"] != "":
        assert re.search(rf'name="fan" value="{data["fan"]}"', entry)
    if data["winner"] in "1234" and data["winner"]:
        assert re.search(rf'name="winner" value="{data["winner"]}"[^>]* checked', entry)


def test_a_win_under_eight_fan_offers_a_false_win_instead(referee_client, world):
    response = referee_client.post(table_url(world, "win"), win(winner="3", discarder="1", fan=6))
    html = response.content.decode()
    offer = html[html.index('class="ref-offer"') :]
    assert re.search(r'<form method="post" action="([^"]+)" class="ref-offer">', html)[1] == (
        table_url(world, "false_win")
    )
    assert 'name="offender" value="3"' in offer
    assert 'name="number" value="1"' in offer

    response = referee_client.post(
        table_url(world, "false_win"), {"offender": "3", "number": 1, "kind": "below_minimum"}
    )
    assert response.status_code == 302
    assert scores(world.table) == [10, 10, -30, 10]


def test_hand_already_entered_by_someone_else_is_a_conflict(referee_client, world):
    record_deal(
        table=world.table, number=1, deal=DealInput(result="draw"), entered_by=world.organiser
    )
    response = referee_client.post(table_url(world, "win"), win(number=1))
    # Nothing recorded, and the table is drawn again for the next hand (a reload posts nothing)
    assert response.status_code == 302
    assert response["Location"] == table_url(world) + "#next"
    assert Deal.objects.get().result == "draw"
    page = referee_client.get(response["Location"])
    [message] = messages_of(page)
    assert message.startswith("Hand 1 at table 1 was already entered by alice at ")
    assert message.endswith(
        "What you entered was not recorded. The table is shown as it is now: check the score "
        "sheet before you enter the next hand."
    )
    html = page.content.decode()
    assert re.search(r"Hand <span data-next-hand>2</span>", html)
    entry = html[html.index('id="entry-win"') :]
    assert 'name="number" value="2"' in entry[: entry.index("</form>")]
    reload = re.search(r'<a class="ref-button ref-quiet ref-reload" href="([^"]+)">', html)
    assert reload and reload[1] == table_url(world)
    assert "Reload the table" in html


def test_a_hand_number_gone_out_of_order_redraws_the_table(referee_client, world):
    """Another device removed the last hand: the form's hand number is no longer the next."""
    record_deal(
        table=world.table, number=1, deal=DealInput(result="draw"), entered_by=world.organiser
    )
    response = referee_client.post(table_url(world, "win"), win(number=3), follow=True)
    [message] = messages_of(response)
    assert message.startswith("Hands are entered in order: the next hand at table 1 is hand 2.")
    assert re.search(r"Hand <span data-next-hand>2</span>", response.content.decode())
    assert Deal.objects.count() == 1


def test_the_offender_of_a_false_win_cannot_win_that_hand_but_another_can(referee_client, world):
    record_false_win(
        table=world.table,
        number=1,
        offender=world.players[1],
        invalid_hand=False,
        entered_by=world.referee,
    )
    response = referee_client.post(table_url(world, "win"), win(winner="2"))
    assert errors_of(response) == ["Player 2 declared a false win in hand 1 and cannot win it."]

    referee_client.post(table_url(world, "win"), win(winner="1", discarder="2", fan=8, flowers=0))
    # False win: 2 pays 10 to each; then 1 wins 8 on 2's discard (16, 8, 8).
    assert scores(world.table) == [10 + 32, -30 - 16, 10 - 8, 10 - 8]


# --- Drawn hands --------------------------------------------------------------------------


def test_drawn_hand_pays_nothing_and_moves_the_deal(referee_client, world):
    response = referee_client.post(table_url(world, "draw"), {"number": 1}, follow=True)
    assert scores(world.table) == [0, 0, 0, 0]
    assert Deal.objects.get().result == "draw"
    html = response.content.decode()
    assert "Hand 1: drawn hand, nobody pays." in html
    assert re.search(r"Hand <span data-next-hand>2</span>", html)


def test_a_stale_drawn_hand_is_refused(referee_client, world):
    record_deal(
        table=world.table, number=1, deal=DealInput(result="draw"), entered_by=world.organiser
    )
    response = referee_client.post(table_url(world, "draw"), {"number": 1}, follow=True)
    assert "was already entered" in messages_of(response)[0]
    assert Deal.objects.count() == 1


# --- Full entry ---------------------------------------------------------------------------


def fan_rows(response) -> dict[str, tuple[int, int]]:
    html = response.content.decode()
    return {
        zh: (int(points), int(count))
        for zh, points, count in re.findall(
            r'<tr class="fan" data-fan="([^"]+)">.*?fan-points">(\d+)<.*?fan-count">×(\d+)<',
            html,
            re.S,
        )
    }


def test_check_shows_the_breakdown_for_the_winners_seat_wind_and_saves_nothing(
    referee_client, world
):
    response = referee_client.post(table_url(world, "full"), full(winner="1", action="check"))
    assert response.status_code == 200
    assert not Deal.objects.exists()
    html = response.content.decode()
    assert "scored for Player 1 with East seat wind, prevailing wind East" in html
    assert re.search(r"data-total>12<", html)
    assert fan_rows(response) == {
        "五门齐": (6, 1),
        "箭刻": (2, 1),
        "圈风刻": (2, 1),
        "门风刻": (2, 1),
    }
    assert open_entry(response) == ["entry-full"]
    assert f'value="{EAST_PUNG}"' in html

    response = referee_client.post(
        table_url(world, "full"), full(winner="2", discarder="1", action="check")
    )
    assert re.search(r"data-total>10<", response.content.decode())


def test_full_entry_saves_the_win_scored_by_the_engine(referee_client, world):
    response = referee_client.post(
        table_url(world, "full"), full(winner="1", discarder="3", tiles=FULL_FLUSH, flowers=1)
    )
    assert response.status_code == 302
    hand = Deal.objects.get()
    assert (hand.fan, hand.flowers) == (27, 1)
    assert hand.tiles["seat_wind"] == "E"
    assert hand.tiles["prevalent_wind"] == "E"
    assert hand.tiles["win_tile"] == "2p"
    # 27 + 1 = 28: the discarder pays 36, the others 8.
    assert scores(world.table) == [52, -8, -36, -8]
    assert messages_of(response) == [
        "Hand 1: Player 1 won on Player 3’s discard, 27 fan + 1 flower."
    ]


def test_full_entry_uses_the_seat_wind_of_the_hand_being_entered(referee_client, world):
    for number in range(1, 5):
        record_deal(
            table=world.table,
            number=number,
            deal=DealInput(result="draw"),
            entered_by=world.referee,
        )
    # Hand 5, South wind round, WMO chart: Player 2 (started South) deals, so sits East.
    referee_client.post(
        table_url(world, "full"),
        full(number=5, winner="2", discarder="self", tiles="345p 78s [SSS] [PPP] 11m 6s"),
    )
    hand = Deal.objects.get(number=5)
    assert (hand.tiles["seat_wind"], hand.tiles["prevalent_wind"]) == ("E", "S")
    # All Types 6, Dragon Pung 2, Prevalent Wind 2, Self-Drawn 1: 11; each pays 19.
    assert hand.fan == 11
    assert scores(world.table) == [-19, 57, -19, -19]


def test_full_entry_under_eight_fan_cannot_be_saved_and_offers_a_false_win(referee_client, world):
    data = full(winner="3", discarder="1", tiles=SMALL)
    response = referee_client.post(table_url(world, "full"), data)
    assert response.status_code == 200
    assert not Deal.objects.exists()
    assert errors_of(response) == [
        "These tiles are worth 2 fan without flowers: a false win, not a win."
    ]
    html = response.content.decode()
    assert "False win (below 8 fan)" in html
    assert re.search(r'<button type="submit" name="action" value="false_win"', html)

    response = referee_client.post(table_url(world, "full"), {**data, "action": "false_win"})
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.points, penalty.deal_number) == ("false_win", 30, 1)
    assert scores(world.table) == [10, 10, -30, 10]
    assert not Deal.objects.exists()


@pytest.mark.parametrize(
    "tiles, message",
    [
        ("123m 456p 789s EE 11", "The digits 11 need a suit letter (m, p or s) after them."),
        ("123m 456p 789s EE 13m 1m", "These tiles do not form a winning hand"),
        ("", "Write the tiles of the winning hand, the winning tile last."),
    ],
)
def test_full_entry_bad_tiles_are_explained_and_kept(referee_client, world, tiles, message):
    response = referee_client.post(table_url(world, "full"), full(tiles=tiles))
    assert response.status_code == 200
    assert not Deal.objects.exists()
    html = response.content.decode()
    assert message in html
    assert re.search(rf'name="tiles" value="{re.escape(tiles)}"', html) or not tiles


def test_full_entry_keeps_the_situation_flags_and_flowers(referee_client, world):
    response = referee_client.post(
        table_url(world, "full"),
        full(tiles=SMALL, flowers=3, last_tile_of_kind="on", last_wall_tile="on", action="check"),
    )
    assert checked(response, "last_tile_of_kind") == ["on"] or 'name="last_tile_of_kind"' in (
        response.content.decode()
    )
    html = response.content.decode()
    entry = html[html.index('id="entry-full"') : html.index('id="entry-draw"')]
    assert re.search(r'name="last_tile_of_kind"[^>]*checked', entry)
    assert re.search(r'name="last_wall_tile"[^>]*checked', entry)
    assert not re.search(r'name="kong_related"[^>]*checked', entry)
    assert re.search(r'name="flowers" value="3"[^>]*checked', entry)


def test_full_entry_situation_flags_change_the_score(referee_client, world):
    # Last Tile Claim (8) on a discard makes the small hand a win: 2 + 8 = 10 fan for West.
    response = referee_client.post(
        table_url(world, "full"),
        full(winner="3", discarder="1", tiles=SMALL, last_wall_tile="on"),
    )
    assert response.status_code == 302
    hand = Deal.objects.get()
    assert hand.fan == 10
    assert hand.tiles["last_wall_tile"] is True


# --- A round that is not in play ----------------------------------------------------------


@pytest.mark.parametrize("status", [Round.Status.SEATED, Round.Status.FINISHED])
def test_entries_in_a_round_not_in_play_are_refused_with_the_message(referee_client, world, status):
    Round.objects.filter(pk=world.round.pk).update(status=status)
    before = snapshot()
    label = {"seated": "seated", "finished": "finished"}[status]
    for name, data in [
        ("win", win()),
        ("full", full(action="save")),
        ("draw", {"number": 1}),
        ("false_win", {"offender": "1", "number": 1, "kind": "below_minimum"}),
        (
            "penalty",
            {"player": "1", "kind": "deduction", "points": 10, "reason": "Late", "hand": ""},
        ),
        ("end", {"time_called": "on"}),
    ]:
        response = referee_client.post(table_url(world, name), data)
        assert response.status_code == 200, name
        html = response.content.decode()
        assert f"Round 1 is {label}, not in play: results cannot be entered now." in html, name
        assert 'id="entry-' not in html, name
    assert snapshot() == before


@pytest.mark.parametrize("name", ["win", "full", "draw"])
def test_a_missing_hand_number_is_explained(referee_client, world, name):
    data = {"win": win(), "full": full(), "draw": {}}[name]
    data.pop("number", None)
    response = referee_client.post(table_url(world, name), data)
    assert response.status_code == 200
    assert errors_of(response) == ["The hand number is missing or wrong: reload the table page."]
    assert not Deal.objects.exists()
