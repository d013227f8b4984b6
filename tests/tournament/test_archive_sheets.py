"""The archive keeps game sheets (submitted, confirmed, by whom) and the tournament's confirmation
setting and round time limit; archives written before confirmation existed still import."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from sheets_world import build_sheets_round

from tournament.archive import ArchiveError, export_tournament, import_tournament
from tournament.models import Table, Tournament
from tournament.reads.selectors import standings
from tournament.services import add_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(db):
    return get_user_model().objects.create_user(username="bob", password="referee-pass-42")


@pytest.fixture
def sheets(tournament, organiser, referee):
    """Round 1 in play: table 1 submitted by bob and confirmed by alice, table 2 submitted by
    bob and awaiting confirmation, table 3 still being played. A second referee confirms."""
    Tournament.objects.filter(pk=tournament.pk).update(confirmation="referee", round_minutes=90)
    tournament.refresh_from_db()
    players = [add_player(tournament=tournament, key=str(n), name=f"P{n}") for n in range(12)]
    build_sheets_round(tournament, organiser, players, referee=referee)
    return tournament


def sheet_of(tournament, number):
    return Table.objects.get(round__tournament=tournament, round__number=1, number=number)


def test_export_writes_the_sheets_and_the_settings(sheets):
    document = export_tournament(sheets)

    assert document["tournament"]["confirmation"] == "referee"
    assert document["tournament"]["round_minutes"] == 90
    one, two, three = document["rounds"][0]["tables"]
    assert (one["submitted_by"], one["confirmed_by"]) == ("bob", "alice")
    assert one["confirmed_at"] is not None
    assert (two["submitted_by"], two["confirmed_at"], two["confirmed_by"]) == ("bob", None, None)
    assert (three["ended_at"], three["submitted_by"], three["confirmed_at"]) == (None, None, None)


def test_round_trip_keeps_who_submitted_and_confirmed(sheets, organiser):
    first = export_tournament(sheets)

    copy_ = import_tournament(first, actor=organiser, slug="copy")

    second = export_tournament(copy_)
    first["tournament"].pop("slug")
    second["tournament"].pop("slug")
    assert second == first
    assert (copy_.confirmation, copy_.round_minutes) == ("referee", 90)
    one = sheet_of(copy_, 1)
    assert (one.submitted_by.username, one.confirmed_by.username) == ("bob", "alice")
    assert one.confirmed_at == sheet_of(sheets, 1).confirmed_at
    assert sheet_of(copy_, 2).confirmed_at is None


def test_imported_standings_count_the_confirmed_sheets_only(sheets, organiser):
    copy_ = import_tournament(export_tournament(sheets), actor=organiser, slug="copy")

    def rows(tournament, **options):
        return [
            (r.player.key, r.score, r.provisional_games) for r in standings(tournament, **options)
        ]

    assert rows(copy_) == rows(sheets)
    assert rows(copy_, provisional=True) == rows(sheets, provisional=True)
    assert sum(row.provisional_games for row in standings(copy_, provisional=True)) == 4


def test_the_archives_organisers_take_over_after_the_import(sheets, make_importer):
    copy_ = import_tournament(export_tournament(sheets), actor=make_importer, slug="copy")

    assert list(copy_.organisers.values_list("username", flat=True)) == ["alice"]


@pytest.fixture
def make_importer(db):
    return get_user_model().objects.create_user(username="ida", password="importer-pass-42")


def old_archive(document):
    """The document as written before game sheets were confirmed."""
    document["tournament"].pop("confirmation")
    document["tournament"].pop("round_minutes")
    for round in document["rounds"]:
        for table in round["tables"]:
            for key in ("submitted_by", "confirmed_at", "confirmed_by"):
                table.pop(key)
    return document


def test_an_old_archive_counts_every_ended_game_as_confirmed(sheets, organiser):
    copy_ = import_tournament(old_archive(export_tournament(sheets)), actor=organiser, slug="old")

    assert (copy_.confirmation, copy_.round_minutes) == ("organiser", 120)
    assert sheet_of(copy_, 1).confirmed_at is not None
    assert sheet_of(copy_, 2).confirmed_at is not None
    assert sheet_of(copy_, 2).confirmed_by == organiser
    assert sheet_of(copy_, 3).confirmed_at is None
    assert sum(row.score for row in standings(copy_)) == 0
    assert {row.score for row in standings(copy_)} == {48, -16, 0}


def end_by_time(table, *, confirmed=False):
    """End the game still being played in the document, its sheet confirmed or not."""
    table["ended_at"] = "2025-05-03T12:00:00+00:00"
    table["ended_by_time"] = True
    if confirmed:
        table["confirmed_at"] = "2025-05-03T12:10:00+00:00"


def test_an_old_archive_with_a_finished_round_imports(sheets, organiser):
    document = old_archive(export_tournament(sheets))
    round = document["rounds"][0]
    end_by_time(round["tables"][2])
    round["status"] = "finished"

    copy_ = import_tournament(document, actor=organiser, slug="old")

    assert copy_.rounds.get().status == "finished"


def test_a_finished_round_with_an_unconfirmed_sheet_is_refused(sheets, organiser):
    document = export_tournament(sheets)
    round = document["rounds"][0]
    end_by_time(round["tables"][2], confirmed=True)
    round["status"] = "finished"

    with pytest.raises(ArchiveError, match="round 1: .*tables 2 are waiting for confirmation"):
        import_tournament(document, actor=organiser, slug="copy")
    assert not Tournament.objects.filter(slug="copy").exists()


def test_a_confirmed_sheet_of_a_game_without_an_end_is_refused(sheets, organiser):
    document = export_tournament(sheets)
    document["rounds"][0]["tables"][2]["confirmed_at"] = "2025-05-03T12:00:00+00:00"

    with pytest.raises(ArchiveError, match="table 3: the game sheet is confirmed but the game"):
        import_tournament(document, actor=organiser, slug="copy")


def test_an_unconfirmed_sheet_where_sheets_need_no_confirmation_is_refused(sheets, organiser):
    document = export_tournament(sheets)
    document["tournament"]["confirmation"] = "none"

    with pytest.raises(ArchiveError, match="table 2: the game sheet is not confirmed"):
        import_tournament(document, actor=organiser, slug="copy")
    assert not Tournament.objects.filter(slug="copy").exists()


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("confirmation", "players", "confirmation must be one of organiser, referee, none"),
        ("confirmation", 3, '"confirmation" must be a string'),
        ("round_minutes", 5, "round_minutes must be 10 to 600, not 5"),
        ("round_minutes", "long", '"round_minutes" must be a whole number'),
    ],
)
def test_bad_settings_are_refused(sheets, organiser, key, value, message):
    document = export_tournament(sheets)
    document["tournament"][key] = value

    with pytest.raises(ArchiveError, match=message):
        import_tournament(document, actor=organiser, slug="copy")


def test_unknown_confirmers_are_attributed_to_the_importing_user(sheets, organiser):
    document = export_tournament(sheets)
    document["rounds"][0]["tables"][0]["confirmed_by"] = "nobody-here"
    warnings: list[str] = []

    copy_ = import_tournament(document, actor=organiser, slug="copy", warnings=warnings)

    assert sheet_of(copy_, 1).confirmed_by == organiser
    assert "nobody-here" in warnings[0]
