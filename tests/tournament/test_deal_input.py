"""The public input of a deal (`DealInput`), what a service keeps as recorded (an import's
`AsRecorded`, `SheetAsRecorded`), and the archive reaching the services by public names only."""

from __future__ import annotations

import ast
import datetime as dt
import uuid
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from tournament.models import AuditEntry, Deal
from tournament.services import (
    AsRecorded,
    DealInput,
    SheetAsRecorded,
    confirm_game,
    end_game,
    record_deal,
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
EARLIER = dt.datetime(2024, 5, 4, 10, 30, tzinfo=dt.UTC)


def test_a_deal_keeps_its_lists_as_tuples(east, south):
    deal = DealInput(result="win", winner=east, riichi=[east, south], extra_winners=[[south, 40]])

    assert deal.riichi == (east, south)
    assert deal.extra_winners == ((south, 40),)


def test_the_same_deal_sent_again_with_its_key_is_replayed(table, referee, east):
    key = uuid.uuid4()
    first = record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=east, fan=8),
        entered_by=referee,
        submission=key,
    )

    again = record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=east, fan=8),
        entered_by=referee,
        submission=key,
    )

    assert again.pk == first.pk
    assert getattr(again, "replayed", False)


def test_the_same_key_with_another_deal_is_refused(table, referee, east, south):
    key = uuid.uuid4()
    deal = DealInput(result="win", winner=east, fan=8)
    record_deal(table=table, number=1, deal=deal, entered_by=referee, submission=key)

    with pytest.raises(ValidationError) as error:
        record_deal(
            table=table,
            number=1,
            deal=DealInput(result="win", winner=south, fan=8),
            entered_by=referee,
            submission=key,
        )

    assert error.value.code == "submission_key_reused"


def test_a_hand_as_recorded_keeps_who_entered_it_and_when(table, organiser, referee, east):
    hand = record_deal(
        table=table,
        number=1,
        deal=DealInput(result="draw"),
        entered_by=organiser,
        as_recorded=AsRecorded(referee, EARLIER),
    )

    stored = Deal.objects.get(pk=hand.pk)
    assert (stored.entered_by, stored.entered_at) == (referee, EARLIER)
    entry = AuditEntry.objects.get(action=AuditEntry.Action.HAND_RECORDED)
    assert entry.actor == organiser
    assert entry.after["entered_by"] == organiser.get_username()


def test_a_sheet_as_recorded_keeps_who_submitted_and_confirmed_it(table, organiser, referee):
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=organiser)
    sheet = SheetAsRecorded(
        submitted_by=referee,
        ended_at=EARLIER,
        confirmed_by=referee,
        confirmed_at=EARLIER + dt.timedelta(minutes=5),
    )

    table = end_game(table=table, ended_by_time=True, entered_by=organiser, as_recorded=sheet)
    if table.confirmed_at is None:
        table = confirm_game(table=table, confirmed_by=organiser, as_recorded=sheet)

    table.refresh_from_db()
    assert (table.submitted_by, table.ended_at) == (referee, EARLIER)
    assert table.confirmed_by == referee
    assert table.confirmed_at == EARLIER + dt.timedelta(minutes=5)
    assert set(AuditEntry.objects.values_list("actor", flat=True)) == {organiser.pk}


def _private_service_imports(path: Path) -> list[str]:
    """The names `path` imports from the services that are not public: a private module
    (`_common`) or a name starting with an underscore."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "tournament.services"
        ):
            if any(part.startswith("_") for part in (node.module or "").split(".")):
                found.append(f"{path.name}: {node.module}")
            found += [
                f"{path.name}: {alias.name}" for alias in node.names if alias.name.startswith("_")
            ]
    return found


@pytest.mark.parametrize(
    "folder", ["tournament/archive", "tournament/web/referee"], ids=["archive", "referee"]
)
def test_the_archive_and_the_referee_screen_use_public_services_only(folder):
    files = sorted((ROOT / folder).rglob("*.py"))

    assert files
    assert [name for path in files for name in _private_service_imports(path)] == []
