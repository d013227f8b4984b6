"""Deals of every preset through the services: who deals, the extra hands, several winners,
riichi, ready hands and faulty outs, corrections that move the dealer, and the end of a game."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournament.models import Deal, ExtraWin
from tournament.services import DealInput, correct_deal, end_game, record_deal, remove_last_hand

pytestmark = pytest.mark.django_db

JT = "japanese-transitional"
WA = "wilmington-12-tile"


@pytest.fixture
def preset(tournament, request):
    tournament.preset = request.param
    tournament.seat_rotation = "none"
    tournament.save()
    return request.param


def deal(table, referee, number, result="win", **facts):
    return record_deal(
        table=table, number=number, deal=DealInput(result=result, **facts), entered_by=referee
    )


def position(hand: Deal) -> tuple[str, str, int]:
    return hand.prevailing_wind, hand.dealer, hand.extra_hands


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_a_japanese_dealer_keeps_the_deal_after_his_win_and_earns_his_extra_hand(
    preset, table, referee, players, scores
):
    east, south, west, north = players[:4]
    first = deal(table, referee, 1, winner=east, discarder=south, value=60)
    second = deal(table, referee, 2, winner=east, value=60, riichi=[north])

    assert position(first) == ("E", "E", 0)
    assert position(second) == ("E", "E", 1)
    # JT-23: 2F from each as East, 100 x 1 bonus from each, North's riichi stake.
    assert second.payments == [760, -220, -220, -320]
    assert scores(table) == [760 + 360, -220 - 360, -220, -320]


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_a_japanese_deal_passes_after_another_players_win_or_a_draw(
    preset, table, referee, players
):
    east, south = players[:2]
    deal(table, referee, 1, winner=south, value=20, discarder=east)
    second = deal(table, referee, 2, result="draw", ready=[east])
    third = deal(table, referee, 3, result="draw")

    assert position(second) == ("E", "S", 0)
    assert second.payments == [600, -200, -200, -200]
    assert position(third) == ("E", "W", 0)


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_a_japanese_faulty_out_ends_the_deal_and_the_dealer_deals_again_unless_he_made_it(
    preset, table, referee, players
):
    east, south, west = players[:3]
    faulty = deal(table, referee, 1, result="faulty_out", offender=west)
    again = deal(table, referee, 2, result="faulty_out", offender=east)
    after = deal(table, referee, 3, result="draw")

    assert faulty.payments == [1500, 750, -3000, 750]
    assert (position(faulty), position(again)) == (("E", "E", 0), ("E", "E", 0))
    assert again.payments == [-4500, 1500, 1500, 1500]
    assert position(after) == ("E", "S", 0)


@pytest.mark.parametrize("preset", [JT], indirect=True)
@pytest.mark.parametrize("value", [25, 10, 1510, None])
def test_a_japanese_score_is_a_multiple_of_ten_from_20_to_the_limit(
    preset, table, referee, players, value
):
    with pytest.raises(ValidationError) as error:
        deal(table, referee, 1, winner=players[0], value=value)

    assert error.value.code in ("bad_value", "value_required")
    assert not Deal.objects.exists()


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_a_faulty_riichi_after_a_draw_pays_as_a_faulty_out(preset, table, referee, players):
    east, south, west = players[:3]

    drawn = deal(table, referee, 1, result="draw", riichi=[south], faulty_riichi=[south],
                 ready=[west])  # fmt: skip

    assert drawn.payments == [1300, -3200, 1350, 550]  # JT-30


@pytest.mark.parametrize("preset", [WA], indirect=True)
def test_several_wilmington_players_win_on_one_discard(preset, table, referee, players):
    east, south, west, north = players[:4]

    won = deal(table, referee, 1, winner=south, discarder=west, value=45,
               extra_winners=[(north, 35)])  # fmt: skip

    assert won.payments == [0, 68, -121, 53]  # WA-21
    assert list(ExtraWin.objects.values_list("winner__player__key", "value")) == [("4", 35)]


@pytest.mark.parametrize("preset", [WA], indirect=True)
def test_a_wilmington_win_below_15_is_a_faulty_out(preset, table, referee, players):
    with pytest.raises(ValidationError) as error:
        deal(table, referee, 1, winner=players[1], value=9)

    assert error.value.code == "below_minimum"


@pytest.mark.parametrize("preset", [WA], indirect=True)
def test_a_wilmington_dealer_keeps_the_deal_through_draws_once_he_has_won(
    preset, table, referee, players
):
    east, south = players[:2]
    deal(table, referee, 1, winner=east, value=20)
    drawn = deal(table, referee, 2, result="draw")
    after = deal(table, referee, 3, result="draw")

    assert [position(hand) for hand in (drawn, after)] == [("E", "E", 1), ("E", "E", 2)]


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_correcting_a_deal_moves_the_dealer_of_every_deal_after_it(
    preset, table, referee, players, scores
):
    east, south, west = players[:3]
    first = deal(table, referee, 1, winner=east, discarder=west, value=100)
    deal(table, referee, 2, winner=south, discarder=west, value=100)

    correct_deal(
        hand=first,
        deal=DealInput(result="win", winner=west, discarder=east, value=100),
        entered_by=referee,
    )

    second = Deal.objects.get(table=table, number=2)
    assert position(second) == ("E", "S", 0)  # West's win passed the deal to South
    assert second.payments == [0, 600, -600, 0]  # South now deals: 6F from the discarder
    assert scores(table) == [-400, 600, 400 - 600, 0]


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_a_game_of_one_wind_round_ends_when_the_deal_has_passed_four_times(
    preset, tournament, table, referee, players
):
    tournament.rule_settings = {"wind_rounds": 1}
    tournament.save()
    for number in range(1, 5):
        deal(table, referee, number, result="draw")

    with pytest.raises(ValidationError) as error:
        deal(table, referee, 5, result="draw")
    end_game(table=table, ended_by_time=False, entered_by=referee)

    assert error.value.code == "game_complete"
    table.refresh_from_db()
    assert table.ended_at is not None and not table.ended_by_time


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_a_game_ends_early_only_by_time(preset, table, referee, players):
    deal(table, referee, 1, result="draw")

    with pytest.raises(ValidationError) as error:
        end_game(table=table, ended_by_time=False, entered_by=referee)

    assert error.value.code == "hands_missing"


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_removing_the_last_deal_gives_the_deal_back(preset, table, referee, players):
    east = players[0]
    deal(table, referee, 1, winner=east, value=60)
    remove_last_hand(table=table, entered_by=referee)

    again = deal(table, referee, 1, result="draw")

    assert position(again) == ("E", "E", 0)


@pytest.mark.parametrize("preset", [JT], indirect=True)
def test_riichi_is_refused_where_the_rules_have_none(preset, tournament, table, referee, players):
    tournament.preset = WA
    tournament.save()

    with pytest.raises(ValidationError) as error:
        deal(table, referee, 1, result="draw", riichi=[players[0]])

    assert error.value.code == "not_in_preset"


def test_mcr_refuses_a_faulty_out_as_a_result(table, referee, players):
    with pytest.raises(ValidationError) as error:
        deal(table, referee, 1, result="faulty_out", offender=players[0])

    assert error.value.code == "bad_result"
