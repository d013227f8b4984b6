"""Statistics pages: the whole tournament, and one player. Charts are SVG drawn on the server.

Readable by whoever may read the tournament (`can_view`); anyone else gets 404. Each page makes
a fixed number of queries whatever the size of the tournament.
"""

from __future__ import annotations

from fractions import Fraction

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournament.access import tournament_access
from tournament.charts import Series, bar_chart, line_chart
from tournament.models import Player, Tournament
from tournament.selectors import format_points
from tournament.statistics import (
    FanCount,
    FanNames,
    player_false_wins,
    player_hands,
    player_statistics,
    progress_of,
    standings_after_rounds,
    tournament_statistics,
)

TOP_FANS = 10


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    return tournament_access(request.user, slug).tournament


def percent(share: Fraction | None) -> str:
    """A share as a whole percentage, halves up: 1/8 -> "13%"."""
    return "–" if share is None else f"{int(100 * share + Fraction(1, 2))}%"


def fan_shares(fans: list[FanCount], hands: int) -> list[dict]:
    return [{"fan": fan, "share": percent(Fraction(fan.hands, hands))} for fan in fans]


def one_decimal(value: Fraction | None) -> str:
    return "–" if value is None else f"{float(value):.1f}"


@require_safe
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    statistics = tournament_statistics(tournament, FanNames(tournament.profile))
    values_chart = bar_chart(
        title=_("Hand values: wins by fan"),
        labels=[item.label for item in statistics.values],
        series=[Series(_("Wins"), [item.hands for item in statistics.values])],
        x_label=_("Fan, without flowers"),
        y_label=_("Wins"),
        histogram=True,
    )
    round_labels = [str(line.round.number) for line in statistics.rounds]
    rounds_chart = bar_chart(
        title=_("Drawn hands and false wins per round"),
        labels=round_labels,
        series=[
            Series(_("Drawn hands"), [line.draws for line in statistics.rounds]),
            Series(_("False wins"), [line.false_wins for line in statistics.rounds]),
        ],
        x_label=_("Round"),
        y_label=_("Hands"),
    )
    return render(
        request,
        "tournament/stats/tournament.html",
        {
            "tournament": tournament,
            "statistics": statistics,
            "average_fan": one_decimal(statistics.average_fan),
            "self_drawn_share": percent(statistics.self_drawn_share),
            "top_fans": fan_shares(statistics.fans[:TOP_FANS], statistics.fan_hands),
            "values_chart": values_chart,
            "rounds_chart": rounds_chart,
        },
    )


@require_safe
def player_page(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    player = get_object_or_404(Player, tournament=tournament, key=key)
    after = standings_after_rounds(tournament)
    progress = progress_of(player, after)
    # The rank axis runs from 1 to the last rank of the field, so that one point (after the
    # first round) sits where it belongs, not alone on an axis of 1 to 2.
    last_rank = max((row.rank or 0 for rows in after.values() for row in rows), default=1)
    labels = [str(number) for number, _row in progress]
    score_chart = line_chart(
        title=_("Score after each round"),
        labels=labels,
        series=[Series(_("Score"), [row.score for _round, row in progress])],
        x_label=_("Round"),
        y_label=_("Score"),
    )
    rank_chart = line_chart(
        title=_("Rank after each round"),
        labels=labels,
        series=[Series(_("Rank"), [row.rank for _round, row in progress])],
        x_label=_("Round"),
        y_label=_("Rank"),
        invert=True,
        floor=1,
        ceiling=max(last_rank, 1),
    )
    statistics = player_statistics(
        player, player_hands(player), player_false_wins(player), FanNames(tournament.profile)
    )
    return render(
        request,
        "tournament/stats/player.html",
        {
            "tournament": tournament,
            "player": player,
            "progress": [
                {"round": number, "standing": row, "points_text": format_points(row.table_points)}
                for number, row in progress
            ],
            "score_chart": score_chart,
            "rank_chart": rank_chart,
            "statistics": statistics,
            "average_fan": one_decimal(statistics.average_fan),
            "self_drawn_share": percent(statistics.self_drawn_share),
            "top_fans": fan_shares(statistics.fans[:TOP_FANS], statistics.fan_hands),
        },
    )
