"""Quick entry on the table screen: the common fan values one tap each, any other typed beside
the Record button; a player who declared a false win in the hand shown as unable to win it."""

from __future__ import annotations

import re

import pytest
from test_referee_hands import errors_of
from test_referee_pages import scores, table_url

from tournament.models import Deal
from tournament.services import DealInput, record_deal, record_false_win

pytestmark = pytest.mark.django_db

COMMON_FAN = [8, 9, 10, 11, 12, 13, 14, 15, 16, 24, 32, 48, 64, 88]


def entry(html: str, name: str) -> str:
    """The form of the entry `name` (win, full, correct-last) on the page."""
    start = html.index(f'id="{name}"')
    return html[start : html.index("</form>", start)]


def radios(form: str, name: str) -> dict[str, str]:
    """The radio buttons named `name` in `form`: value -> the whole <input> tag."""
    return {
        re.search(r'value="([^"]*)"', tag)[1]: tag
        for tag in re.findall(r"<input[^>]*>", form)
        if f'name="{name}"' in tag
    }


def quick(number=1, winner="2", discarder="3", flowers=0, **fan) -> dict:
    return {
        "number": number,
        "winner": winner,
        "discarder": discarder,
        "flowers": flowers,
        **fan,
    }


# --- The fan: one tap, or typed --------------------------------------------------------------


def test_the_quick_entry_offers_the_common_fan_values_and_a_box_for_others(referee_client, world):
    html = referee_client.get(table_url(world)).content.decode()
    form = entry(html, "entry-win")
    assert [int(value) for value in radios(form, "fan_pick")] == COMMON_FAN
    assert "<legend>Fan (without flowers)</legend>" in form
    assert re.search(r'<label for="win_fan">Other fan value</label>', form)
    # the box and the Record button share one row
    row = form[form.index('class="ref-record-row') :]
    row = row[: row.index("</button>")]
    assert 'name="fan"' in row and row.endswith(">Record hand 1")


def test_a_tapped_fan_value_is_recorded(referee_client, world):
    response = referee_client.post(table_url(world, "win"), quick(fan_pick=24, flowers=1))
    assert response.status_code == 302
    hand = Deal.objects.get()
    assert (hand.fan, hand.flowers) == (24, 1)
    # South wins 24 + 1 on West's discard: 8 + 25 from West, 8 from the others.
    assert scores(world.table) == [-8, 49, -33, -8]


def test_a_typed_fan_value_is_recorded(referee_client, world):
    referee_client.post(table_url(world, "win"), quick(fan=17))
    assert Deal.objects.get().fan == 17


def test_a_tapped_and_a_typed_value_that_differ_are_refused_and_kept(referee_client, world):
    response = referee_client.post(table_url(world, "win"), quick(fan_pick=12, fan=17))
    assert response.status_code == 200
    assert errors_of(response) == ["12 fan is chosen and 17 typed: keep only one of them."]
    assert not Deal.objects.exists()
    form = entry(response.content.decode(), "entry-win")
    assert "checked" in radios(form, "fan_pick")["12"]
    assert 'name="fan" value="17"' in form


def test_the_same_value_tapped_and_typed_is_recorded(referee_client, world):
    referee_client.post(table_url(world, "win"), quick(fan_pick=12, fan=12))
    assert Deal.objects.get().fan == 12


def test_a_win_without_any_fan_is_refused(referee_client, world):
    response = referee_client.post(table_url(world, "win"), quick())
    assert errors_of(response) == ["Enter the fan, not counting flowers."]
    assert not Deal.objects.exists()


def test_a_fan_that_is_not_offered_cannot_be_tapped(referee_client, world):
    response = referee_client.post(table_url(world, "win"), quick(fan_pick=17))
    assert errors_of(response) == ["Select a valid choice. 17 is not one of the available choices."]
    assert not Deal.objects.exists()


def test_a_tapped_value_under_eight_cannot_exist_and_a_typed_one_is_offered_as_a_false_win(
    referee_client, world
):
    response = referee_client.post(table_url(world, "win"), quick(fan=6))
    html = response.content.decode()
    assert errors_of(response) == [
        "A win needs at least 8 fan, not counting flowers; 6 is a false win."
    ]
    assert 'class="ref-offer"' in html


@pytest.mark.parametrize("preset", ["japanese-transitional", "wilmington-12-tile"])
def test_a_preset_that_counts_points_has_the_value_box_beside_the_record_button(
    referee_client, world, preset
):
    world.tournament.preset = preset
    world.tournament.seat_rotation = "none"
    world.tournament.save()
    html = referee_client.get(table_url(world)).content.decode()
    form = entry(html, "entry-win")
    assert 'name="fan_pick"' not in form
    row = form[form.index('class="ref-record-row') :]
    assert row.index('name="value"') < row.index("Record deal 1</button>")


# --- A false win in the hand: that player cannot win it --------------------------------------


def false_win(world, number=1, seat=1):
    record_false_win(
        table=world.table,
        number=number,
        offender=world.players[seat],
        invalid_hand=False,
        entered_by=world.referee,
    )


def test_the_offender_of_a_false_win_is_shown_unable_to_win_the_hand(referee_client, world):
    false_win(world)  # Player 2
    html = referee_client.get(table_url(world)).content.decode()
    for name in ("entry-win", "entry-full"):
        winners = radios(entry(html, name), "winner")
        assert "disabled" in winners["2"] and "data-cannot-win" in winners["2"]
        assert all("disabled" not in winners[key] for key in ("1", "3", "4"))
        form = entry(html, name)
        label = form[form.index(f'for="{name[6:]}_winner_1"') :]
        assert "false win: cannot win this hand" in label[: label.index("</label>")]
        # still a discarder like anybody else
        assert "disabled" not in radios(form, "discarder")["2"]


def test_the_server_refuses_the_offender_as_winner_with_the_reason(referee_client, world):
    false_win(world)
    for url, data in [
        (table_url(world, "win"), quick(winner="2", discarder="3", fan_pick=8)),
        (
            table_url(world, "full"),
            {
                "number": 1,
                "winner": "2",
                "discarder": "1",
                "tiles": "345p 78s [EEE] [PPP] 11m 6s",
                "flowers": 0,
                "action": "save",
            },
        ),
    ]:
        response = referee_client.post(url, data)
        assert errors_of(response) == ["Player 2 declared a false win in hand 1 and cannot win it."]
    assert not Deal.objects.exists()


def test_the_next_hand_lets_the_offender_win_again(referee_client, world):
    false_win(world)
    record_deal(
        table=world.table, number=1, deal=DealInput(result="draw"), entered_by=world.referee
    )
    html = referee_client.get(table_url(world)).content.decode()
    assert "disabled" not in radios(entry(html, "entry-win"), "winner")["2"]
    assert "false win: cannot win" not in entry(html, "entry-win")


def test_the_correction_of_the_hand_does_not_offer_the_offender_as_winner(referee_client, world):
    false_win(world)
    record_deal(
        table=world.table,
        number=1,
        deal=DealInput(result="win", winner=world.players[0], discarder=world.players[2], fan=8),
        entered_by=world.referee,
    )
    html = referee_client.get(table_url(world)).content.decode()
    winners = radios(entry(html, "correct-last"), "winner")
    assert "disabled" in winners["2"] and "checked" in winners["1"]
    response = referee_client.post(
        table_url(world, "correct"),
        {"number": 1, "result": "win", "winner": "2", "discarder": "3", "fan": 8, "flowers": 0},
    )
    assert errors_of(response) == ["Player 2 declared a false win in hand 1 and cannot win it."]
    assert Deal.objects.get().winner.player == world.players[0]
