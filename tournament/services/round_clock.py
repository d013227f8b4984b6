"""Starting, pausing, resuming and extending the clock of a round, and giving one table time
of its own (organisers only).

`change_clock` is the one way in for the organiser's board and the API: it takes a
`ClockAction`, holds the rule of which actions take minutes, and calls the action's service.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import AuditEntry, Round, Table
from tournament.reads.clock import ClockAction, clock_of, table_clock
from tournament.services._common import lock_table
from tournament.services.audit import record
from tournament.services.live import note_change
from tournament.services.rounds import lock_round

MAX_EXTRA_MINUTES = 120
# What a table may have of its own beyond the round's clock (Table.extra_minutes' validators).
TABLE_EXTRA_RANGE = (-60, 120)
MAX_TIME_REASON = 200


def _audit(round: Round, actor: User, event: str, **details: int) -> None:
    record(
        round.tournament_id,
        AuditEntry.Action.CLOCK,
        actor=actor,
        after={"round": round.number, "event": event, **details},
    )
    note_change(round.tournament_id)


def change_clock(
    *, round: Round, action: ClockAction | str, actor: User, minutes: int | None = None
) -> Round:
    """Do `action` to the clock of `round`: start it (for `minutes`, default the tournament's
    round time), pause it, resume it, or extend it by `minutes` (fewer when negative).

    Refused, naming the field: an action that is not a `ClockAction` (code "bad_clock_action"),
    an extension without minutes ("minutes_required"), minutes given to a pause or a resume
    ("minutes_not_taken"); then as the action's own service refuses.
    """
    if action not in ClockAction.values:
        raise ValidationError(
            {"action": ValidationError(_("Unknown clock action."), code="bad_clock_action")}
        )
    action = ClockAction(action)
    if action.needs_minutes and minutes is None:
        raise ValidationError(
            {
                "minutes": ValidationError(
                    _("Say by how many minutes to extend the round (negative to shorten it)."),
                    code="minutes_required",
                )
            }
        )
    if not action.takes_minutes and minutes is not None:
        raise ValidationError(
            {
                "minutes": ValidationError(
                    _("Only starting and extending the clock take minutes."),
                    code="minutes_not_taken",
                )
            }
        )
    if action == ClockAction.START:
        return start_clock(round=round, actor=actor, minutes=minutes)
    if action == ClockAction.PAUSE:
        return pause_clock(round=round, actor=actor)
    if action == ClockAction.RESUME:
        return resume_clock(round=round, actor=actor)
    assert minutes is not None  # an extension needs minutes (above)
    return extend_clock(round=round, actor=actor, minutes=minutes)


def _refuse_unless_playing(round: Round) -> None:
    if round.status != Round.Status.PLAYING:
        raise ValidationError(
            _("Round %(round)s is %(status)s: the clock runs only while a round is in play."),
            code="round_not_playing",
            params={"round": round.number, "status": round.get_status_display().lower()},
        )


@transaction.atomic
def start_clock(*, round: Round, actor: User, minutes: int | None = None) -> Round:
    """Start the clock of a round in play, for `minutes` (default: the tournament's)."""
    round = lock_round(round)
    _refuse_unless_playing(round)
    if round.clock_started_at is not None:
        raise ValidationError(
            _("The clock of round %(round)s has already started."),
            code="clock_started",
            params={"round": round.number},
        )
    minutes = minutes or round.tournament.round_minutes
    if not 10 <= minutes <= 600:
        raise ValidationError(
            _("A round lasts 10 to 600 minutes."), code="bad_minutes", params={"minutes": minutes}
        )
    round.clock_minutes = minutes
    round.clock_extra_minutes = 0
    round.clock_started_at = timezone.now()
    round.clock_paused_at = None
    round.clock_paused_seconds = 0
    round.save(
        update_fields=[
            "clock_minutes",
            "clock_extra_minutes",
            "clock_started_at",
            "clock_paused_at",
            "clock_paused_seconds",
        ]
    )
    _audit(round, actor, "started", minutes=minutes)
    return round


def _refuse_unless_started(round: Round) -> None:
    if round.clock_started_at is None:
        raise ValidationError(
            _("The clock of round %(round)s has not started."),
            code="clock_not_started",
            params={"round": round.number},
        )


@transaction.atomic
def pause_clock(*, round: Round, actor: User) -> Round:
    round = lock_round(round)
    _refuse_unless_started(round)
    if round.clock_paused_at is not None:
        raise ValidationError(_("The clock is already paused."), code="clock_paused")
    round.clock_paused_at = timezone.now()
    round.save(update_fields=["clock_paused_at"])
    _audit(round, actor, "paused", remaining=clock_of(round).remaining_seconds)
    return round


@transaction.atomic
def resume_clock(*, round: Round, actor: User) -> Round:
    round = lock_round(round)
    _refuse_unless_started(round)
    if round.clock_paused_at is None:
        raise ValidationError(_("The clock is not paused."), code="clock_running")
    _refuse_unless_playing(round)
    paused = timezone.now() - round.clock_paused_at
    round.clock_paused_seconds += max(0, int(paused.total_seconds()))
    round.clock_paused_at = None
    round.save(update_fields=["clock_paused_at", "clock_paused_seconds"])
    _audit(round, actor, "resumed", remaining=clock_of(round).remaining_seconds)
    return round


@transaction.atomic
def extend_clock(*, round: Round, actor: User, minutes: int) -> Round:
    """Give the round `minutes` more (or fewer, when negative) minutes."""
    round = lock_round(round)
    _refuse_unless_started(round)
    assert round.clock_minutes is not None  # start_clock sets it with clock_started_at
    extra = round.clock_extra_minutes + minutes
    if minutes == 0 or not -round.clock_minutes < extra <= MAX_EXTRA_MINUTES:
        raise ValidationError(
            _(
                "Extend the round by 1 to %(max)s minutes in all (or shorten it, while time is "
                "left)."
            ),
            code="bad_extension",
            params={"max": MAX_EXTRA_MINUTES},
        )
    round.clock_extra_minutes = extra
    round.save(update_fields=["clock_extra_minutes"])
    _audit(round, actor, "extended", minutes=minutes, remaining=clock_of(round).remaining_seconds)
    return round


@transaction.atomic
def give_table_time(*, table: Table, minutes: int, actor: User, reason: str = "") -> Table:
    """Give `table` `minutes` of its own beyond what it has (a late start, a long ruling; take
    some back when negative): its clock is the round's with `Table.extra_minutes` added, which
    must stay within TABLE_EXTRA_RANGE. Refused for 0 minutes, in a round not seated yet
    (seating it again makes new tables) or finished, and at a table whose game has ended. Kept
    in the audit trail with the reason given."""
    round = lock_round(table.round)
    table = lock_table(table)
    table.round = round
    reason = reason.strip()
    if round.status in (Round.Status.DRAFT, Round.Status.FINISHED):
        raise ValidationError(
            _(
                "Round %(round)s is %(status)s: a table gets time of its own only while its "
                "round is seated or in play."
            ),
            code="round_not_open",
            params={"round": round.number, "status": round.get_status_display().lower()},
        )
    if table.ended_at is not None:
        raise ValidationError(
            _("The game at table %(table)s has ended: reopen it first to give it time."),
            code="game_ended",
            params={"table": table.number},
        )
    least, most = TABLE_EXTRA_RANGE
    before = table.extra_minutes
    extra = before + minutes
    round_minutes = (round.clock_minutes or round.tournament.round_minutes) + (
        round.clock_extra_minutes
    )
    if minutes == 0:
        raise ValidationError(
            _("Give the table at least one minute more, or take at least one back."),
            code="bad_table_time",
        )
    if not least <= extra <= most or round_minutes + extra <= 0:
        raise _out_of_range(table, before)
    if len(reason) > MAX_TIME_REASON:
        raise ValidationError(
            _("Keep the reason to %(max)s characters."),
            code="reason_too_long",
            params={"max": MAX_TIME_REASON},
        )
    table.extra_minutes = extra
    table.save(update_fields=["extra_minutes"])
    record(
        round.tournament,
        AuditEntry.Action.TABLE_TIME,
        actor=actor,
        before={"round": round.number, "extra_minutes": before},
        after={
            "round": round.number,
            "extra_minutes": extra,
            "minutes": minutes,
            "reason": reason,
            "remaining": table_clock(table).remaining_seconds,
        },
        table=table,
    )
    note_change(round.tournament_id)
    return table


def restore_table_time(tables: Iterable[tuple[Table, int]]) -> None:
    """Give each table the minutes of its own an archive records for it (`Table.extra_minutes`,
    set on the objects given too), in one statement whatever their number: what the table had
    in all when it was exported, not time given now, so in whatever state its round is and
    without an entry in the audit trail (the import keeps the archive's tables as they were).
    Each must lie within TABLE_EXTRA_RANGE."""
    least, most = TABLE_EXTRA_RANGE
    timed = []
    for table, minutes in tables:
        if not least <= minutes <= most:
            raise _out_of_range(table, minutes)
        table.extra_minutes = minutes
        if minutes:
            timed.append(table)
    Table.objects.bulk_update(timed, ["extra_minutes"])


def _out_of_range(table: Table, extra: int) -> ValidationError:
    """The refusal of a table's own time outside TABLE_EXTRA_RANGE; `extra` is what it has."""
    least, most = TABLE_EXTRA_RANGE
    return ValidationError(
        _(
            "A table has from %(least)s to %(most)s minutes of its own in all, and some "
            "time left: table %(table)s has %(extra)s min now."
        ),
        code="bad_table_time",
        params={"least": least, "most": most, "table": table.number, "extra": f"{extra:+d}"},
    )
