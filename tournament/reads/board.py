"""Reads for the live board and the projector: every table of a round with its progress, the
games of a tournament by sheet status, the round on the clock and the next seating.

A fixed number of queries whatever the number of tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import models
from django.db.models import Count, Exists, OuterRef, Prefetch, Q
from django.utils.translation import gettext_lazy as _

from tournament.models import Penalty, Round, Seat, Table, Tournament
from tournament.reads.clock import Clock, clock_of, table_clock


class SheetStatus(models.TextChoices):
    """What the board says of a game sheet: `Table.Sheet`, with an open sheet told apart by
    whether anything is recorded on it yet."""

    NOT_STARTED = "not_started", _("not started")
    IN_PLAY = "in_play", _("in play")
    SUBMITTED = Table.Sheet.SUBMITTED.value, _("submitted — awaiting confirmation")
    CONFIRMED = Table.Sheet.CONFIRMED.value, _("confirmed")


def sheet_status(table: Table, *, has_results: bool) -> SheetStatus:
    """Table.sheet, with an open game told apart by whether anything is recorded yet."""
    if table.sheet != Table.Sheet.OPEN:
        return SheetStatus(table.sheet.value)
    return SheetStatus.IN_PLAY if has_results else SheetStatus.NOT_STARTED


@dataclass(frozen=True)
class BoardTable:
    table: Table
    seats: list[Seat]  # by starting wind E, S, W, N
    hands_played: int
    hands_per_game: int  # of the tournament's rule preset
    status: SheetStatus
    behind: bool
    referees: list[str]  # usernames
    clock: Clock  # the table's own: the round's with its extra minutes

    @property
    def own_time(self) -> bool:
        """Whether the table plays to a clock of its own (extra minutes, more or fewer)."""
        return self.clock.extra_minutes != 0

    @property
    def hands_left(self) -> int:
        return max(0, self.hands_per_game - self.hands_played)

    @property
    def progress_percent(self) -> int:
        return round(100 * min(self.hands_played, self.hands_per_game) / self.hands_per_game)


@dataclass(frozen=True)
class Board:
    round: Round
    clock: Clock
    tables: list[BoardTable]

    def count(self, status: str) -> int:
        return sum(row.status == status for row in self.tables)

    @property
    def not_started(self) -> int:
        return self.count(SheetStatus.NOT_STARTED)

    @property
    def in_play(self) -> int:
        return self.count(SheetStatus.IN_PLAY)

    @property
    def submitted(self) -> int:
        return self.count(SheetStatus.SUBMITTED)

    @property
    def confirmed(self) -> int:
        return self.count(SheetStatus.CONFIRMED)

    @property
    def behind(self) -> int:
        return sum(row.behind for row in self.tables)

    @property
    def hands_expected(self) -> int:
        return self.clock.expected_hands


def board(round: Round, now: datetime | None = None) -> Board:
    """The live board of `round` at `now`: its clock and every table, by number."""
    clock = clock_of(round, now)
    tables = (
        round.tables.annotate(
            hand_count=Count("deals", distinct=True),
            has_penalties=Exists(Penalty.objects.filter(table=OuterRef("pk"))),
        )
        .select_related("submitted_by", "confirmed_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.with_players()), "referees")
        .order_by("number")
    )
    rows = []
    for table in tables:
        table.round = round
        ended = table.ended_at is not None
        own = table_clock(table, round_clock=clock)
        rows.append(
            BoardTable(
                table=table,
                seats=sorted(table.seats.all(), key=lambda seat: seat.index),
                hands_played=table.hand_count,
                hands_per_game=clock.hands_per_game,
                status=sheet_status(
                    table, has_results=bool(table.hand_count or table.has_penalties)
                ),
                behind=round.status == Round.Status.PLAYING and own.behind(table.hand_count, ended),
                referees=sorted(user.get_username() for user in table.referees.all()),
                clock=own,
            )
        )
    return Board(round=round, clock=clock, tables=rows)


@dataclass(frozen=True)
class GameCounts:
    """Games of the published rounds of a tournament, by where their sheets are."""

    confirmed: int
    awaiting: int  # submitted, not confirmed yet
    open: int  # not ended: in play, or not started yet

    @property
    def counted(self) -> int:
        return self.confirmed


def game_counts(tournament: Tournament, *, before_round: int | None = None) -> GameCounts:
    """The games of `tournament` (with `before_round`: of the rounds before it only)."""
    tables = Table.objects.filter(round__tournament=tournament)
    if before_round is not None:
        tables = tables.filter(round__number__lt=before_round)
    counts = tables.aggregate(
        confirmed=Count("pk", filter=Q(confirmed_at__isnull=False)),
        awaiting=Count("pk", filter=Q(ended_at__isnull=False, confirmed_at__isnull=True)),
        open=Count("pk", filter=Q(ended_at__isnull=True) & ~Q(round__status=Round.Status.DRAFT)),
    )
    return GameCounts(**counts)


def round_in_play(tournament: Tournament) -> Round | None:
    """The round on the clock: the last round in play."""
    return tournament.rounds.filter(status=Round.Status.PLAYING).order_by("-number").first()


def next_seating_round(tournament: Tournament) -> Round | None:
    """The round whose seating players need next: the first seated (published, not started)
    round, or else the round in play."""
    seated = tournament.rounds.filter(status=Round.Status.SEATED).order_by("number").first()
    return seated or round_in_play(tournament)


def seating_of(round: Round) -> list[tuple[Table, list[Seat]]]:
    """The tables of `round` by number, each with its seats by starting wind."""
    tables = round.tables.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.with_players())
    ).order_by("number")
    return [(table, sorted(table.seats.all(), key=lambda seat: seat.index)) for table in tables]
