"""The final stage under each rule preset, and in the archive (version 5)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from preset_world import PRESETS, build

from tournament.archive import export_tournament, import_tournament
from tournament.models import Cut, Round, Table
from tournament.reads import stages
from tournament.reads.selectors import standings
from tournament.services import (
    DealInput,
    confirm_game,
    create_round,
    end_game,
    record_deal,
    set_round_status,
)
from tournament.services.stages import confirm_cut, seat_stage_round
from tournament.services.tournaments import update_tournament


def _finish(round: Round, organiser) -> None:
    """End every open game of `round` by time (a draw first where nothing is entered),
    confirm the sheets and finish the round."""
    for table in round.tables.all():
        if table.ended_at is None:
            if not table.deals.exists():
                record_deal(
                    table=table, number=1, deal=DealInput(result="draw"), entered_by=organiser
                )
            end_game(table=table, ended_by_time=True, entered_by=organiser)
        table.refresh_from_db()
        if table.confirmed_at is None:
            confirm_game(table=table, confirmed_by=organiser)
    set_round_status(round=round, status=Round.Status.FINISHED, actor=organiser)


def staged(key: str):
    """The preset world with round 2 finished, a cut to four after it carrying half, the cut
    confirmed, and round 3 (final and consolation tables) played and finished."""
    world = build(key)
    tournament, organiser = world.tournament, world.organiser
    _finish(tournament.rounds.get(number=2), organiser)
    update_tournament(
        tournament=tournament, cut_after_round=2, cut_size=4, carry_over="0.5", consolation=True
    )
    Table.objects.filter(round__number=1, number=1).update(extra_minutes=7)
    tournament.refresh_from_db()
    tournament.planned_rounds = 3
    tournament.save()
    preview = stages.cut_preview(tournament)
    confirm_cut(tournament=tournament, actor=organiser)
    third = create_round(tournament=tournament, actor=organiser)
    seat_stage_round(round=third, actor=organiser)
    set_round_status(round=third, status=Round.Status.SEATED, actor=organiser)
    set_round_status(round=third, status=Round.Status.PLAYING, actor=organiser)
    _finish(third, organiser)
    return world, preview


@pytest.mark.parametrize("key", PRESETS)
def test_final_stage_under_each_preset(db, key):
    world, preview = staged(key)
    tournament = world.tournament
    assert tournament.carry_over == "1/2"
    third = tournament.rounds.get(number=3)
    final_table = third.tables.get(number=1)
    finalists = [row.standing.player.key for row in preview.qualified]
    assert [seat.player.key for seat in final_table.seats_in_order] == finalists
    rows = standings(tournament)
    assert {row.player.key for row in rows[:4]} == set(finalists)
    assert [row.rank for row in rows[:4]] == [1, 2, 3, 4]
    for row in rows[:4]:
        before = next(r for r in preview.qualified if r.standing.player.pk == row.player.pk)
        assert row.carried_table_points == before.standing.table_points * Fraction(1, 2)
        assert row.carried_score == Fraction(before.standing.score, 2)
        final_games = standings(tournament, stage="final")
        own = next(r for r in final_games if r.player.pk == row.player.pk)
        assert own.table_points == row.table_points
    others = [row for row in rows[4:] if row.rank is not None]
    assert [row.rank for row in others] == list(range(5, 5 + len(others)))
    assert all(row.stage == "consolation" for row in others)


@pytest.mark.parametrize("key", PRESETS)
def test_archive_round_trip_keeps_the_stage_and_new_fields(db, key):
    world, _ = staged(key)
    tournament = world.tournament
    tournament.standings_hidden_from = 3
    tournament.team_best_of = 2
    tournament.save()
    document = export_tournament(tournament)
    assert document["version"] == 5
    assert document["cut"]["carry_over"] == "1/2"
    assert len(document["cut"]["finalists"]) == 4
    copy = import_tournament(json.loads(json.dumps(document)), actor=world.organiser, slug="copy")
    assert (copy.cut_after_round, copy.cut_size, copy.carry_over) == (2, 4, "1/2")
    assert (copy.standings_hidden_from, copy.team_best_of) == (3, 2)
    assert Table.objects.get(round__tournament=copy, round__number=1, number=1).extra_minutes == 7
    cut = Cut.objects.get(tournament=copy)
    original = Cut.objects.get(tournament=tournament)
    assert [
        (f.player.key, f.position, f.table_points_twelfths, f.score) for f in cut.finalists.all()
    ] == [
        (f.player.key, f.position, f.table_points_twelfths, f.score)
        for f in original.finalists.all()
    ]

    def shown(rows):
        return [(r.rank, r.player.key, r.table_points, r.score, r.stage) for r in rows]

    assert shown(standings(copy)) == shown(standings(tournament))
    assert export_tournament(copy)["cut"]["finalists"] == document["cut"]["finalists"]


def test_an_archive_of_version_4_still_imports(db):
    world = build("mcr")
    document = export_tournament(world.tournament)
    document["version"] = 4
    for name in (
        "standings_hidden_from",
        "standings_revealed_at",
        "team_best_of",
        "cut_after_round",
        "cut_size",
        "carry_over",
        "final_seating",
        "consolation",
    ):
        del document["tournament"][name]
    for round in document["rounds"]:
        for table in round["tables"]:
            del table["extra_minutes"]
    copy = import_tournament(document, actor=world.organiser, slug="old")
    assert copy.cut_after_round is None and copy.carry_over == "1"
