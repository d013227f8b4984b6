"""Recording, correcting and removing deals (MCR: hands): the game's order, the idempotency
of a submission, the scores and the audit. What a deal is and how it is checked:
`tournament.services.deal_input`."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import AuditEntry, Deal, ExtraWin, Seat, Table, Tournament
from tournament.reads import deals
from tournament.services._common import (
    add_to_scores,
    audit,
    hand_snapshot,
    lock_table,
    recompute_scores,
    refuse_after_end,
    refuse_before_play,
    refuse_unless_playing,
    replayed,
    seats_of,
    submission_key,
)
from tournament.services.as_recorded import AsRecorded, keep_as_recorded
from tournament.services.deal_input import DealInput, fill_in
from tournament.services.games import refuse_confirmed_unless_organiser


@transaction.atomic
def record_deal(
    *,
    table: Table,
    number: int,
    deal: DealInput,
    entered_by: User,
    submission: uuid.UUID | str | None = None,
    as_recorded: AsRecorded | None = None,
) -> Deal:
    """Record `deal` as the next deal (MCR: hand) `number` of the game at `table`, checked
    under the tournament's preset (see `DealInput`). The deal's position (prevailing wind,
    dealer, extra-hand number) follows from the deals before it, and its payments from its
    facts.

    `submission` is the idempotency key of the form or request: when `entered_by` already
    recorded a deal at the table with that key and the same number and deal, that deal is
    returned (marked ``replayed``) and nothing new is recorded, so a resubmission after a lost
    connection is harmless; the key sent again with another deal is refused
    (`submission_key_reused`).

    `as_recorded` (an import): the deal keeps who entered it and when as the record says; the
    audit names `entered_by`, now.
    """
    key = submission_key(submission, user=entered_by, kind="hand", number=number, **deal.sent())
    table = lock_table(table)
    earlier = replayed(Deal, table, key)
    if earlier is not None:
        return earlier
    seats = seats_of(table, false_wins_in=number)
    hand, extra = prepare_deal(
        table=table,
        seats=seats,
        last=deals.last_deal(table),
        number=number,
        deal=deal,
        entered_by=entered_by,
    )
    now = hand.entered_at
    keep_as_recorded(hand, as_recorded)
    for name, value in (key.fields() if key else {}).items():
        setattr(hand, name, value)
    try:
        # No savepoint: with the table locked and its last hand read under the lock, the
        # constraint is only a backstop. Should it fire, the error leaves this transaction at
        # once (nothing more may be asked in it), rolled back.
        hand.save()
    except IntegrityError as error:
        raise _conflict(table, number, look=False) from error
    _save_extra_wins(hand, extra)
    add_to_scores(seats, hand.payments)
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.HAND_RECORDED,
        before=None,
        after=recorded_snapshot(hand, entered_by, now),
    )
    return hand


def recorded_snapshot(hand: Deal, entered_by: User, entered_at: datetime) -> dict[str, Any]:
    """A new deal as its audit entry keeps it: entered by `entered_by` at `entered_at` (the
    user the service acted for, and when), whatever the deal keeps as recorded."""
    return hand_snapshot(hand) | {
        "entered_by": entered_by.get_username(),
        "entered_at": entered_at.isoformat(),
    }


def check_results_open(*, table: Table) -> None:
    """Whether results may be entered at `table` now: raises why not (its round is not in
    play). Changes nothing: the referee's screen asks it to say why its forms are closed."""
    refuse_unless_playing(table)


def prepare_deal(
    *,
    table: Table,
    seats: list[Seat],
    last: Deal | None,
    number: int,
    deal: DealInput,
    entered_by: User,
    false_wins: set[tuple[int, int]] | None = None,
) -> tuple[Deal, list[ExtraWin]]:
    """The deal `number` after `last` at `table` (its round and tournament loaded; `seats` in
    starting order), checked as `record_deal` checks it, placed and paid: not saved, with its
    further winners (to save after it). Raises ValidationError.

    `false_wins` holds the (hand number, seat id) of the false wins recorded at the table,
    when the caller knows them (a game built in memory); None: they are read from the
    database. Everything else is read from the arguments.
    """
    refuse_unless_playing(table)
    refuse_after_end(table)
    last_number = last.number if last else 0
    if number <= last_number:
        raise _conflict(table, number)
    if number != last_number + 1:
        raise ValidationError(
            _("Hands are entered in order: the next hand at table %(table)s is hand %(next)s."),
            code="out_of_order",
            params={"table": table.number, "next": last_number + 1},
        )
    at = deals.following(table.round.tournament, last)
    if at is None:
        raise _game_over(table.round.tournament)
    hand = Deal(table=table, number=number, entered_by=entered_by, entered_at=timezone.now())
    extra = fill_in(hand, table, seats, at, deal, false_wins)
    return hand, extra


@transaction.atomic
def correct_deal(*, hand: Deal, deal: DealInput, entered_by: User) -> Deal:
    """Replace a recorded deal by `deal` (checked as `record_deal` checks it). Every deal after
    it is placed again (who deals, the extra-hand numbers) and paid again, the game scores are
    recomputed and the change audited.

    Once the game's sheet is confirmed, only an organiser corrects it.
    """
    table = lock_table(hand.table)
    refuse_before_play(table)
    refuse_confirmed_unless_organiser(table, entered_by)
    hand = _with_facts(Deal.objects).select_related("entered_by").get(pk=hand.pk)
    before = hand_snapshot(hand)
    seats = seats_of(table)
    tournament = table.round.tournament
    scheme = tournament.seat_rotation
    at = deals.deal_at(deals.position_of(hand, scheme, tournament.rules), scheme)
    extra = fill_in(hand, table, seats, at, replace(deal, recorded_fan=False))
    hand.entered_by = entered_by
    hand.entered_at = timezone.now()
    hand.save()
    hand.extra_wins.all().delete()
    _save_extra_wins(hand, extra)
    _replay(table)
    recompute_scores(table, seats)
    hand = _with_facts(Deal.objects).select_related("entered_by").get(pk=hand.pk)
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.HAND_CORRECTED,
        before=before,
        after=hand_snapshot(hand),
    )
    return hand


@transaction.atomic
def correct_last_deal(*, table: Table, number: int, deal: DealInput, entered_by: User) -> Deal:
    """The referee's correction at the table: only the last hand, and only while the game is
    open and the round in play (the organiser corrects anything with `correct_deal`).

    A correction sent again, to a hand that already has exactly these values, changes nothing:
    the hand is returned marked ``unchanged = True``.
    """
    table = lock_table(table)
    hand = (
        table.deals.select_related("winner__player", "discarder__player")
        .filter(number=number)
        .first()
    )
    if hand is not None and _has_result(hand, deal):
        hand.unchanged = True
        return hand
    if table.ended_at is not None:
        raise ValidationError(
            _(
                "The game sheet is submitted, so the referee no longer corrects hands here: "
                "ask the organiser to correct hand %(number)s."
            ),
            code="game_ended",
            params={"number": number},
        )
    refuse_unless_playing(table)
    if hand is None or _last_number(table) != number:
        raise ValidationError(
            _(
                "Hand %(number)s is not the last hand entered any more; only the last hand is "
                "corrected here (the organiser corrects earlier hands). Nothing was changed."
            ),
            code="not_last_hand",
            params={"number": number},
        )
    return correct_deal(hand=hand, deal=deal, entered_by=entered_by)


def _has_result(hand: Deal, deal: DealInput) -> bool:
    """Whether `hand` already records the result of `deal` (the values a referee corrects:
    the result, winner, discarder, fan and flowers, or value)."""
    result, winner, discarder = deal.result, deal.winner, deal.discarder
    if result != hand.result:
        return False
    if result == Deal.Result.DRAW:
        return True
    return (
        winner is not None
        and hand.winner is not None
        and hand.winner.player_id == winner.pk
        and (hand.discarder.player_id if hand.discarder else None)
        == (discarder.pk if discarder else None)
        and hand.fan == deal.fan
        and hand.flowers == deal.flowers
    )


def _last_number(table: Table) -> int | None:
    return table.deals.aggregate(last=Max("number"))["last"]


def _with_facts(hands: Any) -> Any:
    """`hands` with what placing and paying a deal, and its audit snapshot, read."""
    return hands.select_related(
        "winner__player", "discarder__player", "offender__player"
    ).prefetch_related("extra_wins__winner__player")


def _game_over(tournament: Tournament) -> ValidationError:
    every = tournament.rules.hands_per_game
    if every is not None:
        return ValidationError(
            _("A game has %(hands)s hands."), code="game_complete", params={"hands": every}
        )
    return ValidationError(
        _("The game is over: its last wind round has been played. End the game."),
        code="game_complete",
    )


def _replay(table: Table) -> None:
    """Place and pay every deal of the game again, in order, after a change to one of them."""
    hands = list(_with_facts(table.deals.order_by("number")))
    try:
        changed, _next = deals.replay(table.round.tournament, hands)
    except deals.AfterTheEnd as error:
        raise ValidationError(
            _(
                "With this change the game is over before deal %(number)s: remove the deals "
                "after the end first."
            ),
            code="deals_after_end",
            params={"number": error.number},
        ) from error
    except ValueError as error:
        raise ValidationError(str(error), code="bad_deal") from error
    Deal.objects.bulk_update(changed, deals.POSITIONED + deals.PAID)


def _save_extra_wins(hand: Deal, extra: list[ExtraWin]) -> None:
    for win in extra:
        win.deal = hand
    ExtraWin.objects.bulk_create(extra)


@transaction.atomic
def remove_last_hand(*, table: Table, entered_by: User, number: int | None = None) -> Deal:
    """Delete the last hand entered at `table` (entered by mistake); the game must not have ended.

    `number` is the hand the caller saw as the last one: when another hand has been entered
    since, nothing is removed (`not_last_hand`). False wins recorded for that hand stay: remove
    them separately if they were mistakes too.
    """
    table = lock_table(table)
    refuse_before_play(table)
    refuse_after_end(table)
    hand = (
        table.deals.select_related("winner__player", "discarder__player", "entered_by")
        .order_by("-number")
        .first()
    )
    if hand is None:
        raise ValidationError(_("No hand is entered at this table yet."), code="no_hands")
    if number is not None and hand.number != number:
        raise ValidationError(
            _("Hand %(number)s is not the last hand entered any more; nothing was removed."),
            code="not_last_hand",
            params={"number": number, "last": hand.number},
        )
    before = hand_snapshot(hand)
    hand.delete()
    recompute_scores(table, seats_of(table))
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.HAND_REMOVED,
        before=before,
        after=None,
    )
    return hand


def _conflict(table: Table, number: int, *, look: bool = True) -> ValidationError:
    """The hand `number` at `table` is entered already; `look`: say by whom and when."""
    existing = None
    if look:
        existing = (
            Deal.objects.select_related("entered_by").filter(table=table, number=number).first()
        )
    if existing is None:
        who = ""
    else:
        when = timezone.localtime(existing.entered_at)
        who = f" by {existing.entered_by.get_username()} at {when:%H:%M:%S}"
    return ValidationError(
        _(
            "Hand %(number)s at table %(table)s was already entered%(who)s. Reload the score sheet "
            "to see it; to change it, correct that hand."
        ),
        code="conflict",
        params={"number": number, "table": table.number, "who": who},
    )
