"""The end of a game: submitting its sheet, confirming it, reopening it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import AuditEntry, Round, Seat, Table, Tournament
from tournament.reads import deals
from tournament.reads.permissions import is_organiser, referees_in
from tournament.services._common import (
    audit,
    lock_table,
    refuse_before_play,
    refuse_unless_playing,
)
from tournament.services.as_recorded import SheetAsRecorded


@transaction.atomic
def end_game(
    *,
    table: Table,
    ended_by_time: bool,
    entered_by: User,
    as_recorded: SheetAsRecorded | None = None,
) -> Table:
    """Close the game at `table` and submit its sheet: once it is over (MCR: all 16 hands; other
    presets: the last wind round), or earlier when time is called. Where the tournament needs
    no confirmation, the sheet counts at once.

    `as_recorded` (an import): the sheet keeps who submitted it and when (and, where it counts
    at once, who confirmed it and when) as the record says; the audit names `entered_by`.
    """
    table = lock_table(table)
    hands = check_end_game(table=table, ended_by_time=ended_by_time)
    close_sheet(
        table,
        ended_by_time=ended_by_time,
        in_play=deals.next_deal(table) is not None,
        entered_by=entered_by,
        as_recorded=as_recorded,
    )
    table.save(update_fields=[*SHEET_FIELDS])
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.GAME_ENDED,
        before=None,
        after={"hands": hands, "ended_by_time": table.ended_by_time},
    )
    return table


# What submitting and confirming a game sheet write.
SHEET_FIELDS = ("ended_at", "ended_by_time", "submitted_by", "confirmed_at", "confirmed_by")


def close_sheet(
    table: Table,
    *,
    ended_by_time: bool,
    in_play: bool,
    entered_by: User,
    as_recorded: SheetAsRecorded | None,
) -> None:
    """Set the fields of `table` that end its game (not saved): `in_play`, whether a deal is
    left to play. Where the tournament needs no confirmation, the sheet counts at once."""
    table.ended_at = timezone.now()
    table.ended_by_time = ended_by_time and in_play
    table.submitted_by = entered_by
    if table.round.tournament.confirmation == Tournament.Confirmation.NONE:
        table.confirmed_at, table.confirmed_by = table.ended_at, entered_by
    if as_recorded is not None:
        table.submitted_by = as_recorded.submitted_by
        table.ended_at = as_recorded.ended_at or table.ended_at
        _keep_confirmation(table, as_recorded)


def _keep_confirmation(table: Table, as_recorded: SheetAsRecorded) -> None:
    if table.confirmed_at is not None and as_recorded.confirmed_by is not None:
        table.confirmed_by = as_recorded.confirmed_by
        table.confirmed_at = as_recorded.confirmed_at or as_recorded.ended_at or table.confirmed_at


def check_end_game(*, table: Table, ended_by_time: bool) -> int:
    """Whether the game at `table` may end now: raises the reason it may not (as `end_game`
    would), or answers how many hands it has. Changes nothing: the referee's screen asks it
    before showing the sheet to submit."""
    return refuse_end(
        table,
        ended_by_time=ended_by_time,
        hands=lambda: table.deals.count(),
        over=lambda: deals.next_deal(table) is None,
    )


def refuse_end(
    table: Table, *, ended_by_time: bool, hands: Callable[[], int], over: Callable[[], bool]
) -> int:
    """`check_end_game` with what it reads given (`hands()`: how many are entered; `over()`:
    no deal is left to play), for a game held in memory too."""
    refuse_unless_playing(table)
    if table.ended_at is not None:
        raise ValidationError(_("This game has already ended."), code="already_ended")
    return check_game_over(table=table, ended_by_time=ended_by_time, hands=hands(), over=over)


def check_game_over(
    *, table: Table, ended_by_time: bool, hands: int, over: Callable[[], bool]
) -> int:
    """The end of `check_end_game` once the game is known to be open and in play: answers
    `hands` (the number entered) when the game may end (`over()`: no deal is left to play),
    else raises why it may not."""
    if ended_by_time or over():
        return hands
    every = table.round.tournament.rules.hands_per_game
    if every is not None:
        raise ValidationError(
            _(
                "Only %(hands)s of %(all)s hands are entered; end the game early only when time is "
                "called."
            ),
            code="hands_missing",
            params={"hands": hands, "all": every},
        )
    raise ValidationError(
        _(
            "The game goes on until its last wind round is played (%(hands)s deals so far); end "
            "it early only when time is called."
        ),
        code="hands_missing",
        params={"hands": hands},
    )


def may_confirm(
    user: User, table: Table, *, organiser: bool | None = None, referee: bool | None = None
) -> bool:
    """Whether `user` may confirm the sheet of `table`: an organiser always; where the
    tournament asks for a second referee, also any referee of the tournament other than the one
    who submitted the sheet. `organiser` and `referee`: whether `user` organises the tournament
    and referees in it, when the caller knows (None: read from the database).
    """
    tournament = table.round.tournament
    if organiser is None:
        organiser = is_organiser(user, tournament)
    if organiser:
        return True
    return (
        tournament.confirmation == Tournament.Confirmation.SECOND_REFEREE
        and user.pk != table.submitted_by_id
        and (referees_in(user, tournament) if referee is None else referee)
    )


def _confirm(table: Table, confirmed_by: User, as_recorded: SheetAsRecorded | None = None) -> None:
    mark_confirmed(table, confirmed_by, as_recorded)
    table.save(update_fields=["confirmed_at", "confirmed_by"])
    audit(
        table=table,
        actor=confirmed_by,
        action=AuditEntry.Action.GAME_CONFIRMED,
        before=None,
        after=confirmed_scores(sorted(table.seats.all(), key=_index)),
    )


def mark_confirmed(table: Table, confirmed_by: User, as_recorded: SheetAsRecorded | None) -> None:
    """Set the fields of `table` that confirm its sheet (not saved)."""
    table.confirmed_at = timezone.now()
    table.confirmed_by = confirmed_by
    if as_recorded is not None:
        _keep_confirmation(table, as_recorded)


def confirmed_scores(seats: list[Seat]) -> dict[str, Any]:
    """What the audit keeps of a confirmed sheet: the game scores, East to North."""
    return {"scores": [seat.score for seat in seats]}


def _index(seat: Seat) -> int:
    return seat.index


@transaction.atomic
def confirm_game(
    *, table: Table, confirmed_by: User, as_recorded: SheetAsRecorded | None = None
) -> Table:
    """Confirm the submitted sheet of `table`: from now on the game counts in the standings.

    `as_recorded` (an import): the sheet keeps who confirmed it and when as the record says;
    the audit names `confirmed_by`.
    """
    table = lock_table(table)
    refuse_confirm(table, confirmed_by, allowed=may_confirm(confirmed_by, table))
    _confirm(table, confirmed_by, as_recorded)
    return table


def refuse_confirm(table: Table, confirmed_by: User, *, allowed: bool) -> None:
    """Why `confirmed_by` may not confirm the sheet of `table` now, if they may not
    (`allowed`: what `may_confirm` answers)."""
    refuse_before_play(table)
    if table.ended_at is None:
        raise ValidationError(
            _("The game at table %(table)s has not ended: its sheet is not submitted yet."),
            code="not_submitted",
            params={"table": table.number},
        )
    if table.confirmed_at is not None:
        raise ValidationError(
            _("The sheet of table %(table)s is already confirmed."),
            code="already_confirmed",
            params={"table": table.number},
        )
    if not allowed:
        if (
            table.round.tournament.confirmation == Tournament.Confirmation.SECOND_REFEREE
            and confirmed_by.pk == table.submitted_by_id
        ):
            raise ValidationError(
                _("A second referee confirms this sheet: not the referee who submitted it."),
                code="confirm_own_sheet",
            )
        raise ValidationError(
            _("Only the organiser confirms game sheets in this tournament."),
            code="not_allowed_to_confirm",
        )


@transaction.atomic
def confirm_submitted_games(*, round: Round, confirmed_by: User) -> list[Table]:
    """Confirm every submitted, unconfirmed sheet of `round` (organisers only)."""
    if not is_organiser(confirmed_by, round.tournament):
        raise ValidationError(
            _("Only an organiser confirms all sheets at once."), code="not_allowed_to_confirm"
        )
    tables = list(
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .filter(round=round, ended_at__isnull=False, confirmed_at__isnull=True)
        .order_by("number")
    )
    for table in tables:
        _confirm(table, confirmed_by)
    return tables


def refuse_confirmed_unless_organiser(
    table: Table, user: User, *, organiser: bool | None = None
) -> None:
    """After confirmation, only an organiser changes a game's results (`organiser`: whether
    `user` organises the tournament, when the caller knows it)."""
    if organiser is None and table.confirmed_at is not None:
        organiser = is_organiser(user, table.round.tournament)
    if table.confirmed_at is not None and not organiser:
        raise ValidationError(
            _("The sheet of table %(table)s is confirmed: ask the organiser to correct it."),
            code="sheet_confirmed",
            params={"table": table.number},
        )


@transaction.atomic
def reopen_game(*, table: Table, entered_by: User) -> Table:
    """Undo the end of the game at `table` so that more hands can be entered; a confirmed sheet
    goes back to unconfirmed.

    The round must be in play (reopen a finished round first).
    """
    table = lock_table(table)
    refuse_before_play(table)
    if table.ended_at is None:
        raise ValidationError(_("This game has not ended."), code="not_ended")
    refuse_unless_playing(table)
    refuse_confirmed_unless_organiser(table, entered_by)
    before = {
        "ended_at": table.ended_at.isoformat(),
        "ended_by_time": table.ended_by_time,
        "confirmed_at": table.confirmed_at.isoformat() if table.confirmed_at else None,
    }
    table.ended_at = None
    table.ended_by_time = False
    table.submitted_by = None
    table.confirmed_at = None
    table.confirmed_by = None
    table.save(
        update_fields=["ended_at", "ended_by_time", "submitted_by", "confirmed_at", "confirmed_by"]
    )
    audit(
        table=table,
        actor=entered_by,
        action=AuditEntry.Action.GAME_REOPENED,
        before=before,
        after=None,
    )
    return table
