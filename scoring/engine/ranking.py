"""After the hands: places and table points at a table, and the ranking of a tournament.

Plain arithmetic on numbers. The tournament layer reads the scores from its records and asks
here who placed where, what each game earned in table points, and who ranks above whom.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Protocol, TypeVar


def places(scores: Sequence[int]) -> list[int]:
    """Each score's place: 1 + how many scores beat it, so equal scores share a place."""
    return [1 + sum(other > score for other in scores) for score in scores]


def share_table_points(scores: Sequence[int], values: Sequence[int]) -> list[Fraction]:
    """Table points by place; tied players share the points of the places they cover.

    `values` are the points of first, second, ... place; `scores` are in any order and the
    answer is in the same order.
    """
    order = sorted(range(len(scores)), key=lambda index: -scores[index])
    points = [Fraction(0)] * len(scores)
    place = 0
    while place < len(order):
        tied = [i for i in order[place:] if scores[i] == scores[order[place]]]
        share = Fraction(sum(values[place : place + len(tied)]), len(tied))
        for index in tied:
            points[index] = share
        place += len(tied)
    return points


class Record(Protocol):
    """What a player's ranking is made of. Table points may come in any unit (twelfths as whole
    numbers, or fractions): only their order counts."""

    @property
    def table_points(self) -> int | Fraction: ...

    @property
    def score(self) -> int | Fraction: ...  # a fraction only after a carry-over

    @property
    def game_scores(self) -> tuple[int, ...]:
        """The player's game scores, best first."""
        ...


def _best_game(record: Record) -> int:
    return record.game_scores[0] if record.game_scores else 0


def _game_scores(record: Record) -> tuple[int, ...]:
    return record.game_scores


#: Tie-breaks after table points and score, by their stable name: each gives a value that is
#: better when greater. A tournament lists the names it uses, in order.
TIE_BREAKS: dict[str, Callable[[Record], Any]] = {
    "best_game": _best_game,  # the best single game score
    "game_scores": _game_scores,  # more high game scores: compared best first
}


def ranking_key(record: Record, tie_breaks: Sequence[str]) -> tuple[Any, ...]:
    """Table points, then score, then each tie-break in turn: greater ranks higher."""
    return (
        record.table_points,
        record.score,
        *(TIE_BREAKS[name](record) for name in tie_breaks),
    )


R = TypeVar("R")


def rank(records: Sequence[R], *, key: Callable[[R], Any]) -> list[tuple[int, R]]:
    """`records` best first, each with its rank; records with equal keys share a rank (the
    position of the first of them), and the next rank skips the places they fill."""
    ordered = sorted(records, key=key, reverse=True)
    ranked: list[tuple[int, R]] = []
    previous: Any = None
    for position, record in enumerate(ordered, start=1):
        record_key = key(record)
        if ranked and record_key == previous:
            ranked.append((ranked[-1][0], record))
        else:
            ranked.append((position, record))
        previous = record_key
    return ranked
