"""Reads: what a user may see, score sheets, table results and standings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Prefetch, Q, QuerySet

from scoring.engine.ranking import places, rank, ranking_key, share_table_points
from tournament.domain.rotation import WINDS
from tournament.models import (
    AuditEntry,
    Deal,
    ExtraWin,
    Penalty,
    Seat,
    Table,
    Tournament,
)
from tournament.reads import stages
from tournament.reads.deals import DealAt, deal_at, following, position_of
from tournament.reads.permissions import Visitor
from tournament.reads.tally import Standing, ranked_rows, tally


def visible_tournaments(user: Visitor) -> QuerySet[Tournament]:
    """Public tournaments, plus every tournament the user organises (superusers see all)."""
    tournaments = Tournament.objects.all()
    if user.is_superuser:
        return tournaments
    if not user.is_authenticated:
        return tournaments.filter(public=True)
    return tournaments.filter(Q(public=True) | Q(pk__in=user.organised_tournaments.values("pk")))


# --- Games, tables and standings ----------------------------------------------------------


@dataclass(frozen=True)
class ScoreSheetLine:
    """One hand of a game (or, with number None, the penalties on the whole game).

    Tuples are by starting seat E, S, W, N.
    """

    number: int | None
    prevailing_wind: str
    seat_winds: tuple[str, ...]
    hand: Deal | None
    penalties: tuple[Penalty, ...]
    payments: tuple[int, ...]
    running: tuple[int, ...]
    dealer: str = ""  # the starting wind of who dealt
    extra_hands: int = 0  # the dealer's extra-hand number


@dataclass(frozen=True)
class SeatResult:
    seat: Seat
    score: int
    place: int
    table_points: Fraction


def score_sheet(table: Table) -> list[ScoreSheetLine]:
    """Every hand entered at `table` with its payments (penalties included) and running scores."""
    return score_sheets([table])[table.pk]


def format_points(points: Fraction) -> str:
    """7/3 as "2 1/3", 3 as "3", -1/2 as "-1/2"."""
    if points.denominator == 1:
        return str(points.numerator)
    whole, rest = divmod(abs(points.numerator), points.denominator)
    sign = "-" if points < 0 else ""
    return f"{sign}{whole} {rest}/{points.denominator}" if whole else f"{sign}{points}"


def table_results(table: Table, seats: Iterable[Seat] | None = None) -> list[SeatResult]:
    """Score, place and table points of each seat, best first (ties share place and points);
    the table's `seats` with their players when the caller has them already."""
    given = table.seats.select_related("player") if seats is None else seats
    ordered = sorted(given, key=lambda seat: seat.index)
    return _results(ordered, table.round.tournament.table_points)


def _results(seats: Sequence[Seat], values: Sequence[int]) -> list[SeatResult]:
    scores = [seat.score for seat in seats]
    results = [
        SeatResult(seat=seat, score=seat.score, place=place, table_points=share)
        for seat, place, share in zip(
            seats, places(scores), share_table_points(scores, values), strict=True
        )
    ]
    return sorted(results, key=lambda result: (result.place, result.seat.index))


def standings(
    tournament: Tournament,
    *,
    provisional: bool = False,
    before_round: int | None = None,
    stage: str | None = None,
) -> list[Standing]:
    """The ranking over all confirmed games: table points, then score, then the tie-breaks.

    With `provisional`, games whose sheets are submitted but not confirmed count too, and each
    row says how many of its games are such (``provisional_games``). With `before_round`, only
    the games of the rounds before it count (the standings the public sees while the later
    rounds are hidden until the prize-giving, `tournament.reads.prize_giving`).

    Players level on all of them share a rank. Substitutes come last, unranked. Withdrawn
    players keep the games they played; a round missed scores 0 table points. Two queries,
    whatever the size of the tournament.

    A tournament with a final stage whose cut is confirmed (`tournament.reads.stages`) ranks its
    finalists first, by the final stage, then the others; `stage` ("main", "final",
    "consolation") asks for one stage's standings alone (docs/stages.md). With `before_round`
    at or before the first round after the cut, the standings are those of the rounds before
    it, without stages (the cut is not known yet there).
    """
    up_to_round = None if before_round is None else before_round - 1
    if tournament.cut_after_round is None and stage is None:
        counted = tally(tournament, provisional=provisional, up_to_round=up_to_round)
        return ranked_rows(tournament, counted)
    return stages.stage_standings(
        tournament, provisional=provisional, stage=stage, up_to_round=up_to_round
    )


def ranked(rows: Iterable[Standing], tie_breaks: Sequence[str]) -> list[Standing]:
    """Players best first by table points, score and the tie-breaks, level players sharing a
    rank; then the substitutes, unranked, by key."""
    rows = list(rows)
    ranked_rows = [
        replace(row, rank=position)
        for position, row in rank(
            [row for row in rows if not row.player.substitute],
            key=lambda row: ranking_key(row, tie_breaks),
        )
    ]
    substitutes = sorted(
        (row for row in rows if row.player.substitute), key=lambda row: row.player.key
    )
    return ranked_rows + substitutes


def tournament_referees(tournament: Tournament) -> list[User]:
    """The referee accounts made for `tournament`, the existing logins its organisers added
    to it (`RefereeListing`) and everyone assigned to one of its tables, by username: whom its
    tables may be given to (the round's referee form, the API's seating). One query."""
    return list(
        get_user_model()
        .objects.filter(
            Q(referee_account__tournament=tournament)
            | Q(referee_listings__tournament=tournament)
            | Q(refereed_tables__round__tournament=tournament)
        )
        .distinct()
        .select_related("referee_account")
        .order_by("username")
    )


def assignable_referees(tournament: Tournament) -> list[User]:
    """Whom the tables of `tournament` may be given to, by username: its active referee
    accounts, the existing logins its organisers added to it (`RefereeListing`), its
    organisers, and active users already refereeing one of its tables (an archive's referees
    who are not accounts made here). The one check of every way of
    assigning referees: the round's referee form, the API's table referees and seating, and
    the services behind them. One query."""
    return list(
        get_user_model()
        .objects.filter(
            Q(referee_account__tournament=tournament)
            | Q(referee_listings__tournament=tournament)
            | Q(organised_tournaments=tournament)
            | Q(refereed_tables__round__tournament=tournament),
            is_active=True,
        )
        .distinct()
        .select_related("referee_account")
        .order_by("username")
    )


def audit_trail(tournament: Tournament) -> QuerySet[AuditEntry]:
    """Every change to the tournament's results, oldest first, with who made it."""
    return AuditEntry.objects.filter(tournament=tournament).select_related("actor", "table__round")


def _deal_at(table: Table, scheme: str, hand: Deal | None, before: Deal | None) -> DealAt | None:
    """Where a line of the score sheet stands: its deal's stored position, or for penalties in
    the deal in play, the deal after the one before (None once the game is over)."""
    if hand is not None:
        return deal_at(position_of(hand, scheme, table.round.tournament.rules), scheme)
    return following(table.round.tournament, before)


_HAND_SEATS = [Deal.winner.field, Deal.discarder.field, Deal.offender.field]
_PENALTY_SEAT = Penalty.seat.field


def _loaded_seats(tables: Sequence[Table]) -> dict[int, Seat] | None:
    """Every seat of `tables` by id when each table's seats were prefetched with their players,
    else None."""
    seats: dict[int, Seat] = {}
    for table in tables:
        prefetched = getattr(table, "_prefetched_objects_cache", {}).get("seats")
        if prefetched is None:
            return None
        for seat in prefetched:
            if not Seat.player.is_cached(seat):
                return None
            seats[seat.pk] = seat
    return seats


def score_sheets(tables: Sequence[Table]) -> dict[int, list[ScoreSheetLine]]:
    """The score sheet of each of `tables` by table id, the same lines as `score_sheet` gives,
    in two queries whatever the number of tables (for printing a whole round).

    Each table's round and tournament are read from `table.round.tournament`: load them first.
    """
    hands: dict[int, dict[int, Deal]] = {table.pk: {} for table in tables}
    penalties: dict[int, dict[int | None, list[Penalty]]] = {table.pk: {} for table in tables}
    # The seats (with their players) the callers loaded already are given to the hands and
    # penalties rather than read again through joins, a seat and a player for each.
    seats = _loaded_seats(tables)
    # Ordered within a table only: the models' default order sorts by the table's round and
    # tournament too, a join of each for nothing.
    records = Deal.objects.filter(table_id__in=list(hands)).order_by()
    penalty_records = Penalty.objects.filter(table_id__in=list(hands)).order_by("entered_at", "pk")
    if seats is None:
        records = records.select_related("winner__player", "discarder__player", "offender__player")
        penalty_records = penalty_records.select_related("seat__player")
    if any(table.round.tournament.rules.deal.several_winners for table in tables):
        records = records.prefetch_related(
            Prefetch(
                "extra_wins",
                queryset=ExtraWin.objects.order_by("pk").select_related("winner__player"),
            )
        )
    for record in records:
        if seats is not None:
            for field in _HAND_SEATS:
                seat_id = getattr(record, field.attname)
                if seat_id is None or seat_id in seats:
                    field.set_cached_value(record, seats.get(seat_id) if seat_id else None)
        hands[record.table_id][record.number] = record
    for penalty in penalty_records:
        if seats is not None:
            if penalty.seat_id in seats:
                _PENALTY_SEAT.set_cached_value(penalty, seats[penalty.seat_id])
        penalties[penalty.table_id].setdefault(penalty.deal_number, []).append(penalty)
    sheets = {}
    for table in tables:
        scheme = table.round.tournament.seat_rotation
        table_hands, table_penalties = hands[table.pk], penalties[table.pk]
        numbers = sorted(set(table_hands) | {n for n in table_penalties if n is not None})
        running = [0, 0, 0, 0]
        lines = []
        for number in [*numbers, None]:
            hand = table_hands.get(number) if number is not None else None
            line_penalties = tuple(table_penalties.get(number, ()))
            if number is None and not line_penalties:
                break
            payments = list(hand.payments) if hand else [0, 0, 0, 0]
            for penalty in line_penalties:
                for index, points in enumerate(penalty.payments(penalty.seat.index)):
                    payments[index] += points
            running = [total + paid for total, paid in zip(running, payments, strict=True)]
            at = _deal_at(table, scheme, hand, table_hands.get(number - 1) if number else None)
            lines.append(
                ScoreSheetLine(
                    number=number,
                    prevailing_wind=at.prevailing_wind if at and number else "",
                    seat_winds=at.seat_winds if at and number else (),
                    hand=hand,
                    penalties=line_penalties,
                    payments=tuple(payments),
                    running=tuple(running),
                    dealer=WINDS[at.dealer] if at and number else "",
                    extra_hands=at.extra_hands if at and number else 0,
                )
            )
        sheets[table.pk] = lines
    return sheets
