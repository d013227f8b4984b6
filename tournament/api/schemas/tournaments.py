"""Schemas of tournaments, their players and standings."""

from __future__ import annotations

from pydantic import ConfigDict, Field

from tournament import models
from tournament.api.fields import list_of, of, text
from tournament.api.schemas.base import Answer, Key, Request, TablePoints, TablePointsExact, changes
from tournament.api.schemas.rounds import RoundSummary


class TournamentCreate(Request):
    """A new tournament; the caller becomes its organiser."""

    slug: of(models.Tournament, "slug") = Field(description="The tournament's address.")
    name: of(models.Tournament, "name")
    start_date: of(models.Tournament, "start_date") = None
    end_date: of(models.Tournament, "end_date") = None
    venue: of(models.Tournament, "venue") = None
    public: of(models.Tournament, "public") = None
    preset: of(models.Tournament, "preset") = Field(None, description="Rule preset, such as mcr.")
    profile: of(models.Tournament, "profile") = None
    seat_rotation: of(models.Tournament, "seat_rotation") = None
    table_points: list_of(int, "whole numbers", 4) = Field(
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


TournamentChange = changes(
    TournamentCreate,
    "Only the fields given change. The slug cannot change; the preset, profile and seat "
    "rotation cannot change once a hand is recorded.",
)


class TournamentSummary(Answer):
    slug: str = Field(description="The tournament's address.")
    name: str
    start_date: of(models.Tournament, "start_date")
    end_date: of(models.Tournament, "end_date")
    venue: str
    public: of(models.Tournament, "public")


class TournamentList(Answer):
    tournaments: list[TournamentSummary]


class Tournament(TournamentCreate):
    """A tournament's settings and its rounds."""

    model_config = ConfigDict(
        from_attributes=True, json_schema_serialization_defaults_required=True
    )

    players: int = Field(description="How many players are entered.")
    rounds: list[RoundSummary]


class PlayerCreate(Request):
    key: Key
    name: of(models.Player, "name")
    country: of(models.Player, "country") = None
    club: of(models.Player, "club") = None
    team: of(models.Player, "team") = None
    ema_number: of(models.Player, "ema_number") = None
    substitute: of(models.Player, "substitute") = None
    withdrawn_from_round: of(models.Player, "withdrawn_from_round", ge=1) = None


PlayerChange = changes(
    PlayerCreate, "Only the fields given change (also to withdraw a player from a round on)."
)


class Player(PlayerCreate):
    model_config = ConfigDict(
        from_attributes=True, json_schema_serialization_defaults_required=True
    )


class PlayerList(Answer):
    players: list[Player]


class Standing(Answer):
    rank: int | None = Field(
        ge=1, description="Shared by players level on everything; null for substitutes."
    )
    player: str
    name: str
    table_points: TablePoints
    table_points_exact: TablePointsExact
    score: int
    substitute: bool
    provisional_games: int = Field(
        ge=0,
        description="Games counted whose sheets are not confirmed yet (0 unless provisional).",
    )


class Standings(Answer):
    provisional: bool = Field(description="Whether submitted, unconfirmed game sheets count too.")
    standings: list[Standing] = Field(description="Ranked players in order, then substitutes.")
