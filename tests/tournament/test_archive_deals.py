"""Archive version 2: the deals of every preset exported, imported into an empty database and
exported again unchanged; a version-1 archive read into deals; and a wrong deal refused whole,
with its place named.

The JT and WA tournaments are played through the services, as a referee would enter them."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from jsonschema import Draft202012Validator

from tournament.archive import ArchiveError, export_tournament, import_tournament, json_schema
from tournament.models import (
    AuditEntry,
    Deal,
    ExtraWin,
    Penalty,
    Player,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournament.reads.selectors import standings
from tournament.services import (
    DealInput,
    confirm_game,
    create_round,
    end_game,
    record_deal,
    record_false_win,
    record_penalty,
    set_round_status,
    set_seating,
)
from tournament.services.tournaments import update_tournament

pytestmark = pytest.mark.django_db

MCR = "mcr"
JT = "japanese-transitional"
WA = "wilmington-12-tile"


def counts() -> dict[str, int]:
    models = (
        Tournament, Player, Round, Table, Seat, Deal, ExtraWin, Penalty, AuditEntry,
        get_user_model(),
    )  # fmt: skip
    return {model.__name__: model.objects.count() for model in models}


# --- Tournaments of each preset, played through the services ---------------------------------


def start(tournament, organiser, players, *, preset, **settings):
    """Round 1 in play under `preset`: players 1-4 at table 1, 5-8 at table 2."""
    tournament = update_tournament(tournament=tournament, preset=preset, **settings)
    round = create_round(tournament=tournament, actor=organiser)
    tables = set_seating(round=round, tables=[players[:4], players[4:]], actor=organiser)
    set_round_status(round=round, status="seated", actor=organiser)
    set_round_status(round=round, status="playing", actor=organiser)
    return tournament, round, tables


def play(table, referee, deals):
    """Record `deals` in order from deal 1: each (result, facts for record_deal)."""
    return [
        record_deal(
            table=table, number=number, deal=DealInput(result=result, **facts), entered_by=referee
        )
        for number, (result, facts) in enumerate(deals, start=1)
    ]


def finish(round, tables, organiser, referee, *, by_time=()):
    for table in tables:
        end_game(table=table, ended_by_time=table in by_time, entered_by=referee)
        confirm_game(table=table, confirmed_by=organiser)
    set_round_status(round=round, status="finished", actor=organiser)


def play_jt(tournament, organiser, referee, players):
    """One wind round. Table 1: the dealer's win and extra hand, riichi, a draw with ready
    players, faulty outs by another player and by the dealer, a faulty claim, a faulty riichi,
    the limit. Table 2: a draw, the dealer's extra hand, ended by time."""
    p1, p2, p3, p4, p5, p6, p7, p8 = players
    tournament, round, (table1, table2) = start(
        tournament, organiser, players, preset=JT, seat_rotation="none",
        rule_settings={"wind_rounds": 1, "deal.extra_hand_bonus": 200},
    )  # fmt: skip
    play(table1, referee, [
        ("win", {"winner": p1, "discarder": p2, "value": 60, "riichi": [p4]}),
        ("win", {"winner": p1, "value": 40}),
        ("draw", {"ready": [p1, p3], "riichi": [p3]}),
        ("faulty_out", {"offender": p3}),
        ("win", {"winner": p4, "discarder": p2, "value": 100, "riichi": [p2, p4],
                 "faulty_claims": [p1, p1]}),
        ("draw", {"riichi": [p2], "faulty_riichi": [p2], "ready": [p4]}),
        ("win", {"winner": p4, "value": 1500}),
        ("faulty_out", {"offender": p4}),
    ])  # fmt: skip
    play(table2, referee, [
        ("draw", {}),
        ("win", {"winner": p6, "value": 30}),
        ("win", {"winner": p7, "discarder": p6, "value": 20}),
    ])  # fmt: skip
    finish(round, [table1, table2], organiser, referee, by_time=[table2])
    return tournament


def play_wa(tournament, organiser, referee, players):
    """One wind round. Table 1: two winners on one discard (twice, the second time with a
    faulty out by a third player), the dealer continuing through a draw, the dealer among two
    winners, the limit. Table 2: a deduction, ended by time."""
    p1, p2, p3, p4, p5, p6, p7, p8 = players
    tournament, round, (table1, table2) = start(
        tournament, organiser, players, preset=WA, seat_rotation="none",
        rule_settings={"wind_rounds": 1},
    )  # fmt: skip
    play(table1, referee, [
        ("win", {"winner": p2, "discarder": p3, "value": 45, "extra_winners": [(p4, 35)]}),
        ("win", {"winner": p2, "value": 30}),
        ("draw", {}),
    ])  # fmt: skip
    record_false_win(table=table1, number=4, offender=p3, invalid_hand=False, entered_by=referee)
    for number, (result, facts) in enumerate([
        ("win", {"winner": p4, "discarder": p2, "value": 600, "extra_winners": [(p1, 15)]}),
        ("win", {"winner": p3, "discarder": p1, "value": 16, "extra_winners": [(p2, 20)]}),
        ("draw", {}),
        ("win", {"winner": p4, "discarder": p3, "value": 25}),
        ("win", {"winner": p1, "value": 50}),
    ], start=4):  # fmt: skip
        record_deal(
            table=table1, number=number, deal=DealInput(result=result, **facts), entered_by=referee
        )
    play(table2, referee, [("win", {"winner": p5, "discarder": p8, "value": 18})])
    record_penalty(
        table=table2, player=p6, points=10, distributed=False, reason="Slow play",
        deal_number=2, entered_by=referee,
    )  # fmt: skip
    finish(round, [table1, table2], organiser, referee, by_time=[table2])
    return tournament


def play_mcr(tournament, organiser, referee, players):
    """Table 1: wins, a draw and a false win, ended by time; table 2 still in play."""
    p1, p2, p3, p4, p5, p6, p7, p8 = players
    tournament, round, (table1, table2) = start(tournament, organiser, players, preset=MCR)
    play(table1, referee, [
        ("win", {"winner": p1, "discarder": p2, "fan": 8}),
        ("draw", {}),
        ("win", {"winner": p3, "fan": 12, "flowers": 2}),
    ])  # fmt: skip
    record_false_win(table=table1, number=4, offender=p2, invalid_hand=True, entered_by=referee)
    record_deal(
        table=table1,
        number=4,
        deal=DealInput(result="win", winner=p4, discarder=p1, fan=24),
        entered_by=referee,
    )
    end_game(table=table1, ended_by_time=True, entered_by=referee)
    play(table2, referee, [("win", {"winner": p8, "discarder": p5, "fan": 9, "flowers": 1})])
    return tournament


PLAYED: dict[str, Callable[..., Tournament]] = {MCR: play_mcr, JT: play_jt, WA: play_wa}


@pytest.fixture
def played(request, tournament, organiser, referee, players):
    return PLAYED[request.param](tournament, organiser, referee, players)


def deals_of(document, table=1):
    return document["rounds"][0]["tables"][table - 1]["hands"]


# --- What version 2 holds ---------------------------------------------------------------------


@pytest.mark.parametrize("played", [JT], indirect=True)
def test_a_jt_export_holds_settings_positions_facts_and_payments(played):
    document = export_tournament(played)
    deals = deals_of(document)

    assert document["version"] == 5
    assert (document["tournament"]["preset"], document["tournament"]["rule_settings"]) == (
        JT,
        {"wind_rounds": 1, "deal.extra_hand_bonus": 200},
    )
    assert [(d["prevailing_wind"], d["dealer"], d["extra_hands"]) for d in deals] == [
        ("E", "1", 0), ("E", "1", 1), ("E", "1", 2), ("E", "2", 0), ("E", "2", 0),
        ("E", "3", 0), ("E", "4", 0), ("E", "4", 1),
    ]  # fmt: skip
    assert [d["result"] for d in deals] == [
        "win", "win", "draw", "faulty_out", "win", "draw", "win", "faulty_out",
    ]  # fmt: skip
    first, drawn, faulty, claimed, faulty_riichi = deals[0], deals[2], deals[3], deals[4], deals[5]
    assert (first["winner"], first["discarder"], first["value"], first["fan"]) == (
        "1", "2", 60, None,
    )  # fmt: skip
    assert first["riichi"] == ["4"]
    assert first["payments"] == {"E": 460, "S": -360, "W": 0, "N": -100}
    # The dealer's extra hand 1: 2 x 40 and the tournament's bonus of 200 from each.
    assert deals[1]["payments"] == {"E": 840, "S": -280, "W": -280, "N": -280}
    assert (drawn["ready"], drawn["riichi"]) == (["1", "3"], ["3"])
    assert drawn["payments"] == {"E": 300, "S": -300, "W": 300, "N": -300}
    assert (faulty["offender"], faulty["winner"]) == ("3", None)
    assert faulty["payments"] == {"E": 750, "S": 1500, "W": -3000, "N": 750}
    assert claimed["faulty_claims"] == ["1", "1"]
    # South deals and discards: 100 + 200 + 100, South's riichi stake, two faulty claims.
    assert claimed["payments"] == {"E": -200, "S": -500, "W": 0, "N": 700}
    assert (faulty_riichi["faulty_riichi"], faulty_riichi["ready"]) == (["2"], ["4"])
    assert sum(faulty_riichi["payments"].values()) == 0
    assert [d["extra_hands"] for d in deals_of(document, 2)] == [0, 0, 1]
    assert all(d["extra_winners"] == [] for d in deals)


@pytest.mark.parametrize("played", [WA], indirect=True)
def test_a_wa_export_holds_the_further_winners_on_one_discard(played):
    deals = deals_of(export_tournament(played))

    assert (deals[0]["winner"], deals[0]["discarder"], deals[0]["value"]) == ("2", "3", 45)
    assert deals[0]["extra_winners"] == [{"winner": "4", "value": 35}]
    assert deals[0]["payments"] == {"E": 0, "S": 68, "W": -121, "N": 53}  # WA-21
    assert [(d["dealer"], d["extra_hands"]) for d in deals[:4]] == [
        ("1", 0), ("2", 0), ("2", 1), ("2", 2),
    ]  # fmt: skip
    assert deals[3]["extra_winners"] == [{"winner": "1", "value": 15}]
    false_win = deals[3]["penalties"][0]
    assert (false_win["player"], false_win["kind"], false_win["points"]) == ("3", "false_win", 120)
    assert all(d["riichi"] == [] and d["ready"] == [] for d in deals)


# --- Round trip -------------------------------------------------------------------------------


@pytest.mark.parametrize("played", [MCR, JT, WA], indirect=True)
def test_a_round_trip_through_an_empty_database_gives_the_same_document(played, organiser):
    first = json.dumps(export_tournament(played), ensure_ascii=False, indent=2)
    played.delete()
    assert not Tournament.objects.exists() and not Deal.objects.exists()

    copy_ = import_tournament(json.loads(first), actor=organiser)
    second = json.dumps(export_tournament(copy_), ensure_ascii=False, indent=2)

    assert second == first


@pytest.mark.parametrize("played", [MCR, JT, WA], indirect=True)
def test_a_round_trip_keeps_every_deal_scores_and_standings(played, organiser):
    copy_ = import_tournament(export_tournament(played), actor=organiser, slug="copy")

    def deals(tournament):
        hands = Deal.objects.filter(table__round__tournament=tournament).prefetch_related(
            "extra_wins"
        )
        return sorted(
            (
                hand.table.number, hand.number, hand.prevailing_wind, hand.dealer,
                hand.extra_hands, hand.result, hand.value, hand.fan, hand.riichi,
                hand.faulty_claims, hand.ready, hand.faulty_riichi, hand.payments,
                [(win.winner.starting_wind, win.value) for win in hand.extra_wins.all()],
            )
            for hand in hands.select_related("table")
        )  # fmt: skip

    def scores(tournament):
        return sorted(
            (seat.table.number, seat.starting_wind, seat.score)
            for seat in Seat.objects.filter(round__tournament=tournament).select_related("table")
        )

    assert deals(copy_) == deals(played)
    assert scores(copy_) == scores(played)
    assert [(row.rank, row.player.key, row.score) for row in standings(copy_)] == [
        (row.rank, row.player.key, row.score) for row in standings(played)
    ]
    assert copy_.rule_settings == played.rule_settings


@pytest.mark.parametrize("played", [MCR, JT, WA], indirect=True)
def test_an_export_of_every_preset_validates_against_the_json_schema(played):
    Draft202012Validator(json_schema()).validate(export_tournament(played))


# --- Version 1, and what a version-2 document may leave out -----------------------------------


def version_1():
    """An MCR table of version 1: a win on a discard, a draw, a self-drawn win."""
    return {
        "format": "mcr-tournament-archive",
        "version": 1,
        "tournament": {"name": "Club Night", "slug": "club-night"},
        "players": [{"key": key, "name": f"Player {key}"} for key in "ABCD"],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    {
                        "number": 1,
                        "seats": {"E": "A", "S": "B", "W": "C", "N": "D"},
                        "hands": [
                            {
                                "number": 1,
                                "result": "win",
                                "winner": "A",
                                "discarder": "B",
                                "fan": 8,
                            },
                            {"number": 2, "result": "draw"},
                            {"number": 3, "result": "win", "winner": "C", "fan": 10, "flowers": 2},
                        ],  # fmt: skip
                    }
                ],
            }
        ],
    }


def test_a_version_1_archive_imports_and_exports_as_version_5(organiser):
    tournament = import_tournament(version_1(), actor=organiser)
    document = export_tournament(tournament)

    assert document["version"] == 5
    assert document["referee_accounts"] == []
    assert document["tournament"]["rule_settings"] == {}
    deals = deals_of(document)
    assert [(d["prevailing_wind"], d["dealer"], d["extra_hands"]) for d in deals] == [
        ("E", "A", 0), ("E", "B", 0), ("E", "C", 0),
    ]  # fmt: skip
    assert [d["payments"] for d in deals] == [
        {"E": 32, "S": -16, "W": -8, "N": -8},
        {"E": 0, "S": 0, "W": 0, "N": 0},
        {"E": -20, "S": -20, "W": 60, "N": -20},
    ]
    assert import_tournament(document, actor=organiser, replace=True)


def jt_document():
    """A JT table of version 2 that gives only the facts: places and payments are worked out."""
    return {
        "format": "mcr-tournament-archive",
        "version": 2,
        "tournament": {
            "name": "Riichi Night",
            "slug": "riichi-night",
            "preset": JT,
            "seat_rotation": "none",
            "rule_settings": {"wind_rounds": 1},
        },
        "players": [{"key": key, "name": f"Player {key}"} for key in "ABCD"],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    {
                        "number": 1,
                        "seats": {"E": "A", "S": "B", "W": "C", "N": "D"},
                        "hands": [
                            {"number": 1, "result": "win", "winner": "A", "value": 60},
                            {"number": 2, "result": "draw", "ready": ["B"]},
                        ],
                    }
                ],
            }
        ],
    }


def test_a_version_2_deal_may_leave_its_place_and_payments_to_the_import(organiser):
    tournament = import_tournament(jt_document(), actor=organiser)

    deals = deals_of(export_tournament(tournament))
    assert [(d["dealer"], d["extra_hands"]) for d in deals] == [("A", 0), ("A", 1)]
    assert deals[0]["payments"] == {"E": 360, "S": -120, "W": -120, "N": -120}
    assert deals[1]["payments"] == {"E": -200, "S": 600, "W": -200, "N": -200}
    assert tournament.rule_settings == {"wind_rounds": 1}


# --- A wrong deal is refused whole, with its place -----------------------------------------------


def deal_change(table, number, **fields):
    def change(document):
        deals_of(document, table)[number - 1].update(fields)

    return change


def payments(table, number, **amounts):
    def change(document):
        deals_of(document, table)[number - 1]["payments"].update(amounts)

    return change


def paid_more(table, number, **amounts):
    def change(document):
        paid = deals_of(document, table)[number - 1]["payments"]
        for wind, more in amounts.items():
            paid[wind] += more

    return change


def further_value(value):
    def change(document):
        deals_of(document)[0]["extra_winners"][0]["value"] = value

    return change


def penalty_in(table, number, **penalty):
    """A penalty added to deal `number` of `table` (None: to the whole game)."""

    def change(document):
        if number is None:
            document["rounds"][0]["tables"][table - 1].setdefault("penalties", []).append(penalty)
        else:
            deals_of(document, table)[number - 1].setdefault("penalties", []).append(penalty)

    return change


REFUSALS: list[tuple[str, str, Callable[[dict[str, Any]], None], str]] = [
    (
        "a JT false win (a faulty out ends the deal)",
        JT,
        penalty_in(1, 1, player="2", points=2250, distributed=True, kind="false_win"),
        "round 1, table 1, deal 1, penalty 1: Under this tournament's rules a declared win that "
        "is not one is a faulty out, which ends the deal",
    ),
    (
        "a JT deduction beyond its scale",
        JT,
        penalty_in(1, None, player="2", points=1505, distributed=False, reason="Late"),
        "round 1, table 1, game penalty 1: A deduction is 5 to 1,500 points, a multiple of 5.",
    ),
    (
        "a WA deduction beyond its scale",
        WA,
        penalty_in(1, None, player="2", points=65, distributed=False, reason="Late"),
        "round 1, table 1, game penalty 1: A deduction is 5 to 60 points.",
    ),
    (
        "payments that do not add up",
        JT,
        paid_more(1, 5, E=1),
        "round 1, table 1, deal 5: the payments add up to +1, not 0",
    ),
    (
        "payments other than the settlement's",
        JT,
        payments(1, 1, S=-100, N=-360),
        "round 1, table 1, deal 1: under this tournament's rules the deal pays "
        "E +460, S -360, W 0, N -100, not E +460, S -100, W 0, N -360.",
    ),
    (
        "a ready pool paid to the wrong player",
        JT,
        payments(2, 1, E=-200, S=600, W=-200, N=-200),
        "round 1, table 2, deal 1: under this tournament's rules the deal pays "
        "E 0, S 0, W 0, N 0, not E -200, S +600, W -200, N -200.",
    ),
    (
        "a WA deal paid without its further winner",
        WA,
        payments(1, 1, S=121, N=0),
        "round 1, table 1, deal 1: under this tournament's rules the deal pays "
        "E 0, S +68, W -121, N +53, not E 0, S +121, W -121, N 0.",
    ),
    (
        "a JT value not a multiple of 10",
        JT,
        deal_change(1, 5, value=105),
        "round 1, table 1, deal 5: Player 4's hand cannot be worth 105",
    ),
    (
        "a JT value below 20",
        JT,
        deal_change(2, 3, value=10),
        "round 1, table 2, deal 3: Player 7's hand cannot be worth 10",
    ),
    (
        "a JT value above the limit",
        JT,
        deal_change(1, 7, value=1510),
        "round 1, table 1, deal 7: Player 4's hand cannot be worth 1510",
    ),
    (
        "a WA value above the limit",
        WA,
        deal_change(1, 4, value=610),
        "round 1, table 1, deal 4: Player 4's hand cannot be worth 610",
    ),
    (
        "a WA win below 15",
        WA,
        deal_change(1, 8, value=9),
        "round 1, table 1, deal 8: A win needs at least 15 points; Player 1's 9 is a faulty out.",
    ),
    (
        "a WA further winner above the limit",
        WA,
        further_value(601),
        "round 1, table 1, deal 1: Player 4's hand cannot be worth 601",
    ),
    (
        "an extra-hand number the deals before do not give",
        JT,
        deal_change(1, 2, extra_hands=0),
        "round 1, table 1, deal 2: after the deals before it the dealer's extra-hand number is "
        "1, not 0.",
    ),
    (
        "an extra hand after a draw that passed the deal",
        JT,
        deal_change(2, 2, extra_hands=1),
        "round 1, table 2, deal 2: after the deals before it the dealer's extra-hand number is "
        "0, not 1.",
    ),
    (
        "a dealer the deals before do not give",
        WA,
        deal_change(1, 3, dealer="3"),
        "round 1, table 1, deal 3: after the deals before it the dealer is '2', not '3'.",
    ),
    (
        "a prevailing wind the deals before do not give",
        JT,
        deal_change(1, 6, prevailing_wind="S"),
        "round 1, table 1, deal 6: after the deals before it the prevailing wind is E, not S.",
    ),
    (
        "a further winner not among the players",
        WA,
        deal_change(1, 1, extra_winners=[{"winner": "Q", "value": 35}]),
        "round 1, table 1, deal 1: the further winner, 'Q', is not in the players.",
    ),
    (
        "payments with an unknown key",
        JT,
        payments(1, 1, X=0),
        'round 1, table 1, deal 1, payments: the key "X" is not known here',
    ),
    (
        "payments with a seat in lower case",
        WA,
        payments(1, 2, e=0),
        'round 1, table 1, deal 2, payments: the key "e" is not known here',
    ),
    (
        "a JT game penalty without a reason",
        JT,
        penalty_in(1, None, player="2", points=100, distributed=False),
        "round 1, table 1, game penalty 1: Give the reason for the penalty.",
    ),
    (
        "a WA deal's penalty with a blank reason",
        WA,
        penalty_in(1, 2, player="2", points=10, distributed=True, reason="  "),
        "round 1, table 1, deal 2, penalty 1: Give the reason for the penalty.",
    ),
    (
        "an MCR penalty without a reason",
        MCR,
        penalty_in(1, None, player="2", points=10, distributed=False, reason=None),
        "round 1, table 1, game penalty 1: Give the reason for the penalty.",
    ),
    (
        "riichi by a player not among the players",
        JT,
        deal_change(1, 1, riichi=["Q"]),
        "round 1, table 1, deal 1: the riichi, 'Q', is not in the players.",
    ),
]


@pytest.mark.parametrize(
    ("played", "change", "message"),
    [case[1:] for case in REFUSALS],
    ids=[case[0] for case in REFUSALS],
    indirect=["played"],
)
def test_a_wrong_deal_is_refused_whole_with_its_place(played, organiser, change, message):
    document = copy.deepcopy(export_tournament(played))
    change(document)
    before = counts()

    with pytest.raises(ArchiveError) as error:
        import_tournament(document, actor=organiser, slug="copy")

    assert error.value.messages[0].startswith(message)
    assert counts() == before
