"""The EMA readiness of a tournament: what would stop its ranking submission, the MERS
weight's factors and estimate, and each ranked player's base rank (`tournament.reads.ema_readiness`,
as the organiser's page shows them)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.http import HttpRequest
from ninja import Router

from tournament.api.auth import ORGANISERS, reach
from tournament.api.errors import refusals
from tournament.api.schemas.ema import EmaReadiness
from tournament.api.tournaments import T
from tournament.reads.ema_readiness import readiness

router = Router(exclude_unset=True)


def _number(value: Decimal | None) -> float | None:
    """A weight's figure (a whole number or a half, exact as a float) for JSON."""
    return None if value is None else float(value)


@router.get(
    f"{T}/ema-readiness",
    url_name="ema_readiness",
    auth=ORGANISERS,
    response={200: EmaReadiness, **refusals(401, 403, 404)},
    summary="What stands between the tournament and its EMA submission",
)
def get_ema_readiness(request: HttpRequest, slug: str) -> dict[str, Any]:
    """The problems (blocking or warnings, each with the page where it is fixed), the MERS
    weight's factors and an estimate that is not official, and the base rank of each ranked
    player as the EMA results file has it.

    Who: an organiser of the tournament."""
    tournament = reach(request).tournament
    found = readiness(tournament)
    weight = found.weight
    return {
        "ready": found.ready,
        "problems": [
            {
                "kind": problem.kind,
                "blocking": problem.blocking,
                "message": problem.message,
                "player": problem.player,
                "round": problem.round,
                "table": problem.table,
                "fix_url": problem.link(tournament.slug),
            }
            for problem in found.problems
        ],
        "weight": {
            "official": False,
            "days": weight.days,
            "players": weight.players,
            "countries": weight.countries,
            "factors": [
                {"name": band.name, "value": band.value, "adds": _number(band.adds)}
                for band in weight.bands
            ],
            "estimate": _number(weight.estimate),
            "estimate_if_qualifying": _number(weight.estimate_if_qualifying),
        },
        "ranked": len(found.rows),
        "base_ranks": [
            {
                "place": row.place,
                "player": row.player.key,
                "name": row.player.name,
                "ema_number": row.player.ema_number,
                "country": row.player.country,
                "base_rank": row.base_rank,
            }
            for row in found.rows
        ],
    }
