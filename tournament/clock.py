"""The round clock: how long a round has left, and which tables are falling behind it.

A round's clock runs from ``clock_started_at`` for ``clock_minutes + clock_extra_minutes``,
stopped while paused (``clock_paused_at``) and not counting the seconds of earlier pauses
(``clock_paused_seconds``). A finished round's clock is stopped for good ("finished"); finishing
the round pauses it, so reopening the round finds it paused. Plain arithmetic on the Round's
fields; the services change them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from tournament.models import Round

# A table counts as behind when it has played this many hands fewer than an even pace needs.
BEHIND_BY_HANDS = 2


@dataclass(frozen=True)
class Clock:
    state: str  # "not_started", "running", "paused", "over" or "finished" (the round is)
    total_seconds: int
    elapsed_seconds: int
    hands_per_game: int  # the game's length, or its least deals (`RulePreset.least_deals`)

    @property
    def remaining_seconds(self) -> int:
        return max(0, self.total_seconds - self.elapsed_seconds)

    @property
    def started(self) -> bool:
        return self.state not in ("not_started", "finished")

    @property
    def running(self) -> bool:
        return self.state == "running"

    @property
    def display(self) -> str:
        """The time left as H:MM:SS or M:SS."""
        hours, rest = divmod(self.remaining_seconds, 3600)
        minutes, seconds = divmod(rest, 60)
        return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"

    @property
    def expected_hands(self) -> int:
        """Hands an even pace would have played by now (0 before the start, all at the end)."""
        if not self.started or self.total_seconds <= 0:
            return 0
        share = min(1.0, self.elapsed_seconds / self.total_seconds)
        return math.floor(self.hands_per_game * share)

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
            state="finished" if finished else "not_started",
            total_seconds=total,
            elapsed_seconds=0,
            hands_per_game=hands,
        )
    now = now or timezone.now()
    until = round.clock_paused_at or now
    elapsed = (until - round.clock_started_at).total_seconds() - round.clock_paused_seconds
    elapsed = max(0, int(elapsed))
    if finished:
        state = "finished"
    elif round.clock_paused_at is not None:
        state = "paused"
    elif elapsed >= total:
        state = "over"
    else:
        state = "running"
    return Clock(
        state=state,
        total_seconds=total,
        elapsed_seconds=min(elapsed, total),
        hands_per_game=hands,
    )
