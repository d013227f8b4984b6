"""Before the EMA results file goes out: what would stop the ranking submission, the
tournament's MERS weight as far as it can be told, and each ranked player's base rank.

`readiness(tournament)` answers a `Readiness`: the problems found, each blocking or a warning,
with the page where it is fixed (a player, a table, the settings); the weight's factors with an
estimate; and the rows of the EMA file (`tournament.reads.ema`), whose base rank is the file's own.
Four queries, whatever the size of the tournament.

Where the rules come from (sources reachable when this was written, 2026):

- The results file and the base rank 1000 × (N − place) / (N − 1): rules/TOURNAMENT.md
  ("Results for the European ranking"); N is the number of ranked players, substitutes left
  out. Level players share the place (TOURNAMENT.md: "Tied players share the place"), so two
  players level in 3rd place both have place 3 and the same base rank, and the next player is
  5th. Averaging the places they span (3.5) is another common way; this module keeps the
  file's rule, so that the preview shows what the file says. N = 1 gives 1000, never a
  division by zero (`ema.base_rank`).
- A player needs an EMA number to be listed (EMA, "The Mahjong Europe Ranking System", §3);
  organisers submit results with the players' EMA numbers and answer for them being right
  (EMA, "Requirements and guidelines for MERS tournaments", 18 December 2018, §3.13). A number
  is eight digits (`names.validate_ema_number`).
- At least 16 players from EMA member countries (the same guidelines, §2.1): a warning here,
  counted over the ranked players whatever their country.
- Substitutes: TOURNAMENT.md (citing the EMA's MCR tournament regulations, §4) allows up to
  three, to fill the field to a multiple of four, and never ranks one. The MERS tournament
  regulations for MCR (version 1.1, August 2010, §4) say a substitute is never ranked but give
  no number: the limit of three is TOURNAMENT.md's, and the page says so.
- What a game's scores add up to is the rule set's (`Rulebook.game_total`): four times the
  initial points less the deductions given to nobody, under every preset (MCR starts at 0,
  JT at 8000, WA at 500; riichi stakes and JT's ready pool pass between the players).
- The EMA ranks MCR and its Riichi Competition Rules (MERS §1): a rule set that is neither
  (`Rulebook.ema_ranking` None) is a warning.

The MERS weight. The EMA's own document found ("The Mahjong Europe Ranking System", §2) names
three weights by kind of tournament: 1 a local tournament, 2 a national championship (which
must last at least two days, guidelines §1.2.1), 5 a European championship. The issue that
asked for this page, and an independent reimplementation of the EMA ranking (not the EMA),
describe a weight built from factors instead: the days (1, 2, 3 or more), the players (more
than 40, more than 80), the countries (more than 5, 10 or more) and whether the event is a
qualifying championship. The bands below are that description's: 1 / 2 / 3 for the days,
+0.5 above 40 players and +1 above 80, +0.5 from 6 countries and +1 from 10, +1 for a
qualifying championship. They could not be confirmed in an EMA text: the page and the API
call the sum an estimate, and the EMA decides the weight. The tournament records no
qualification, so the estimate is given without it and with it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Sum
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournament.domain.names import validate_country, validate_ema_number
from tournament.models import Penalty, Player, Round, Table, Tournament
from tournament.reads.ema import EmaRow, ema_rows
from tournament.reads.selectors import standings

#: The most substitutes TOURNAMENT.md allows (enough to fill the field to a multiple of four).
SUBSTITUTE_LIMIT = 3
#: The fewest players a MERS tournament has (EMA guidelines §2.1).
LEAST_PLAYERS = 16


class Kind:
    """What a problem is about; each kind is blocking or a warning (`BLOCKING`)."""

    NO_DATES = "no_dates"
    NO_PLANNED_ROUNDS = "no_planned_rounds"
    ROUNDS_MISSING = "rounds_missing"
    GAME_IN_PLAY = "game_in_play"
    GAME_UNCONFIRMED = "game_unconfirmed"
    SCORES_UNBALANCED = "scores_unbalanced"
    EMA_NUMBER_MISSING = "ema_number_missing"
    EMA_NUMBER_BAD = "ema_number_bad"
    COUNTRY_MISSING = "country_missing"
    COUNTRY_BAD = "country_bad"
    NO_GAMES = "no_games"
    SUBSTITUTES = "substitutes"
    FEW_PLAYERS = "few_players"
    RULE_SET_NOT_RANKED = "rule_set_not_ranked"


#: The kinds that stop the submission; the others are warnings.
BLOCKING = frozenset(
    {
        Kind.NO_DATES,
        Kind.ROUNDS_MISSING,
        Kind.GAME_IN_PLAY,
        Kind.GAME_UNCONFIRMED,
        Kind.SCORES_UNBALANCED,
        Kind.EMA_NUMBER_BAD,
        Kind.COUNTRY_BAD,
    }
)

#: The heading of each kind on the page, in the order the page lists them.
TITLES: dict[str, Promise] = {
    Kind.NO_DATES: _("Dates"),
    Kind.ROUNDS_MISSING: _("Rounds not played"),
    Kind.GAME_IN_PLAY: _("Games not finished"),
    Kind.GAME_UNCONFIRMED: _("Game sheets not confirmed"),
    Kind.SCORES_UNBALANCED: _("Scores that do not add up"),
    Kind.EMA_NUMBER_BAD: _("Malformed EMA numbers"),
    Kind.COUNTRY_BAD: _("Invalid country codes"),
    Kind.EMA_NUMBER_MISSING: _("Players without an EMA number"),
    Kind.COUNTRY_MISSING: _("Players without a country"),
    Kind.NO_GAMES: _("Ranked players without a game"),
    Kind.SUBSTITUTES: _("Substitutes"),
    Kind.FEW_PLAYERS: _("Number of players"),
    Kind.NO_PLANNED_ROUNDS: _("Planned rounds"),
    Kind.RULE_SET_NOT_RANKED: _("Rule set"),
}

MESSAGES: dict[str, Promise] = {
    Kind.NO_DATES: _(
        "The tournament has no start date. The EMA lists results by date, and the weight "
        "depends on the number of days: give the dates in the settings."
    ),
    Kind.NO_PLANNED_ROUNDS: _(
        "The number of planned rounds is not set, so it cannot be told whether every round "
        "is played."
    ),
    Kind.ROUNDS_MISSING: _(
        "%(played)s of the %(planned)s planned rounds are played (every game confirmed)."
    ),
    Kind.GAME_IN_PLAY: _(
        "Round %(round)s, table %(table)s: the game has not ended. It does not count in the "
        "ranking."
    ),
    Kind.GAME_UNCONFIRMED: _(
        "Round %(round)s, table %(table)s: the game sheet waits for confirmation. It does not "
        "count in the ranking until it is confirmed."
    ),
    Kind.SCORES_UNBALANCED: _(
        "Round %(round)s, table %(table)s: the four scores add up to %(total)s; under these "
        "rules they should add up to %(expected)s (4 × %(initial)s starting points, less "
        "%(deductions)s in deductions)."
    ),
    Kind.EMA_NUMBER_MISSING: _(
        "%(player)s has no EMA number: the EMA will not list them in its ranking."
    ),
    Kind.EMA_NUMBER_BAD: _("%(player)s: %(error)s"),
    Kind.COUNTRY_MISSING: _("%(player)s has no country."),
    Kind.COUNTRY_BAD: _("%(player)s: %(error)s"),
    Kind.NO_GAMES: _(
        "%(player)s has no counted game but is in the file with 0 points. Mark them withdrawn "
        "or a substitute, or remove them, if they did not play."
    ),
    Kind.SUBSTITUTES: _(
        "The tournament has %(count)s substitutes; the rules here (TOURNAMENT.md, after the "
        "EMA regulations) allow up to %(limit)s. The EMA's own limit could not be confirmed. "
        "Substitutes are never ranked and are not in the file."
    ),
    Kind.FEW_PLAYERS: _(
        "%(count)s ranked players: a MERS tournament has at least %(least)s players from EMA "
        "member countries."
    ),
    Kind.RULE_SET_NOT_RANKED: _(
        "The EMA ranks tournaments of the Mahjong Competition Rules and of its Riichi "
        "Competition Rules; %(rules)s is neither. Ask the EMA before sending the file."
    ),
}


@dataclass(frozen=True)
class Problem:
    """One thing that would stop the submission (`blocking`) or that the organiser should
    check (a warning), with what it is about: a player's key, a round and table number."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    player: str | None = None  # the player's key
    round: int | None = None
    table: int | None = None
    #: The organiser's page where it is fixed: "player", "table", "settings" or "players".
    fix_at: str = "settings"

    @property
    def blocking(self) -> bool:
        return self.kind in BLOCKING

    @property
    def title(self) -> str:
        return str(TITLES[self.kind])

    @property
    def message(self) -> str:
        return str(MESSAGES[self.kind]) % self.params

    def link(self, slug: str) -> str:
        """The address of the organiser's page where the problem is fixed."""
        if self.fix_at == "player" and self.player is not None:
            return reverse("organiser:player", args=[slug, self.player])
        if self.fix_at == "table" and self.round is not None and self.table is not None:
            return reverse("organiser:table", args=[slug, self.round, self.table])
        if self.fix_at == "players":
            return reverse("organiser:players", args=[slug])
        return reverse("organiser:settings", args=[slug])


@dataclass(frozen=True)
class Band:
    """One factor of the weight: what the tournament has and what it adds to the estimate."""

    name: str  # "days", "players", "countries", "qualification"
    value: int | None  # None: not known (no dates; qualification is not recorded)
    adds: Decimal | None


@dataclass(frozen=True)
class Weight:
    """The factors of the MERS weight and an estimate from them (see the module docstring:
    the bands are not confirmed by an EMA text)."""

    days: int | None
    players: int
    countries: int
    bands: tuple[Band, ...]
    #: The sum of the bands without and with a qualifying championship; None without dates.
    estimate: Decimal | None
    estimate_if_qualifying: Decimal | None


@dataclass(frozen=True)
class Readiness:
    problems: list[Problem]
    weight: Weight
    rows: list[EmaRow]  # the EMA file's rows, base rank included

    @property
    def blocking(self) -> list[Problem]:
        return [problem for problem in self.problems if problem.blocking]

    @property
    def warnings(self) -> list[Problem]:
        return [problem for problem in self.problems if not problem.blocking]

    @property
    def ready(self) -> bool:
        return not self.blocking


def days_of(tournament: Tournament) -> int | None:
    """How many days the tournament lasts, both ends counted; one without an end date; None
    without a start date."""
    if tournament.start_date is None:
        return None
    end: date = tournament.end_date or tournament.start_date
    return max((end - tournament.start_date).days + 1, 1)


def day_band(days: int) -> Decimal:
    return Decimal(min(days, 3))


def player_band(players: int) -> Decimal:
    if players > 80:
        return Decimal(1)
    return Decimal("0.5") if players > 40 else Decimal(0)


def country_band(countries: int) -> Decimal:
    if countries >= 10:
        return Decimal(1)
    return Decimal("0.5") if countries > 5 else Decimal(0)


#: What a qualifying championship adds to the estimate.
QUALIFICATION = Decimal(1)


def weight(*, days: int | None, players: int, countries: int) -> Weight:
    """The factors of the weight and the estimate from their bands."""
    bands = (
        Band("days", days, day_band(days) if days is not None else None),
        Band("players", players, player_band(players)),
        Band("countries", countries, country_band(countries)),
        Band("qualification", None, QUALIFICATION),
    )
    if days is None:
        return Weight(days, players, countries, bands, None, None)
    estimate = day_band(days) + player_band(players) + country_band(countries)
    return Weight(days, players, countries, bands, estimate, estimate + QUALIFICATION)


def readiness(tournament: Tournament) -> Readiness:
    """What stands between the tournament and its EMA submission (see the module docstring)."""
    rows = standings(tournament)
    ranked = [row for row in rows if row.rank is not None]
    substitutes = [row for row in rows if row.rank is None]
    problems: list[Problem] = []
    problems += _tournament_problems(tournament, ranked=len(ranked), substitutes=len(substitutes))
    problems += _game_problems(tournament)
    for row in ranked:
        problems += _player_problems(row.player, games=len(row.game_scores))
    countries = {row.player.country for row in ranked if _valid_country(row.player.country)}
    return Readiness(
        problems=_ordered(problems),
        weight=weight(days=days_of(tournament), players=len(ranked), countries=len(countries)),
        rows=ema_rows(rows),
    )


def _ordered(problems: list[Problem]) -> list[Problem]:
    """Blocking problems first, then by kind in the page's order, each kind as found."""
    order = {kind: index for index, kind in enumerate(TITLES)}
    return sorted(problems, key=lambda problem: (not problem.blocking, order[problem.kind]))


def _tournament_problems(tournament: Tournament, *, ranked: int, substitutes: int) -> list[Problem]:
    problems = []
    if tournament.start_date is None:
        problems.append(Problem(Kind.NO_DATES))
    if tournament.planned_rounds is None:
        problems.append(Problem(Kind.NO_PLANNED_ROUNDS))
    if substitutes > SUBSTITUTE_LIMIT:
        problems.append(
            Problem(
                Kind.SUBSTITUTES,
                {"count": substitutes, "limit": SUBSTITUTE_LIMIT},
                fix_at="players",
            )
        )
    if ranked < LEAST_PLAYERS:
        problems.append(
            Problem(Kind.FEW_PLAYERS, {"count": ranked, "least": LEAST_PLAYERS}, fix_at="players")
        )
    if tournament.rulebook.ema_ranking is None:
        problems.append(Problem(Kind.RULE_SET_NOT_RANKED, {"rules": tournament.words.preset_name}))
    return problems


def _game_problems(tournament: Tournament) -> list[Problem]:
    """Games of published rounds not ended, not confirmed, or whose scores do not add up to
    what the rules say; and rounds not played against the planned number. Two queries."""
    tables = list(
        Table.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.DRAFT)
        .annotate(score_total=Sum("seats__score"))
        .values("pk", "number", "round__number", "ended_at", "confirmed_at", "score_total")
        .order_by("round__number", "number")
    )
    deductions = dict(
        Penalty.objects.filter(table__round__tournament=tournament, distributed=False)
        .values("table")
        .annotate(points=Sum("points"))
        .values_list("table", "points")
    )
    rulebook = tournament.rulebook
    initial = tournament.rules.initial_points
    problems = []
    confirmed_by_round: dict[int, list[bool]] = defaultdict(list)
    for table in tables:
        where = {"round": table["round__number"], "table": table["number"]}
        at = {"round": table["round__number"], "table": table["number"], "fix_at": "table"}
        confirmed_by_round[table["round__number"]].append(table["confirmed_at"] is not None)
        if table["ended_at"] is None:
            problems.append(Problem(Kind.GAME_IN_PLAY, where, **at))
            continue
        if table["confirmed_at"] is None:
            problems.append(Problem(Kind.GAME_UNCONFIRMED, where, **at))
        deducted = deductions.get(table["pk"], 0)
        expected = rulebook.game_total(deducted)
        total = 4 * initial + (table["score_total"] or 0)
        if total != expected:
            params = {
                **where,
                "total": total,
                "expected": expected,
                "initial": initial,
                "deductions": deducted,
            }
            problems.append(Problem(Kind.SCORES_UNBALANCED, params, **at))
    planned = tournament.planned_rounds
    played = sum(all(confirmed) for confirmed in confirmed_by_round.values())
    if planned is not None and played < planned:
        problems.append(Problem(Kind.ROUNDS_MISSING, {"played": played, "planned": planned}))
    return problems


def _player_problems(player: Player, *, games: int) -> list[Problem]:
    name = f"{player.name} ({player.key})"

    def about(kind: str, **params: str) -> Problem:
        return Problem(kind, {"player": name, **params}, player=player.key, fix_at="player")

    problems = []
    if not player.ema_number:
        problems.append(about(Kind.EMA_NUMBER_MISSING))
    elif error := _error(validate_ema_number, player.ema_number):
        problems.append(about(Kind.EMA_NUMBER_BAD, error=error))
    if not player.country:
        problems.append(about(Kind.COUNTRY_MISSING))
    elif error := _error(validate_country, player.country):
        problems.append(about(Kind.COUNTRY_BAD, error=error))
    if games == 0:
        problems.append(about(Kind.NO_GAMES))
    return problems


def _valid_country(code: str) -> bool:
    return bool(code) and _error(validate_country, code) is None


def _error(validate: Callable[[str], None], value: str) -> str | None:
    """The validator's message for `value`, or None when it is valid."""
    try:
        validate(value)
    except ValidationError as error:
        return " ".join(error.messages)
    return None


def problem_count(problems: list[Problem]) -> str:
    """ "2 blocking problems, 3 warnings" in words."""
    blocking = sum(problem.blocking for problem in problems)
    warnings = len(problems) - blocking
    return ", ".join(
        (
            ngettext("%(count)s blocking problem", "%(count)s blocking problems", blocking)
            % {"count": blocking},
            ngettext("%(count)s warning", "%(count)s warnings", warnings) % {"count": warnings},
        )
    )
