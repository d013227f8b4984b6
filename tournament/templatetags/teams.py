"""`{% teams_shown as shown %}`: whether the tournament's pages link its team standings; the
`score` filter shows a team's or a member's score."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import template

from tournament.reads.stages import format_score
from tournament.reads.teams import has_teams

register = template.Library()


@register.simple_tag(takes_context=True)
def teams_shown(context: Any) -> bool:
    """The view's `teams_shown` when it knows it already, else asked of the players (one
    query): at least two teams have players."""
    known = context.get("teams_shown")
    if known is not None:
        return bool(known)
    tournament = context.get("tournament")
    return tournament is not None and tournament.pk is not None and has_teams(tournament)


@register.filter
def score(value: int | Fraction) -> str:
    """A score as shown: whole, or (after a carry-over to the final stage) to two decimals."""
    return format_score(value)
