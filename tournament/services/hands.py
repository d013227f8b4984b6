"""Recording and correcting the result of a hand."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.engine import score_case
from scoring.engine.settlement import hand_payments
from scoring.engine_messages import engine_message
from tournament.models import (
    FALSE_WIN_KINDS,
    AuditEntry,
    Hand,
    Player,
    Seat,
    Table,
)
from tournament.rotation import prevailing_wind, seat_wind
from tournament.services._common import (
    audit,
    hand_snapshot,
    lock_table,
    recompute_scores,
    refuse_after_end,
    refuse_before_play,
    refuse_unless_playing,
    replayed,
    seat_of,
    seats_of,
)
from tournament.services.games import refuse_confirmed_unless_organiser


@transaction.atomic
def record_hand(
    *,
    table: Table,
    number: int,
    result: str,
    winner: Player | None = None,
    discarder: Player | None = None,
    fan: int | None = None,
    flowers: int = 0,
    tiles: dict[str, Any] | None = None,
    entered_by: User,
    submission: uuid.UUID | str | None = None,
) -> Hand:
    """Record the next hand of the game at `table`.

    A discarder of None means a self-drawn win. When `tiles` (the case format) are given, the
    engine scores them for the winner's seat wind and the prevailing wind; `fan` and `flowers`
    are then filled in, or must agree with it.

    `submission` is the idempotency key of the form or request: when a hand with that key is
    already recorded at the table, that hand is returned (marked ``replayed``) and nothing new
    is recorded, so a resubmission after a lost connection is harmless.
    """
    table = lock_table(table)
    earlier = replayed(Hand, table, submission)
    if earlier is not None:
        return earlier
    refuse_unless_playing(table)
    refuse_after_end(table)
    last = _last_number(table) or 0
    if number <= last:
        raise _conflict(table, number)
    if number != last + 1:
        raise ValidationError(
            _("Hands are entered in order: the next hand at table %(table)s is hand %(next)s."),
            code="out_of_order",
            params={"table": table.number, "next": last + 1},
        )
    hands = table.round.tournament.rules.hands_per_game
    if number > hands:
        raise ValidationError(
            _("A game has %(hands)s hands."), code="game_complete", params={"hands": hands}
        )
    seats = seats_of(table)
    hand = Hand(
        table=table,
        number=number,
        entered_by=entered_by,
        entered_at=timezone.now(),
        submission=submission,
    )
    _fill_in(hand, table, seats, result, winner, discarder, fan, flowers, tiles)
    try:
        with transaction.atomic():
            hand.save()
    except IntegrityError as error:
        raise _conflict(table, number) from error
    recompute_scores(table, seats)
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.HAND_RECORDED,
        before=None,
        after=hand_snapshot(hand),
    )
    return hand


@transaction.atomic
def correct_hand(
    *,
    hand: Hand,
    result: str,
    winner: Player | None = None,
    discarder: Player | None = None,
    fan: int | None = None,
    flowers: int = 0,
    tiles: dict[str, Any] | None = None,
    entered_by: User,
) -> Hand:
    """Replace an entered hand; the game scores after it are recomputed and the change audited.

    Once the game's sheet is confirmed, only an organiser corrects it.
    """
    table = lock_table(hand.table)
    refuse_before_play(table)
    refuse_confirmed_unless_organiser(table, entered_by)
    hand = Hand.objects.select_related("winner__player", "discarder__player", "entered_by").get(
        pk=hand.pk
    )
    before = hand_snapshot(hand)
    seats = seats_of(table)
    _fill_in(hand, table, seats, result, winner, discarder, fan, flowers, tiles)
    hand.entered_by = entered_by
    hand.entered_at = timezone.now()
    hand.save()
    recompute_scores(table, seats)
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.HAND_CORRECTED,
        before=before,
        after=hand_snapshot(hand),
    )
    return hand


@transaction.atomic
def correct_last_hand(
    *,
    table: Table,
    number: int,
    result: str,
    winner: Player | None = None,
    discarder: Player | None = None,
    fan: int | None = None,
    flowers: int = 0,
    entered_by: User,
) -> Hand:
    """The referee's correction at the table: only the last hand, and only while the game is
    open and the round in play (the organiser corrects anything with `correct_hand`).

    A correction sent again, to a hand that already has exactly these values, changes nothing:
    the hand is returned marked ``unchanged = True``.
    """
    table = lock_table(table)
    hand = (
        table.hands.select_related("winner__player", "discarder__player")
        .filter(number=number)
        .first()
    )
    if hand is not None and _has_result(hand, result, winner, discarder, fan, flowers):
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
    return correct_hand(
        hand=hand,
        result=result,
        winner=winner,
        discarder=discarder,
        fan=fan,
        flowers=flowers,
        entered_by=entered_by,
    )


def _has_result(
    hand: Hand,
    result: str,
    winner: Player | None,
    discarder: Player | None,
    fan: int | None,
    flowers: int,
) -> bool:
    """Whether `hand` already records this result (the values a referee corrects)."""
    if result != hand.result:
        return False
    if result == Hand.Result.DRAW:
        return True
    return (
        winner is not None
        and hand.winner is not None
        and hand.winner.player_id == winner.pk
        and (hand.discarder.player_id if hand.discarder else None)
        == (discarder.pk if discarder else None)
        and hand.fan == fan
        and hand.flowers == flowers
    )


def _last_number(table: Table) -> int | None:
    return table.hands.aggregate(last=Max("number"))["last"]


@transaction.atomic
def remove_last_hand(*, table: Table, entered_by: User, number: int | None = None) -> Hand:
    """Delete the last hand entered at `table` (entered by mistake); the game must not have ended.

    `number` is the hand the caller saw as the last one: when another hand has been entered
    since, nothing is removed (`not_last_hand`). False wins recorded for that hand stay: remove
    them separately if they were mistakes too.
    """
    table = lock_table(table)
    refuse_before_play(table)
    refuse_after_end(table)
    hand = (
        table.hands.select_related("winner__player", "discarder__player", "entered_by")
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


def _conflict(table: Table, number: int) -> ValidationError:
    existing = Hand.objects.select_related("entered_by").filter(table=table, number=number).first()
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


def _fill_in(
    hand: Hand,
    table: Table,
    seats: list[Seat],
    result: str,
    winner: Player | None,
    discarder: Player | None,
    fan: int | None,
    flowers: int,
    tiles: dict[str, Any] | None,
) -> None:
    """Check a hand's result and set its fields and payments; raises ValidationError."""
    if result == Hand.Result.DRAW:
        if winner or discarder or fan is not None or flowers or tiles:
            raise ValidationError(
                _("A drawn hand has no winner, discarder, fan, flowers or tiles."),
                code="draw_has_no_winner",
            )
        hand.result, hand.winner, hand.discarder = Hand.Result.DRAW, None, None
        hand.fan, hand.flowers, hand.tiles = None, 0, None
        hand.east_points = hand.south_points = hand.west_points = hand.north_points = 0
        return
    if result != Hand.Result.WIN:
        raise ValidationError(
            _("The result of a hand is a win or a draw, not %(result)r."),
            code="bad_result",
            params={"result": result},
        )
    if winner is None:
        raise ValidationError(_("A win needs a winner."), code="winner_required")
    winner_seat = seat_of(seats, winner, "winner")
    discarder_seat = seat_of(seats, discarder, "discarder") if discarder else None
    if discarder_seat == winner_seat:
        raise ValidationError(
            _("The winner cannot have discarded the winning tile."), code="discarder_is_winner"
        )
    tournament = table.round.tournament
    preset = tournament.rules
    if table.penalties.filter(
        hand_number=hand.number, seat=winner_seat, kind__in=FALSE_WIN_KINDS
    ).exists():
        raise ValidationError(
            _("%(player)s declared a false win in hand %(number)s and cannot win it."),
            code="offender_cannot_win",
            params={"player": winner.name, "number": hand.number},
        )
    if tiles is not None:
        fan, flowers, tiles = _score_tiles(
            tournament.profile,
            tournament.seat_rotation,
            preset.hand_scoring_available,
            hand.number,
            winner_seat,
            discarder_seat,
            fan,
            flowers,
            tiles,
        )
    if fan is None:
        raise ValidationError(_("A win needs its fan (or its tiles)."), code="fan_required")
    if flowers and not preset.flowers:
        raise ValidationError(_("This tournament's rules have no flowers."), code="bad_flowers")
    if fan + (flowers if preset.flowers_count_toward_minimum else 0) < preset.minimum:
        raise ValidationError(
            _(
                "A win needs at least %(minimum)s fan, not counting flowers; "
                "%(fan)s is a false win."
            ),
            code="below_minimum",
            params={"minimum": preset.minimum, "fan": fan},
        )
    if not 0 <= flowers <= 8:
        raise ValidationError(_("Flowers are 0 to 8."), code="bad_flowers")
    payments = hand_payments(
        winner=winner_seat.index,
        discarder=discarder_seat.index if discarder_seat else None,
        value=fan + flowers,
        preset=preset,
    )
    hand.result, hand.winner, hand.discarder = Hand.Result.WIN, winner_seat, discarder_seat
    hand.fan, hand.flowers, hand.tiles = fan, flowers, tiles
    hand.east_points, hand.south_points, hand.west_points, hand.north_points = payments


def _score_tiles(
    profile: str,
    scheme: str,
    scoring_available: bool,
    number: int,
    winner: Seat,
    discarder: Seat | None,
    fan: int | None,
    flowers: int,
    tiles: dict[str, Any],
) -> tuple[int, int, dict[str, Any]]:
    if not scoring_available:
        raise ValidationError(
            _("This tournament's rule preset cannot score tiles yet; enter the fan."),
            code="scoring_unavailable",
        )
    case = {
        **tiles,
        "seat_wind": seat_wind(scheme=scheme, starting_seat=winner.index, number=number),
        "prevalent_wind": prevailing_wind(number),
        "self_drawn": discarder is None,
        "flowers": tiles.get("flowers", flowers),
    }
    verdict = score_case(case, profile=profile)
    if verdict.error == "BELOW_8_FAN":
        raise ValidationError(
            _("These tiles are worth %(fan)s fan without flowers: a false win, not a win."),
            code="below_minimum",
            params={"fan": verdict.total_excl_flowers},
        )
    if verdict.error:
        raise ValidationError(engine_message(verdict), code="invalid_tiles")
    # A win (no error) has both totals.
    assert verdict.total is not None and verdict.total_excl_flowers is not None
    scored_fan = verdict.total_excl_flowers
    scored_flowers = verdict.total - verdict.total_excl_flowers
    if (fan is not None and fan != scored_fan) or (flowers and flowers != scored_flowers):
        raise ValidationError(
            _("The tiles score %(fan)s fan and %(flowers)s flowers, not what was entered."),
            code="fan_mismatch",
            params={"fan": scored_fan, "flowers": scored_flowers},
        )
    return scored_fan, scored_flowers, case
