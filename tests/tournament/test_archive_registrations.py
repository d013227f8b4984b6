"""The archive's version 4: registration and check-in settings, players' check-in and late
arrival, and the registrations (with their contact), never a private link; older versions
still import."""

from __future__ import annotations

import copy
import json
from datetime import timedelta

import pytest
from django.utils import timezone
from factories import make_players, make_tournament
from jsonschema import Draft202012Validator
from preset_world import PRESETS

from tournament.archive import ArchiveError, export_tournament, import_tournament, json_schema
from tournament.models import Player, Registration, Tournament
from tournament.services import registrations as service

pytestmark = pytest.mark.django_db


@pytest.fixture(params=PRESETS)
def event(request, organiser):
    """A tournament of each preset taking registrations with a cap: two players entered by the
    organiser (one checked in, one a late arrival with a private link), then registrations
    accepted, pending (after a switch to approval), waiting and withdrawn."""
    now = timezone.now()
    cup = make_tournament(
        organisers=[organiser],
        preset=request.param,
        registration="instant",
        registration_cap=4,
        registration_opens=now - timedelta(days=1),
        registration_closes=now + timedelta(days=7),
        check_in_open=True,
        self_check_in=True,
    )
    first, second = make_players(cup, 2)
    Player.objects.filter(pk=first.pk).update(checked_in_at=now)
    Player.objects.filter(pk=second.pk).update(
        joins_from_round=2, link_digest="a" * 64, link_issued_at=now
    )
    accepted = service.register(
        cup, {"family_name": "王", "given_name": "小明", "contact": "wang@example.org"}, address="a"
    )
    withdrawn = service.register(
        cup, {"family_name": "Berg", "ema_number": "04010001"}, address="a"
    )
    service.withdraw(withdrawn, actor=organiser)
    service.update_settings(cup, actor=organiser, registration="approval")
    service.register(cup, {"family_name": "Pending", "country": "SE"}, address="a")
    service.register(cup, {"family_name": "Waiting", "ema_number": "04010002"}, address="a")
    assert accepted.player.key == "3"
    return Tournament.objects.get(pk=cup.pk)


def test_the_export_holds_registrations_check_in_and_late_arrivals(event):
    document = export_tournament(event)

    assert document["version"] == 5
    tournament = document["tournament"]
    assert (tournament["registration"], tournament["registration_cap"]) == ("approval", 4)
    assert tournament["check_in_open"] is True and tournament["self_check_in"] is True
    players = {player["key"]: player for player in document["players"]}
    assert players["1"]["checked_in_at"] is not None
    assert players["2"]["joins_from_round"] == 2
    registrations = document["registrations"]
    assert [(r["name"], r["status"], r["player"]) for r in registrations] == [
        ("王小明", "accepted", "3"),
        ("Berg", "withdrawn", None),
        ("Pending", "pending", None),
        ("Waiting", "waiting", None),
    ]
    assert registrations[0]["contact"] == "wang@example.org"
    Draft202012Validator(json_schema()).validate(document)


def test_the_export_never_holds_a_private_link(event):
    text = json.dumps(export_tournament(event))

    assert "a" * 64 not in text
    assert "link" not in text


def test_round_trip_gives_the_same_document(event, organiser):
    first = export_tournament(event)

    copy_ = import_tournament(first, actor=organiser, slug="the-copy")
    second = export_tournament(copy_)

    second["tournament"]["slug"] = first["tournament"]["slug"]
    assert second == first
    assert copy_.registrations.get(status="accepted").player.key == "3"


def test_an_imported_copy_registers_on(event, organiser):
    copy_ = import_tournament(export_tournament(event), actor=organiser, slug="the-copy")

    made = service.register(copy_, {"family_name": "Late"}, address="b")

    assert made.status == Registration.Status.WAITING  # 3 players and 1 pending hold 4 places


def test_a_version_3_document_imports_with_registration_off(event, organiser):
    document = export_tournament(event)
    older = copy.deepcopy(document)
    older["version"] = 3
    del older["registrations"]
    for name in ("registration", "registration_opens", "registration_closes", "registration_cap",
                 "check_in_open", "self_check_in", "check_in_closed_at"):  # fmt: skip
        del older["tournament"][name]
    for player in older["players"]:
        del player["checked_in_at"], player["joins_from_round"]

    imported = import_tournament(older, actor=organiser, slug="older")

    assert imported.registration == "off" and imported.registration_cap is None
    assert not imported.registrations.exists()
    assert not imported.players.filter(checked_in_at__isnull=False).exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["registrations"][0].update(player=None), "names its player"),
        (lambda d: d["registrations"][2].update(player="1"), "has no player"),
        (lambda d: d["registrations"][0].update(player="99"), "is not in the players"),
        (lambda d: d["registrations"][1].update(status="waiting", ema_id="04010002"), "two active"),
        (lambda d: d["registrations"][0].update(status="maybe"), "registration 1"),
        (lambda d: d["registrations"][2].update(country="Narnia"), "registration 3"),
        (lambda d: d["players"][1].update(joins_from_round=1), "player 2"),
        (lambda d: d["tournament"].update(registration_cap=2), "tournament"),
    ],
)
def test_a_broken_document_is_refused_naming_the_place(event, organiser, change, message):
    document = export_tournament(event)
    change(document)

    with pytest.raises(ArchiveError) as error:
        import_tournament(document, actor=organiser, slug="broken")

    assert message in error.value.messages[0]
    assert not Tournament.objects.filter(slug="broken").exists()
