"""What the answers of the API are read from, prepared in a fixed number of queries however
many hands, tables or players there are: annotated querysets with their prefetches, and the
score sheet with the usernames it shows. The schemas of `tournament.api.schemas` read these
objects (`from_attributes`, aliases and resolvers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib.auth import get_user_model
from django.db.models import Count, Max, Prefetch, QuerySet

from tournament.models import Round, Seat, Table
from tournament.reads.clock import Clock
from tournament.reads.selectors import ScoreSheetLine, score_sheet

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class _TableCount(TypedDict):
    table_count: int


class _HandCount(TypedDict):
    hand_count: int


def annotated_rounds(
    rounds: QuerySet[Round],
) -> QuerySet[WithAnnotations[Round, _TableCount]]:
    """`rounds` as `schemas.RoundSummary` reads them: with their `table_count`, by number."""
    return rounds.annotate(table_count=Count("tables")).order_by("number")


def tables_for_summary(round: Round) -> QuerySet[WithAnnotations[Table, _HandCount]]:
    """The round's tables as `schemas.TableSummary` reads them, by number."""
    return (
        round.tables.annotate(hand_count=Count("deals"))
        .prefetch_related(Prefetch("seats", Seat.objects.with_players()), "referees")
        .order_by("number")
    )


def board_counts(round: Round, clock: Clock) -> tuple[dict[str, int], int]:
    """How many of the round's tables have their sheet in each state, and how many are behind
    `clock` (the round's, with each table's own minutes), over every table in one query."""
    sheets = dict.fromkeys(Table.Sheet.values, 0)
    behind = 0
    every = round.tables.annotate(hand_count=Count("deals")).order_by()
    for hand_count, ended_at, confirmed_at, extra in every.values_list(
        "hand_count", "ended_at", "confirmed_at", "extra_minutes"
    ):
        if confirmed_at is not None:
            sheets[Table.Sheet.CONFIRMED] += 1
        else:
            sheets[Table.Sheet.SUBMITTED if ended_at is not None else Table.Sheet.OPEN] += 1
        behind += clock.plus(extra).behind(hand_count, ended_at is not None)
    return sheets, behind


def _usernames(lines: list[ScoreSheetLine]) -> dict[int, str]:
    """Who entered the hands and penalties of a score sheet, in one query."""
    ids = {line.hand.entered_by_id for line in lines if line.hand}
    ids |= {item.entered_by_id for line in lines for item in line.penalties}
    User = get_user_model()
    users = User._default_manager.filter(pk__in=ids)
    return {user.pk: user.get_username() for user in users}


def score_sheet_context(table: Table, *, insider: bool) -> tuple[Table, dict[str, Any]]:
    """The table as `schemas.Table` reads it, and the context it is read with: its score sheet
    hand by hand ("lines"), the rules in force ("preset"), the players' keys by starting seat
    ("keys") and, for an insider, who entered what ("usernames"). A fixed number of queries,
    however many hands are entered."""
    table = (
        Table.objects.select_related("round__tournament", "submitted_by", "confirmed_by")
        .prefetch_related(Prefetch("seats", Seat.objects.with_players()), "referees")
        .annotate(hand_count=Count("deals"), last_hand=Max("deals__number"))
        .get(pk=table.pk)
    )
    lines = score_sheet(table)
    context: dict[str, Any] = {
        "insider": insider,
        "lines": lines,
        "preset": table.round.tournament.rules,
        "keys": {seat.starting_wind: seat.player.key for seat in table.seats.all()},
    }
    if insider:
        context["usernames"] = _usernames(lines)
    return table, context
