"""Figures of a seating: repeats, club/country/team conflicts, wind balance, table spread.

They work on any seating (generated, frozen or edited by hand), keyed by player key.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from itertools import combinations

from .model import ATTRIBUTES, WINDS, Entrant, Figures, RoundSeating


def meetings(rounds: Iterable[RoundSeating]) -> Counter[tuple[str, str]]:
    """How often each pair of players shared a table, keyed by the pair in sorted order."""
    counts: Counter[tuple[str, str]] = Counter()
    for round_ in rounds:
        for table in round_.tables:
            for a, b in combinations(sorted(table.seats), 2):
                counts[a, b] += 1
    return counts


def conflicts(
    rounds: Iterable[RoundSeating], players: Iterable[Entrant], attribute: str
) -> list[tuple[int, int, str, str]]:
    """(round, table, key, key) for every pair sharing a non-blank club, country or team."""
    if attribute not in ATTRIBUTES:
        raise ValueError(f"unknown attribute {attribute!r}; use one of {', '.join(ATTRIBUTES)}")
    value = {p.key: getattr(p, attribute) for p in players}
    found = []
    for round_ in rounds:
        for table in round_.tables:
            for a, b in combinations(table.seats, 2):
                if value.get(a) and value.get(a) == value.get(b):
                    found.append((round_.number, table.number, a, b))
    return found


def wind_counts(rounds: Iterable[RoundSeating]) -> dict[str, dict[str, int]]:
    """For every player, how many times they started at E, S, W and N."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(WINDS, 0))
    for round_ in rounds:
        for table in round_.tables:
            for wind, key in zip(WINDS, table.seats, strict=True):
                counts[key][wind] += 1
    return dict(counts)


def measure(rounds: Iterable[RoundSeating], players: Iterable[Entrant]) -> Figures:
    rounds = list(rounds)
    players = list(players)
    met = meetings(rounds)
    winds = wind_counts(rounds)
    spreads = [max(c.values()) - min(c.values()) for c in winds.values()]
    tables: dict[str, list[int]] = defaultdict(list)
    for round_ in rounds:
        for table in round_.tables:
            for key in table.seats:
                tables[key].append(table.number)
    return Figures(
        repeats=sum(m - 1 for m in met.values()),
        repeated_pairs=sum(1 for m in met.values() if m > 1),
        most_meetings=max(met.values(), default=0),
        club_conflicts=len(conflicts(rounds, players, "club")),
        country_conflicts=len(conflicts(rounds, players, "country")),
        team_conflicts=len(conflicts(rounds, players, "team")),
        wind_imbalance=sum(max(0, s - 1) for s in spreads),
        unbalanced_players=sum(1 for s in spreads if s > 1),
        table_repeats=sum(len(numbers) - len(set(numbers)) for numbers in tables.values()),
    )
