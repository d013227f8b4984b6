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

from scoring.pattern_names import pattern_names, pattern_value
from tournament.models import Player, Tournament
from tournament.reads.access import tournament_access
from tournament.reads.prize_giving import shown
from tournament.reads.selectors import format_points
from tournament.reads.statistics import (
    FanCount,
    WinPatterns,
    extra_wins_of,
    player_false_wins,
    player_hands,
    player_statistics,
    progress_of,
    standings_after_rounds,
    tournament_statistics,
)
from tournament.web.charts import Series, bar_chart, line_chart

TOP_FANS = 10


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    return tournament_access(request.user, slug).tournament


def percent(share: Fraction | None) -> str:
    """A share as a whole percentage, halves up: 1/8 -> "13%"."""
    return "–" if share is None else f"{int(100 * share + Fraction(1, 2))}%"


def fan_shares(fans: list[FanCount], hands: int) -> list[dict]:
    return [
        {
            "fan": fan,
            "value": pattern_value(fan.points, fan.unit),
            "share": percent(Fraction(fan.hands, hands)),
        }
        for fan in fans
    ]


def doubles_shares(doubles: list[tuple[int, int]], hands: int) -> list[dict]:
    """How many tiled wins scored each number of doubles (JT), with their share."""
    return [
        {"doubles": number, "wins": wins, "share": percent(Fraction(wins, hands))}
        for number, wins in doubles
    ]


def one_decimal(value: Fraction | None) -> str:
    return "–" if value is None else f"{float(value):.1f}"


@require_safe
def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    rulebook = tournament.rulebook
    words = tournament.words
    statistics = tournament_statistics(
        tournament, WinPatterns.of_tournament(tournament), pattern_names(rulebook)
    )
    round_labels = [str(line.round.number) for line in statistics.rounds]
    if rulebook.counts_fan:
        values_title, values_axis = _("Hand values: wins by fan"), _("Fan, without flowers")
        rounds_title = _("Drawn hands and false wins per round")
        draws_label, false_wins_label = _("Drawn hands"), _("False wins")
    else:
        values_title, values_axis = _("Deal values: wins by points"), words.value_unit
        rounds_title = _("Drawn deals and faulty outs per round")
        draws_label, false_wins_label = _("Drawn deals"), _("Faulty outs")
    values_chart = bar_chart(
        title=values_title,
        labels=[item.label for item in statistics.values],
        series=[Series(_("Wins"), [item.hands for item in statistics.values])],
        x_label=values_axis,
        y_label=_("Wins"),
        histogram=True,
    )
    rounds_chart = bar_chart(
        title=rounds_title,
        labels=round_labels,
        series=[
            Series(draws_label, [line.draws for line in statistics.rounds]),
            Series(false_wins_label, [line.false_wins for line in statistics.rounds]),
        ],
        x_label=_("Round"),
        y_label=_("Hands") if words.calls_deals_hands else _("Deals"),
    )
    return render(
        request,
        "tournament/stats/tournament.html",
        {
            "tournament": tournament,
            "rules": rulebook,
            "words": words,
            "statistics": statistics,
            "average_fan": one_decimal(statistics.average_fan),
            "self_drawn_share": percent(statistics.self_drawn_share),
            "top_fans": fan_shares(statistics.fans[:TOP_FANS], statistics.fan_hands),
            "doubles": doubles_shares(statistics.doubles, statistics.fan_hands),
            "values_chart": values_chart,
            "rounds_chart": rounds_chart,
        },
    )


@require_safe
def player_page(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    access = tournament_access(request.user, slug)
    tournament = access.tournament
    player = get_object_or_404(Player, tournament=tournament, key=key)
    # The rank after each round stops before the rounds hidden until the prize-giving.
    seen = shown(tournament, organiser=access.organiser)
    after = {
        number: rows
        for number, rows in standings_after_rounds(tournament).items()
        if seen.before_round is None or number < seen.before_round
    }
    progress = progress_of(player, after)
    # The rank axis runs from 1 to the last rank of the field, so that one point (after the
    # first round) sits where it belongs, not alone on an axis of 1 to 2.
    last_rank = max((row.rank or 0 for rows in after.values() for row in rows), default=1)
    labels = [str(number) for number, _row in progress]
    score_chart = line_chart(
        title=_("Score after each round"),
        labels=labels,
        series=[Series(_("Score"), [_number(row.score) for _round, row in progress])],
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
    hands = player_hands(player)
    statistics = player_statistics(
        player,
        hands,
        player_false_wins(player),
        WinPatterns.of_tournament(tournament),
        extra_wins_of(tournament, hands),
        pattern_names(tournament.rulebook),
    )
    return render(
        request,
        "tournament/stats/player.html",
        {
            "tournament": tournament,
            "rules": tournament.rulebook,
            "words": tournament.words,
            "player": player,
            "shown": seen,
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
            "doubles": doubles_shares(statistics.doubles, statistics.fan_hands),
        },
    )


def _number(score: int | Fraction) -> int | float:
    """A score for a chart: whole, or (after a carry-over) a float."""
    return score if isinstance(score, int) else float(score)
