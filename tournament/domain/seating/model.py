"""What the seating engine takes and gives back: plain frozen dataclasses."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from tournament.domain.rotation import WINDS

#: EMA: up to three substitutes may fill the field to a multiple of four.
MAX_SUBSTITUTES = 3


class Separation(enum.StrEnum):
    """How firmly players sharing a club, country or team are kept apart."""

    OFF = "off"  # ignored
    SOFT = "soft"  # avoided where possible, after repeats
    HARD = "hard"  # never at one table in a generated round, or an error


@dataclass(frozen=True)
class Entrant:
    """One player of the field to seat.  Blank club, country or team never conflict.

    `fixed_table` keeps the player at that table number in every generated round (a table
    that suits a wheelchair, say).
    """

    key: str
    club: str = ""
    country: str = ""
    team: str = ""
    fixed_table: int | None = None


@dataclass(frozen=True)
class Separations:
    club: Separation = Separation.SOFT
    country: Separation = Separation.SOFT
    team: Separation = Separation.SOFT

    def of(self, attribute: str) -> Separation:
        return Separation(getattr(self, attribute))


ATTRIBUTES = ("club", "country", "team")


@dataclass(frozen=True)
class TableSeating:
    """A table of one round: its number and the player keys at E, S, W, N."""

    number: int
    seats: tuple[str, str, str, str]

    @classmethod
    def of(cls, number: int, seats: Iterable[str]) -> TableSeating:
        """Table `number` with the four player keys `seats` at E, S, W, N."""
        east, south, west, north = seats
        return cls(number=number, seats=(east, south, west, north))

    @property
    def by_wind(self) -> dict[str, str]:
        return dict(zip(WINDS, self.seats, strict=True))


@dataclass(frozen=True)
class RoundSeating:
    number: int
    tables: tuple[TableSeating, ...]

    def players(self) -> list[str]:
        return [key for table in self.tables for key in table.seats]


@dataclass(frozen=True)
class Progress:
    """Reported now and then during a long run: `done` of `total` work units of a stage.

    Stages, in order (some may be skipped): "repeats" (fewest repeats), "separation" (repeats
    and club/country/team conflicts together), "final" (repeats first, then conflicts), and
    "done".  `cost` is the stage's best weighted count so far (0: no repeat, no conflict).
    """

    stage: str
    done: int
    total: int
    cost: int

    @property
    def fraction(self) -> float:
        return min(1.0, self.done / self.total) if self.total else 1.0


class SeatingError(ValueError):
    """Input that cannot be seated.  `code` names the problem; the message explains it.

    For a field that is not a multiple of four, `substitutes` says how many to add.
    """

    def __init__(self, message: str, *, code: str, substitutes: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.substitutes = substitutes


def substitutes_needed(players: int) -> int:
    """How many substitutes fill a field of `players` to a multiple of four (0 to 3)."""
    return -players % 4


@dataclass(frozen=True)
class Figures:
    """How good a seating is, over all its rounds (see ``metrics.measure``)."""

    #: Extra meetings: a pair that shares a table m times counts m - 1.
    repeats: int
    #: Pairs that share a table more than once.
    repeated_pairs: int
    #: The most times any pair shares a table.
    most_meetings: int
    #: Pairs of one club (country, team) at one table, counted per round.
    club_conflicts: int
    country_conflicts: int
    team_conflicts: int
    #: Per player, how far the spread of starting winds exceeds one (0: perfectly fair).
    wind_imbalance: int
    #: Players whose most and least frequent starting winds differ by more than one.
    unbalanced_players: int
    #: Per player, rounds played minus distinct table numbers sat at.
    table_repeats: int


@dataclass(frozen=True)
class Seating:
    """Every round of the tournament, frozen ones as given, and the figures of the whole."""

    rounds: tuple[RoundSeating, ...]
    figures: Figures
    #: The numbers of the rounds the engine seated.
    generated: tuple[int, ...]
    #: The algebraic design the seating started from, e.g. "AG(2,4)", or "" for none.
    construction: str = ""

    def round(self, number: int) -> RoundSeating:
        return next(r for r in self.rounds if r.number == number)
