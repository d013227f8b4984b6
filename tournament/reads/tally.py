"""The standings' arithmetic: the games of some rounds added up per player (`tally`), and the
players ranked by them (`ranked_rows`), as `Standing` rows. `tournament.reads.selectors.standings`
and the stages' standings (`tournament.reads.stages`) both build on it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from django.db.models import Q

from scoring.engine.ranking import rank, ranking_key, share_table_points
from tournament.models import Player, Seat, Tournament


@dataclass(frozen=True)
class Standing:
    rank: int | None  # None for substitutes, who are never ranked
    player: Player
    table_points: Fraction
    score: int | Fraction
    game_scores: tuple[int, ...]
    provisional_games: int = 0  # games counted whose sheets are not confirmed yet
    # With a final stage (tournament/reads/stages.py): "main", "final" or "consolation", the stage
    # the row ranks in; and for a finalist what they carried over from the cut (in the row's
    # table points and score, which may then be fractions).
    stage: str = ""
    carried_table_points: Fraction | None = None
    carried_score: Fraction | None = None


@dataclass
class Tally:
    """What the confirmed (or submitted) games of some rounds add up to, per player id: table
    points in twelfths, game scores, and games not confirmed yet."""

    players: list[Player]
    points: dict[int, int]
    game_scores: dict[int, list[int]]
    unconfirmed: dict[int, int]


def tally(
    tournament: Tournament,
    *,
    provisional: bool,
    after_round: int | None = None,
    up_to_round: int | None = None,
) -> Tally:
    """The games of `tournament` (of the rounds after `after_round` and up to `up_to_round`
    when given) added up per player. Two queries."""
    # The model's own orders (by the tournament, then the key) would join the tournament to
    # sort players and seats by it, for nothing: the players by key alone, the seats unsorted.
    players = list(tournament.players.order_by("key"))
    seats = Seat.objects.filter(table__round__tournament=tournament).order_by()
    if after_round is not None:
        seats = seats.filter(table__round__number__gt=after_round)
    if up_to_round is not None:
        seats = seats.filter(table__round__number__lte=up_to_round)
    if provisional:
        seats = seats.filter(table__ended_at__isnull=False)
    else:
        seats = seats.filter(table__confirmed_at__isnull=False)
    # Plain tuples, not Seat instances: a big field has tens of thousands of seats.
    rows = seats.annotate(confirmed=Q(table__confirmed_at__isnull=False)).values_list(
        "table_id", "player_id", "score", "confirmed"
    )
    by_table: dict[int, list[tuple[int, int, int, bool]]] = {}
    for row in rows:
        by_table.setdefault(row[0], []).append(row)
    # Table points are summed exactly as whole numbers of 1/TWELFTHS (a share among up to four
    # level players is a multiple of 1/12): adding and comparing integers is far quicker than
    # fractions, and the ranking is the same.
    points: dict[int, int] = {}
    game_scores: dict[int, list[int]] = {}
    unconfirmed: dict[int, int] = {}
    values = list(tournament.table_points)
    for table_seats in by_table.values():
        scores = [seat[2] for seat in table_seats]
        for (_, player_id, score, confirmed), twelfths in zip(
            table_seats, _shares(scores, values), strict=True
        ):
            points[player_id] = points.get(player_id, 0) + twelfths
            game_scores.setdefault(player_id, []).append(score)
            if not confirmed:
                unconfirmed[player_id] = unconfirmed.get(player_id, 0) + 1
    return Tally(players, points, game_scores, unconfirmed)


def ranked_rows(
    tournament: Tournament, tally: Tally, *, only: set[int] | None = None, stage: str = ""
) -> list[Standing]:
    """The players of `tally` (those whose ids are in `only`, when given) ranked by it."""
    players = tally.players if only is None else [p for p in tally.players if p.id in only]
    game_scores, points = tally.game_scores, tally.points
    # Rank light records (table points in twelfths), then make each Standing once.
    records = {
        player.id: _Record(
            points.get(player.id, 0),
            sum(game_scores.get(player.id, ())),
            tuple(sorted(game_scores.get(player.id, ()), reverse=True)),
        )
        for player in players
    }
    tie_breaks = tournament.tie_breaks
    keys = {pk: ranking_key(record, tie_breaks) for pk, record in records.items()}
    competing = [player for player in players if not player.substitute]
    substitutes = sorted(
        (player for player in players if player.substitute), key=lambda player: player.key
    )
    ranks: list[tuple[int | None, Player]] = list(
        rank(competing, key=lambda player: keys[player.id])
    )
    ranks += [(None, player) for player in substitutes]
    # Few distinct totals: one Fraction each (making one costs more than the rest of a row).
    fractions: dict[int, Fraction] = {}
    for record in records.values():
        if record.table_points not in fractions:
            fractions[record.table_points] = Fraction(record.table_points, TWELFTHS)
    return [
        Standing(
            rank=position,
            player=player,
            table_points=fractions[records[player.id].table_points],
            score=records[player.id].score,
            game_scores=records[player.id].game_scores,
            provisional_games=tally.unconfirmed.get(player.id, 0),
            stage=stage,
        )
        for position, player in ranks
    ]


class _Record(NamedTuple):
    """What a player is ranked by (`scoring.engine.ranking.Record`), table points in
    twelfths."""

    table_points: int
    score: int
    game_scores: tuple[int, ...]


TWELFTHS = 12


def _shares(scores: Sequence[int], values: Sequence[int]) -> list[int]:
    """`share_table_points` in twelfths, as whole numbers (a table seats four players at
    most, each seat a starting wind, so a share is a whole number of twelfths)."""
    if len(set(scores)) == len(scores):  # no tie: each place its own points
        order = sorted(range(len(scores)), key=lambda index: -scores[index])
        twelfths = [0] * len(scores)
        for place, index in enumerate(order):
            twelfths[index] = values[place] * TWELFTHS if place < len(values) else 0
        return twelfths
    return [
        share.numerator * (TWELFTHS // share.denominator)
        for share in share_table_points(scores, values)
    ]
