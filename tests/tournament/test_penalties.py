"""False wins, deductions and distributed penalties."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournament.services import record_false_win, record_hand, record_penalty

pytestmark = pytest.mark.django_db


def test_false_win_pays_ten_to_each(table, referee, south, scores):
    record_false_win(table=table, number=1, offender=south, invalid_hand=False, entered_by=referee)
    assert scores(table) == [10, -30, 10, 10]


def test_false_win_with_invalid_hand_pays_twenty_to_each(table, referee, west, scores):
    record_false_win(table=table, number=1, offender=west, invalid_hand=True, entered_by=referee)
    assert scores(table) == [20, 20, -60, 20]


def test_false_win_offender_cannot_win_that_hand(table, referee, south):
    record_false_win(table=table, number=1, offender=south, invalid_hand=False, entered_by=referee)
    with pytest.raises(ValidationError) as error:
        record_hand(table=table, number=1, result="win", winner=south, fan=8, entered_by=referee)
    assert error.value.code == "offender_cannot_win"


def test_another_player_can_still_win_after_a_false_win(table, referee, south, north, scores):
    record_false_win(table=table, number=1, offender=south, invalid_hand=False, entered_by=referee)
    record_hand(
        table=table, number=1, result="win", winner=north, discarder=south, fan=8,
        entered_by=referee,
    )  # fmt: skip
    assert scores(table) == [10 - 8, -30 - 16, 10 - 8, 10 + 32]


def test_offender_can_win_the_next_hand(table, referee, south):
    record_false_win(table=table, number=1, offender=south, invalid_hand=False, entered_by=referee)
    record_hand(table=table, number=1, result="draw", entered_by=referee)
    hand = record_hand(table=table, number=2, result="win", winner=south, fan=8, entered_by=referee)
    assert hand.payments == [-16, 48, -16, -16]


def test_deduction_is_not_given_to_anyone(table, referee, east, scores):
    record_penalty(
        table=table, player=east, points=20, distributed=False, reason="Late", entered_by=referee
    )
    assert scores(table) == [-20, 0, 0, 0]


@pytest.mark.parametrize("points", [0, 4, 65])
def test_deduction_outside_five_to_sixty_is_refused(table, referee, east, points):
    with pytest.raises(ValidationError) as error:
        record_penalty(
            table=table, player=east, points=points, distributed=False, reason="Foul",
            entered_by=referee,
        )  # fmt: skip
    assert error.value.code == "deduction_out_of_range"


def test_distributed_penalty_is_shared_by_the_other_three(table, referee, north, scores):
    record_penalty(
        table=table, player=north, points=30, distributed=True, reason="Exposed hand",
        hand_number=3, entered_by=referee,
    )  # fmt: skip
    assert scores(table) == [10, 10, 10, -30]


def test_penalty_needs_a_reason(table, referee, north):
    with pytest.raises(ValidationError) as error:
        record_penalty(
            table=table, player=north, points=10, distributed=False, reason=" ",
            entered_by=referee,
        )  # fmt: skip
    assert error.value.code == "reason_required"


def test_penalty_is_corrected_and_scores_follow(table, referee, organiser, east, south, scores):
    from tournament.models import AuditEntry
    from tournament.services import correct_penalty

    penalty = record_penalty(
        table=table, player=east, points=20, distributed=False, reason="Late", entered_by=referee
    )
    correct_penalty(
        penalty=penalty, player=south, points=30, distributed=True, reason="Slow play",
        entered_by=organiser,
    )  # fmt: skip
    assert scores(table) == [10, -30, 10, 10]
    penalty.refresh_from_db()
    assert (penalty.kind, penalty.reason) == ("distributed", "Slow play")
    entry = AuditEntry.objects.get(action="penalty_corrected")
    assert entry.before["points"] == 20 and entry.after["player"] == south.key


def test_false_win_keeps_its_kind_when_corrected(table, referee, organiser, south):
    from tournament.services import correct_penalty

    penalty = record_false_win(
        table=table, number=1, offender=south, invalid_hand=False, entered_by=referee
    )
    correct_penalty(
        penalty=penalty, player=south, points=60, distributed=True, reason="Invalid hand",
        hand_number=1, entered_by=organiser,
    )  # fmt: skip
    penalty.refresh_from_db()
    assert penalty.kind == "false_win"


def test_bad_correction_changes_nothing(table, referee, organiser, east, scores):
    from tournament.services import correct_penalty

    penalty = record_penalty(
        table=table, player=east, points=20, distributed=False, reason="Late", entered_by=referee
    )
    with pytest.raises(ValidationError) as error:
        correct_penalty(
            penalty=penalty, player=east, points=20, distributed=True, reason="Late",
            entered_by=organiser,
        )  # fmt: skip
    assert error.value.code == "not_divisible"
    penalty.refresh_from_db()
    assert (penalty.points, penalty.distributed) == (20, False)
    assert scores(table) == [-20, 0, 0, 0]


def test_removed_penalty_no_longer_counts(table, referee, organiser, west, scores):
    from tournament.models import AuditEntry
    from tournament.services import remove_penalty

    penalty = record_false_win(
        table=table, number=1, offender=west, invalid_hand=True, entered_by=referee
    )
    remove_penalty(penalty=penalty, entered_by=organiser)
    assert scores(table) == [0, 0, 0, 0]
    assert AuditEntry.objects.get(action="penalty_removed").before["kind"] == "false_win_invalid"
