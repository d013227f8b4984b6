"""Statistics of a tournament and of its players: reads only, for the statistics pages.

- `standings_after_rounds`: the ranking as it stood after each round (games of that round and
  the earlier ones), ranked by `selectors.ranked` as the standings are.
- `player_statistics` and `tournament_statistics`: counts over the deals entered so far, every
  winner of a deal a win (WA: several on one discard, `ExtraWin`).

Patterns (MCR: fans) exist only for wins entered with their tiles (`Hand.tiles`,
`ExtraWin.tiles`): `WinPatterns` scores those with the preset's rulebook, once per win, and is
meant to live for one request. MCR's flower points are not a fan of the hand and are left out of
the fan counts; its hand values are without flowers, as the minimum of 8 is. JT and WA values
are points (JT: the final score). A faulty out that ends a deal (JT) is no draw: it counts with
the false wins. Draft rounds are never counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from scoring.engine.ranking import share_table_points
from scoring.engine.rulebook import FAN, LIMIT_SHARE, Figures, Pattern, Rulebook
from tournament.models import (
    FALSE_WIN_KINDS,
    Deal,
    ExtraWin,
    Penalty,
    Player,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournament.reads.selectors import Standing, ranked

BIGGEST = 10

#: The English and Chinese names of a pattern (`scoring.pattern_names.pattern_names`).
PatternNames = Callable[[Pattern], tuple[str, str]]

# Hand values are split into the tiers of the tournament's preset (`RulePreset.value_tiers`):
# under MCR the values of single fans (8, 12, 16, 24, 32, 48, 64, 88), so a bar says "worth
# about one fan of that tier or more".


# --- The ranking after each round -----------------------------------------------------------


def standings_after_rounds(tournament: Tournament) -> dict[int, list[Standing]]:
    """For every round with an ended game: the standings counting the ended games of that
    round and of the rounds before it. Two queries."""
    players = list(tournament.players.all())
    seats = Seat.objects.filter(
        table__round__tournament=tournament, table__ended_at__isnull=False
    ).values_list("table_id", "round__number", "player_id", "score")
    tables: dict[int, list[tuple[int, int, int]]] = {}
    for table_id, round_number, player_id, score in seats:
        tables.setdefault(table_id, []).append((round_number, player_id, score))
    games_by_round: dict[int, list[tuple[int, Fraction, int]]] = {}
    for table_seats in tables.values():
        scores = [score for _, _, score in table_seats]
        points = share_table_points(scores, tournament.table_points)
        for (round_number, player_id, score), share in zip(table_seats, points, strict=True):
            games_by_round.setdefault(round_number, []).append((player_id, share, score))

    table_points: dict[int, Fraction] = {}
    game_scores: dict[int, list[int]] = {}
    after: dict[int, list[Standing]] = {}
    for round_number in sorted(games_by_round):
        for player_id, share, score in games_by_round[round_number]:
            table_points[player_id] = table_points.get(player_id, Fraction(0)) + share
            game_scores.setdefault(player_id, []).append(score)
        rows = [
            Standing(
                rank=None,
                player=player,
                table_points=table_points.get(player.pk, Fraction(0)),
                score=sum(game_scores.get(player.pk, ())),
                game_scores=tuple(sorted(game_scores.get(player.pk, ()), reverse=True)),
            )
            for player in players
        ]
        after[round_number] = ranked(rows, tournament.tie_breaks)
    return after


def progress_of(player: Player, after: dict[int, list[Standing]]) -> list[tuple[int, Standing]]:
    """(round number, the player's standing after that round), in round order."""
    return [
        (number, next(row for row in rows if row.player.pk == player.pk))
        for number, rows in sorted(after.items())
    ]


# --- The wins, and the patterns of those entered with tiles --------------------------------


@dataclass(frozen=True)
class Win:
    """One winner of a deal: the deal's winner, or (where several win on one discard) a further
    winner (`ExtraWin`), with what their hand was worth (`value`: without flowers) and the tiles
    it was entered with, if any. Reads like the deal for the pages (`number`, `table`...)."""

    hand: Deal
    winner: Seat
    value: int
    flowers: int
    tiles: dict[str, Any] | None
    extra: int | None = None  # the ExtraWin's pk for a further winner

    @property
    def key(self) -> tuple[int, int | None]:
        return (self.hand.pk, self.extra)

    @property
    def number(self) -> int:
        return self.hand.number

    @property
    def table(self) -> Table:
        return self.hand.table

    @property
    def discarder_id(self) -> int | None:
        return self.hand.discarder_id

    @property
    def self_drawn(self) -> bool:
        return self.hand.discarder_id is None

    @property
    def fan(self) -> int | None:
        """The fan of an MCR win (None under the presets that count points)."""
        return self.hand.fan


def _value(hand: Deal) -> int:
    """What the deal's winner's hand is worth without flowers: its fan, or its value in points
    (a database constraint gives every win the one or the other)."""
    if hand.fan is not None:
        return hand.fan
    assert hand.value is not None
    return hand.value


def main_win(hand: Deal) -> Win:
    assert hand.winner is not None
    return Win(hand, hand.winner, _value(hand), hand.flowers, hand.tiles)


def further_win(hand: Deal, extra: ExtraWin) -> Win:
    return Win(hand, extra.winner, extra.value, 0, extra.tiles, extra=extra.pk)


def wins_of(hands: Iterable[Deal], extra_wins: Iterable[ExtraWin]) -> list[Win]:
    """Every winner of `hands`: each deal's winner, then its further winners (`extra_wins`,
    read with `extra_wins_of`), in the order of the hands."""
    further: dict[int, list[ExtraWin]] = {}
    for extra in extra_wins:
        further.setdefault(extra.deal_id, []).append(extra)
    wins = []
    for hand in hands:
        if hand.result != Deal.Result.WIN:
            continue
        wins.append(main_win(hand))
        wins.extend(further_win(hand, extra) for extra in further.get(hand.pk, ()))
    return wins


def extra_wins_of(tournament: Tournament, hands: Sequence[Deal]) -> list[ExtraWin]:
    """The further winners of `hands`: one query, none where a deal has one winner only."""
    if not tournament.rulebook.several_winners or not hands:
        return []
    return list(
        ExtraWin.objects.filter(deal__in=[hand.pk for hand in hands])
        .select_related("winner__player")
        .order_by("deal", "pk")
    )


class WinPatterns:
    """The patterns (MCR: fans) of wins entered with tiles, scored by the preset's rulebook once
    per win.

    Make one per request: the wins of a page are scored at most once each.
    """

    def __init__(self, rulebook: Rulebook, profile: str) -> None:
        self.rulebook = rulebook
        self.profile = profile
        self._figures: dict[tuple[int, int | None], Figures | None] = {}

    @classmethod
    def of_tournament(cls, tournament: Tournament) -> WinPatterns:
        return cls(tournament.rulebook, tournament.profile)

    def figures(self, win: Win | Deal) -> Figures | None:
        """What the tiles of `win` score (its patterns, MCR without flowers; doubles; the
        limit), or None when it was entered without tiles (or its tiles no longer score, which
        the services do not let happen, or now score another value than the one recorded under
        older rulings: the patterns would not add up to it)."""
        if isinstance(win, Deal):
            if win.result != Deal.Result.WIN:
                return None
            win = main_win(win)
        if win.key not in self._figures:
            figures = None
            if win.tiles:
                scored = self.rulebook.score(win.tiles, profile=self.profile)
                if scored.error is None and scored.value == win.value:
                    figures = self.rulebook.figures(scored)
            self._figures[win.key] = figures
        return self._figures[win.key]

    def of(self, win: Win | Deal) -> tuple[Pattern, ...] | None:
        """The patterns of `win` (see `figures`)."""
        figures = self.figures(win)
        return None if figures is None else figures.patterns


@dataclass(frozen=True)
class FanCount:
    """A pattern (MCR: fan) and the number of tiled wins that scored it."""

    key: str
    en: str
    zh: str
    points: int  # its value, in `unit`
    hands: int  # wins that scored this pattern (a pattern counted twice in one win counts once)
    unit: str = FAN


@dataclass(frozen=True)
class PatternCounts:
    """What the tiled wins among some wins scored: how many were tiled (`scored`), each pattern
    with the number of those wins that scored it, how many wins scored each number of doubles
    (empty where the preset counts none) and how many reached the limit (None where the
    preset has none)."""

    scored: int
    patterns: list[FanCount]
    doubles: list[tuple[int, int]]
    limit: int | None


def count_patterns(
    wins: Iterable[Win], win_patterns: WinPatterns, names: PatternNames | None = None
) -> PatternCounts:
    """The patterns of the tiled `wins`: most frequent first, then higher values first. Names
    come from `names` (default: the engine's own)."""
    counter: Counter[str] = Counter()
    lines: dict[str, Pattern] = {}
    doubles: Counter[int] = Counter()
    limit = 0
    scored = 0
    for win in wins:
        figures = win_patterns.figures(win)
        if figures is None:
            continue
        scored += 1
        for pattern in {line.key: line for line in figures.patterns}.values():
            counter[pattern.key] += 1
            lines.setdefault(pattern.key, pattern)
        if figures.doubles is not None:
            doubles[figures.doubles] += 1
        limit += bool(figures.limit)
    name = names or (lambda pattern: (pattern.en, pattern.zh))
    counts = [
        FanCount(key, *name(lines[key]), lines[key].value, hands, lines[key].unit)
        for key, hands in counter.items()
    ]
    counts.sort(key=lambda fan: (-fan.hands, -_weight(fan), fan.en))
    rulebook = win_patterns.rulebook
    return PatternCounts(
        scored=scored,
        patterns=counts,
        doubles=sorted(doubles.items()) if rulebook.counts_doubles else [],
        limit=limit if rulebook.has_limit else None,
    )


def _weight(fan: FanCount) -> int:
    """For ordering patterns level on wins: a share of the limit outweighs any points."""
    return fan.points * 100_000 if fan.unit == LIMIT_SHARE else fan.points


def count_fans(wins: Iterable[Win], win_patterns: WinPatterns) -> tuple[int, list[FanCount]]:
    """How many of `wins` carry patterns, and each pattern with the number of those wins that
    scored it (see `count_patterns`)."""
    counts = count_patterns(wins, win_patterns)
    return counts.scored, counts.patterns


def most_frequent(counts: Sequence[FanCount]) -> list[FanCount]:
    """The patterns scored in the most wins (several when level)."""
    return [fan for fan in counts if fan.hands == counts[0].hands] if counts else []


# --- A player's hands -----------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStatistics:
    hands_played: int
    wins: int
    self_drawn: int
    discarded: int  # hands in which the player's discard was the winning tile
    false_wins: int  # false wins (MCR), faulty outs (penalties of WA, deal results of JT)
    fan_total: int
    largest: Win | None
    fan_hands: int  # wins entered with tiles: the wins the pattern counts come from
    fans: list[FanCount]
    doubles: list[tuple[int, int]] = field(default_factory=list)
    limit: int | None = None

    @property
    def self_drawn_share(self) -> Fraction | None:
        return Fraction(self.self_drawn, self.wins) if self.wins else None

    @property
    def average_fan(self) -> Fraction | None:
        return Fraction(self.fan_total, self.wins) if self.wins else None

    @property
    def favourite_fans(self) -> list[FanCount]:
        return most_frequent(self.fans)


def player_hands(player: Player) -> list[Deal]:
    """Every hand entered at the player's tables outside draft rounds, with winner, discarder,
    offender and table loaded, in play order. One query."""
    return list(
        Deal.objects.filter(table__seats__player=player)
        .exclude(table__round__status=Round.Status.DRAFT)
        .select_related("winner", "discarder", "offender", "table__round")
        .order_by("table__round__number", "number")
    )


def player_false_wins(player: Player) -> int:
    """The player's false-win penalties (MCR's false wins, WA's faulty outs). One query."""
    return (
        Penalty.objects.filter(seat__player=player, kind__in=FALSE_WIN_KINDS)
        .exclude(table__round__status=Round.Status.DRAFT)
        .count()
    )


def player_statistics(
    player: Player,
    hands: Sequence[Deal],
    false_wins: int,
    win_patterns: WinPatterns,
    extra_wins: Iterable[ExtraWin] = (),
    names: PatternNames | None = None,
) -> PlayerStatistics:
    """Statistics of `player` over `hands` (from `player_hands`) and the further winners of
    those hands (`extra_wins_of`): every win of the player, a further winner's too. Faulty
    outs that end a deal count with the false wins."""
    won = [win for win in wins_of(hands, extra_wins) if win.winner.player_id == player.pk]
    largest = max(won, key=lambda win: (win.value, win.flowers), default=None)
    counts = count_patterns(won, win_patterns, names)
    faulty_outs = sum(
        hand.result == Deal.Result.FAULTY_OUT
        and hand.offender is not None
        and hand.offender.player_id == player.pk
        for hand in hands
    )
    return PlayerStatistics(
        hands_played=len(hands),
        wins=len(won),
        self_drawn=sum(win.self_drawn for win in won),
        discarded=sum(
            hand.discarder is not None and hand.discarder.player_id == player.pk for hand in hands
        ),
        false_wins=false_wins + faulty_outs,
        fan_total=sum(win.value for win in won),
        largest=largest,
        fan_hands=counts.scored,
        fans=counts.patterns,
        doubles=counts.doubles,
        limit=counts.limit,
    )


# --- The whole tournament -------------------------------------------------------------------


@dataclass(frozen=True)
class RoundLine:
    round: Round
    hands: int
    wins: int  # every winner, several on one deal where the preset lets them
    self_drawn: int
    draws: int
    false_wins: int  # false-win penalties and faulty outs that ended a deal


@dataclass(frozen=True)
class ValueRange:
    low: int
    high: int | None
    hands: int

    @property
    def label(self) -> str:
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.low == self.high else f"{self.low}–{self.high}"


@dataclass(frozen=True)
class TournamentStatistics:
    hands: int
    wins: int
    self_drawn: int
    draws: int
    false_wins: int
    fan_total: int
    values: list[ValueRange]
    fan_hands: int
    fans: list[FanCount]
    biggest: list[Win]
    rounds: list[RoundLine]
    doubles: list[tuple[int, int]] = field(default_factory=list)
    limit: int | None = None

    @property
    def average_fan(self) -> Fraction | None:
        return Fraction(self.fan_total, self.wins) if self.wins else None

    @property
    def self_drawn_share(self) -> Fraction | None:
        return Fraction(self.self_drawn, self.wins) if self.wins else None

    @property
    def favourite_fans(self) -> list[FanCount]:
        return most_frequent(self.fans)


def value_ranges(values: Iterable[int], tiers: Sequence[int]) -> list[ValueRange]:
    """How many of `values` fall in each tier (from each of `tiers` to the next; and below the
    first, if any do)."""
    values = list(values)
    ranges: list[tuple[int, int | None]] = [
        (low, following - 1) for low, following in zip(tiers, tiers[1:], strict=False)
    ]
    ranges.append((tiers[-1], None))
    below = [value for value in values if value < ranges[0][0]]
    if below:
        ranges.insert(0, (min(below), ranges[0][0] - 1))
    return [
        ValueRange(
            low, high, sum(low <= value and (high is None or value <= high) for value in values)
        )
        for low, high in ranges
    ]


def tournament_statistics(
    tournament: Tournament, win_patterns: WinPatterns, names: PatternNames | None = None
) -> TournamentStatistics:
    """Counts over every deal and false win outside draft rounds: every winner of a deal is a
    win (several on one discard where the preset lets them); a faulty out that ends a deal is
    no draw, it counts with the false wins. Three queries, four where several may win."""
    rounds = list(tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number"))
    hands = list(
        Deal.objects.filter(table__round__tournament=tournament)
        .exclude(table__round__status=Round.Status.DRAFT)
        .select_related("winner__player", "table__round")
        .order_by("table__round__number", "table__number", "number")
    )
    false_wins = Counter(
        Penalty.objects.filter(table__round__tournament=tournament, kind__in=FALSE_WIN_KINDS)
        .exclude(table__round__status=Round.Status.DRAFT)
        .values_list("table__round__number", flat=True)
    )
    for hand in hands:
        if hand.result == Deal.Result.FAULTY_OUT:
            false_wins[hand.table.round.number] += 1
    wins = wins_of(hands, extra_wins_of(tournament, hands))
    hands_by_round: Counter[int] = Counter(hand.table.round.number for hand in hands)
    draws_by_round: Counter[int] = Counter(
        hand.table.round.number for hand in hands if hand.result == Deal.Result.DRAW
    )
    wins_by_round: dict[int, list[Win]] = {}
    for win in wins:
        wins_by_round.setdefault(win.table.round.number, []).append(win)
    lines = []
    for round in rounds:
        round_wins = wins_by_round.get(round.number, [])
        lines.append(
            RoundLine(
                round=round,
                hands=hands_by_round[round.number],
                wins=len(round_wins),
                self_drawn=sum(win.self_drawn for win in round_wins),
                draws=draws_by_round[round.number],
                false_wins=false_wins.get(round.number, 0),
            )
        )
    counts = count_patterns(wins, win_patterns, names)
    biggest = sorted(
        wins,
        key=lambda win: (
            -win.value,
            -win.flowers,
            win.table.round.number,
            win.table.number,
            win.number,
            win.extra or 0,
        ),
    )[:BIGGEST]
    return TournamentStatistics(
        hands=len(hands),
        wins=len(wins),
        self_drawn=sum(win.self_drawn for win in wins),
        draws=sum(draws_by_round.values()),
        false_wins=sum(false_wins.values()),
        fan_total=sum(win.value for win in wins),
        values=(
            value_ranges((win.value for win in wins), tournament.rules.value_tiers) if wins else []
        ),
        fan_hands=counts.scored,
        fans=counts.patterns,
        biggest=biggest,
        rounds=lines,
        doubles=counts.doubles,
        limit=counts.limit,
    )
