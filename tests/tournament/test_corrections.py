"""Correcting an earlier hand."""

from __future__ import annotations

import pytest

from tournament.models import AuditEntry
from tournament.selectors import score_sheet
from tournament.services import correct_hand, record_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_hands(table, referee, east, south, west):
    first = record_hand(
        table=table, number=1, result="win", winner=east, discarder=south, fan=8,
        entered_by=referee,
    )  # fmt: skip
    record_hand(table=table, number=2, result="draw", entered_by=referee)
    record_hand(table=table, number=3, result="win", winner=west, fan=8, entered_by=referee)
    return first


def test_correction_recomputes_later_running_scores(three_hands, organiser, west, scores):
    correct_hand(
        hand=three_hands, result="win", winner=west, discarder=west.tournament.players.get(key="2"),
        fan=8, entered_by=organiser,
    )  # fmt: skip
    sheet = score_sheet(three_hands.table)
    assert sheet[0].running == (-8, -16, 32, -8)
    assert sheet[2].running == (-24, -32, 80, -24)
    assert scores(three_hands.table) == [-24, -32, 80, -24]


def test_correction_writes_an_audit_entry_with_before_and_after(three_hands, organiser, east):
    correct_hand(hand=three_hands, result="win", winner=east, fan=10, entered_by=organiser)
    entry = AuditEntry.objects.get(action="hand_corrected")
    assert entry.actor == organiser
    assert entry.before["payments"] == [32, -16, -8, -8]
    assert entry.after["payments"] == [54, -18, -18, -18]
    assert entry.before["entered_by"] == "bob"
