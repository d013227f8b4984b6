"""The results file for the European Mahjong Association ranking (rules/TOURNAMENT.md, EMA).

One row per ranked player, in ranking order: place (level players share it), EMA number, last
name, first name, country, table points, score and the EMA base rank
1000 × (N − place) / (N − 1), where N is the number of ranked players. The ranking is the
tournament's own (`selectors.standings`: games whose sheets are confirmed, table points,
score, tie-breaks); games still played or waiting for confirmation are not in it.

- Substitutes are never ranked (EMA §4): they are not in the file and do not count in N. The
  print page lists them below the ranking, marked as not ranked.
- Table points are written as decimals with at most two places (7/3 -> 2.33, 3/2 -> 1.5,
  4 -> 4), as they are in the standings export.
- The base rank is rounded to a whole number, halves up; with a single ranked player it is 1000.
- Names: the player's family and given names when the organiser gave them; otherwise the full
  name is split by `tournament.domain.names.split_name` ("Family, Given" at the comma; Chinese,
  Japanese and Korean script family name first, 王小明 -> 王 / 小明, with the known
  two-character family names such as 欧阳; else "Given Family" with a family name in capitals
  or the last word and its lowercase particles, "Anna van der Berg" -> "van der Berg" / "Anna").
  `EmaRow.guessed` says which rows were split from the full name, for the organiser to check.
- Country: the player's ISO 3166 code (SE, CN).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournament.domain.names import split_name
from tournament.domain.points import points_as_decimal
from tournament.infra.spreadsheet import safe_text
from tournament.models import Player
from tournament.reads.selectors import Standing

HEADERS = (
    "Place",
    "EMA number",
    "Last name",
    "First name",
    "Country",
    "Table points",
    "Score",
    "Base rank",
)


@dataclass(frozen=True)
class EmaRow:
    place: int
    player: Player
    last_name: str
    first_name: str
    table_points: Fraction
    score: int | Fraction  # a finalist's carried score may be a fraction (stages.py)
    base_rank: int
    #: The names were split from the full name rather than given apart.
    guessed: bool = False

    @property
    def table_points_text(self) -> str:
        return decimal_text(self.table_points)

    def cells(self) -> list[str]:
        return [
            str(self.place),
            self.player.ema_number,
            self.last_name,
            self.first_name,
            self.player.country,
            self.table_points_text,
            str(self.score),
            str(self.base_rank),
        ]


def name_parts(player: Player) -> tuple[str, str, bool]:
    """(last name, first name, guessed) of `player`: their family and given names when given,
    else their full name split; guessed is true for a split."""
    if player.family_name:
        return player.family_name, player.given_name, False
    last, first = split_name(player.name)
    return last, first, True


def base_rank(place: int, ranked: int) -> int:
    """1000 × (N − place) / (N − 1), rounded halves up; 1000 when N is 1."""
    if ranked <= 1:
        return 1000
    exact = Fraction(1000 * (ranked - place), ranked - 1)
    return int(exact + Fraction(1, 2)) if exact >= 0 else -int(-exact + Fraction(1, 2))


def decimal_text(points: Fraction) -> str:
    """Table points as a decimal with at most two places and no trailing zeros."""
    value = points_as_decimal(points)
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def ema_rows(standings: Sequence[Standing]) -> list[EmaRow]:
    """The ranked players of `standings` (from `selectors.standings`) as rows of the file."""
    ranked = [(row.rank, row) for row in standings if row.rank is not None]
    rows = []
    for place, row in ranked:
        last, first, guessed = name_parts(row.player)
        rows.append(
            EmaRow(
                place=place,
                player=row.player,
                last_name=last,
                first_name=first,
                table_points=row.table_points,
                score=row.score,
                base_rank=base_rank(place, len(ranked)),
                guessed=guessed,
            )
        )
    return rows


def ema_csv(rows: Sequence[EmaRow]) -> str:
    """The file as CSV text: a header line, then one line per row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(HEADERS)
    for row in rows:
        cells = row.cells()
        for index in (1, 2, 3, 4):  # the cells typed by people: EMA number, names, country
            cells[index] = safe_text(cells[index])
        writer.writerow(cells)
    return out.getvalue()
