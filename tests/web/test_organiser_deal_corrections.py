"""The organiser corrects a deal of a preset that counts points (JT, WA): the form asks the
deal's value and the preset's facts, shows what was entered, and the deals after the corrected
one are placed and paid again.

Table 1 of round 1 seats P1, P2, P3, P4 at East, South, West, North; nobody changes seats.
Payments are worked out by hand from the JT and WA specifications (§8 of each).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from factories import seated_round

from tournament.models import AuditEntry, Deal, ExtraWin
from tournament.services import DealInput, record_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def player_name():
    return "P{}"


def _table(tournament, organiser, players, preset: str):
    tournament.preset = preset
    tournament.seat_rotation = "none"
    tournament.save()
    _, (table, _) = seated_round(tournament, organiser, [players[:4], players[4:]])
    return table


@pytest.fixture
def japanese(tournament, organiser, players):
    """Deal 1: East (P1) wins 60 on South's discard: South pays 6F = 360. East keeps the deal.
    Deal 2, East's extra hand 1: West (P3) wins 100 self-drawn: East pays 2F, South and North
    F, and each loser 100 for the extra hand: (-300, -200, +700, -200)."""
    table = _table(tournament, organiser, players, "japanese-transitional")
    p1, p2, p3 = players[:3]
    record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=p1, discarder=p2, value=60),
        entered_by=organiser,
    )
    record_deal(
        table=table,
        number=2,
        deal=DealInput(result="win", winner=p3, value=100),
        entered_by=organiser,
    )
    return table


@pytest.fixture
def logged_in(client, organiser):
    client.force_login(organiser)
    return client


def url(number: int) -> str:
    return reverse(
        "organiser:hand", kwargs={"slug": "spring-cup", "number": 1, "table": 1, "hand": number}
    )


def scores(table) -> list[int]:
    return [seat.score for seat in sorted(table.seats.all(), key=lambda seat: seat.index)]


def pk(players, index: int) -> str:
    return str(players[index].pk)


def test_the_form_of_a_japanese_deal_asks_its_value_and_facts(logged_in, japanese, players):
    html = logged_in.get(url(1)).content.decode()

    assert 'name="value"' in html and 'value="60"' in html
    for name in ("riichi", "faulty_claims", "ready", "faulty_riichi", "offender"):
        assert f'name="{name}"' in html
    assert 'name="fan"' not in html and 'name="tiles"' not in html
    assert 'name="fan_pick"' not in html  # the common values are fan values (MCR)
    assert 'value="faulty_out"' in html


def test_a_corrected_first_deal_places_and_pays_the_next_deal_again(logged_in, japanese, players):
    assert scores(japanese) == [60, -560, 700, -200]

    response = logged_in.post(url(1), {"result": "draw"})

    assert response.status_code == 302
    # Deal 1 drawn, nobody ready: nothing paid, the deal passes to South. Deal 2 is South's
    # first deal: West wins 100 self-drawn, South pays 2F, East and North F.
    second = Deal.objects.get(table=japanese, number=2)
    assert (second.dealer, second.extra_hands) == ("S", 0)
    assert second.payments == [-100, -200, 400, -100]
    assert scores(japanese) == [-100, -200, 400, -100]
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.HAND_CORRECTED).get()
    assert entry.before["result"] == "win" and entry.after["result"] == "draw"


def test_riichi_is_corrected_with_the_deal(logged_in, japanese, players):
    response = logged_in.post(
        url(1),
        {
            "result": "win",
            "winner": pk(players, 0),
            "discarder": pk(players, 1),
            "value": 60,
            "riichi": [pk(players, 3)],
        },  # fmt: skip
    )

    assert response.status_code == 302
    first = Deal.objects.get(table=japanese, number=1)
    assert first.riichi == ["N"]
    assert first.payments == [460, -360, 0, -100]  # North's riichi stake goes to the winner
    html = logged_in.get(url(1)).content.decode()
    assert f'name="riichi" value="{pk(players, 3)}"' in html
    assert "checked" in html.split(f'name="riichi" value="{pk(players, 3)}"')[1].split(">")[0]


def test_a_deal_becomes_a_faulty_out(logged_in, japanese, players):
    response = logged_in.post(url(1), {"result": "faulty_out", "offender": pk(players, 1)})

    assert response.status_code == 302
    first = Deal.objects.get(table=japanese, number=1)
    # South pays half the limit to each, East double. A non-dealer's faulty out keeps the deal
    # with East and its extra-hand count (0), so deal 2 is East's again, no longer an extra hand.
    assert first.payments == [1500, -3000, 750, 750]
    second = Deal.objects.get(table=japanese, number=2)
    assert (second.dealer, second.extra_hands) == ("E", 0)
    assert second.payments == [-200, -100, 400, -100]


def test_a_value_the_preset_refuses_is_shown_on_the_form_and_changes_nothing(
    logged_in, japanese, players
):
    before = [hand.payments for hand in Deal.objects.filter(table=japanese)]

    response = logged_in.post(
        url(1),
        {"result": "win", "winner": pk(players, 0), "discarder": pk(players, 1), "value": 65},
    )

    assert response.status_code == 422
    assert "cannot be worth 65" in response.content.decode()
    assert [hand.payments for hand in Deal.objects.filter(table=japanese)] == before
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.HAND_CORRECTED).exists()


def test_a_win_without_its_value_is_refused_on_the_value(logged_in, japanese, players):
    response = logged_in.post(
        url(1), {"result": "win", "winner": pk(players, 0), "discarder": pk(players, 1)}
    )

    assert response.status_code == 422
    assert response.context["form"].errors["value"]


def test_a_wilmington_deal_gains_a_second_winner(logged_in, tournament, organiser, players):
    table = _table(tournament, organiser, players, "wilmington-12-tile")
    record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=players[1], discarder=players[2], value=20),
        entered_by=organiser,
    )
    assert scores(table) == [0, 30, -30, 0]
    html = logged_in.get(url(1)).content.decode()
    assert f'name="also_{players[3].pk}"' in html
    assert 'name="riichi"' not in html and 'value="faulty_out"' not in html

    response = logged_in.post(
        url(1),
        {
            "result": "win",
            "winner": pk(players, 1),
            "discarder": pk(players, 2),
            "value": 20,
            f"also_{players[3].pk}": 30,
        },  # fmt: skip
    )

    assert response.status_code == 302
    # West pays each winner 1.5 times: 30 to South, 45 to North.
    assert scores(table) == [0, 30, -75, 45]
    assert ExtraWin.objects.get().value == 30
    assert 'value="30"' in logged_in.get(url(1)).content.decode()
