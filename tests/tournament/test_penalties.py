"""False wins, deductions and distributed penalties."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournament.services import DealInput, record_deal, record_false_win, record_penalty

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
        record_deal(
            table=table,
            number=1,
            deal=DealInput(result="win", winner=south, fan=8),
            entered_by=referee,
        )
    assert error.value.code == "offender_cannot_win"


def test_another_player_can_still_win_after_a_false_win(table, referee, south, north, scores):
    record_false_win(table=table, number=1, offender=south, invalid_hand=False, entered_by=referee)
    record_deal(
        table=table,
        number=1,
        deal=DealInput(result="win", winner=north, discarder=south, fan=8),
        entered_by=referee,
    )
    assert scores(table) == [10 - 8, -30 - 16, 10 - 8, 10 + 32]


def test_offender_can_win_the_next_hand(table, referee, south):
    record_false_win(table=table, number=1, offender=south, invalid_hand=False, entered_by=referee)
    record_deal(table=table, number=1, deal=DealInput(result="draw"), entered_by=referee)
    hand = record_deal(
        table=table, number=2, deal=DealInput(result="win", winner=south, fan=8), entered_by=referee
    )
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
        deal_number=3, entered_by=referee,
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
        deal_number=1, entered_by=organiser,
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


# --- What a preset's rulebook allows --------------------------------------------------------


def under(table, preset):
    tournament = table.round.tournament
    tournament.preset, tournament.seat_rotation = preset, "none"
    tournament.save()
    return table


@pytest.fixture
def jt_table(table):
    return under(table, "japanese-transitional")


@pytest.fixture
def wa_table(table):
    return under(table, "wilmington-12-tile")


@pytest.mark.parametrize("invalid_hand", [False, True])
def test_a_jt_false_win_is_refused_and_nothing_is_saved(
    jt_table, referee, south, scores, invalid_hand
):
    from tournament.models import AuditEntry, Penalty

    with pytest.raises(ValidationError) as error:
        record_false_win(
            table=jt_table, number=1, offender=south, invalid_hand=invalid_hand,
            entered_by=referee,
        )  # fmt: skip

    assert error.value.code == "faulty_out_ends_deal"
    assert "record the deal as a faulty out" in error.value.messages[0]
    assert not Penalty.objects.exists() and not AuditEntry.objects.exists()
    assert scores(jt_table) == [0, 0, 0, 0]


def test_a_jt_faulty_out_is_the_deals_result_with_its_money(jt_table, referee, south, scores):
    hand = record_deal(
        table=jt_table,
        number=1,
        deal=DealInput(result="faulty_out", offender=south),
        entered_by=referee,
    )
    # Spec §11: a non-East offender pays 750 to each, 1,500 to East: -3,000.
    assert hand.payments == [1500, -3000, 750, 750]
    assert scores(jt_table) == [1500, -3000, 750, 750]


def test_a_wa_faulty_out_is_a_penalty_of_forty_to_each(wa_table, referee, south, scores):
    record_false_win(
        table=wa_table, number=1, offender=south, invalid_hand=False, entered_by=referee
    )
    assert scores(wa_table) == [40, -120, 40, 40]


@pytest.mark.parametrize("points", [5, 60, 1500, 1000])
def test_a_jt_deduction_is_5_to_1500(jt_table, referee, east, scores, points):
    record_penalty(
        table=jt_table, player=east, points=points, distributed=False, reason="Foul",
        entered_by=referee,
    )  # fmt: skip
    assert scores(jt_table) == [-points, 0, 0, 0]


@pytest.mark.parametrize("points", [4, 12, 61, 1505, 1510])
def test_a_jt_deduction_outside_its_scale_is_refused_with_its_range(
    jt_table, referee, east, points
):
    from tournament.models import Penalty

    with pytest.raises(ValidationError) as error:
        record_penalty(
            table=jt_table, player=east, points=points, distributed=False, reason="Foul",
            entered_by=referee,
        )  # fmt: skip
    assert error.value.code == "deduction_out_of_range"
    assert error.value.messages == ["A deduction is 5 to 1,500 points, a multiple of 5."]
    assert not Penalty.objects.exists()


@pytest.mark.parametrize("points", [61, 65, 1500])
def test_mcr_and_wa_deductions_stay_5_to_60(table, referee, east, points):
    for preset in ("mcr", "wilmington-12-tile"):
        under(table, preset)
        with pytest.raises(ValidationError) as error:
            record_penalty(
                table=table, player=east, points=points, distributed=False, reason="Foul",
                entered_by=referee,
            )  # fmt: skip
        assert error.value.messages == ["A deduction is 5 to 60 points."]


def test_a_jt_deduction_corrected_beyond_its_scale_is_refused(
    jt_table, referee, organiser, east, scores
):
    from tournament.services import correct_penalty

    penalty = record_penalty(
        table=jt_table, player=east, points=500, distributed=False, reason="Late",
        entered_by=referee,
    )  # fmt: skip
    with pytest.raises(ValidationError) as error:
        correct_penalty(
            penalty=penalty, player=east, points=1600, distributed=False, reason="Late",
            entered_by=organiser,
        )  # fmt: skip
    assert error.value.code == "deduction_out_of_range"
    penalty.refresh_from_db()
    assert penalty.points == 500 and scores(jt_table) == [-500, 0, 0, 0]
