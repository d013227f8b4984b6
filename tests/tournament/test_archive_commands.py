"""`manage.py export_tournament` and `manage.py import_tournament`."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tournament.archive import export_tournament
from tournament.models import AuditEntry, Deal, Tournament

pytestmark = pytest.mark.django_db


def document(slug="club-night", fan=8):
    """Four players, one round in play, one hand: D self-draws `fan`."""
    return {
        "format": "mcr-tournament-archive",
        "version": 1,
        "tournament": {"name": "Club Night", "slug": slug, "public": True},
        "players": [{"key": key, "name": f"Player {key}"} for key in "ABCD"],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    {
                        "number": 1,
                        "seats": {"E": "A", "S": "B", "W": "C", "N": "D"},
                        "hands": [{"number": 1, "result": "win", "winner": "D", "fan": fan}],
                    }
                ],
            }
        ],
    }


def write(tmp_path, data, name="archive.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def run(name, *args, **options):
    out, err = StringIO(), StringIO()
    call_command(name, *args, stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


def imported_hand_scores(slug):
    hand = Deal.objects.get(table__round__tournament__slug=slug)
    return hand.payments


# --- export_tournament -----------------------------------------------------------------------


def test_export_prints_the_archive(organiser, tmp_path):
    run("import_tournament", write(tmp_path, document()), "--actor", "alice")

    out, _ = run("export_tournament", "club-night")

    data = json.loads(out)
    assert data == export_tournament(Tournament.objects.get(slug="club-night"))
    assert data["rounds"][0]["tables"][0]["hands"][0]["winner"] == "D"


def test_export_writes_a_file_with_output(organiser, tmp_path):
    run("import_tournament", write(tmp_path, document()), "--actor", "alice")
    target = tmp_path / "out.json"

    out, err = run("export_tournament", "club-night", "--output", str(target))

    assert out == ""
    assert f"Wrote Club Night to {target}." in err
    assert json.loads(target.read_text(encoding="utf-8"))["tournament"]["slug"] == "club-night"


def test_export_of_an_unknown_slug_is_an_error(db):
    with pytest.raises(CommandError, match="No tournament has the slug 'nope'."):
        run("export_tournament", "nope")


def test_export_to_an_unwritable_place_is_an_error(organiser, tmp_path):
    run("import_tournament", write(tmp_path, document()), "--actor", "alice")

    with pytest.raises(CommandError, match="Cannot write"):
        run("export_tournament", "club-night", "--output", str(tmp_path / "missing" / "x.json"))


# --- import_tournament -----------------------------------------------------------------------


def test_import_reads_a_file_and_reports_what_it_made(db, tmp_path):
    out, _ = run("import_tournament", write(tmp_path, document()))

    assert "Imported 'Club Night' (club-night): 4 players, 1 round, 1 hand." in out
    # D self-drew 8 fan: each of the others pays 16.
    assert imported_hand_scores("club-night") == [-16, -16, -16, 48]


def test_import_reads_standard_input(db):
    run("import_tournament", "-", stdin=StringIO(json.dumps(document())))

    assert Tournament.objects.filter(slug="club-night").exists()


def test_import_without_actor_is_audited_as_the_system_user(db, tmp_path):
    run("import_tournament", write(tmp_path, document()))

    system = get_user_model().objects.get(username="system")
    assert not system.has_usable_password()  # it cannot log in
    assert set(AuditEntry.objects.values_list("actor__username", flat=True)) == {"system"}


def test_import_without_actor_keeps_the_confirmed_game_sheets(db, tmp_path):
    played = document()
    table = played["rounds"][0]["tables"][0]
    played["rounds"][0]["status"] = "finished"
    table["ended_at"] = table["confirmed_at"] = "2026-05-01T12:00:00Z"
    table["ended_by_time"] = True

    run("import_tournament", write(tmp_path, played))

    imported = Tournament.objects.get(slug="club-night").rounds.get().tables.get()
    assert imported.confirmed_at is not None
    assert imported.confirmed_by.username == "system"


def test_import_with_actor_is_audited_under_that_user(organiser, tmp_path):
    run("import_tournament", write(tmp_path, document()), "--actor", "alice")

    assert set(AuditEntry.objects.values_list("actor__username", flat=True)) == {"alice"}
    assert not get_user_model().objects.filter(username="system").exists()


def test_a_refused_import_without_actor_leaves_no_system_user_behind(db, tmp_path):
    with pytest.raises(CommandError, match="Nothing was imported"):
        run("import_tournament", write(tmp_path, document(fan=7)))

    assert not get_user_model().objects.filter(username="system").exists()
    assert not Tournament.objects.exists()


def test_import_with_an_unknown_actor_is_an_error(db, tmp_path):
    with pytest.raises(CommandError, match="No user is called 'nobody'."):
        run("import_tournament", write(tmp_path, document()), "--actor", "nobody")
    assert not Tournament.objects.exists()


def test_import_refuses_an_existing_slug(db, tmp_path):
    path = write(tmp_path, document())
    run("import_tournament", path)

    with pytest.raises(CommandError) as error:
        run("import_tournament", path)

    assert str(error.value) == (
        "Nothing was imported. tournament: a tournament with the slug 'club-night' exists "
        "already; import it under another slug or replace the existing one."
    )
    assert Tournament.objects.count() == 1


def test_import_with_slug_makes_a_copy(db, tmp_path):
    path = write(tmp_path, document())
    run("import_tournament", path)

    run("import_tournament", path, "--slug", "club-night-copy")

    assert sorted(Tournament.objects.values_list("slug", flat=True)) == [
        "club-night",
        "club-night-copy",
    ]


def test_import_with_replace_replaces_the_tournament(db, tmp_path):
    run("import_tournament", write(tmp_path, document(fan=8)))

    run("import_tournament", write(tmp_path, document(fan=10), "new.json"), "--replace")

    assert Tournament.objects.count() == 1
    assert imported_hand_scores("club-night") == [-18, -18, -18, 54]


def test_a_bad_hand_stops_the_import_with_its_place(db, tmp_path):
    with pytest.raises(CommandError) as error:
        run("import_tournament", write(tmp_path, document(fan=5)))

    assert str(error.value) == (
        "Nothing was imported. round 1, table 1, hand 1: A win needs at least 8 fan, not "
        "counting flowers; 5 is a false win."
    )
    assert not Tournament.objects.exists()


def test_a_file_that_is_not_json_is_an_error(db, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "mcr-tournament-archive",\n  "version": }', encoding="utf-8")

    with pytest.raises(CommandError, match=r"is not valid JSON: Expecting value at line 2"):
        run("import_tournament", str(path))


def test_a_missing_file_is_an_error(db, tmp_path):
    with pytest.raises(CommandError, match="Cannot read .*nothing.json: No such file"):
        run("import_tournament", str(tmp_path / "nothing.json"))


def test_unknown_users_are_reported_on_stderr(db, tmp_path):
    data = document()
    data["rounds"][0]["tables"][0]["referees"] = ["dave"]

    _, err = run("import_tournament", write(tmp_path, data))

    assert "These users do not exist here: dave." in err


# --- Version 2 --------------------------------------------------------------------------------


def jt_document():
    """A JT game of version 2: East self-draws 60 (paid double), then keeps the deal."""
    data = document(slug="riichi-night")
    data["version"] = 2
    data["tournament"].update(
        preset="japanese-transitional", seat_rotation="none", rule_settings={"wind_rounds": 1}
    )
    data["rounds"][0]["tables"][0]["hands"] = [
        {"number": 1, "prevailing_wind": "E", "dealer": "A", "extra_hands": 0, "result": "win",
         "winner": "A", "value": 60, "payments": {"E": 360, "S": -120, "W": -120, "N": -120}},
        {"number": 2, "prevailing_wind": "E", "dealer": "A", "extra_hands": 1,
         "result": "faulty_out", "offender": "C"},
    ]  # fmt: skip
    return data


def test_a_version_2_file_imports_and_exports_again(db, tmp_path):
    out, _ = run("import_tournament", write(tmp_path, jt_document()))
    exported, _ = run("export_tournament", "riichi-night")

    assert "Imported 'Club Night' (riichi-night): 4 players, 1 round, 2 hands." in out
    data = json.loads(exported)
    assert data["version"] == 5
    assert data["tournament"]["rule_settings"] == {"wind_rounds": 1}
    assert [hand["payments"] for hand in data["rounds"][0]["tables"][0]["hands"]] == [
        {"E": 360, "S": -120, "W": -120, "N": -120},
        {"E": 1500, "S": 750, "W": -3000, "N": 750},
    ]


def test_a_wrong_version_2_deal_imports_nothing(db, tmp_path):
    data = jt_document()
    data["rounds"][0]["tables"][0]["hands"][1]["extra_hands"] = 0

    with pytest.raises(CommandError) as error:
        run("import_tournament", write(tmp_path, data))

    assert str(error.value) == (
        "Nothing was imported. round 1, table 1, deal 2: after the deals before it the "
        "dealer's extra-hand number is 1, not 0."
    )
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("slug", ["demo-open", "demo-jt", "demo-wa"])
def test_every_demo_tournament_exports_and_imports_again_as_a_copy(db, tmp_path, slug):
    """The documented default: export, then import under another slug, with no --actor."""
    call_command("load_demo", stdout=StringIO())
    path = tmp_path / "t.json"
    run("export_tournament", slug, "--output", str(path))

    run("import_tournament", str(path), "--slug", "copy")

    original, copy = Tournament.objects.get(slug=slug), Tournament.objects.get(slug="copy")
    assert copy.preset == original.preset
    games = [
        [(t.number, t.confirmed_at is not None) for t in round.tables.order_by("number")]
        for tournament in (original, copy)
        for round in tournament.rounds.order_by("number")
    ]
    half = len(games) // 2
    assert games[:half] == games[half:]
    scores = [
        sorted(Deal.objects.filter(table__round__tournament=t).values_list("east_points", "number"))
        for t in (original, copy)
    ]
    assert scores[0] == scores[1]


def test_an_archive_under_a_slug_taken_by_a_page_imports_nothing(db, tmp_path):
    with pytest.raises(CommandError, match="taken by a page"):
        run("import_tournament", write(tmp_path, document(slug="tokens")))

    assert not Tournament.objects.exists()
