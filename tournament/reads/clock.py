"""The round clock: how long a round has left, and which tables are falling behind it.

A round's clock runs from ``clock_started_at`` for ``clock_minutes + clock_extra_minutes``,
stopped while paused (``clock_paused_at``) and not counting the seconds of earlier pauses
(``clock_paused_seconds``). A finished round's clock is stopped for good (`ClockState.FINISHED`);
finishing the round pauses it, so reopening the round finds it paused. Plain arithmetic on the
Round's fields; the services change them (`tournament.services.round_clock.change_clock`, one
`ClockAction` at a time).

`ClockState` and `ClockAction` are the clock's one vocabulary: the pages, the API's schemas and
the services name a state or an action by these.

A table's own clock (`table_clock`) is the round's with the table's `extra_minutes` added to its
total (a late start, a long ruling): it runs and pauses with the round's, is "over" that much
later (or sooner, when negative), and its expected hands are judged against its own total.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import Round, Table

# A table counts as behind when it has played this many hands fewer than an even pace needs.
BEHIND_BY_HANDS = 2


class ClockState(StrEnum):
    """What a clock is doing."""

    NOT_STARTED = "not_started"
    RUNNING = "running"
    PAUSED = "paused"
    OVER = "over"  # its time is up, and it has not been stopped
    FINISHED = "finished"  # its round is


class ClockAction(models.TextChoices):
    """What an organiser does to a round's clock."""

    START = "start", _("Start")
    PAUSE = "pause", _("Pause")
    RESUME = "resume", _("Resume")
    EXTEND = "extend", _("Extend")

    @property
    def takes_minutes(self) -> bool:
        """Whether the action is given minutes: a start may be (its round's time), an
        extension must be (how many to add, or to take off when negative)."""
        return self in (ClockAction.START, ClockAction.EXTEND)

    @property
    def needs_minutes(self) -> bool:
        return self == ClockAction.EXTEND


@dataclass(frozen=True)
class Clock:
    state: ClockState
    total_seconds: int
    elapsed_seconds: int
    hands_per_game: int  # the game's length, or its least deals (`RulePreset.least_deals`)
    # The seconds the clock has run, not stopped at the total: what a longer clock shows.
    run_seconds: int = 0
    # A table's own minutes beyond (or, negative, short of) the round's; 0 for the round.
    extra_minutes: int = 0

    @property
    def remaining_seconds(self) -> int:
        return max(0, self.total_seconds - self.elapsed_seconds)

    @property
    def started(self) -> bool:
        return self.state not in (ClockState.NOT_STARTED, ClockState.FINISHED)

    # The states as questions, for the templates.
    @property
    def not_started(self) -> bool:
        return self.state == ClockState.NOT_STARTED

    @property
    def running(self) -> bool:
        return self.state == ClockState.RUNNING

    @property
    def paused(self) -> bool:
        return self.state == ClockState.PAUSED

    @property
    def over(self) -> bool:
        return self.state == ClockState.OVER

    @property
    def finished(self) -> bool:
        return self.state == ClockState.FINISHED

    @property
    def display(self) -> str:
        """The time left as H:MM:SS or M:SS."""
        hours, rest = divmod(self.remaining_seconds, 3600)
        minutes, seconds = divmod(rest, 60)
        return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"

    @property
    def signed_extra(self) -> str:
        """A table's own minutes with their sign: "+10", "-5" ("" when none)."""
        return f"{self.extra_minutes:+d}" if self.extra_minutes else ""

    @property
    def expected_hands(self) -> int:
        """Hands an even pace would have played by now (0 before the start, all at the end)."""
        if not self.started or self.total_seconds <= 0:
            return 0
        share = min(1.0, self.elapsed_seconds / self.total_seconds)
        return math.floor(self.hands_per_game * share)

    def plus(self, minutes: int) -> Clock:
        """This clock with `minutes` more in all (fewer when negative): a table's own clock."""
        if not minutes:
            return self
        total = max(0, self.total_seconds + minutes * 60)
        state = self.state
        if state in (ClockState.RUNNING, ClockState.OVER):
            state = ClockState.OVER if self.run_seconds >= total else ClockState.RUNNING
        return replace(
            self,
            state=state,
            total_seconds=total,
            elapsed_seconds=min(self.run_seconds, total),
            extra_minutes=self.extra_minutes + minutes,
        )

    def behind(self, hands_played: int, ended: bool) -> bool:
        """Whether a game that has played `hands_played` hands is falling behind the clock."""
        if ended or not self.started:
            return False
        return hands_played < self.expected_hands - BEHIND_BY_HANDS


def clock_of(round: Round, now: datetime | None = None) -> Clock:
    """The clock of `round` at `now` (default: the current time)."""
    hands = round.tournament.rules.least_deals
    minutes = round.clock_minutes or round.tournament.round_minutes
    total = max(0, (minutes + round.clock_extra_minutes) * 60)
    finished = round.status == Round.Status.FINISHED
    if round.clock_started_at is None:
        return Clock(
            state=ClockState.FINISHED if finished else ClockState.NOT_STARTED,
            total_seconds=total,
            elapsed_seconds=0,
            hands_per_game=hands,
        )
    now = now or timezone.now()
    until = round.clock_paused_at or now
    elapsed = (until - round.clock_started_at).total_seconds() - round.clock_paused_seconds
    elapsed = max(0, int(elapsed))
    if finished:
        state = ClockState.FINISHED
    elif round.clock_paused_at is not None:
        state = ClockState.PAUSED
    elif elapsed >= total:
        state = ClockState.OVER
    else:
        state = ClockState.RUNNING
    return Clock(
        state=state,
        total_seconds=total,
        elapsed_seconds=min(elapsed, total),
        hands_per_game=hands,
        run_seconds=elapsed,
    )


def table_clock(
    table: Table, now: datetime | None = None, *, round_clock: Clock | None = None
) -> Clock:
    """The clock of `table` at `now`: its round's (`round_clock` when already worked out) with
    the table's own extra minutes."""
    clock = round_clock if round_clock is not None else clock_of(table.round, now)
    return clock.plus(table.extra_minutes)
