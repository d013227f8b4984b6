"""Team standings: teams ranked by their best members' table points, then their scores.

A team is the players sharing a `Player.team` (compared without case or extra spaces, as the
seating does: "Oak MC" and "oak  mc" are one team, spelt as its first player by key writes
it); a blank team is no team. A team's ranking counts its best k members
(`Tournament.team_best_of`; empty: all of them), best by the individual ranking (table points,
score, the tie-breaks: the order of `standings()`). Substitutes never count. A team with fewer
than k players who are not substitutes is incomplete: ranked after every complete team and
marked so. Teams level on table points and score share a rank.

Built on the rows of the individual standings, given or read here: whatever those rows count
(confirmed games, provisional ones, or standings frozen at an earlier round) the teams count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from django.utils.text import slugify

from scoring.engine.ranking import rank
from tournament.models import Tournament
from tournament.reads.selectors import Standing, standings
from tournament.reads.standings_cache import cached_standings

# A team address made of nothing slugify keeps (only punctuation, say) takes this word.
BLANK_SLUG = "team"


@dataclass(frozen=True)
class TeamMember:
    standing: Standing
    counted: bool  # among the best k who make the team's totals


@dataclass(frozen=True)
class TeamStanding:
    rank: int
    name: str
    slug: str  # the team's address: unique within the tournament (`team_slugs`)
    members: tuple[TeamMember, ...]  # in the individual ranking's order, substitutes last
    table_points: Fraction  # of the members counted
    score: int | Fraction  # of the members counted (a fraction after a carry-over)
    complete: bool  # has at least k players who are not substitutes

    @property
    def counted(self) -> tuple[TeamMember, ...]:
        return tuple(member for member in self.members if member.counted)

    @property
    def provisional_games(self) -> int:
        """Games counted whose sheets are not confirmed yet, over the members counted."""
        return sum(member.standing.provisional_games for member in self.counted)


def team_identity(team: str) -> str:
    """What makes two spellings one team: case and spaces aside; "" for no team."""
    return " ".join(team.split()).casefold()


def team_slugs(identities: Iterable[str]) -> dict[str, str]:
    """A readable address part for each team identity, unique among them and free of "/":
    "Oak MC" -> "oak-mc", "東京" -> "東京"; teams whose names make the same one take "-2",
    "-3"... in the order of their identities, so a team keeps its address while the others
    keep theirs."""
    slugs: dict[str, str] = {}
    taken: set[str] = set()
    for identity in sorted(set(identities) - {""}):  # a blank team is no team
        base = slugify(identity, allow_unicode=True) or BLANK_SLUG
        slug, number = base, 1
        while slug in taken:
            number += 1
            slug = f"{base}-{number}"
        taken.add(slug)
        slugs[identity] = slug
    return slugs


def _whole(value: Fraction) -> int | Fraction:
    return value.numerator if value.denominator == 1 else value


def team_standings(
    tournament: Tournament,
    rows: Sequence[Standing] | None = None,
    *,
    provisional: bool = False,
) -> list[TeamStanding]:
    """Every team of `tournament`, best first: complete teams, then incomplete ones.

    `rows`: the individual standings to build on, in ranking order (read with
    `standings(tournament, provisional=provisional)` when not given)."""
    if rows is None:
        rows = standings(tournament, provisional=provisional)
    best_of = tournament.team_best_of
    by_team: dict[str, list[Standing]] = {}
    for row in rows:  # in ranking order, substitutes last: each team's members in order
        identity = team_identity(row.player.team)
        if identity:
            by_team.setdefault(identity, []).append(row)
    slugs = team_slugs(by_team)
    teams = []
    for identity, members in by_team.items():
        competing = [row for row in members if not row.player.substitute]
        counted = competing if best_of is None else competing[:best_of]
        counted_ids = {row.player.pk for row in counted}
        teams.append(
            TeamStanding(
                rank=0,  # set below
                name=min(members, key=lambda row: row.player.key).player.team.strip(),
                slug=slugs[identity],
                members=tuple(
                    TeamMember(standing=row, counted=row.player.pk in counted_ids)
                    for row in members
                ),
                table_points=sum((row.table_points for row in counted), Fraction(0)),
                score=_whole(sum((Fraction(row.score) for row in counted), Fraction(0))),
                complete=len(competing) >= (best_of or 1),
            )
        )
    teams.sort(key=lambda team: (team.name.casefold(), team.slug))  # level teams by name
    result: list[TeamStanding] = []
    for complete in (True, False):
        ahead = len(result)
        group = [team for team in teams if team.complete == complete]
        for position, team in rank(group, key=lambda team: (team.table_points, team.score)):
            result.append(replace(team, rank=ahead + position))
    return result


def cached_teams(
    tournament: Tournament,
    *,
    provisional: bool = False,
    number: int | None = None,
    before_round: int | None = None,
) -> list[TeamStanding]:
    """`team_standings` computed once per change of the tournament
    (`tournament.reads.standings_cache`; shared between requests: read only). `number`: the
    tournament's LiveVersion number when the caller has read it. `before_round`: only the
    rounds before it count (the public's while later rounds are hidden until the
    prize-giving, `tournament.reads.prize_giving`)."""
    return cached_standings(
        tournament,
        provisional=provisional,
        shape="teams",
        build=lambda rows: team_standings(tournament, rows),
        number=number,
        before_round=before_round,
    )


def teams_shown(teams: Sequence[TeamStanding]) -> bool:
    """Whether a tournament shows team standings: when at least two teams have players."""
    return len(teams) >= 2


def two_teams_among(names: Iterable[str]) -> bool:
    """Whether the players' `team` values `names` make at least two teams (`teams_shown`)."""
    return len({team_identity(name) for name in names} - {""}) >= 2


def has_teams(tournament: Tournament) -> bool:
    """Whether at least two teams have players (`teams_shown`), from the players' teams
    alone. One query."""
    return two_teams_among(
        tournament.players.exclude(team="").order_by().values_list("team", flat=True).distinct()
    )
