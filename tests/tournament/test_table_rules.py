"""Rules the table screen and the API share, owned by the services: removing and correcting the
last hand, and whether a game may end."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from scoring.engine import get_preset
from tournament.models import AuditEntry, Deal, Table
from tournament.services import (
    DealInput,
    check_end_game,
    correct_last_deal,
    end_game,
    record_deal,
    record_false_win,
    remove_last_hand,
)

pytestmark = pytest.mark.django_db


def win(table, referee, number, winner, fan=8):
    return record_deal(
        table=table,
        number=number,
        deal=DealInput(result="win", winner=winner, fan=fan),
        entered_by=referee,
    )


def test_removing_a_hand_that_is_no_longer_the_last_removes_nothing(table, referee, east):
    win(table, referee, 1, east)
    win(table, referee, 2, east)

    with pytest.raises(ValidationError) as error:
        remove_last_hand(table=table, entered_by=referee, number=1)

    assert error.value.code == "not_last_hand"
    assert Deal.objects.filter(table=table).count() == 2


def test_removing_the_hand_named_as_last_removes_it(table, referee, east):
    win(table, referee, 1, east)

    removed = remove_last_hand(table=table, entered_by=referee, number=1)

    assert removed.number == 1
    assert not Deal.objects.filter(table=table).exists()


def test_the_last_hand_is_corrected_and_audited(table, referee, east, south, scores):
    win(table, referee, 1, east)

    hand = correct_last_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=south, fan=10),
        entered_by=referee,
    )

    assert (hand.winner.player, hand.fan) == (south, 10)
    assert scores(table) == [-18, 54, -18, -18]
    assert AuditEntry.objects.filter(action=AuditEntry.Action.HAND_CORRECTED).count() == 1


def test_a_correction_sent_twice_changes_nothing_the_second_time(table, referee, east, south):
    win(table, referee, 1, east)
    correct_last_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=south, fan=10),
        entered_by=referee,
    )

    again = correct_last_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=south, fan=10),
        entered_by=referee,
    )

    assert again.unchanged is True
    assert AuditEntry.objects.filter(action=AuditEntry.Action.HAND_CORRECTED).count() == 1


def test_only_the_last_hand_is_corrected_at_the_table(table, referee, east, south):
    win(table, referee, 1, east)
    win(table, referee, 2, east)

    with pytest.raises(ValidationError) as error:
        correct_last_deal(
            table=table,
            number=1,
            deal=DealInput(result="win", winner=south, fan=9),
            entered_by=referee,
        )

    assert error.value.code == "not_last_hand"
    assert Deal.objects.get(table=table, number=1).winner.player == east


def test_no_correction_at_the_table_once_the_sheet_is_submitted(table, referee, east, south):
    win(table, referee, 1, east)
    end_game(table=table, ended_by_time=True, entered_by=referee)

    with pytest.raises(ValidationError) as error:
        correct_last_deal(
            table=table,
            number=1,
            deal=DealInput(result="win", winner=south, fan=9),
            entered_by=referee,
        )

    assert error.value.code == "game_ended"


def test_checking_the_end_of_a_game_changes_nothing(table, referee, east):
    win(table, referee, 1, east)

    assert check_end_game(table=table, ended_by_time=True) == 1

    assert Table.objects.get(pk=table.pk).ended_at is None
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.GAME_ENDED).exists()


def test_checking_the_end_of_a_game_gives_the_reason_it_cannot_end(table, referee, east):
    win(table, referee, 1, east)

    with pytest.raises(ValidationError) as error:
        check_end_game(table=table, ended_by_time=False)

    assert error.value.code == "hands_missing"


def test_a_false_win_keeps_its_reason_in_english_whatever_the_page_language(table, referee, east):
    with translation.override("zh-hans"):
        penalty = record_false_win(
            table=table, number=1, offender=east, invalid_hand=False, entered_by=referee
        )

    assert penalty.reason == "False win in hand 1"


def test_a_preset_that_counts_points_refuses_fan_and_flowers(tournament, table, referee, east):
    tournament.preset = "wilmington-12-tile"
    tournament.save()

    with pytest.raises(ValidationError) as error:
        record_deal(
            table=table,
            number=1,
            deal=DealInput(result="win", winner=east, fan=20, flowers=1),
            entered_by=referee,
        )

    assert error.value.code == "value_required"


def test_the_game_length_is_the_presets(tournament, table, referee, east, monkeypatch):
    monkeypatch.setattr(type(tournament), "rules", property(lambda self: _short_game()))
    for number in (1, 2):
        record_deal(table=table, number=number, deal=DealInput(result="draw"), entered_by=referee)

    with pytest.raises(ValidationError) as error:
        record_deal(table=table, number=3, deal=DealInput(result="draw"), entered_by=referee)

    assert error.value.code == "game_complete"
    assert check_end_game(table=table, ended_by_time=False) == 2


def _short_game():
    """MCR with games of two hands."""
    return replace(get_preset("mcr"), hands_per_game=2)


def test_a_false_wins_reason_is_shown_in_the_readers_language(table, referee, east):
    penalty = record_false_win(
        table=table, number=1, offender=east, invalid_hand=False, entered_by=referee
    )

    assert penalty.reason_text == "False win in hand 1"
    with translation.override("zh-hans"):
        shown = penalty.reason_text
    assert "错和" in shown and "False win" not in shown and "1" in shown
    penalty.reason = "Declared on a wrong tile"  # typed by a person: shown as typed
    with translation.override("zh-hans"):
        assert penalty.reason_text == "Declared on a wrong tile"
