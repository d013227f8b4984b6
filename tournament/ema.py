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
- Names: the player has one name field. "Last, First" (with a comma) splits at the comma, which
  lets the organiser write any name exactly ("van der Berg, Anna", "Chen, Cai"). Otherwise the
  name is read as "First Last": the last word is the last name, together with the lowercase
  particles just before it ("Anna van der Berg" -> "van der Berg", "Anna"); a single word is a
  last name.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournament.models import Player
from tournament.selectors import Standing
from tournament.spreadsheet import safe_text
from tournament.tables import points_as_decimal

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

# Lowercase words that belong to the last name that follows them.
PARTICLES = frozenset("da dal de del della der des di du la le te ten ter van von zu".split())


@dataclass(frozen=True)
class EmaRow:
    place: int
    player: Player
    last_name: str
    first_name: str
    table_points: Fraction
    score: int
    base_rank: int

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


def split_name(name: str) -> tuple[str, str]:
    """(last name, first name) of a player's name, by the rules in this module's docstring."""
    name = " ".join(name.split())
    if "," in name:
        last, first = name.split(",", 1)
        return last.strip(), first.strip()
    words = name.split(" ")
    if len(words) == 1:
        return name, ""
    start = len(words) - 1
    while start > 0 and words[start - 1] in PARTICLES:
        start -= 1
    return " ".join(words[start:]), " ".join(words[:start])


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
        last, first = split_name(row.player.name)
        rows.append(
            EmaRow(
                place=place,
                player=row.player,
                last_name=last,
                first_name=first,
                table_points=row.table_points,
                score=row.score,
                base_rank=base_rank(place, len(ranked)),
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
