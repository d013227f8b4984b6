"""The organiser's EMA readiness page (manage/<slug>/print/ema/readiness/): what would stop the
ranking submission, the MERS weight's factors and estimate, each ranked player's base rank,
and the EMA file's download, confirmed when blocking problems remain
(`tournament.reads.ema_readiness`). Organisers of the tournament only (`organiser_page`)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.models import Tournament
from tournament.reads.ema_readiness import Problem, problem_count, readiness
from tournament.web.organiser.access import organiser_page


def _groups(problems: list[Problem], slug: str) -> list[dict]:
    """The problems by kind, in their order: a heading, then each message and its link."""
    groups: list[dict] = []
    for problem in problems:
        if not groups or groups[-1]["kind"] != problem.kind:
            groups.append({"kind": problem.kind, "title": problem.title, "items": []})
        groups[-1]["items"].append({"problem": problem, "link": problem.link(slug)})
    return groups


@organiser_page("GET", "HEAD")
def page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    found = readiness(tournament)
    return render(
        request,
        "tournament/outputs/ema_readiness.html",
        {
            "tournament": tournament,
            "readiness": found,
            "blocking": _groups(found.blocking, tournament.slug),
            "warnings": _groups(found.warnings, tournament.slug),
            "counts": problem_count(found.problems),
            "weight": found.weight,
        },
    )
