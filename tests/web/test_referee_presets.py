"""The table screen under Japanese Transitional and Wilmington: quick entry of a deal by its
value with the preset's facts, draws with ready hands, faulty outs, several winners, and what
the screen shows (dealer, prevailing wind, extra hands, points from the initial points)."""

from __future__ import annotations

import pytest
from test_referee_hands import errors_of
from test_referee_pages import messages_of, scores, table_url

from tournament.models import Deal, ExtraWin, Penalty
from tournament.services import DealInput, record_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def japanese(world):
    world.tournament.preset = "japanese-transitional"
    world.tournament.seat_rotation = "none"
    world.tournament.save()
    return world


@pytest.fixture
def wilmington(world):
    world.tournament.preset = "wilmington-12-tile"
    world.tournament.seat_rotation = "none"
    world.tournament.save()
    return world


def page(client, world) -> str:
    return client.get(table_url(world)).content.decode()


def test_a_japanese_win_is_entered_by_its_score_with_riichi(referee_client, japanese):
    response = referee_client.post(
        table_url(japanese, "win"),
        {"number": 1, "winner": "1", "discarder": "self", "value": 60, "riichi": ["4"]},
    )

    assert response.status_code == 302
    # East wins self-drawn 60: 2F from each; North's riichi stake goes to the winner.
    assert scores(japanese.table) == [460, -120, -120, -220]


def test_the_screen_shows_the_deal_the_dealer_the_extra_hand_and_the_points(
    referee_client, japanese
):
    referee_client.post(
        table_url(japanese, "win"), {"number": 1, "winner": "1", "discarder": "2", "value": 60}
    )

    html = page(referee_client, japanese)

    assert "Deal <span data-next-hand>2</span>" in html
    assert "extra hand 1" in html
    assert 'class="ref-player is-dealer" data-player="1"' in html
    assert ">8360<" in html and ">7640<" in html  # 8,000 plus the game score


def test_a_japanese_score_that_is_not_a_multiple_of_ten_is_refused(referee_client, japanese):
    response = referee_client.post(
        table_url(japanese, "win"), {"number": 1, "winner": "2", "discarder": "3", "value": 65}
    )

    assert response.status_code == 200  # shown again with the service's refusal
    assert not Deal.objects.exists()
    assert any("cannot be worth 65" in error for error in errors_of(response))


def test_a_japanese_draw_pays_the_ready_hands(referee_client, japanese):
    response = referee_client.post(table_url(japanese, "draw"), {"number": 1, "ready": ["2"]})

    assert response.status_code == 302
    assert scores(japanese.table) == [-200, 600, -200, -200]


def test_a_japanese_faulty_out_ends_the_deal(referee_client, japanese):
    response = referee_client.post(
        table_url(japanese, "faulty_out"), {"number": 1, "offender": "3"}
    )

    assert response.status_code == 302
    assert Deal.objects.get().result == "faulty_out"
    assert scores(japanese.table) == [1500, 750, -3000, 750]
    assert "Deal <span data-next-hand>2</span>" in page(referee_client, japanese)


def test_the_faulty_out_entry_is_only_where_it_ends_the_deal(referee_client, wilmington):
    assert "entry-faulty-out" not in page(referee_client, wilmington)


def test_a_wilmington_full_entry_asks_points_not_a_final_score(referee_client, wilmington):
    html = page(referee_client, wilmington)

    assert "Points, if counted" in html
    assert "Final score F" not in html  # JT's name for the value


def test_two_wilmington_players_win_on_one_discard(referee_client, wilmington):
    response = referee_client.post(
        table_url(wilmington, "win"),
        {"number": 1, "winner": "2", "discarder": "3", "value": 45, "also_4": 35},
    )

    assert response.status_code == 302
    assert scores(wilmington.table) == [0, 68, -121, 53]
    assert ExtraWin.objects.get().value == 35


def test_a_wilmington_win_below_15_is_offered_as_a_faulty_out(referee_client, wilmington):
    response = referee_client.post(
        table_url(wilmington, "win"), {"number": 1, "winner": "2", "discarder": "self", "value": 9}
    )
    offered = referee_client.post(
        table_url(wilmington, "false_win"),
        {"number": 1, "offender": "2", "kind": "below_minimum"},
    )

    assert response.status_code == 200  # shown again, with the offer
    assert "A hand under 15 points is a faulty out" in response.content.decode()
    assert offered.status_code == 302
    assert Penalty.objects.get().points == 120
    assert scores(wilmington.table) == [40, -120, 40, 40]


def test_the_game_is_over_after_the_last_wind_round(referee_client, japanese):
    japanese.tournament.rule_settings = {"wind_rounds": 1}
    japanese.tournament.save()
    for number in range(1, 5):
        record_deal(
            table=japanese.table,
            number=number,
            deal=DealInput(result="draw"),
            entered_by=japanese.referee,
        )

    html = page(referee_client, japanese)

    assert "The last wind round is played" in html
    assert "entry-win" not in html
    assert messages_of(referee_client.get(table_url(japanese))) == []


def test_a_wilmington_table_offers_the_tile_entry_with_a_hand_per_further_winner(
    referee_client, wilmington
):
    html = page(referee_client, wilmington)

    assert "full entry: the tiles" in html
    assert "Further winners on the same discard: their tiles" in html
    assert 'also_tiles_1"' in html


def test_an_mcr_table_offers_the_tile_entry(referee_client, world):
    assert "full entry: the tiles" in page(referee_client, world)


# --- Japanese Transitional full entry: the tiles ----------------------------------------

# JT-03 of the shared cases: North wins on East's discard, round East: F 60.
NO_POINTS = "34m 567p 345s 678s 99m 2m"


def jt_full(action="save", tiles=NO_POINTS, **fields):
    return {"number": 1, "winner": "4", "discarder": "1", "tiles": tiles, "action": action,
            **fields}  # fmt: skip


def test_a_japanese_table_offers_the_tile_entry_with_its_own_situation(referee_client, japanese):
    html = page(referee_client, japanese)

    assert "full entry: the tiles" in html
    assert "Robbing a kong" in html and "Heavenly hand" in html
    assert "Final score F, if counted" in html
    assert "Last tile of its kind" not in html  # MCR's flags and flowers are not asked


def test_a_japanese_win_entered_by_its_tiles_is_recorded_at_the_engines_score(
    referee_client, japanese
):
    response = referee_client.post(table_url(japanese, "full"), jt_full(riichi=["4"]))

    assert response.status_code == 302
    hand = Deal.objects.get()
    assert (hand.value, hand.tiles["riichi"]) == (120, True)  # riichi doubles the 60


def test_a_japanese_score_that_disagrees_with_the_tiles_is_refused(referee_client, japanese):
    response = referee_client.post(table_url(japanese, "full"), jt_full(value=80))

    assert response.status_code == 200
    assert not Deal.objects.exists()
    assert any("score 60, not the 80" in error for error in errors_of(response))


def test_the_japanese_breakdown_shows_the_final_score_as_the_hand_is_built(
    referee_client, japanese
):
    response = referee_client.post(
        table_url(japanese, "full"),
        jt_full(action="check"),
        headers={"HX-Request": "true", "HX-Target": "breakdown"},
    )

    html = response.content.decode()
    assert "data-final>60<" in html
    assert 'data-pattern="no_points_hand"' in html
    assert "with North seat wind, prevailing wind East" in html
    assert not Deal.objects.exists()


def test_japanese_tiles_that_are_no_win_are_refused_with_the_engines_message(
    referee_client, japanese
):
    response = referee_client.post(
        table_url(japanese, "full"), jt_full(tiles="34m 567p 345s 678s 99m 1p")
    )

    assert response.status_code == 200
    assert not Deal.objects.exists()
    assert errors_of(response)


# --- Wilmington full entry: one hand per winner -----------------------------------------

# WA-22 of the shared cases: South goes out on West's discard: F 45; East on it too: F 21.
DRAGONS = "CCC FFF 56p 234m P J 7p"
STRAIGHT = "123456789m CCC J 7p"


def test_wilmington_winners_entered_by_their_tiles_are_recorded_at_the_engines_values(
    referee_client, wilmington
):
    data = {"number": 1, "winner": "2", "discarder": "3", "tiles": DRAGONS, "action": "save",
            "also_tiles_1": STRAIGHT}  # fmt: skip
    response = referee_client.post(table_url(wilmington, "full"), data)

    assert response.status_code == 302, errors_of(response)
    hand = Deal.objects.get()
    assert hand.value == 45
    assert [(win.winner.player.key, win.value) for win in ExtraWin.objects.all()] == [("1", 21)]


def test_wilmington_tiles_below_the_minimum_are_offered_as_a_faulty_out(referee_client, wilmington):
    data = {"number": 1, "winner": "3", "discarder": "self", "action": "check",
            "tiles": "234m 567p 34567s J C C"}  # fmt: skip
    response = referee_client.post(table_url(wilmington, "full"), data)

    html = response.content.decode()
    assert "A hand under 15 points cannot be recorded as a win" in html
    assert 'value="false_win"' in html
    assert not Deal.objects.exists()


# --- False wins, faulty outs and deductions by the preset's rulebook -------------------------


def test_a_japanese_screen_offers_only_the_faulty_out(referee_client, japanese):
    html = page(referee_client, japanese)

    assert "entry-faulty-out" in html
    assert "entry-false-win" not in html
    assert "False win" not in html and "false win" not in html
    assert "Below 0 points" not in html


def test_a_japanese_false_win_post_is_refused_and_saves_nothing(referee_client, japanese):
    response = referee_client.post(
        table_url(japanese, "false_win"),
        {"offender": "2", "number": 1, "kind": "below_minimum"},
    )

    assert response.status_code == 200
    assert "record the deal as a faulty out" in response.content.decode()
    assert not Penalty.objects.exists() and not Deal.objects.exists()
    assert scores(japanese.table) == [0, 0, 0, 0]


def test_a_japanese_full_entry_cannot_record_a_false_win(referee_client, japanese):
    response = referee_client.post(
        table_url(japanese, "full"),
        {"number": 1, "winner": "2", "discarder": "self", "tiles": "", "action": "false_win"},
    )

    assert response.status_code == 200
    assert not Penalty.objects.exists() and not Deal.objects.exists()


def test_the_east_faulty_out_pays_1500_to_each(referee_client, japanese):
    response = referee_client.post(
        table_url(japanese, "faulty_out"), {"number": 1, "offender": "1"}
    )

    assert response.status_code == 302
    assert scores(japanese.table) == [-4500, 1500, 1500, 1500]


def test_a_wilmington_screen_calls_its_penalty_a_faulty_out(referee_client, wilmington):
    html = page(referee_client, wilmington)
    entry = html[html.index('id="entry-false-win"') : html.index('id="entry-penalty"')]

    assert "Faulty out" in entry and "Record the faulty out" in entry
    assert "False win" not in entry and "false win" not in entry
    assert "Below 15 points: pays 40 to each" in entry


def test_an_mcr_screen_keeps_its_false_win(referee_client, world):
    html = page(referee_client, world)
    entry = html[html.index('id="entry-false-win"') : html.index('id="entry-penalty"')]

    assert "False win" in entry and "Record the false win" in entry


def test_a_japanese_deduction_is_up_to_1500_by_fives(referee_client, japanese):
    html = page(referee_client, japanese)
    assert "Deduction (5 to 1,500, a multiple of 5, given to nobody)" in html

    body = {"player": "3", "kind": "deduction", "points": 1500, "reason": "Foul", "hand": "1"}
    response = referee_client.post(table_url(japanese, "penalty"), body)

    assert response.status_code == 302
    assert scores(japanese.table) == [0, 0, -1500, 0]


@pytest.mark.parametrize("points", [12, 1505])
def test_a_japanese_deduction_off_its_scale_is_refused(referee_client, japanese, points):
    body = {"player": "3", "kind": "deduction", "points": points, "reason": "Foul", "hand": "1"}

    response = referee_client.post(table_url(japanese, "penalty"), body)

    assert response.status_code == 200
    assert errors_of(response) == ["A deduction is 5 to 1,500 points, a multiple of 5."]
    assert not Penalty.objects.exists()


def test_a_wilmington_deduction_keeps_5_to_60(referee_client, wilmington):
    assert "Deduction (5 to 60, given to nobody)" in page(referee_client, wilmington)
    body = {"player": "3", "kind": "deduction", "points": 65, "reason": "Foul", "hand": "1"}

    response = referee_client.post(table_url(wilmington, "penalty"), body)

    assert errors_of(response) == ["A deduction is 5 to 60 points."]
    assert not Penalty.objects.exists()


# --- A deal the dealer deals again: JT's extra hand, WA's continued deal ---------------------


def test_a_wilmington_dealer_continues_no_extra_hand(referee_client, wilmington):
    referee_client.post(
        table_url(wilmington, "win"), {"number": 1, "winner": "1", "discarder": "2", "value": 30}
    )
    referee_client.post(table_url(wilmington, "draw"), {"number": 2})

    html = page(referee_client, wilmington)

    assert "continued deal 2" in html  # a draw in a continued deal: the dealer continues again
    assert "extra hand" not in html.lower()
    assert 'title="Continued deal">+1<' in html  # deal 2 on the score sheet


def test_a_wilmington_filled_sheet_calls_the_repeat_a_continued_deal(client, wilmington):
    from django.urls import reverse

    record_deal(
        table=wilmington.table,
        number=1,
        deal=DealInput(
            result="win", winner=wilmington.players[0], discarder=wilmington.players[1], value=30
        ),
        entered_by=wilmington.referee,
    )
    record_deal(
        table=wilmington.table,
        number=2,
        deal=DealInput(result="draw"),
        entered_by=wilmington.referee,
    )
    client.force_login(wilmington.organiser)

    html = client.get(
        reverse("outputs:sheets", kwargs={"slug": wilmington.tournament.slug, "number": 1})
    ).content.decode()

    assert 'title="Continued deal"> +1<' in html
    assert "extra hand" not in html.lower()


def test_a_japanese_sheet_keeps_its_extra_hand(referee_client, japanese):
    referee_client.post(
        table_url(japanese, "win"), {"number": 1, "winner": "1", "discarder": "2", "value": 60}
    )
    referee_client.post(table_url(japanese, "draw"), {"number": 2})

    html = page(referee_client, japanese)

    assert 'title="Dealer&#x27;s extra hand">+1<' in html  # escaped by the score sheet's tag
    assert "continued deal" not in html.lower()
