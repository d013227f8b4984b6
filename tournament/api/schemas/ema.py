"""The shape of a tournament's EMA readiness in the API (`tournament.reads.ema_readiness`)."""

from __future__ import annotations

from pydantic import Field

from tournament.api.schemas.base import Answer


class EmaProblem(Answer):
    kind: str = Field(
        description="What the problem is about: no_dates, no_planned_rounds, rounds_missing, "
        "game_in_play, game_unconfirmed, scores_unbalanced, ema_number_missing, "
        "ema_number_bad, country_missing, country_bad, no_games, substitutes, few_players "
        "or rule_set_not_ranked."
    )
    blocking: bool = Field(description="True: it stops the submission; false: a warning.")
    message: str = Field(description="The problem in words, in the request's language.")
    player: str | None = Field(None, description="The key of the player it is about.")
    round: int | None = Field(None, description="The round of the table it is about.")
    table: int | None = Field(None, description="The number of the table it is about.")
    fix_url: str = Field(description="The organiser's page where it is fixed.")


class EmaWeightFactor(Answer):
    name: str = Field(description="days, players, countries or qualification.")
    value: int | None = Field(
        description="What the tournament has; null when not known (no dates; a qualifying "
        "championship is not recorded)."
    )
    adds: float | None = Field(description="What the factor adds to the estimate.")


class EmaWeight(Answer):
    official: bool = Field(
        False,
        description="Always false: the bands of the estimate are not confirmed by an EMA "
        "text; the EMA decides the weight.",
    )
    days: int | None
    players: int = Field(description="Ranked players (substitutes left out).")
    countries: int = Field(description="Countries of the ranked players.")
    factors: list[EmaWeightFactor]
    estimate: float | None = Field(description="Without a qualifying championship.")
    estimate_if_qualifying: float | None


class EmaBaseRank(Answer):
    place: int = Field(description="Level players share the place.")
    player: str = Field(description="The player's key.")
    name: str
    ema_number: str
    country: str
    base_rank: int = Field(description="1000 × (N − place) / (N − 1), rounded; 1000 when N is 1.")


class EmaReadiness(Answer):
    ready: bool = Field(description="True when no problem is blocking.")
    problems: list[EmaProblem]
    weight: EmaWeight
    ranked: int = Field(description="N, the number of ranked players.")
    base_ranks: list[EmaBaseRank]
