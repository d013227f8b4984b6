"""The archive import's two paths: each game built in memory and written in bulk (the default),
and hand by hand through the services (`bulk=False`). They build the same tournament from the
same archive (hands, payments, penalties, scores, standings, audit, export), refuse the same
archives with the same message, and the bulk path writes a game in a fixed number of queries,
however many hands it has."""

from __future__ import annotations

import json
import random
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tests.tournament.test_archive_mutations import DEMO_ARCHIVE, counts, mutate
from tournament.archive import ArchiveError, export_tournament, import_tournament
from tournament.models import AuditEntry, Tournament
from tournament.reads.selectors import standings

pytestmark = pytest.mark.django_db


def both_ways(archive: dict[str, Any], actor, **options) -> tuple[Tournament, Tournament]:
    bulk = import_tournament(archive, actor=actor, slug="bulk", **options)
    services = import_tournament(archive, actor=actor, slug="services", bulk=False, **options)
    return bulk, services


def hands_of(tournament: Tournament) -> list[tuple[Any, ...]]:
    """Every deal with all it records: place, facts, value, payments, who entered it, when."""
    rows = []
    for round in tournament.rounds.order_by("number"):
        for table in round.tables.order_by("number"):
            for hand in table.deals.order_by("number").select_related(
                "winner__player", "discarder__player", "offender__player"
            ):
                rows.append(
                    (
                        round.number,
                        table.number,
                        hand.number,
                        hand.result,
                        hand.winner.player.key if hand.winner else None,
                        hand.discarder.player.key if hand.discarder else None,
                        hand.offender.player.key if hand.offender else None,
                        hand.fan,
                        hand.flowers,
                        hand.value,
                        hand.tiles,
                        hand.prevailing_wind,
                        hand.dealer,
                        hand.extra_hands,
                        hand.riichi,
                        hand.faulty_claims,
                        hand.ready,
                        hand.faulty_riichi,
                        hand.payments,
                        hand.entered_by_id,
                        hand.entered_at,
                        [
                            (win.winner.player.key, win.value, win.tiles)
                            for win in hand.extra_wins.order_by("pk").select_related(
                                "winner__player"
                            )
                        ],
                    )
                )
    return rows


def penalties_and_seats_of(tournament: Tournament) -> list[tuple[Any, ...]]:
    rows: list[tuple[Any, ...]] = []
    for round in tournament.rounds.order_by("number"):
        for table in round.tables.order_by("number"):
            rows.append(
                (
                    round.number,
                    table.number,
                    [
                        (seat.player.key, seat.score)
                        for seat in sorted(table.seats.all(), key=lambda seat: seat.index)
                    ],
                )
            )
            rows += [
                (
                    penalty.seat.player.key,
                    penalty.kind,
                    penalty.points,
                    penalty.distributed,
                    penalty.reason,
                    penalty.deal_number,
                    penalty.entered_by_id,
                    penalty.entered_at,
                )
                for penalty in table.penalties.order_by("pk").select_related("seat__player")
            ]
    return rows


def standings_of(tournament: Tournament) -> list[tuple[Any, ...]]:
    return [
        (row.rank, row.player.key, row.table_points, row.score, row.game_scores)
        for row in standings(tournament)
    ]


def audit_of(tournament: Tournament) -> list[tuple[Any, ...]]:
    """The audit in order, without the moment of the import and the slug the tournament was
    created at (which differ between the two)."""
    rows = []
    for entry in AuditEntry.objects.filter(tournament=tournament).order_by("pk"):
        after = dict(entry.after or {})
        after.pop("entered_at", None)
        if entry.action == AuditEntry.Action.TOURNAMENT_CREATED:
            after.pop("slug", None)
        rows.append((entry.table.number if entry.table else None, entry.action, after))
    return rows


def exported(tournament: Tournament) -> dict[str, Any]:
    document = export_tournament(tournament)
    document["tournament"].pop("slug")
    return document


def assert_same(bulk: Tournament, services: Tournament) -> None:
    assert hands_of(bulk) == hands_of(services)
    assert penalties_and_seats_of(bulk) == penalties_and_seats_of(services)
    assert standings_of(bulk) == standings_of(services)
    assert audit_of(bulk) == audit_of(services)
    assert exported(bulk) == exported(services)


@pytest.mark.parametrize("slug", ["demo-open", "demo-jt", "demo-wa"])
def test_both_paths_import_every_demo_tournament_alike(db, slug):
    call_command("load_demo", stdout=StringIO())
    archive = export_tournament(Tournament.objects.get(slug=slug))
    actor = get_user_model().objects.get(username=archive["tournament"]["organisers"][0])

    bulk, services = both_ways(archive, actor)

    assert hands_of(bulk), "the demo has hands"
    assert_same(bulk, services)
    # And both are the tournament the archive describes.
    assert exported(bulk) == {**archive, "tournament": exported(bulk)["tournament"]}


def test_both_paths_import_the_demo_archive_file_alike(organiser):
    archive = json.loads(DEMO_ARCHIVE.read_text(encoding="utf-8"))

    bulk, services = both_ways(archive, organiser)

    assert_same(bulk, services)


def test_both_paths_refuse_the_same_mutated_archives_with_the_same_message(organiser):
    archive = json.loads(DEMO_ARCHIVE.read_text(encoding="utf-8"))
    archive["rounds"] = archive["rounds"][:1]
    for table in archive["rounds"][0]["tables"]:
        table["hands"] = table["hands"][:6]
        table["ended_by_time"] = True
    rng = random.Random(19)
    refused = 0
    for _ in range(30):
        try:
            mutated, said = mutate(archive, rng)
        except RecursionError:  # the generator copying a list it nested 10,000 deep
            continue
        outcomes = []
        for bulk in (True, False):
            before = counts()
            with transaction.atomic():
                try:
                    import_tournament(mutated, actor=organiser, bulk=bulk)
                except ArchiveError as error:
                    assert counts() == before, said
                    outcomes.append((error.code, error.messages))
                else:
                    outcomes.append(("imported", None))
                transaction.set_rollback(True)
        assert outcomes[0] == outcomes[1], said
        refused += outcomes[0][0] != "imported"
    assert refused > 10


def a_game(hands: int, tables: int = 2) -> dict[str, Any]:
    """One finished round of `tables` MCR games of `hands` hands, with false wins and a
    penalty."""
    keys = [str(number) for number in range(1, 4 * tables + 1)]
    records = []
    for t in range(tables):
        seated = keys[4 * t : 4 * t + 4]
        records.append(
            {
                "number": t + 1,
                "seats": dict(zip("ESWN", seated, strict=True)),
                "hands": [
                    {
                        "number": number,
                        "result": "win",
                        "winner": seated[number % 4],
                        "discarder": None if number % 3 == 0 else seated[(number + 1) % 4],
                        "fan": 8 + number % 4,
                        "entered_at": f"2025-05-01T10:{number:02d}:00+00:00",
                        "penalties": [
                            {
                                "player": seated[(number + 2) % 4],
                                "kind": "false_win",
                                "points": 30,
                                "distributed": True,
                                "entered_at": f"2025-05-01T10:{number:02d}:30+00:00",
                            }
                        ]
                        if number % 5 == 0
                        else [],
                    }
                    for number in range(1, hands + 1)
                ],
                "penalties": [
                    {
                        "player": seated[0],
                        "points": 10,
                        "distributed": False,
                        "reason": "Late",
                        "entered_at": "2025-05-01T09:00:00+00:00",
                    }
                ],
                "ended_by_time": hands < 16,
                "ended_at": "2025-05-01T12:00:00+00:00",
                "confirmed_at": "2025-05-01T12:05:00+00:00",
            }
        )
    return {
        "format": "mcr-tournament-archive",
        "version": 2,
        "tournament": {"name": "Queries", "slug": "queries"},
        "players": [{"key": key, "name": f"Player {key}"} for key in keys],
        "rounds": [{"number": 1, "status": "finished", "tables": records}],
    }


HAND_INSERT = 'INSERT INTO "tournament_hand"'


def queries_to_import(archive: dict[str, Any], actor) -> int:
    """The statements the import runs, not counting the inserts of hands: those are one bulk
    insert, which Django splits into statements of a few dozen rows each (asserted here)."""
    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            import_tournament(archive, actor=actor)
        transaction.set_rollback(True)
    statements = [query["sql"] for query in queries.captured_queries]
    hand_inserts = sum(sql.startswith(HAND_INSERT) for sql in statements)
    hands = sum(len(table["hands"]) for round in archive["rounds"] for table in round["tables"])
    assert hand_inserts <= -(-hands // 30)  # at least 30 hands a statement
    return len(statements) - hand_inserts


def test_a_bulk_import_takes_as_many_queries_for_a_long_game_as_for_a_short_one(organiser):
    short, long = queries_to_import(a_game(4), organiser), queries_to_import(a_game(16), organiser)
    assert long == short

    # And a table more costs a fixed number of queries.
    three, four = (queries_to_import(a_game(16, tables), organiser) for tables in (3, 4))
    assert four - three == three - long


def test_the_game_with_false_wins_and_penalties_comes_out_alike_both_ways(organiser):
    bulk, services = both_ways(a_game(16, tables=3), organiser)

    assert_same(bulk, services)
    assert (
        AuditEntry.objects.filter(
            tournament=bulk, action=AuditEntry.Action.PENALTY_RECORDED
        ).count()
        == 3 * 4
    )
