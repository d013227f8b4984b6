"""A tournament's final stage (docs/stages.md): the cut after a round, what the finalists carry
over, how the final tables are seated, and the standings of each stage.

The arithmetic (`choose_cut`, `carried`, `final_tables`) is plain Python on plain values;
the rest reads the database through the standings of `tournament.reads.selectors`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TypeVar

from scoring.engine.ranking import rank, ranking_key
from tournament.domain.names import natural_key
from tournament.models import Cut, Finalist, FinalSeating, Round, Tournament, parse_carry_over
from tournament.reads.tally import TWELFTHS, Standing, Tally, ranked_rows, tally

MAIN, FINAL, CONSOLATION = "main", "final", "consolation"
STAGES = (MAIN, FINAL, CONSOLATION)

T = TypeVar("T")


# --- Arithmetic ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """Who makes a cut of `size` from a ranking: the first `size` of `order`, and the players
    who share the rank of the last of them with someone left out (a tie at the line, decided
    by the order: the tie-breaks, then the lower start number)."""

    qualified: tuple[int, ...]  # indexes into the ranking, in order
    tied: tuple[int, ...]  # indexes level at the line, on both sides of it


def choose_cut(ranks: Sequence[int], keys: Sequence[str], size: int) -> Line:
    """The cut of `size` from players with `ranks` (after every tie-break: equal ranks are
    level on all of them) and start numbers `keys`: best rank first, and among level players
    the lower start number (keys compared as numbers where they are digits: 9 before 10)."""
    order = sorted(range(len(ranks)), key=lambda i: (ranks[i], natural_key(keys[i])))
    qualified = tuple(order[:size])
    tied: tuple[int, ...] = ()
    if 0 < size < len(order):
        line_rank = ranks[order[size - 1]]
        if ranks[order[size]] == line_rank:
            tied = tuple(i for i in order if ranks[i] == line_rank)
    return Line(qualified=qualified, tied=tied)


def carried(value: Fraction | int, factor: Fraction) -> Fraction:
    """What a finalist carries of `value` (table points or score): exactly `factor` times it."""
    return Fraction(value) * factor


def final_tables(players: Sequence[T], scheme: str) -> list[list[T]]:
    """`players`, best first (a multiple of four), at tables in East, South, West, North order:
    by rank (1-4 at table 1, 5-8 at table 2, ...) or spread (of n tables, table i takes
    ranks i, 2n+1-i, 2n+i and 4n+1-i, so each table has one of each quarter of the field)."""
    if len(players) % 4:
        raise ValueError("a multiple of four players")
    count = len(players) // 4
    if scheme == FinalSeating.SPREAD:
        return [
            [
                players[i],
                players[2 * count - 1 - i],
                players[2 * count + i],
                players[4 * count - 1 - i],
            ]
            for i in range(count)
        ]
    return [list(players[4 * i : 4 * i + 4]) for i in range(count)]


def format_score(value: int | Fraction) -> str:
    """A score as shown: whole scores as they are, a carried fraction to two decimals."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}"


class CarriedScore(Fraction):
    """A finalist's score made a fraction by the carry-over: exact in arithmetic and
    comparisons, shown to two decimals wherever it is printed (pages, prints, files)."""

    def __str__(self) -> str:
        return format_score(self)


# --- The cut -------------------------------------------------------------------------------


def confirmed_cut(tournament: Tournament) -> Cut | None:
    """The tournament's confirmed cut, if any (no query without a final stage)."""
    if tournament.cut_after_round is None:
        return None
    return Cut.objects.filter(tournament=tournament).select_related("confirmed_by").first()


@dataclass(frozen=True)
class CutRow:
    standing: Standing  # in the standings after the cut's round
    position: int | None  # place in the cut; None for those left out
    tied: bool  # level at the line with someone on the other side
    eligible: bool  # may play the final stage (not withdrawn before it)
    carried_table_points: Fraction | None = None
    carried_score: Fraction | None = None


@dataclass(frozen=True)
class CutPreview:
    after_round: int
    size: int
    factor: Fraction
    rows: tuple[CutRow, ...]

    @property
    def tied_at_line(self) -> bool:
        return any(row.tied for row in self.rows)

    @property
    def qualified(self) -> list[CutRow]:
        return sorted(
            (row for row in self.rows if row.position is not None),
            key=lambda row: row.position or 0,
        )


def cut_preview(tournament: Tournament) -> CutPreview:
    """Who would make the cut now: the standings after the cut's round (confirmed games only,
    the tournament's tie-breaks), players withdrawn before the final stage passed over."""
    if tournament.cut_after_round is None or tournament.cut_size is None:
        raise ValueError("no final stage")
    after = tournament.cut_after_round
    factor = parse_carry_over(tournament.carry_over)
    rows = main_standings(tournament)
    ranked = [row for row in rows if row.rank is not None]
    eligible = [row for row in ranked if row.player.plays_in(after + 1)]
    line = choose_cut(
        [row.rank or 0 for row in eligible],
        [row.player.key for row in eligible],
        tournament.cut_size,
    )
    positions = {eligible[i].player.pk: place for place, i in enumerate(line.qualified, start=1)}
    tied = {eligible[i].player.pk for i in line.tied}
    playing = {row.player.pk for row in eligible}
    out = []
    for row in ranked:
        position = positions.get(row.player.pk)
        out.append(
            CutRow(
                standing=row,
                position=position,
                tied=row.player.pk in tied,
                eligible=row.player.pk in playing,
                carried_table_points=carried(row.table_points, factor) if position else None,
                carried_score=carried(row.score, factor) if position else None,
            )
        )
    return CutPreview(after_round=after, size=tournament.cut_size, factor=factor, rows=tuple(out))


# --- Standings per stage -------------------------------------------------------------------


def main_standings(
    tournament: Tournament, *, provisional: bool = False, up_to_round: int | None = None
) -> list[Standing]:
    """The standings of the rounds up to the cut (all rounds without a final stage), and up to
    `up_to_round` when given."""
    last = tournament.cut_after_round
    if up_to_round is not None:
        last = up_to_round if last is None else min(last, up_to_round)
    counted = tally(tournament, provisional=provisional, up_to_round=last)
    stage = MAIN if tournament.cut_after_round is not None else ""
    return ranked_rows(tournament, counted, stage=stage)


def stage_standings(
    tournament: Tournament,
    *,
    provisional: bool = False,
    stage: str | None = None,
    up_to_round: int | None = None,
) -> list[Standing]:
    """The standings of one stage, or with `stage` None of the whole tournament: the finalists
    first by the final stage, then the others by all their games (docs/stages.md). Without a
    confirmed cut the final and consolation stages are empty and the whole tournament is
    ranked as usual. `up_to_round`: only the games of the rounds up to it count (the public's
    standings while later rounds are hidden until the prize-giving); when it comes before the
    final stage, the standings are those rounds' alone, as before a cut."""
    if stage == MAIN:
        return main_standings(tournament, provisional=provisional, up_to_round=up_to_round)
    cut = confirmed_cut(tournament)
    if cut is None or (up_to_round is not None and up_to_round <= cut.after_round):
        if stage is not None:
            return []
        counted = tally(tournament, provisional=provisional, up_to_round=up_to_round)
        return ranked_rows(tournament, counted)
    finalists = list(cut.finalists.all())
    later = tally(
        tournament, provisional=provisional, after_round=cut.after_round, up_to_round=up_to_round
    )
    final = _final_rows(tournament, cut, finalists, later)
    if stage == FINAL:
        return final
    out = {finalist.player_id for finalist in finalists}
    if stage == CONSOLATION:
        others = {player.id for player in later.players if player.id not in out}
        return ranked_rows(tournament, later, only=others, stage=CONSOLATION)
    whole = tally(tournament, provisional=provisional, up_to_round=up_to_round)
    others = {player.id for player in whole.players if player.id not in out}
    rest = ranked_rows(tournament, whole, only=others, stage=CONSOLATION if cut.consolation else "")
    shift = len(final)
    every_game = {
        row.player.pk: row.game_scores
        for row in ranked_rows(tournament, whole, only=out, stage=FINAL)
    }
    return [
        *(replace(row, game_scores=every_game.get(row.player.pk, ())) for row in final),
        *(replace(row, rank=row.rank + shift) if row.rank is not None else row for row in rest),
    ]


def _final_rows(
    tournament: Tournament, cut: Cut, finalists: list[Finalist], later: Tally
) -> list[Standing]:
    """The finalists ranked by what they carried plus their final-stage games, then the
    tie-breaks on those games, then their place in the cut: never level."""
    factor = cut.factor
    players = {player.id: player for player in later.players}
    rows = []
    for finalist in finalists:
        player_id = finalist.player_id
        games = tuple(sorted(later.game_scores.get(player_id, ()), reverse=True))
        carried_points = carried(Fraction(finalist.table_points_twelfths, TWELFTHS), factor)
        carried_score = carried(finalist.score, factor)
        total_score = carried_score + sum(games)
        rows.append(
            (
                finalist.position,
                Standing(
                    rank=None,
                    player=players[player_id],
                    table_points=carried_points
                    + Fraction(later.points.get(player_id, 0), TWELFTHS),
                    score=total_score.numerator
                    if total_score.denominator == 1
                    else CarriedScore(total_score),
                    game_scores=games,
                    provisional_games=later.unconfirmed.get(player_id, 0),
                    stage=FINAL,
                    carried_table_points=carried_points,
                    carried_score=carried_score,
                ),
            )
        )
    tie_breaks = tournament.tie_breaks
    ordered = rank(
        rows,
        key=lambda item: (*ranking_key(item[1], tie_breaks), -item[0]),
    )
    return [replace(row, rank=position) for position, (_, row) in ordered]


def stage_heading(tournament: Tournament) -> str:
    """The heading of the stage in play for the public pages and the projector: empty
    without a confirmed cut."""
    from django.utils.translation import gettext

    cut = confirmed_cut(tournament)
    if cut is None:
        return ""
    return gettext("Final stage — after the cut to %(size)s") % {"size": cut.size}


def expected_players(round: Round) -> set[int] | None:
    """The ids of the players a round after the cut must seat when the others stop (the
    finalists); None when everyone playing the round is seated as usual."""
    cut = confirmed_cut(round.tournament)
    if cut is None or round.number <= cut.after_round or cut.consolation:
        return None
    return set(cut.finalists.values_list("player_id", flat=True))
