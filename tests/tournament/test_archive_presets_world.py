"""The archive of a tournament of every preset with long games (deals past 16, dealer repeats),
wins by tiles (JT limit hands, WA jokers, two WA winners each with tiles), faulty outs, draws
with ready players, penalties, a substitute and a game ended by time: exported, imported into
an empty database and exported again, it is the same document with the same standings."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator
from preset_world import PRESETS, build

from tournament.archive import ArchiveError, export_tournament, import_tournament, json_schema
from tournament.models import Deal, Tournament
from tournament.reads.selectors import standings

pytestmark = pytest.mark.django_db


@pytest.fixture(params=PRESETS)
def world(request):
    return build(request.param)


def dumped(tournament: Tournament) -> str:
    return json.dumps(export_tournament(tournament), ensure_ascii=False, indent=1)


def table_of(document: dict, round_number: int = 1, table: int = 1) -> dict:
    return document["rounds"][round_number - 1]["tables"][table - 1]


@pytest.mark.parametrize("bulk", [True, False], ids=["in bulk", "one by one"])
def test_a_round_trip_through_an_empty_database_gives_the_same_document(world, bulk):
    first = dumped(world.tournament)
    ranked = [(row.rank, row.player.key, row.score) for row in standings(world.tournament)]
    world.tournament.delete()
    assert not Deal.objects.exists()

    copy = import_tournament(json.loads(first), actor=world.organiser, bulk=bulk)

    assert dumped(copy) == first
    assert [(row.rank, row.player.key, row.score) for row in standings(copy)] == ranked


def test_the_long_games_are_long_and_tiled(world):
    """The scenario holds what the round trip must carry (a guard on the builder)."""
    hands = world.long_game.deals.all()
    assert hands.exclude(tiles=None).exists()
    if world.tournament.rules.deals_vary:
        assert hands.count() > 16
        assert hands.filter(extra_hands__gt=0, number__gt=16).exists()


def test_a_wa_export_holds_the_further_winners_tiles():
    world = build("wilmington-12-tile")
    deals = table_of(export_tournament(world.tournament))["hands"]

    further = [win for deal in deals for win in deal["extra_winners"] if "tiles" in win]
    assert further
    assert all("J" in win["tiles"]["concealed"] for win in further)
    Draft202012Validator(json_schema()).validate(export_tournament(world.tournament))


@pytest.mark.parametrize("key", ["japanese-transitional", "wilmington-12-tile"])
def test_an_archive_without_a_seat_rotation_takes_the_presets(key):
    world = build(key)
    document = export_tournament(world.tournament)
    del document["tournament"]["seat_rotation"]
    world.tournament.delete()

    copy = import_tournament(document, actor=world.organiser)

    assert copy.seat_rotation == "none"


def test_tiles_that_state_another_seat_wind_than_the_deals_are_refused_after_a_repeat():
    """JT: the seat winds follow the game's flow (the dealer repeats), never the deal number."""
    world = build("japanese-transitional")
    document = export_tournament(world.tournament)
    deals = table_of(document)["hands"]
    late = next(deal for deal in deals if deal["number"] > 16 and deal.get("tiles"))
    stated = late["tiles"]["seat_wind"]
    late["tiles"]["seat_wind"] = "ESWN"[("ESWN".index(stated) + 1) % 4]
    world.tournament.delete()

    with pytest.raises(ArchiveError) as refusal:
        import_tournament(document, actor=world.organiser)

    assert refusal.value.code == "situation_mismatch"
    assert f"it is '{stated}'" in str(refusal.value)
    assert not Tournament.objects.exists()
