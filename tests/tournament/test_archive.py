"""The tournament archive: export, import through the services, and the round trip."""

from __future__ import annotations

import copy
import datetime as dt
import json
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from jsonschema import Draft202012Validator

from tournament.archive import ArchiveError, export_tournament, import_tournament, json_schema
from tournament.models import AuditEntry, Deal, Penalty, Player, Round, Seat, Table, Tournament
from tournament.reads.selectors import standings
from tournament.services import (
    DealInput,
    assign_referees,
    confirm_game,
    create_round,
    end_game,
    record_deal,
    record_false_win,
    record_penalty,
    set_round_status,
    set_seating,
    update_player,
)

pytestmark = pytest.mark.django_db

# 27 fan + 1 flower when won on a discard (Full Flush, Pure Shifted Chows, ...).
PURE_DOTS = {
    "concealed": ["2p", "2p", "4p", "5p", "6p", "6p", "7p", "8p", "8p", "8p", "9p", "9p", "9p"],
    "melds": [],
    "win_tile": "2p",
    "flowers": 1,
}
# Dragon Pung, Concealed Hand, Two Concealed Pungs, Pair Wait: 7 fan, a false win.
SEVEN_FAN = {
    "concealed": ["1m", "2m", "3m", "5p", "5p", "5p", "7s", "8s", "9s", "C", "C", "C", "4s"],
    "melds": [],
    "win_tile": "4s",
}


def counts() -> dict[str, int]:
    models = (Tournament, Player, Round, Table, Seat, Deal, Penalty, AuditEntry, get_user_model())
    return {model.__name__: model.objects.count() for model in models}


# --- A tournament played through the services ------------------------------------------------


def play_game(table, user, winners, first=1):
    """Record hands from `first` on: each item is (winner, discarder or None, fan, flowers)."""
    for number, (winner, discarder, fan, flowers) in enumerate(winners, start=first):
        record_deal(
            table=table,
            number=number,
            deal=DealInput(
                result="win", winner=winner, discarder=discarder, fan=fan, flowers=flowers
            ),
            entered_by=user,
        )


@pytest.fixture
def played(tournament, organiser, referee, players):
    """Round 1 finished (a full game, a game ended by time, both sheets confirmed), round 2 in
    play (table 1 ended by time, its sheet awaiting confirmation), round 3 a draft.

    Players 1..8; player 8 is a substitute, player 7 withdraws from round 3 on.
    """
    Tournament.objects.filter(pk=tournament.pk).update(
        venue="Town Hall",
        start_date=dt.date(2025, 5, 3),
        end_date=dt.date(2025, 5, 4),
        seat_rotation="half",
        tie_breaks=["game_scores"],
    )
    tournament.refresh_from_db()
    p1, p2, p3, p4, p5, p6, p7, p8 = players
    update_player(player=p3, country="Netherlands", club="Utrecht", team="Orange")
    update_player(player=p2, ema_number="04120001")
    update_player(player=p8, substitute=True)
    update_player(player=p7, withdrawn_from_round=3)

    round1 = create_round(tournament=tournament, actor=organiser)
    table1, table2 = set_seating(
        round=round1, tables=[[p1, p2, p3, p4], [p5, p6, p7, p8]], actor=organiser
    )
    assign_referees(table=table1, referees=[referee], actor=organiser)
    set_round_status(round=round1, status="seated", actor=organiser)
    set_round_status(round=round1, status="playing", actor=organiser)
    record_deal(
        table=table1,
        number=1,
        deal=DealInput(result="win", winner=p1, discarder=p2, tiles=PURE_DOTS),
        entered_by=referee,
    )
    record_deal(table=table1, number=2, deal=DealInput(result="draw"), entered_by=referee)
    record_false_win(table=table1, number=3, offender=p2, invalid_hand=False, entered_by=referee)
    record_penalty(
        table=table1,
        player=p4,
        points=10,
        distributed=False,
        reason="Slow play",
        deal_number=4,
        entered_by=referee,
    )
    play_game(
        table1,
        referee,
        [(p3, None, 8, 0)]
        + [((p1, p2, p3, p4)[n % 4], (p2, None)[n % 2], 8 + n, n % 3) for n in range(13)],
        first=3,
    )
    play_game(table2, organiser, [(p5, None, 9, 1), (p6, p5, 8, 0), (p7, None, 10, 0)])
    record_penalty(
        table=table2,
        player=p6,
        points=30,
        distributed=True,
        reason="Showed tiles",
        entered_by=organiser,
    )
    end_game(table=table1, ended_by_time=False, entered_by=referee)
    end_game(table=table2, ended_by_time=True, entered_by=organiser)
    confirm_game(table=table1, confirmed_by=organiser)
    confirm_game(table=table2, confirmed_by=organiser)
    set_round_status(round=round1, status="finished", actor=organiser)

    round2 = create_round(tournament=tournament, actor=organiser)
    table1, table2 = set_seating(
        round=round2, tables=[[p1, p5, p2, p6], [p3, p7, p4, p8]], actor=organiser
    )
    set_round_status(round=round2, status="seated", actor=organiser)
    set_round_status(round=round2, status="playing", actor=organiser)
    play_game(table1, organiser, [(p1, p5, 12, 0), (p6, None, 8, 2), (p2, p1, 16, 1)])
    record_false_win(table=table1, number=4, offender=p5, invalid_hand=True, entered_by=organiser)
    end_game(table=table1, ended_by_time=True, entered_by=organiser)
    play_game(table2, organiser, [(p3, p4, 10, 0), (p7, None, 8, 0)])

    create_round(tournament=tournament, actor=organiser)
    return tournament


def without_slug(document):
    document = copy.deepcopy(document)
    document["tournament"].pop("slug")
    return document


# --- Export -----------------------------------------------------------------------------------


def test_export_writes_the_archive_header_and_tournament(played, organiser):
    document = export_tournament(played)

    assert document["format"] == "mcr-tournament-archive"
    assert document["version"] == 5
    assert document["tournament"] == {
        "name": "Spring Cup",
        "slug": "spring-cup",
        "preset": "mcr",
        "profile": "wmo-2006",
        "seat_rotation": "half",
        "table_points": [4, 2, 1, 0],
        "public": True,
        "start_date": "2025-05-03",
        "end_date": "2025-05-04",
        "venue": "Town Hall",
        "tie_breaks": ["game_scores"],
        "confirmation": "organiser",
        "round_minutes": 120,
        "organisers": ["alice"],
        "rule_settings": {},
        "registration": "off",
        "registration_opens": None,
        "registration_closes": None,
        "registration_cap": None,
        "check_in_open": False,
        "self_check_in": False,
        "check_in_closed_at": None,
        "standings_hidden_from": None,
        "standings_revealed_at": None,
        "team_best_of": None,
        "cut_after_round": None,
        "cut_size": None,
        "carry_over": "1",
        "final_seating": "rank",
        "consolation": True,
    }


def test_export_lists_players_with_their_details(played):
    players = export_tournament(played)["players"]

    assert [player["key"] for player in players] == ["1", "2", "3", "4", "5", "6", "7", "8"]
    assert players[2] == {
        "key": "3",
        "name": "Player 3",
        "family_name": "",
        "given_name": "",
        "country": "NL",
        "club": "Utrecht",
        "team": "Orange",
        "ema_id": "",
        "substitute": False,
        "withdrawn_from_round": None,
        "checked_in_at": None,
        "joins_from_round": None,
    }
    assert players[1]["ema_id"] == "04120001"
    assert players[6]["withdrawn_from_round"] == 3
    assert players[7]["substitute"] is True


def test_export_writes_rounds_tables_and_hands(played):
    rounds = export_tournament(played)["rounds"]

    assert [(r["number"], r["status"], len(r["tables"])) for r in rounds] == [
        (1, "finished", 2),
        (2, "playing", 2),
        (3, "draft", 0),
    ]
    table = rounds[0]["tables"][0]
    assert table["seats"] == {"E": "1", "S": "2", "W": "3", "N": "4"}
    assert table["referees"] == ["bob"]
    assert len(table["hands"]) == 16
    assert table["ended_by_time"] is False
    first = table["hands"][0]
    assert {key: first[key] for key in ("number", "result", "winner", "discarder", "fan")} == {
        "number": 1,
        "result": "win",
        "winner": "1",
        "discarder": "2",
        "fan": 27,
    }
    assert first["flowers"] == 1
    assert first["tiles"]["concealed"] == PURE_DOTS["concealed"]
    assert (first["tiles"]["seat_wind"], first["tiles"]["prevalent_wind"]) == ("E", "E")
    assert first["entered_by"] == "bob"
    draw = table["hands"][1]
    assert (draw["result"], draw["winner"], draw["fan"], draw["flowers"]) == ("draw", None, None, 0)
    assert "tiles" not in draw


def test_export_puts_hand_penalties_in_their_hand_with_their_kind(played):
    table = export_tournament(played)["rounds"][0]["tables"][0]

    false_win = table["hands"][2]["penalties"]
    assert [
        {k: p[k] for k in ("player", "points", "distributed", "reason", "kind")} for p in false_win
    ] == [
        {
            "player": "2",
            "points": 30,
            "distributed": True,
            "reason": "False win in hand 3",
            "kind": "false_win",
        }
    ]
    deduction = table["hands"][3]["penalties"][0]
    assert (deduction["player"], deduction["points"], deduction["distributed"]) == ("4", 10, False)
    assert deduction["kind"] == "deduction"
    assert table["penalties"] == []


def test_export_keeps_game_penalties_and_a_false_win_in_the_hand_in_play(played):
    rounds = export_tournament(played)["rounds"]

    game_penalty = rounds[0]["tables"][1]["penalties"][0]
    assert (game_penalty["player"], game_penalty["points"], game_penalty["kind"]) == (
        "6",
        30,
        "distributed",
    )
    assert "hand_number" not in game_penalty
    ended_early = rounds[1]["tables"][0]
    assert len(ended_early["hands"]) == 3
    assert ended_early["ended_by_time"] is True
    in_play = ended_early["penalties"][0]
    assert (in_play["player"], in_play["points"], in_play["kind"], in_play["hand_number"]) == (
        "5",
        60,
        "false_win_invalid",
        4,
    )
    assert rounds[1]["tables"][1]["ended_at"] is None


def test_export_writes_the_keys_in_the_formats_order(played):
    document = export_tournament(played)
    table = document["rounds"][0]["tables"][0]
    game_penalty = document["rounds"][1]["tables"][0]["penalties"][0]

    assert list(document) == [
        "format", "version", "tournament", "players", "rounds", "referee_accounts",
        "registrations",
    ]  # fmt: skip
    assert list(document["tournament"]) == [
        "name", "slug", "preset", "profile", "seat_rotation", "table_points", "public",
        "start_date", "end_date", "venue", "tie_breaks", "confirmation", "round_minutes",
        "organisers", "rule_settings", "registration", "registration_opens",
        "registration_closes", "registration_cap", "check_in_open", "self_check_in",
        "check_in_closed_at", "standings_hidden_from", "standings_revealed_at", "team_best_of",
        "cut_after_round", "cut_size", "carry_over", "final_seating", "consolation",
    ]  # fmt: skip
    assert list(document["players"][0]) == [
        "key", "name", "family_name", "given_name", "country", "club", "team", "ema_id",
        "substitute", "withdrawn_from_round", "checked_in_at", "joins_from_round",
    ]  # fmt: skip
    assert list(document["rounds"][0]) == ["number", "status", "tables"]
    assert list(table) == [
        "number", "seats", "referees", "hands", "penalties", "ended_by_time", "ended_at",
        "submitted_by", "confirmed_at", "confirmed_by", "extra_minutes",
    ]  # fmt: skip
    assert list(table["seats"]) == ["E", "S", "W", "N"]
    assert list(table["hands"][0]) == [
        "number", "prevailing_wind", "dealer", "extra_hands", "result", "winner", "discarder",
        "fan", "flowers", "value", "tiles", "extra_winners", "riichi", "faulty_claims", "ready",
        "faulty_riichi", "offender", "payments", "penalties", "entered_by", "entered_at",
    ]  # fmt: skip
    assert list(table["hands"][0]["payments"]) == ["E", "S", "W", "N"]
    assert list(table["hands"][2]["penalties"][0]) == [
        "player", "points", "distributed", "reason", "kind", "entered_by", "entered_at",
    ]  # fmt: skip
    assert list(game_penalty) == [
        "player", "points", "distributed", "reason", "kind", "hand_number", "entered_by",
        "entered_at",
    ]  # fmt: skip


def test_export_is_eleven_queries_however_many_hands(played, django_assert_num_queries):
    # organisers, players, rounds, then tables, seats, referees, hands, the hands' further
    # winners and penalties prefetched, the referee accounts and the registrations
    with django_assert_num_queries(11):
        export_tournament(played)


# --- Round trip -------------------------------------------------------------------------------


def test_round_trip_gives_the_same_document(played, organiser):
    first = export_tournament(played)

    copy_ = import_tournament(first, actor=organiser, slug="spring-cup-copy")
    second = export_tournament(copy_)

    assert second["tournament"]["slug"] == "spring-cup-copy"
    assert without_slug(second) == without_slug(first)


def test_round_trip_writes_the_same_text(played, organiser):
    """As `manage.py export_tournament` writes it: the same keys in the same order."""
    first = json.dumps(export_tournament(played), ensure_ascii=False, indent=2)

    copy_ = import_tournament(json.loads(first), actor=organiser, replace=True)
    second = json.dumps(export_tournament(copy_), ensure_ascii=False, indent=2)

    assert copy_.pk != played.pk
    assert second == first


def test_an_exported_archive_validates_against_the_json_schema(played):
    Draft202012Validator(json_schema()).validate(export_tournament(played))


def test_round_trip_keeps_scores_and_standings(played, organiser):
    copy_ = import_tournament(export_tournament(played), actor=organiser, slug="copy")

    def scores(tournament):
        return sorted(
            (seat.round.number, seat.table.number, seat.starting_wind, seat.score)
            for seat in Seat.objects.filter(round__tournament=tournament).select_related(
                "round", "table"
            )
        )

    assert scores(copy_) == scores(played)
    assert [
        (row.rank, row.player.key, row.table_points, row.score) for row in standings(copy_)
    ] == [(row.rank, row.player.key, row.table_points, row.score) for row in standings(played)]


def test_imported_false_wins_stay_false_wins(played, organiser):
    copy_ = import_tournament(export_tournament(played), actor=organiser, slug="copy")

    kinds = sorted(
        (p.table.round.number, p.deal_number or 0, p.kind, p.points)
        for p in Penalty.objects.filter(table__round__tournament=copy_).select_related(
            "table__round"
        )
    )
    assert kinds == [
        (1, 0, "distributed", 30),
        (1, 3, "false_win", 30),
        (1, 4, "deduction", 10),
        (2, 4, "false_win_invalid", 60),
    ]


def test_import_is_audited_under_the_actor(played, organiser, referee):
    copy_ = import_tournament(export_tournament(played), actor=organiser, slug="copy")

    actors = set(
        AuditEntry.objects.filter(tournament=copy_).values_list("actor__username", flat=True)
    )
    assert actors == {"alice"}
    hand = Deal.objects.get(
        table__round__tournament=copy_, table__round__number=1, table__number=1, number=1
    )
    assert hand.entered_by == referee


# --- Import from a document -------------------------------------------------------------------


def small_document():
    """One round, two tables; no status given, so it is inferred (in play)."""
    players = [
        {
            "key": key,
            "name": f"Player {key}",
            "country": "",
            "club": "",
            "team": "",
            "ema_id": "",
            "substitute": False,
        }
        for key in "ABCDEFGH"
    ]
    return {
        "format": "mcr-tournament-archive",
        "version": 1,
        "tournament": {
            "name": "Club Night",
            "slug": "club-night",
            "preset": "mcr",
            "profile": "wmo-2006",
            "seat_rotation": "wmo",
            "table_points": [4, 2, 1, 0],
            "public": True,
        },
        "players": players,
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
                                "flowers": 0,
                                "penalties": [],
                            },
                            {
                                "number": 2,
                                "result": "draw",
                                "winner": None,
                                "discarder": None,
                                "fan": None,
                                "flowers": 0,
                                "penalties": [],
                            },
                            {
                                "number": 3,
                                "result": "win",
                                "winner": "C",
                                "discarder": None,
                                "fan": 10,
                                "flowers": 2,
                                "penalties": [],
                            },
                        ],
                        "penalties": [],
                        "ended_by_time": False,
                    },
                    {
                        "number": 2,
                        "seats": {"E": "E", "S": "F", "W": "G", "N": "H"},
                        "hands": [
                            {
                                "number": 1,
                                "result": "win",
                                "winner": "G",
                                "discarder": "E",
                                "fan": 27,
                                "flowers": 1,
                                "tiles": copy.deepcopy(PURE_DOTS),
                                "penalties": [],
                            }
                        ],
                        "penalties": [],
                        "ended_by_time": False,
                    },
                ],
            }
        ],
    }


def game_scores(tournament, table_number):
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=table_number)
    return [seat.score for seat in sorted(table.seats.all(), key=lambda seat: seat.index)]


def test_hands_without_tiles_import_from_fan_and_flowers(organiser):
    tournament = import_tournament(small_document(), actor=organiser)

    # Hand 1: A wins 8 on B's discard: B pays 16, C and D 8. Hand 3: C self-draws 10 + 2: 20 each.
    assert game_scores(tournament, 1) == [32 - 20, -16 - 20, -8 + 60, -8 - 20]
    assert tournament.rounds.get().status == "playing"


def test_hands_with_tiles_are_scored_for_the_winners_seat(organiser):
    tournament = import_tournament(small_document(), actor=organiser)

    hand = Deal.objects.get(table__round__tournament=tournament, table__number=2)
    assert (hand.fan, hand.flowers) == (27, 1)
    assert (hand.tiles["seat_wind"], hand.tiles["prevalent_wind"]) == ("W", "E")
    # G wins 28 on E's discard: E pays 36, F and H 8 each.
    assert game_scores(tournament, 2) == [-36, -8, 52, -8]


def test_only_the_required_keys_are_needed(organiser):
    document = {
        "format": "mcr-tournament-archive",
        "version": 1,
        "tournament": {"name": "Bare", "slug": "bare"},
        "players": [{"key": key, "name": key} for key in "WXYZ"],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    {
                        "number": 1,
                        "seats": {"E": "W", "S": "X", "W": "Y", "N": "Z"},
                        "hands": [{"number": 1, "result": "win", "winner": "Z", "fan": 8}],
                    }
                ],
            },
        ],
    }

    tournament = import_tournament(document, actor=organiser)

    assert (tournament.seat_rotation, tournament.table_points, tournament.public) == (
        "wmo",
        [4, 2, 1, 0],
        False,
    )
    assert game_scores(tournament, 1) == [-16, -16, -16, 48]


def test_status_is_inferred_as_finished_when_every_game_ended(organiser):
    document = small_document()
    for table in document["rounds"][0]["tables"]:
        table["ended_by_time"] = True

    tournament = import_tournament(document, actor=organiser)

    assert tournament.rounds.get().status == "finished"
    assert Table.objects.filter(round__tournament=tournament, ended_by_time=True).count() == 2


def test_an_existing_slug_is_replaced_on_request(organiser, tournament, played):
    document = export_tournament(played)
    document["tournament"]["name"] = "Spring Cup (restored)"

    restored = import_tournament(document, actor=organiser, replace=True)

    assert Tournament.objects.get(slug="spring-cup") == restored
    assert restored.name == "Spring Cup (restored)"
    assert Tournament.objects.count() == 1
    assert without_slug(export_tournament(restored))["rounds"] == without_slug(document)["rounds"]


def test_a_failed_replace_keeps_the_old_tournament(organiser, played):
    document = export_tournament(played)
    document["rounds"][1]["tables"][1]["hands"][1]["fan"] = 6
    before = export_tournament(played)

    with pytest.raises(ArchiveError, match="round 2, table 2, hand 2: A win needs at least 8 fan"):
        import_tournament(document, actor=organiser, replace=True)

    assert export_tournament(Tournament.objects.get(slug="spring-cup")) == before


def test_the_importing_user_organises_when_no_organiser_exists_here(organiser):
    document = small_document()
    document["tournament"]["organisers"] = ["carol"]

    tournament = import_tournament(document, actor=organiser)

    assert list(tournament.organisers.values_list("username", flat=True)) == ["alice"]


def test_unknown_users_are_left_out_with_a_warning(organiser):
    document = small_document()
    document["tournament"]["organisers"] = ["alice", "carol"]
    document["rounds"][0]["tables"][0]["referees"] = ["dave"]
    document["rounds"][0]["tables"][0]["hands"][0]["entered_by"] = "erin"
    warnings: list[str] = []

    tournament = import_tournament(document, actor=organiser, warnings=warnings)

    assert list(tournament.organisers.values_list("username", flat=True)) == ["alice"]
    assert not Table.objects.get(round__tournament=tournament, number=1).referees.exists()
    assert (
        Deal.objects.get(table__round__tournament=tournament, table__number=1, number=1).entered_by
        == organiser
    )
    assert warnings == [
        "These users do not exist here: carol, dave, erin. Their roles are left out and their "
        "entries are attributed to alice."
    ]


# --- Failures: a message that says where, and nothing saved -----------------------------------


def hand(document, table, number):
    return document["rounds"][0]["tables"][table - 1]["hands"][number - 1]


def set_path(*path_and_value):
    *path, value = path_and_value

    def change(document):
        target = document
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return change


def drop(*path):
    def change(document):
        target = document
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]

    return change


def change_hand(table, position, **fields):
    def change(document):
        hand(document, table, position).update(fields)

    return change


def change_tiles(**fields):
    def change(document):
        hand(document, 2, 1)["tiles"].update(fields)

    return change


def add_penalty(table, number, **penalty):
    def change(document):
        if number is None:
            document["rounds"][0]["tables"][table - 1]["penalties"].append(penalty)
        else:
            hand(document, table, number)["penalties"].append(penalty)

    return change


def add_second_round(status):
    def change(document):
        document["rounds"][0]["status"] = "playing"
        document["rounds"].append(
            {
                "number": 2,
                "status": status,
                "tables": [
                    {"number": 1, "seats": {"E": "A", "S": "E", "W": "B", "N": "F"}},
                    {"number": 2, "seats": {"E": "C", "S": "G", "W": "D", "N": "H"}},
                ],
            }
        )

    return change


def duplicate_player(document):
    document["players"].append(dict(document["players"][0]))


FAILURES: list[tuple[str, Callable, str]] = [
    ("not an archive", set_path("format", "other"), 'This is not a tournament archive: "format"'),
    ("version", set_path("version", 6), "Archive version 6 cannot be read"),
    ("missing name", drop("tournament", "name"), 'tournament: the key "name" is missing.'),
    ("players not a list", set_path("players", "ABCD"), '"players" must be a list, not a string'),
    ("duplicate key", duplicate_player, "players: the key 'A' is used twice."),
    (
        "player without name",
        set_path("players", 0, "name", " "),
        "player 1 (key 'A'): name: Give the player's name.",
    ),
    (
        "bad seat rotation",
        set_path("tournament", "seat_rotation", "full"),
        "tournament: seat_rotation: Value 'full' is not a valid choice.",
    ),
    (
        "bad table points",
        set_path("tournament", "table_points", [4, 2, 1]),
        "tournament: table_points: Table points are four whole numbers",
    ),
    (
        "unknown seat",
        set_path("rounds", 0, "tables", 1, "seats", "N", "Z"),
        "round 1, table 2: the player at N, 'Z', is not in the players.",
    ),
    (
        "a seat that is not one",
        set_path("rounds", 0, "tables", 1, "seats", "East", "E"),
        'round 1, table 2, seats: the key "East" is not known here (the keys are E, S, W and N).',
    ),
    (
        "same player twice",
        set_path("rounds", 0, "tables", 1, "seats", "N", "E"),
        "round 1, table 2: a table seats four different players.",
    ),
    (
        "seated twice in a round",
        set_path("rounds", 0, "tables", 1, "seats", "N", "A"),
        "round 1: player 'A' is seated at table 1 and at table 2.",
    ),
    (
        "rounds out of order",
        set_path("rounds", 0, "number", 2),
        "round 2: rounds are numbered 1, 2, 3... in order; expected round 1 here.",
    ),
    (
        "unknown winner",
        change_hand(1, 3, winner="Z"),
        "round 1, table 1, hand 3: the winner, 'Z', is not in the players.",
    ),
    (
        "winner at another table",
        change_hand(1, 3, winner="E"),
        "round 1, table 1, hand 3: The winner, Player E, is not seated at this table.",
    ),
    (
        "fan not a number",
        change_hand(1, 1, fan="ten"),
        'round 1, table 1, hand 1: "fan" must be a whole number, not a string',
    ),
    (
        "win without fan",
        change_hand(1, 1, fan=None),
        'round 1, table 1, hand 1: "fan" must be a whole number, not null.',
    ),
    (
        "below 8 fan",
        change_hand(1, 3, fan=7),
        "round 1, table 1, hand 3: "
        "A win needs at least 8 fan, not counting flowers; 7 is a false win.",
    ),
    (
        "hands out of order",
        change_hand(1, 2, number=5),
        "round 1, table 1, hand 5: hands are numbered 1, 2, 3... in order; expected hand 2 here.",
    ),
    (
        "draw with a winner",
        change_hand(1, 2, winner="A"),
        "round 1, table 1, hand 2: A drawn hand has no winner",
    ),
    (
        "bad time",
        change_hand(1, 1, entered_at="yesterday"),
        'round 1, table 1, hand 1: "entered_at" must be a date and time',
    ),
    (
        "tiles score another fan",
        change_hand(2, 1, fan=24),
        "round 1, table 2, hand 1: recorded 24 fan, the tiles now score 27",
    ),
    (
        "tiles score other flowers",
        change_hand(2, 1, flowers=0),
        "round 1, table 2, hand 1: "
        "the tiles score 27 fan and 1 flowers, but the archive says 27 fan and 0 flowers.",
    ),
    (
        "tiles not a win",
        change_tiles(win_tile="3s"),
        "round 1, table 2, hand 1: These tiles do not make a winning hand",
    ),
    (
        "tiles below 8 fan",
        change_hand(2, 1, fan=7, flowers=0, tiles=SEVEN_FAN),
        "round 1, table 2, hand 1: "
        "These tiles are worth 7 fan without flowers: a false win, not a win.",
    ),
    (
        "tiles for another seat",
        change_tiles(seat_wind="E"),
        "round 1, table 2, hand 1: the tiles give seat_wind 'E', but in this deal it is 'W'.",
    ),
    (
        "tiles self-drawn on a discard",
        change_tiles(self_drawn=True),
        "round 1, table 2, hand 1: the tiles give self_drawn True, but in this deal it is False.",
    ),
    (
        "false win costs 30",
        add_penalty(1, 1, player="C", points=20, distributed=True, reason="Hu", kind="false_win"),
        "round 1, table 1, hand 1, penalty 1: "
        "under this tournament's rules this false win costs 30 points, not 20.",
    ),
    (
        "false win offender wins",
        add_penalty(1, 1, player="A", points=30, distributed=True, reason="Hu", kind="false_win"),
        "round 1, table 1, hand 1: Player A declared a false win in hand 1 and cannot win it.",
    ),
    (
        "deduction too big",
        add_penalty(1, None, player="A", points=70, distributed=False, reason="Late"),
        "round 1, table 1, game penalty 1: A deduction is 5 to 60 points.",
    ),
    (
        "distributed not in thirds",
        add_penalty(2, 1, player="F", points=10, distributed=True, reason="Exposed"),
        "round 1, table 2, hand 1, penalty 1: "
        "A distributed penalty is shared equally by three players",
    ),
    (
        "penalty of an unknown player",
        add_penalty(1, None, player="Q", points=10, distributed=False, reason="Late"),
        "round 1, table 1, game penalty 1: the player 'Q' is not in the players.",
    ),
    (
        "kind against distribution",
        add_penalty(
            1, None, player="A", points=10, distributed=True, reason="Late", kind="deduction"
        ),
        "round 1, table 1, game penalty 1: a deduction penalty cannot have distributed True.",
    ),
    (
        "results in a draft",
        set_path("rounds", 0, "status", "draft"),
        "round 1: the round is draft but has results recorded.",
    ),
    (
        "finished with games open",
        set_path("rounds", 0, "status", "finished"),
        "round 1, table 1: "
        "Only 3 of 16 hands are entered; end the game early only when time is called.",
    ),
    ("two rounds in play", add_second_round("playing"), "round 2: Round 1 is not finished yet."),
]


@pytest.mark.parametrize(
    ("change", "message"), [case[1:] for case in FAILURES], ids=[case[0] for case in FAILURES]
)
def test_a_bad_document_names_the_place_and_saves_nothing(organiser, change, message):
    document = small_document()
    change(document)
    before = counts()
    with pytest.raises(ValidationError) as error:
        import_tournament(document, actor=organiser)

    assert message in error.value.messages[0]
    assert counts() == before


def test_ended_by_time_needs_an_end(organiser):
    document = small_document()
    document["rounds"][0]["tables"][0].update(ended_by_time=True, ended_at=None)

    with pytest.raises(
        ArchiveError, match="round 1, table 1: ended_by_time is true but the game has no end."
    ):
        import_tournament(document, actor=organiser)


def test_ended_by_time_cannot_follow_sixteen_hands(organiser):
    document = small_document()
    table = document["rounds"][0]["tables"][0]
    table["hands"] += [
        {"number": n, "result": "win", "winner": "D", "fan": 8} for n in range(4, 17)
    ]
    table["ended_by_time"] = True

    with pytest.raises(
        ArchiveError, match="round 1, table 1: ended_by_time is true but all 16 hands were played."
    ):
        import_tournament(document, actor=organiser)


@pytest.mark.parametrize("points", [[10**30, 2, 1, 0], [4, 2, 1, -1001]])
def test_table_points_out_of_range_are_refused_and_nothing_saved(organiser, points):
    document = small_document()
    document["tournament"]["table_points"] = points
    before = counts()

    with pytest.raises(ArchiveError, match="from -1000 to 1000"):
        import_tournament(document, actor=organiser)

    assert counts() == before


def test_a_player_key_outside_its_alphabet_is_refused_and_nothing_saved(organiser):
    document = small_document()
    document["players"].append({**document["players"][0], "key": "A/1", "name": "Odd Key"})
    before = counts()

    refused = r"player 9 \(key 'A/1'\): key: The key 'A/1' cannot be used"
    with pytest.raises(ArchiveError, match=refused):
        import_tournament(document, actor=organiser)

    assert counts() == before


def test_an_existing_slug_is_refused_and_nothing_saved(organiser):
    Tournament.objects.create(name="Club Night 2024", slug="club-night")
    before = counts()

    with pytest.raises(ArchiveError) as error:
        import_tournament(small_document(), actor=organiser)

    assert error.value.code == "slug_taken"
    assert "a tournament with the slug 'club-night' exists already" in error.value.messages[0]
    assert counts() == before
    assert Tournament.objects.get(slug="club-night").name == "Club Night 2024"


def test_a_late_failure_undoes_every_earlier_round(played, organiser):
    document = export_tournament(played)
    document["rounds"][1]["tables"][0]["hands"][2]["winner"] = "4"  # not at that table
    before = counts()

    with pytest.raises(
        ArchiveError, match="round 2, table 1, hand 3: The winner, Player 4, is not seated"
    ):
        import_tournament(document, actor=organiser, slug="copy")

    assert counts() == before


def test_the_document_must_be_an_object(organiser):
    with pytest.raises(ArchiveError, match="The archive must be a JSON object, not a list."):
        import_tournament([], actor=organiser)


def test_table_numbers_with_gaps_are_kept(organiser):
    document = small_document()
    document["rounds"][0]["tables"][0]["number"] = 3
    document["rounds"][0]["tables"][1]["number"] = 7

    tournament = import_tournament(document, actor=organiser)

    tables = Table.objects.filter(round__tournament=tournament)
    assert sorted(tables.values_list("number", flat=True)) == [3, 7]
    assert tables.get(number=3).deals.count() == 3


def test_a_withdrawn_player_cannot_be_seated(organiser):
    document = small_document()
    document["players"][7]["withdrawn_from_round"] = 1
    before = counts()

    with pytest.raises(ArchiveError, match="round 1: Player H has withdrawn from round 1 on."):
        import_tournament(document, actor=organiser)

    assert counts() == before


def test_a_seated_round_needs_everyone_seated(organiser):
    document = small_document()
    document["rounds"].append(
        {
            "number": 2,
            "status": "seated",
            "tables": [{"number": 1, "seats": {"E": "A", "S": "E", "W": "B", "N": "F"}}],
        }
    )

    with pytest.raises(ArchiveError, match="round 2: Not everyone is seated in round 2: Player C"):
        import_tournament(document, actor=organiser)


def test_names_in_parts_and_countries_survive_export_and_import(played, organiser):
    wang = played.players.get(key="1")
    update_player(player=wang, name="王小明", family_name="王", given_name="小明", country="CN")
    document = export_tournament(played)

    copy = import_tournament(document, actor=organiser, slug="copy-of-parts")

    again = copy.players.get(key="1")
    assert (again.name, again.family_name, again.given_name, again.country) == (
        "王小明", "王", "小明", "CN",
    )  # fmt: skip


def test_an_archive_from_before_names_in_parts_and_country_codes_imports(organiser):
    """Written before players had family and given names and ISO country codes: a country's
    name is read as its code, and the names are split for the EMA file when it is written."""
    document = small_document()
    document["players"][0].update(name="Berg, Anna", country="Sweden")
    document["players"][1].update(country="swe")

    tournament = import_tournament(document, actor=organiser, slug="older-archive")

    anna, second = tournament.players.filter(key__in=["A", "B"]).order_by("key")
    assert (anna.name, anna.family_name, anna.country) == ("Berg, Anna", "", "SE")
    assert second.country == "SE"


def test_an_archive_with_a_country_that_is_none_is_refused_by_place(organiser):
    document = small_document()
    document["players"][2]["country"] = "Atlantis"

    with pytest.raises(ArchiveError) as error:
        import_tournament(document, actor=organiser, slug="atlantis")

    assert "player 3 (key 'C'): country: Atlantis is not a country code" in str(error.value)
    assert not Tournament.objects.filter(slug="atlantis").exists()
