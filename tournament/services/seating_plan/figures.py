"""Figures of a tournament's seating: repeats, conflicts and winds, in total and per round."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from tournament.domain import seating as engine
from tournament.models import Tournament

from .plan import ATTRIBUTES, entrants, round_seatings


@dataclass(frozen=True)
class RoundFigures:
    number: int
    #: Pairs at one table of this round who met in an earlier round.
    repeats: int
    club_conflicts: int
    country_conflicts: int
    team_conflicts: int


@dataclass(frozen=True)
class SeatingFigures:
    """Figures of the seating of every round, as stored now."""

    totals: engine.Figures
    rounds: tuple[RoundFigures, ...]
    #: (round, table) -> what the players there share ("club", "country", "team").
    conflict_tables: dict[tuple[int, int], tuple[str, ...]] = field(default_factory=dict)
    #: (round, table) -> pairs at the table who met in an earlier round.
    repeat_tables: dict[tuple[int, int], int] = field(default_factory=dict)
    #: Player key -> starting winds E, S, W, N counted.
    winds: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def worst_wind_spread(self) -> int:
        """The largest difference between a player's most and least frequent starting wind."""
        return max((max(c.values()) - min(c.values()) for c in self.winds.values()), default=0)

    def as_json(self) -> dict[str, Any]:
        totals = self.totals
        return {
            "repeats": totals.repeats,
            "repeated_pairs": totals.repeated_pairs,
            "most_meetings": totals.most_meetings,
            "club_conflicts": totals.club_conflicts,
            "country_conflicts": totals.country_conflicts,
            "team_conflicts": totals.team_conflicts,
            "wind_imbalance": totals.wind_imbalance,
            "unbalanced_players": totals.unbalanced_players,
            "worst_wind_spread": self.worst_wind_spread,
            "table_repeats": totals.table_repeats,
            "rounds": [
                {
                    "number": r.number,
                    "repeats": r.repeats,
                    "club_conflicts": r.club_conflicts,
                    "country_conflicts": r.country_conflicts,
                    "team_conflicts": r.team_conflicts,
                }
                for r in self.rounds
            ],
        }


def measure_rounds(
    rounds: Sequence[engine.RoundSeating], players: Sequence[engine.Entrant]
) -> SeatingFigures:
    """Figures of `rounds` (in round order) with the engine's measures, and per round."""
    rounds = sorted(rounds, key=lambda r: r.number)
    conflicts = {a: engine.conflicts(rounds, players, a) for a in ATTRIBUTES}
    per_round: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(ATTRIBUTES, 0))
    conflict_tables: dict[tuple[int, int], set[str]] = defaultdict(set)
    for attribute, found in conflicts.items():
        for number, table_number, _first, _second in found:
            per_round[number][attribute] += 1
            conflict_tables[number, table_number].add(attribute)
    met: set[tuple[str, str]] = set()
    repeat_tables: dict[tuple[int, int], int] = {}
    figures = []
    for round_ in rounds:
        repeats = 0
        pairs = set()
        for table in round_.tables:
            here = set(combinations(sorted(table.seats), 2))
            again = len(here & met)
            if again:
                repeat_tables[round_.number, table.number] = again
            repeats += again
            pairs |= here
        met |= pairs
        counts = per_round[round_.number]
        figures.append(
            RoundFigures(
                number=round_.number,
                repeats=repeats,
                club_conflicts=counts["club"],
                country_conflicts=counts["country"],
                team_conflicts=counts["team"],
            )
        )
    return SeatingFigures(
        totals=engine.measure(rounds, players),
        rounds=tuple(figures),
        conflict_tables={
            key: tuple(a for a in ATTRIBUTES if a in found)
            for key, found in conflict_tables.items()
        },
        repeat_tables=repeat_tables,
        winds=engine.wind_counts(rounds),
    )


def seating_figures(tournament: Tournament) -> SeatingFigures:
    """The figures of the current seating of every round, published and draft."""
    players = entrants(tournament.players.all())
    return measure_rounds(list(round_seatings(tournament).values()), players)
