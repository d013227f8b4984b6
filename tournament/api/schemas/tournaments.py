"""Schemas of tournaments, their players and standings."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any, Literal

from ninja import Schema
from pydantic import ConfigDict, Field, WithJsonSchema

from scoring.engine import PRESETS, RulePreset
from tournament import models
from tournament.api.fields import list_of, of, text
from tournament.api.schemas.base import (
    Answer,
    Context,
    Key,
    Paged,
    Request,
    TablePoints,
    TablePointsExact,
    changes,
    exact,
    points_number,
)
from tournament.api.schemas.rounds import RoundSummary
from tournament.reads import stages, tally, teams

# One place's table points, as `models.validate_table_points` allows them.
TablePoint = Annotated[int, Field(ge=-models.MOST_TABLE_POINTS, le=models.MOST_TABLE_POINTS)]
TABLE_POINTS_TEXT = f"whole numbers from {-models.MOST_TABLE_POINTS} to {models.MOST_TABLE_POINTS}"


def _settings_described() -> str:
    """What each preset lets a tournament set, from the presets' data."""
    offered = []
    for key, preset in PRESETS.items():
        names = []
        for setting in preset.settings:
            if setting.choices:
                allowed = ", ".join(map(str, setting.choices))
            else:
                step = f", a multiple of {setting.step}" if setting.step > 1 else ""
                allowed = f"{setting.least} to {setting.most}{step}"
            names.append(f"{setting.name} ({allowed})")
        offered.append(f"{key}: {'; '.join(names) or 'none'}")
    return (
        "The tournament's values of the settings its rule preset offers, by name; the preset's "
        "own value for any left out. They cannot change once a hand is recorded. "
        + ". ".join(offered)
        + "."
    )


# The preset is checked by the model (code unknown_preset); the document lists the choices.
Preset = Annotated[
    of(models.Tournament, "preset"),
    WithJsonSchema({"type": "string", "enum": list(PRESETS)}),
]
RuleSettings = Annotated[
    dict[str, int],
    WithJsonSchema({"type": "object", "additionalProperties": {"type": "integer"}}),
]


class TournamentCreate(Request):
    """A new tournament; the caller becomes its organiser."""

    slug: of(models.Tournament, "slug") = Field(description="The tournament's address.")
    name: of(models.Tournament, "name")
    start_date: of(models.Tournament, "start_date") = None
    end_date: of(models.Tournament, "end_date") = None
    venue: of(models.Tournament, "venue") = None
    public: of(models.Tournament, "public") = None
    preset: Preset = Field(
        None,
        description="The rule preset: " + ", ".join(PRESETS) + " (default mcr). A new "
        "tournament takes its preset's seat rotation unless seat_rotation is given.",
    )
    # May be left out, not sent as null: None only marks it unset.
    rule_settings: RuleSettings = Field(
        None,  # type: ignore[arg-type]
        description=_settings_described(),
    )
    profile: of(models.Tournament, "profile") = None
    seat_rotation: of(models.Tournament, "seat_rotation") = None
    table_points: list_of(TablePoint, TABLE_POINTS_TEXT, 4) = Field(
        None, description=str(models.Tournament._meta.get_field("table_points").help_text)
    )
    tie_breaks: list_of(text(200), "texts", len(models.Tournament.TieBreak.values)) = Field(
        None,
        description=str(models.Tournament._meta.get_field("tie_breaks").help_text)
        + " One of: "
        + ", ".join(models.Tournament.TieBreak.values),
    )
    confirmation: of(models.Tournament, "confirmation") = None
    round_minutes: of(models.Tournament, "round_minutes") = None
    team_best_of: of(models.Tournament, "team_best_of") = None
    # A final stage (docs/stages.md); fixed once its cut is confirmed (cut_confirmed).
    cut_after_round: of(models.Tournament, "cut_after_round") = None
    cut_size: of(models.Tournament, "cut_size") = None
    carry_over: of(models.Tournament, "carry_over") = None
    final_seating: of(models.Tournament, "final_seating") = None
    consolation: of(models.Tournament, "consolation") = None


if TYPE_CHECKING:  # as a type: its fields, none of them required at run time
    TournamentChange = TournamentCreate
else:
    TournamentChange = changes(
        TournamentCreate,
        "Only the fields given change. The slug cannot change; the preset, its rule settings, the "
        "profile and the seat rotation cannot change once a hand is recorded (rules_locked).",
    )


class PrizeGivingChange(Request):
    """Only the fields given change, `hidden_from` first."""

    hidden_from: int | None = Field(
        None,
        ge=1,
        le=200,
        description="Hide the standings that everyone but the organisers sees from this round "
        "on until they are revealed; null: never hide them (and forget a reveal).",
    )
    revealed: bool | None = Field(
        None,
        description="true: reveal the hidden rounds to everyone (the prize-giving); false: hide "
        "them again.",
    )


class TournamentSummary(Answer):
    slug: str = Field(description="The tournament's address.")
    name: str
    start_date: of(models.Tournament, "start_date")
    end_date: of(models.Tournament, "end_date")
    venue: str
    public: of(models.Tournament, "public")


class TournamentList(Paged):
    tournaments: list[TournamentSummary]


class Rules(Answer):
    """The rules a tournament's games follow: its preset with the tournament's settings."""

    name: str = Field(description="The preset's name.")
    initial_points: int = Field(
        description="Every player's points when a game starts (MCR 0, JT 8,000, WA 500); a "
        "game score is the final points minus these."
    )
    value_unit: Literal["fan", "points"] = Field(
        description="What a win's value counts: fan and flowers (MCR), or points (JT: the "
        "final score F; WA: the hand's points), entered as a deal's value."
    )
    minimum: int = Field(description="A win worth less is a false win or faulty out.")
    least_value: int = Field(description="A win's value is at least this.")
    value_step: int = Field(description="A win's value is a multiple of this.")
    limit: int | None = Field(description="The most a win is worth; null: no limit.")
    hands_per_game: int | None = Field(
        description="Deals in a game when fixed (MCR 16); null: as many as the wind rounds take."
    )
    wind_rounds: int = Field(description="Wind rounds in a game, where the deals vary.")
    several_winners: bool = Field(description="Several players may win on one discard.")
    faulty_out_ends_deal: bool = Field(
        description="A faulty out is a deal's result (JT); otherwise it is recorded as a "
        "false win and play goes on."
    )
    riichi: bool = Field(description="Deals record riichi declarations (and faulty riichi).")
    faulty_claims: bool = Field(description="Deals record faulty claims.")
    ready: bool = Field(description="Drawn deals record who was ready (and faulty riichi).")
    settings: dict[str, int] = Field(
        description="Every setting the preset offers, with the value in force."
    )

    @staticmethod
    def resolve_several_winners(preset: RulePreset) -> bool:
        return preset.deal.several_winners

    @staticmethod
    def resolve_faulty_out_ends_deal(preset: RulePreset) -> bool:
        return preset.faulty_out.ends_deal

    @staticmethod
    def resolve_riichi(preset: RulePreset) -> bool:
        return preset.deal.riichi_stake > 0

    @staticmethod
    def resolve_faulty_claims(preset: RulePreset) -> bool:
        return preset.deal.faulty_claim > 0

    @staticmethod
    def resolve_ready(preset: RulePreset) -> bool:
        return preset.deal.ready_pool > 0

    @staticmethod
    def resolve_settings(preset: RulePreset) -> dict[str, int]:
        return {setting.name: preset.value_of(setting) for setting in preset.settings}


# Read from the tournament, with the context's "rounds": those the caller may see, annotated as
# `serialisers.annotated_rounds` does.
class Tournament(TournamentCreate, Schema):
    """A tournament's settings and its rounds."""

    # Not extra="forbid" (see `Answer`), nor strict: the fields are read from the model.
    model_config = ConfigDict(
        from_attributes=True,
        json_schema_serialization_defaults_required=True,
        extra="ignore",
        strict=False,
        json_schema_extra={"additionalProperties": False},
    )

    rules: Rules
    players: int = Field(description="How many players are entered.")
    rounds: list[RoundSummary]
    standings_hidden_from: int | None = Field(
        description="The prize-giving: the standings that everyone but the organisers sees "
        "leave out this round and the later ones until they are revealed; null: never hidden. "
        "The organisers set it on the settings page."
    )
    standings_revealed_at: datetime | None = Field(
        description="When the hidden rounds were revealed to everyone; null: not revealed."
    )
    stage: Literal["main", "final"] | None = Field(
        description="The stage in play: null without a final stage; main until its cut is "
        "confirmed, then final."
    )

    @staticmethod
    def resolve_players(tournament: models.Tournament) -> int:
        return tournament.players.count()

    @staticmethod
    def resolve_rounds(tournament: models.Tournament, context: Context) -> Any:
        return context["rounds"]

    @staticmethod
    def resolve_stage(tournament: models.Tournament) -> str | None:
        if tournament.cut_after_round is None:
            return None
        return "final" if stages.confirmed_cut(tournament) is not None else "main"


class PlayerCreate(Request):
    """A player. `name` may be left out when `family_name` is given: it is then made of the
    two parts in their natural order. `country` is an ISO 3166 code; a country's English name
    or its three-letter code is taken and answered as the two-letter code."""

    key: Key
    name: of(models.Player, "name") = None
    family_name: Annotated[
        of(models.Player, "family_name"),
        Field(description="For the EMA results file; empty: split from the name."),
    ] = None
    given_name: of(models.Player, "given_name") = None
    country: of(models.Player, "country") = None
    club: of(models.Player, "club") = None
    team: of(models.Player, "team") = None
    ema_number: of(models.Player, "ema_number") = None
    substitute: of(models.Player, "substitute") = None
    withdrawn_from_round: of(models.Player, "withdrawn_from_round", ge=1) = None


if TYPE_CHECKING:  # as a type: its fields, none of them required at run time
    PlayerChange = PlayerCreate
else:
    PlayerChange = changes(
        PlayerCreate, "Only the fields given change (also to withdraw a player from a round on)."
    )


class Player(PlayerCreate):
    model_config = ConfigDict(
        from_attributes=True, json_schema_serialization_defaults_required=True
    )


class PlayerList(Paged):
    players: list[Player]


# One row of the standings (`tournament.reads.tally.Standing`), as the API and `manage.py
# standings --json` answer it.
class Standing(Answer):
    rank: int | None = Field(
        ge=1, description="Shared by players level on everything; null for substitutes."
    )
    player: str = Field(alias="player.key")
    name: str = Field(alias="player.name")
    table_points: TablePoints
    table_points_exact: TablePointsExact
    score: int | float = Field(
        description="Whole, or rounded to two decimals when a finalist's carry-over makes it "
        "a fraction (score_exact holds it exactly)."
    )
    substitute: bool = Field(alias="player.substitute")
    provisional_games: int = Field(
        ge=0,
        description="Games counted whose sheets are not confirmed yet (0 unless provisional).",
    )
    stage: Literal["main", "final", "consolation"] | None = Field(
        description="Where the row ranks once a final stage's cut is confirmed; null without "
        "a final stage."
    )
    score_exact: str = Field(description='The score as an exact fraction, such as "41/2".')
    carried_table_points: str | None = Field(
        description="A finalist's table points carried over from the cut, as an exact fraction."
    )
    carried_score: str | None = Field(
        description="A finalist's score carried over from the cut, as an exact fraction."
    )

    @staticmethod
    def resolve_table_points(row: tally.Standing) -> int | float:
        return points_number(row.table_points)

    @staticmethod
    def resolve_table_points_exact(row: tally.Standing) -> str:
        return str(row.table_points)

    @staticmethod
    def resolve_score(row: tally.Standing) -> int | float:
        return points_number(row.score)

    @staticmethod
    def resolve_stage(row: tally.Standing) -> str | None:
        return row.stage or None

    @staticmethod
    def resolve_score_exact(row: tally.Standing) -> str:
        return str(Fraction(row.score))

    @staticmethod
    def resolve_carried_table_points(row: tally.Standing) -> str | None:
        return exact(row.carried_table_points)

    @staticmethod
    def resolve_carried_score(row: tally.Standing) -> str | None:
        return exact(row.carried_score)


def _cut_row(player: stages.CutRow | models.Finalist) -> tally.Standing | models.Finalist:
    """What a player of the cut stood at: the standing of a preview's row, or the finalist."""
    return player.standing if isinstance(player, stages.CutRow) else player


# Read from a `stages.CutRow` of the preview, or a `models.Finalist` read with its cut.
class CutPlayer(Answer):
    """A player in the cut: in the preview every ranked player, once confirmed the finalists."""

    rank: int | None = Field(description="Rank in the standings after the cut's round.")
    player: str
    name: str
    table_points_exact: TablePointsExact
    score: int
    position: int | None = Field(description="Place in the cut; null for those left out.")
    tied: bool = Field(description="Level at the line, on every tie-break, with someone across.")
    eligible: bool = Field(description="May play the final stage (not withdrawn before it).")
    carried_table_points: str | None
    carried_score: str | None

    @staticmethod
    def resolve_rank(player: stages.CutRow | models.Finalist) -> int | None:
        return player.standing.rank if isinstance(player, stages.CutRow) else None

    @staticmethod
    def resolve_player(player: stages.CutRow | models.Finalist) -> str:
        return _cut_row(player).player.key

    @staticmethod
    def resolve_name(player: stages.CutRow | models.Finalist) -> str:
        return _cut_row(player).player.name

    @staticmethod
    def resolve_table_points_exact(player: stages.CutRow | models.Finalist) -> str:
        return str(_cut_row(player).table_points)

    @staticmethod
    def resolve_score(player: stages.CutRow | models.Finalist) -> Any:
        return _cut_row(player).score

    @staticmethod
    def resolve_tied(player: stages.CutRow | models.Finalist) -> bool:
        return isinstance(player, stages.CutRow) and player.tied

    @staticmethod
    def resolve_eligible(player: stages.CutRow | models.Finalist) -> bool:
        return not isinstance(player, stages.CutRow) or player.eligible

    @staticmethod
    def resolve_carried_table_points(player: stages.CutRow | models.Finalist) -> str | None:
        if isinstance(player, stages.CutRow):
            return exact(player.carried_table_points)
        return str(stages.carried(player.table_points, player.cut.factor))

    @staticmethod
    def resolve_carried_score(player: stages.CutRow | models.Finalist) -> str | None:
        if isinstance(player, stages.CutRow):
            return exact(player.carried_score)
        return str(stages.carried(player.score, player.cut.factor))


# Read from the confirmed `models.Cut`, or from the `stages.CutPreview` with the context's
# "tournament".
class Cut(Answer):
    """The cut to the final stage: a preview until confirmed, then the finalists as frozen."""

    after_round: int
    size: int
    carry_over: str = Field(description='The factor carried over, such as "1/2".')
    consolation: bool
    confirmed: bool
    confirmed_at: str | None
    tied_at_line: bool = Field(description="Players are level across the line (preview).")
    players: list[CutPlayer]

    @staticmethod
    def resolve_carry_over(cut: models.Cut | stages.CutPreview) -> str:
        return cut.carry_over if isinstance(cut, models.Cut) else str(cut.factor)

    @staticmethod
    def resolve_consolation(cut: models.Cut | stages.CutPreview, context: Context) -> bool:
        if isinstance(cut, models.Cut):
            return cut.consolation
        return bool(context["tournament"].consolation)

    @staticmethod
    def resolve_confirmed(cut: models.Cut | stages.CutPreview) -> bool:
        return isinstance(cut, models.Cut)

    @staticmethod
    def resolve_confirmed_at(cut: models.Cut | stages.CutPreview) -> str | None:
        return cut.confirmed_at.isoformat() if isinstance(cut, models.Cut) else None

    @staticmethod
    def resolve_tied_at_line(cut: models.Cut | stages.CutPreview) -> bool:
        return isinstance(cut, stages.CutPreview) and cut.tied_at_line

    @staticmethod
    def resolve_players(cut: models.Cut | stages.CutPreview) -> Any:
        if isinstance(cut, models.Cut):
            return cut.finalists.select_related("player")
        return cut.rows


class Standings(Paged):
    provisional: bool = Field(description="Whether submitted, unconfirmed game sheets count too.")
    hidden: bool = Field(
        description="Whether these standings leave out the rounds hidden until the "
        "prize-giving (everyone but the tournament's organisers sees them so)."
    )
    hidden_from: int | None = Field(
        description="The first round these standings leave out; null when every round counts."
    )
    standings: list[Standing] = Field(description="Ranked players in order, then substitutes.")


class TeamMember(Answer):
    player: str = Field(alias="standing.player.key", description="The player's key.")
    name: str = Field(alias="standing.player.name")
    rank: int | None = Field(
        alias="standing.rank", ge=1, description="In the individual standings; null: substitute."
    )
    table_points: TablePoints
    table_points_exact: TablePointsExact
    score: int | float = Field(description="Two decimals when a carry-over makes it a fraction.")
    substitute: bool = Field(alias="standing.player.substitute")
    counted: bool = Field(description="Among the best players the team's totals count.")

    @staticmethod
    def resolve_table_points(member: teams.TeamMember) -> int | float:
        return points_number(member.standing.table_points)

    @staticmethod
    def resolve_table_points_exact(member: teams.TeamMember) -> str:
        return str(member.standing.table_points)

    @staticmethod
    def resolve_score(member: teams.TeamMember) -> int | float:
        return points_number(member.standing.score)


# One team of the team standings (also `manage.py standings --teams --json`'s).
class TeamStanding(Answer):
    rank: int = Field(
        ge=1,
        description="Shared by teams level on table points and score; incomplete teams "
        "are ranked after every complete one.",
    )
    team: str = Field(
        alias="name", description="The team's name, as its first player (by key) writes it."
    )
    slug: str = Field(description="The team's part of its public page's address.")
    complete: bool = Field(
        description="Whether the team has at least team_best_of players who are not substitutes."
    )
    table_points: TablePoints = Field(description="Of the members counted.")
    table_points_exact: TablePointsExact
    score: int | float = Field(
        description="Of the members counted; two decimals when a carry-over makes it a fraction."
    )
    members: list[TeamMember] = Field(
        description="In the individual standings' order, substitutes last."
    )

    @staticmethod
    def resolve_table_points(team: teams.TeamStanding) -> int | float:
        return points_number(team.table_points)

    @staticmethod
    def resolve_table_points_exact(team: teams.TeamStanding) -> str:
        return str(team.table_points)

    @staticmethod
    def resolve_score(team: teams.TeamStanding) -> int | float:
        return points_number(team.score)


class TeamStandings(Answer):
    provisional: bool = Field(description="Whether submitted, unconfirmed game sheets count too.")
    best_of: int | None = Field(
        description="How many of each team's players count (team_best_of); null: all of them."
    )
    teams: list[TeamStanding] = Field(
        description="Teams of the players' team field, best first; empty below two teams."
    )
