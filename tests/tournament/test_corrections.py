"""Correcting an earlier hand."""

from __future__ import annotations

import pytest

from tournament.models import AuditEntry
from tournament.reads.selectors import score_sheet
from tournament.services import DealInput, correct_deal, record_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_hands(table, referee, east, south, west):
    first = record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=east, discarder=south, fan=8),
        entered_by=referee,
    )
    record_deal(table=table, number=2, deal=DealInput(result="draw"), entered_by=referee)
    record_deal(
        table=table, number=3, deal=DealInput(result="win", winner=west, fan=8), entered_by=referee
    )
    return first


def test_correction_recomputes_later_running_scores(three_hands, organiser, west, scores):
    correct_deal(
        hand=three_hands,
        deal=DealInput(
            result="win", winner=west, discarder=west.tournament.players.get(key="2"), fan=8
        ),
        entered_by=organiser,
    )
    sheet = score_sheet(three_hands.table)
    assert sheet[0].running == (-8, -16, 32, -8)
    assert sheet[2].running == (-24, -32, 80, -24)
    assert scores(three_hands.table) == [-24, -32, 80, -24]


def test_correction_writes_an_audit_entry_with_before_and_after(three_hands, organiser, east):
    correct_deal(
        hand=three_hands, deal=DealInput(result="win", winner=east, fan=10), entered_by=organiser
    )
    entry = AuditEntry.objects.get(action="hand_corrected")
    assert entry.actor == organiser
    assert entry.before["payments"] == [32, -16, -8, -8]
    assert entry.after["payments"] == [54, -18, -18, -18]
    assert entry.before["entered_by"] == "bob"


def test_remove_last_hand_recomputes_and_is_audited(three_hands, organiser, scores):
    from tournament.services import remove_last_hand

    removed = remove_last_hand(table=three_hands.table, entered_by=organiser)
    assert removed.number == 3
    assert scores(three_hands.table) == [32, -16, -8, -8]
    entry = AuditEntry.objects.get(action="hand_removed")
    assert entry.before["number"] == 3 and entry.after is None


def test_remove_last_hand_is_refused_after_the_game_ends(three_hands, organiser):
    from django.core.exceptions import ValidationError

    from tournament.services import end_game, remove_last_hand

    end_game(table=three_hands.table, ended_by_time=True, entered_by=organiser)
    with pytest.raises(ValidationError) as error:
        remove_last_hand(table=three_hands.table, entered_by=organiser)
    assert error.value.code == "game_ended"


def test_reopened_game_takes_more_hands(three_hands, organiser):
    from tournament.services import end_game, reopen_game

    table = end_game(table=three_hands.table, ended_by_time=True, entered_by=organiser)
    table = reopen_game(table=table, entered_by=organiser)
    assert table.ended_at is None and not table.ended_by_time
    hand = record_deal(table=table, number=4, deal=DealInput(result="draw"), entered_by=organiser)
    assert hand.number == 4
    assert AuditEntry.objects.filter(action="game_reopened").count() == 1
