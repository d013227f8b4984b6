"""Statistics of a tournament and of its players: reads only, for the statistics pages.

- `standings_after_rounds`: the ranking as it stood after each round (games of that round and
  the earlier ones), ranked by `selectors.ranked` as the standings are.
- `player_statistics` and `tournament_statistics`: counts over the hands entered so far.

Fan names exist only for hands entered with their tiles (`Hand.tiles`): `FanNames` scores those
with the engine, once per hand, and is meant to live for one request. Flower points are not a
fan of the hand and are left out of the fan counts. Hand values ("fan") are without flowers, as
the minimum of 8 is. Draft rounds are never counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.engine import FanLine, score_case
from scoring.engine.ranking import share_table_points
from tournament.models import FALSE_WIN_KINDS, Hand, Penalty, Player, Round, Seat, Tournament
from tournament.selectors import Standing, ranked

FLOWERS = "flower_tiles"
BIGGEST = 10

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


# --- Fan names of hands entered with tiles --------------------------------------------------


class FanNames:
    """The fans of hands entered with tiles, scored by the engine once per hand.

    Make one per request: the hands of a page are scored at most once each.
    """

    def __init__(self, profile: str) -> None:
        self.profile = profile
        self._fans: dict[int, tuple[FanLine, ...] | None] = {}

    def of(self, hand: Hand) -> tuple[FanLine, ...] | None:
        """The fans of `hand` without flowers, or None when it was entered without tiles (or its
        tiles no longer score, which the services do not let happen, or now score another fan
        than the one recorded under older rulings: the names would not add up to it)."""
        if hand.pk not in self._fans:
            fans = None
            if hand.result == Hand.Result.WIN and hand.tiles:
                verdict = score_case(hand.tiles, profile=self.profile)
                if not verdict.error and verdict.total_excl_flowers == hand.fan:
                    fans = tuple(fan for fan in verdict.fans if fan.key != FLOWERS)
            self._fans[hand.pk] = fans
        return self._fans[hand.pk]


@dataclass(frozen=True)
class FanCount:
    key: str
    en: str
    zh: str
    points: int
    hands: int  # hands that scored this fan (a fan counted twice in one hand counts once)


def count_fans(hands: Iterable[Hand], fan_names: FanNames) -> tuple[int, list[FanCount]]:
    """How many of `hands` carry fan names, and each fan with the number of those hands that
    scored it: most frequent first, then higher fans first."""
    counter: Counter[str] = Counter()
    lines: dict[str, FanLine] = {}
    scored = 0
    for hand in hands:
        fans = fan_names.of(hand)
        if fans is None:
            continue
        scored += 1
        for fan in fans:
            counter[fan.key] += 1
            lines.setdefault(fan.key, fan)
    counts = [
        FanCount(key, lines[key].en, lines[key].zh, lines[key].points, hands)
        for key, hands in counter.items()
    ]
    counts.sort(key=lambda fan: (-fan.hands, -fan.points, fan.en))
    return scored, counts


def most_frequent(counts: Sequence[FanCount]) -> list[FanCount]:
    """The fans scored in the most hands (several when level)."""
    return [fan for fan in counts if fan.hands == counts[0].hands] if counts else []


# --- A player's hands -----------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStatistics:
    hands_played: int
    wins: int
    self_drawn: int
    discarded: int  # hands in which the player's discard was the winning tile
    false_wins: int
    fan_total: int
    largest: Hand | None
    fan_hands: int  # wins entered with tiles: the hands the fan counts come from
    fans: list[FanCount]

    @property
    def self_drawn_share(self) -> Fraction | None:
        return Fraction(self.self_drawn, self.wins) if self.wins else None

    @property
    def average_fan(self) -> Fraction | None:
        return Fraction(self.fan_total, self.wins) if self.wins else None

    @property
    def favourite_fans(self) -> list[FanCount]:
        return most_frequent(self.fans)


def _fan(win: Hand) -> int:
    """What a win is worth without flowers: its fan, or its value in points (a database
    constraint gives every win the one or the other)."""
    if win.fan is not None:
        return win.fan
    assert win.value is not None
    return win.value


def player_hands(player: Player) -> list[Hand]:
    """Every hand entered at the player's tables outside draft rounds, with winner, discarder
    and table loaded, in play order. One query."""
    return list(
        Hand.objects.filter(table__seats__player=player)
        .exclude(table__round__status=Round.Status.DRAFT)
        .select_related("winner", "discarder", "table__round")
        .order_by("table__round__number", "number")
    )


def player_false_wins(player: Player) -> int:
    return (
        Penalty.objects.filter(seat__player=player, kind__in=FALSE_WIN_KINDS)
        .exclude(table__round__status=Round.Status.DRAFT)
        .count()
    )


def player_statistics(
    player: Player, hands: Sequence[Hand], false_wins: int, fan_names: FanNames
) -> PlayerStatistics:
    """Statistics of `player` over `hands` (from `player_hands`)."""
    won = [hand for hand in hands if hand.winner is not None and hand.winner.player_id == player.pk]
    largest = max(won, key=lambda hand: (_fan(hand), hand.flowers), default=None)
    fan_hands, fans = count_fans(won, fan_names)
    return PlayerStatistics(
        hands_played=len(hands),
        wins=len(won),
        self_drawn=sum(hand.discarder_id is None for hand in won),
        discarded=sum(
            hand.discarder is not None and hand.discarder.player_id == player.pk for hand in hands
        ),
        false_wins=false_wins,
        fan_total=sum(_fan(hand) for hand in won),
        largest=largest,
        fan_hands=fan_hands,
        fans=fans,
    )


# --- The whole tournament -------------------------------------------------------------------


@dataclass(frozen=True)
class RoundLine:
    round: Round
    hands: int
    wins: int
    self_drawn: int
    draws: int
    false_wins: int


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
    biggest: list[Hand]
    rounds: list[RoundLine]

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


def tournament_statistics(tournament: Tournament, fan_names: FanNames) -> TournamentStatistics:
    """Counts over every hand and false win outside draft rounds. Three queries."""
    rounds = list(tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number"))
    hands = list(
        Hand.objects.filter(table__round__tournament=tournament)
        .exclude(table__round__status=Round.Status.DRAFT)
        .select_related("winner__player", "table__round")
    )
    false_wins = Counter(
        Penalty.objects.filter(table__round__tournament=tournament, kind__in=FALSE_WIN_KINDS)
        .exclude(table__round__status=Round.Status.DRAFT)
        .values_list("table__round__number", flat=True)
    )
    wins = [hand for hand in hands if hand.result == Hand.Result.WIN]
    by_round: dict[int, list[Hand]] = {}
    for hand in hands:
        by_round.setdefault(hand.table.round.number, []).append(hand)
    lines = []
    for round in rounds:
        played = by_round.get(round.number, [])
        round_wins = [hand for hand in played if hand.result == Hand.Result.WIN]
        lines.append(
            RoundLine(
                round=round,
                hands=len(played),
                wins=len(round_wins),
                self_drawn=sum(hand.discarder_id is None for hand in round_wins),
                draws=len(played) - len(round_wins),
                false_wins=false_wins.get(round.number, 0),
            )
        )
    fan_hands, fans = count_fans(wins, fan_names)
    biggest = sorted(
        wins,
        key=lambda hand: (
            -_fan(hand),
            -hand.flowers,
            hand.table.round.number,
            hand.table.number,
            hand.number,
        ),
    )[:BIGGEST]
    return TournamentStatistics(
        hands=len(hands),
        wins=len(wins),
        self_drawn=sum(hand.discarder_id is None for hand in wins),
        draws=len(hands) - len(wins),
        false_wins=sum(false_wins.values()),
        fan_total=sum(_fan(hand) for hand in wins),
        values=(
            value_ranges((_fan(hand) for hand in wins), tournament.rules.value_tiers)
            if wins
            else []
        ),
        fan_hands=fan_hands,
        fans=fans,
        biggest=biggest,
        rounds=lines,
    )
