"""False wins, deductions and other penalties."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engine.presets import RulePreset
from scoring.engine.rulebook import PenaltyScale, rulebook_for
from scoring.engine.settlement import false_win_points
from tournament.models import (
    FALSE_WIN_KINDS,
    AuditEntry,
    Deal,
    Penalty,
    PenaltyKind,
    Player,
    Seat,
    Table,
)
from tournament.reads import deals
from tournament.reads.permissions import is_organiser
from tournament.services._common import (
    audit,
    lock_table,
    penalty_snapshot,
    recompute_scores,
    refuse_after_end,
    refuse_before_play,
    refuse_unless_playing,
    replayed,
    seat_of,
    seats_of,
    submission_key,
)
from tournament.services.as_recorded import AsRecorded, keep_as_recorded
from tournament.services.games import refuse_confirmed_unless_organiser


@transaction.atomic
def record_false_win(
    *,
    table: Table,
    number: int,
    offender: Player,
    invalid_hand: bool,
    entered_by: User,
    submission: uuid.UUID | str | None = None,
    reason: str = "",
    as_recorded: AsRecorded | None = None,
) -> Penalty:
    """A declared win that is not one: the offender pays each other player; may not win the hand.

    `invalid_hand` is for wrong tiles or a wrong count (20 each under MCR); otherwise the hand
    was worth less than the minimum (10 each). `submission` is the idempotency key, as for
    `record_deal`. `reason`: the reason to store, when not the automatic one (an import keeps
    the recorded one). `as_recorded` (an import): who entered it and when, as for
    `record_deal`.
    """
    key = submission_key(
        submission,
        user=entered_by,
        kind="false_win",
        number=number,
        offender=offender,
        invalid_hand=invalid_hand,
    )
    table = lock_table(table)
    earlier = replayed(Penalty, table, key)
    if earlier is not None:
        return earlier
    refuse_unless_playing(table)
    refuse_confirmed_unless_organiser(table, entered_by)
    if not is_organiser(entered_by, table.round.tournament):  # an organiser's is a correction
        refuse_after_end(table, what="penalty")
    seats = seats_of(table)
    penalty = prepare_false_win(
        table=table,
        seats=seats,
        number=number,
        offender=offender,
        invalid_hand=invalid_hand,
        last=table.deals.aggregate(last=Max("number"))["last"] or 0,
        in_play=table.ended_at is None and deals.next_deal(table) is not None,
        hand=table.deals.filter(number=number).first(),
        entered_by=entered_by,
    )
    penalty.reason = reason.strip() or penalty.reason
    keep_as_recorded(penalty, as_recorded)
    for name, value in (key.fields() if key else {}).items():
        setattr(penalty, name, value)
    penalty.save()
    return _finish(table, seats, penalty, entered_by)


def prepare_false_win(
    *,
    table: Table,
    seats: list[Seat],
    number: int,
    offender: Player,
    invalid_hand: bool,
    last: int,
    in_play: bool,
    hand: Deal | None,
    entered_by: User,
) -> Penalty:
    """The false win of `offender` in hand `number`, checked as `record_false_win` checks it,
    not saved. `last` is the number of the last hand recorded at the table, `in_play` whether
    a hand is in play after it, `hand` the recorded hand of that number (None: none)."""
    preset = table.round.tournament.rules
    refuse_false_win_unless_penalty(preset)
    seat = seat_of(seats, offender, "offender")
    if not 1 <= number <= (last + 1 if in_play else last):
        raise ValidationError(
            _("A false win belongs to a hand already entered or to the hand in play."),
            code="bad_hand_number",
        )
    if hand is not None and hand.winner_id == seat.pk:
        raise ValidationError(
            _("%(player)s is recorded as the winner of hand %(number)s; correct that hand first."),
            code="offender_won",
            params={"player": offender.name, "number": number},
        )
    kind = Penalty.Kind.FALSE_WIN_INVALID_HAND if invalid_hand else Penalty.Kind.FALSE_WIN
    return Penalty(
        table=table,
        seat=seat,
        kind=kind,
        points=false_win_points(invalid_hand=invalid_hand, preset=preset),
        distributed=True,
        reason=_false_win_reason(kind, number),
        deal_number=number,
        entered_by=entered_by,
    )


def refuse_false_win_unless_penalty(preset: RulePreset) -> None:
    """Refuse a false-win penalty under a preset whose faulty out is a result of its own that
    ends the deal (JT): the deal is recorded as a faulty out instead."""
    if rulebook_for(preset).faulty_out_result:
        raise ValidationError(
            _(
                "Under this tournament's rules a declared win that is not one is a faulty out, "
                "which ends the deal: record the deal as a faulty out, not a false win."
            ),
            code="faulty_out_ends_deal",
        )


def _bounds(scale: PenaltyScale) -> dict[str, str | int]:
    return {
        "least": number_format(scale.least, force_grouping=True),
        "most": number_format(scale.most, force_grouping=True),
        "step": scale.step,
    }


def scale_words(scale: PenaltyScale) -> str:
    """The deductions `scale` allows, for a label: "5 to 60", "5 to 1,500, a multiple of 5"."""
    if scale.step > 1:
        return gettext("%(least)s to %(most)s, a multiple of %(step)s") % _bounds(scale)
    return gettext("%(least)s to %(most)s") % _bounds(scale)


def deduction_range(scale: PenaltyScale) -> str:
    """The deductions `scale` allows, in a sentence: "A deduction is 5 to 60 points." """
    if scale.step > 1:
        text = gettext("A deduction is %(least)s to %(most)s points, a multiple of %(step)s.")
    else:
        text = gettext("A deduction is %(least)s to %(most)s points.")
    return text % _bounds(scale)


def _false_win_reason(kind: PenaltyKind, number: int) -> str:
    """The reason stored with a false win (see `Penalty.automatic_reason`)."""
    return Penalty.automatic_reason(kind, number)


@transaction.atomic
def record_penalty(
    *,
    table: Table,
    player: Player,
    points: int,
    distributed: bool,
    reason: str,
    deal_number: int | None = None,
    entered_by: User,
    submission: uuid.UUID | str | None = None,
    as_recorded: AsRecorded | None = None,
) -> Penalty:
    """A penalty with its reason: distributed to the other three players, or a deduction.

    `submission` is the idempotency key and `as_recorded` (an import) who entered it and
    when, as for `record_deal`.
    """
    key = submission_key(
        submission,
        user=entered_by,
        kind="penalty",
        player=player,
        points=points,
        distributed=distributed,
        reason=reason.strip(),
        hand_number=deal_number,  # the name keys stored before the rename were made with
    )
    table = lock_table(table)
    earlier = replayed(Penalty, table, key)
    if earlier is not None:
        return earlier
    refuse_unless_playing(table)
    refuse_confirmed_unless_organiser(table, entered_by)
    if not is_organiser(entered_by, table.round.tournament):  # an organiser's is a correction
        refuse_after_end(table, what="penalty")
    seats = seats_of(table)
    penalty = prepare_penalty(
        table=table,
        seats=seats,
        player=player,
        points=points,
        distributed=distributed,
        reason=reason,
        deal_number=deal_number,
        entered_by=entered_by,
    )
    keep_as_recorded(penalty, as_recorded)
    for name, value in (key.fields() if key else {}).items():
        setattr(penalty, name, value)
    penalty.save()
    return _finish(table, seats, penalty, entered_by)


def prepare_penalty(
    *,
    table: Table,
    seats: list[Seat],
    player: Player,
    points: int,
    distributed: bool,
    reason: str,
    deal_number: int | None,
    entered_by: User,
    deals_so_far: int | None = None,
) -> Penalty:
    """The penalty, checked as `record_penalty` checks it, not saved. `deals_so_far`: the deals
    a penalty may belong to in a game of no fixed length, when the caller knows them (None:
    read from the database)."""
    seat = seat_of(seats, player, "penalised player")
    _check_penalty(table, points, distributed, reason, deal_number, deals_so_far)
    return Penalty(
        table=table,
        seat=seat,
        kind=Penalty.Kind.DISTRIBUTED if distributed else Penalty.Kind.DEDUCTION,
        points=points,
        distributed=distributed,
        reason=reason.strip(),
        deal_number=deal_number,
        entered_by=entered_by,
    )


@transaction.atomic
def correct_penalty(
    *,
    penalty: Penalty,
    player: Player,
    points: int,
    distributed: bool,
    reason: str,
    deal_number: int | None = None,
    entered_by: User,
) -> Penalty:
    """Change a recorded penalty; the game scores are recomputed and the change audited.

    A false win keeps its kind when it stays distributed; otherwise the kind follows
    `distributed` (a distributed penalty or a deduction).
    """
    table = lock_table(penalty.table)
    refuse_before_play(table)
    refuse_confirmed_unless_organiser(table, entered_by)
    penalty = Penalty.objects.select_related("seat__player").get(pk=penalty.pk)
    before = penalty_snapshot(penalty)
    seats = seats_of(table)
    seat = seat_of(seats, player, "penalised player")
    _check_penalty(table, points, distributed, reason, deal_number)
    if not (distributed and penalty.kind in FALSE_WIN_KINDS):
        penalty.kind = Penalty.Kind.DISTRIBUTED if distributed else Penalty.Kind.DEDUCTION
    penalty.seat = seat
    penalty.points = points
    penalty.distributed = distributed
    penalty.reason = reason.strip()
    penalty.deal_number = deal_number
    penalty.entered_by = entered_by
    penalty.save()
    recompute_scores(table, seats)
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.PENALTY_CORRECTED,
        before=before,
        after=penalty_snapshot(penalty),
    )
    return penalty


@transaction.atomic
def remove_penalty(*, penalty: Penalty, entered_by: User) -> None:
    """Delete a penalty recorded by mistake; the scores are recomputed and the removal audited."""
    table = lock_table(penalty.table)
    refuse_before_play(table)
    refuse_confirmed_unless_organiser(table, entered_by)
    penalty = Penalty.objects.select_related("seat__player").get(pk=penalty.pk)
    before = penalty_snapshot(penalty)
    penalty.delete()
    recompute_scores(table, seats_of(table))
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.PENALTY_REMOVED,
        before=before,
        after=None,
    )


def _deals_so_far(table: Table) -> int:
    """The deals a penalty of a game of no fixed length may belong to: those recorded and the
    one in play."""
    return (table.deals.aggregate(last=Max("number"))["last"] or 0) + 1


def _check_penalty(
    table: Table,
    points: int,
    distributed: bool,
    reason: str,
    deal_number: int | None,
    deals_so_far: int | None = None,
) -> None:
    if not reason.strip():
        raise ValidationError(_("Give the reason for the penalty."), code="reason_required")
    hands = table.round.tournament.rules.hands_per_game or deals_so_far or _deals_so_far(table)
    if deal_number is not None and not 1 <= deal_number <= hands:
        raise ValidationError(
            _("Hands are numbered 1 to %(hands)s."),
            code="bad_hand_number",
            params={"hands": hands},
        )
    if distributed and (points <= 0 or points % 3):
        raise ValidationError(
            _("A distributed penalty is shared equally by three players: use a multiple of 3."),
            code="not_divisible",
        )
    scale = table.round.tournament.rulebook.penalty_scale
    if not distributed and not scale.allows(points):
        raise ValidationError(deduction_range(scale), code="deduction_out_of_range")


def _finish(table: Table, seats: list[Seat], penalty: Penalty, entered_by: User) -> Penalty:
    recompute_scores(table, seats)
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.PENALTY_RECORDED,
        before=None,
        after=penalty_snapshot(penalty),
    )
    return penalty
