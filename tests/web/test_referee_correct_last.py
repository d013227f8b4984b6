"""Correcting the last hand in one step on the referee's table screen."""

from __future__ import annotations

import re

import pytest
from test_referee_pages import messages_of, scores, snapshot, table_url

from tournament.models import AuditEntry, Deal
from tournament.services import DealInput, end_game, record_deal

pytestmark = pytest.mark.django_db


def player(world, key: str):
    return next(p for p in world.players if p.key == key)


@pytest.fixture
def first_hand(world):
    """Hand 1: South (player 2) won on West's (player 3) discard, 10 fan + 1 flower.

    Value 11: West pays 8 + 11 = 19, East and North pay 8 each; South gets 35.
    """
    hand = record_deal(
        table=world.table,
        number=1,
        deal=DealInput(
            result=Deal.Result.WIN,
            winner=player(world, "2"),
            discarder=player(world, "3"),
            fan=10,
            flowers=1,
        ),
        entered_by=world.referee,
    )
    assert scores(world.table) == [-8, 35, -19, -8]
    return hand


def correction(number=1, result="win", winner="2", discarder="self", fan=20, flowers=0, **extra):
    data = {"number": number, "result": result, "winner": winner, "discarder": discarder}
    data.update(fan=fan, flowers=flowers, **extra)
    return data


def checked(html: str, name: str) -> list[str]:
    """The values of the checked radios called `name` in the correction form."""
    form = html[html.index('id="correct-last"') :]
    form = form[: form.index("</form>")]
    return re.findall(rf'<input type="radio" name="{name}" value="([^"]*)"[^>]*checked', form)


def test_form_is_prefilled_with_the_last_hand(referee_client, world, first_hand):
    html = referee_client.get(table_url(world)).content.decode()
    assert "Correct hand 1" in html
    assert checked(html, "result") == ["win"]
    assert checked(html, "winner") == ["2"]
    assert checked(html, "discarder") == ["3"]
    assert checked(html, "flowers") == ["1"]
    assert re.search(r'name="fan" value="10"[^>]*id="correct_fan"', html)
    # None of the common values tapped: without the script a tapped value could not be let go
    # of to type another.
    assert checked(html, "fan_pick") == []
    assert 'id="correct-last" open' not in html


def radio_values(html: str, name: str, form_id: str) -> list[int]:
    """The values of the radios called `name` in the form of the entry `form_id`."""
    form = html[html.index(f'id="{form_id}"') :]
    form = form[: form.index("</form>")]
    return [int(value) for value in re.findall(rf'type="radio" name="{name}" value="(\d+)"', form)]


def test_correction_offers_the_common_fan_values_as_quick_entry_does(
    referee_client, world, first_hand
):
    html = referee_client.get(table_url(world)).content.decode()
    common = list(world.tournament.rules.quick_values)
    assert common[:3] == [8, 9, 10] and 88 in common
    assert radio_values(html, "fan_pick", "correct-last") == common
    assert radio_values(html, "fan_pick", "entry-win") == common
    # Drawn by the same include, with the box for any other value labelled alike.
    form = html[html.index('id="correct-last"') :]
    assert '<fieldset class="ref-choices ref-cols-9">' in form[: form.index("</form>")]
    assert re.search(r'<label for="correct_fan">Other fan value</label>', html)
    assert "tournament/fan_pick.js" in html


def test_a_tapped_fan_value_corrects_the_hand(referee_client, world, first_hand):
    response = referee_client.post(table_url(world, "correct"), correction(fan="", fan_pick=24))
    assert response.status_code == 302
    # A self-drawn win of 24 fan by South: each other player pays 8 + 24 = 32.
    assert scores(world.table) == [-32, 96, -32, -32]
    assert Deal.objects.get(pk=first_hand.pk).fan == 24


def test_a_tapped_and_a_typed_fan_that_differ_are_refused(referee_client, world, first_hand):
    before = snapshot()
    response = referee_client.post(table_url(world, "correct"), correction(fan=20, fan_pick=24))
    assert response.status_code == 200
    html = response.content.decode()
    assert "24 fan is chosen and 20 typed: keep only one of them." in html
    assert checked(html, "fan_pick") == ["24"]  # both are kept to choose from
    assert 'name="fan" value="20"' in html
    assert snapshot() == before


def test_form_shows_the_seat_winds_of_the_hand_corrected(referee_client, world, first_hand):
    html = referee_client.get(table_url(world)).content.decode()
    form = html[html.index('id="correct-last"') :]
    form = form[: form.index("</fieldset>", form.index('name="winner"'))]
    # Player 2 sat South in hand 1 (and deals hand 2, as East).
    assert re.search(r"Player 2 <span[^>]*>S</span>", form)


def test_correct_query_opens_the_form(referee_client, world, first_hand):
    html = referee_client.get(table_url(world) + "?correct=1").content.decode()
    assert 'id="correct-last" open' in html


def test_no_correction_form_before_any_hand(referee_client, world):
    html = referee_client.get(table_url(world)).content.decode()
    assert 'id="correct-last"' not in html


def test_correction_recomputes_the_scores(referee_client, world, first_hand):
    # Now a self-drawn win of 20 fan by South: each other player pays 8 + 20 = 28.
    response = referee_client.post(table_url(world, "correct"), correction())
    assert response.status_code == 302
    assert scores(world.table) == [-28, 84, -28, -28]
    hand = Deal.objects.get(pk=first_hand.pk)
    assert (hand.fan, hand.flowers, hand.discarder) == (20, 0, None)
    assert messages_of(response) == [
        "Hand 1 is corrected: Hand 1: Player 2 won by self-draw, 20 fan."
    ]


def test_correction_to_a_drawn_hand_clears_the_payments(referee_client, world, first_hand):
    data = correction(result="draw", fan="", discarder="", winner="")
    response = referee_client.post(table_url(world, "correct"), data)
    assert response.status_code == 302
    assert scores(world.table) == [0, 0, 0, 0]
    assert Deal.objects.get(pk=first_hand.pk).result == Deal.Result.DRAW


def test_correction_is_audited_with_before_and_after(referee_client, world, first_hand):
    referee_client.post(table_url(world, "correct"), correction())
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.HAND_CORRECTED).get()
    assert entry.actor == world.referee
    assert entry.table == world.table
    assert (entry.before["fan"], entry.before["discarder"], entry.before["flowers"]) == (10, "3", 1)
    assert (entry.after["fan"], entry.after["discarder"], entry.after["flowers"]) == (20, None, 0)
    assert entry.after["payments"] == [-28, 84, -28, -28]


def test_an_earlier_hand_is_refused(referee_client, world, first_hand):
    record_deal(
        table=world.table,
        number=2,
        deal=DealInput(result=Deal.Result.DRAW),
        entered_by=world.referee,
    )
    before = snapshot()
    response = referee_client.post(table_url(world, "correct"), correction(number=1))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Hand 1 is not the last hand entered any more" in html
    assert checked(html, "discarder") == ["self"]  # what was typed is kept
    assert 'name="fan" value="20"' in html
    assert snapshot() == before


def test_ended_game_is_refused_and_points_to_the_organiser(referee_client, world, first_hand):
    end_game(table=world.table, ended_by_time=True, entered_by=world.referee)
    before = snapshot()
    response = referee_client.post(table_url(world, "correct"), correction())
    assert response.status_code == 200
    html = response.content.decode()
    assert "The game sheet is submitted" in html
    assert "ask the organiser to correct hand 1" in html
    assert 'name="fan" value="20"' in html
    assert snapshot() == before


def test_ended_game_shows_no_correction_form(referee_client, world, first_hand):
    end_game(table=world.table, ended_by_time=True, entered_by=world.referee)
    html = referee_client.get(table_url(world)).content.decode()
    assert 'id="correct-last"' not in html
    assert "to correct a hand now, ask the organiser" in html


def test_resubmission_is_answered_as_already_corrected(referee_client, world, first_hand):
    data = correction(submission="8b0f7a55-4d8e-4c1e-9d1a-0f6c1b2a3d4e")
    referee_client.post(table_url(world, "correct"), data)
    before = snapshot()
    response = referee_client.post(table_url(world, "correct"), data)
    assert response.status_code == 302
    # The first answer's message is still waiting (its redirect was not followed).
    assert messages_of(response)[-1] == "Hand 1 already has these values; nothing was changed."
    assert snapshot() == before
    assert AuditEntry.objects.filter(action=AuditEntry.Action.HAND_CORRECTED).count() == 1


def test_resubmission_after_the_game_ended_is_still_answered(referee_client, world, first_hand):
    referee_client.post(table_url(world, "correct"), correction())
    end_game(table=world.table, ended_by_time=True, entered_by=world.referee)
    response = referee_client.post(table_url(world, "correct"), correction())
    assert response.status_code == 302
    assert "already has these values" in messages_of(response)[-1]


def test_win_without_fan_is_refused_with_values_kept(referee_client, world, first_hand):
    before = snapshot()
    response = referee_client.post(table_url(world, "correct"), correction(fan=""))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Enter the fan, not counting flowers." in html
    assert checked(html, "discarder") == ["self"]
    assert snapshot() == before


def test_below_minimum_is_refused_by_the_service(referee_client, world, first_hand):
    before = snapshot()
    response = referee_client.post(table_url(world, "correct"), correction(fan=5))
    assert response.status_code == 200
    assert "is a false win" in response.content.decode()
    assert snapshot() == before


def test_another_tables_referee_is_forbidden(client, world, first_hand):
    client.force_login(world.other_referee)
    before = snapshot()
    response = client.post(table_url(world, "correct"), correction())
    assert response.status_code == 403
    assert snapshot() == before


def test_get_is_refused(referee_client, world, first_hand):
    response = referee_client.get(table_url(world, "correct"))
    assert (response.status_code, response["Location"]) == (303, table_url(world))


def test_anonymous_is_sent_to_login(client, world, first_hand):
    response = client.post(table_url(world, "correct"), correction())
    assert response.status_code == 302
    assert "login" in response.url


def test_page_with_the_correction_form_keeps_ids_unique_and_inputs_labelled(
    referee_client, world, first_hand
):
    html = referee_client.get(table_url(world) + "?correct=1").content.decode()
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    form = html[html.index('id="correct-last"') :]
    form = form[: form.index("</form>")]
    visible = re.findall(r'<input type="(?:radio|number)"[^>]*id="([^"]+)"', form)
    assert visible
    for input_id in visible:
        assert f'for="{input_id}"' in form, input_id
    assert html.count("<h1") == 1
