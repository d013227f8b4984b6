"""django-tables2 tables for the public pages: the standings.

Rows are plain dicts built from `tournament.reads.selectors.standings`, so sorting happens in
Python on
the real values: table points sort as fractions, not as the text "2 1/3".

In CSV and XLSX exports every cell is a plain value. Table points are given twice: "Table points"
as a number rounded to two decimals (exact for whole numbers, halves and quarters) and
"Table points (exact)" as a fraction such as "7/3", because a three-way tie gives thirds, which no
decimal writes exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy, ngettext

from tournament.domain.names import natural_key
from tournament.domain.points import points_as_decimal, shown_score
from tournament.infra.spreadsheet import safe_text
from tournament.models import Tournament
from tournament.reads.selectors import Standing, format_points

NUMBER = {"th": {"class": "number"}, "td": {"class": "number"}}


def standing_rows(rows: Sequence[Standing]) -> list[dict[str, Any]]:
    """One dict per player for `StandingsTable`, in ranking order.

    Sorting by a column is stable, so players level in that column stay in ranking order.
    """
    unranked = len(rows) + 1
    return [
        {
            "rank": row.rank,
            # Substitutes (no rank) sort after every ranked player.
            "rank_order": row.rank if row.rank is not None else unranked,
            "key": row.player.key,
            "key_order": natural_key(row.player.key),
            "name": row.player.name,
            "country": row.player.country,
            "club": row.player.club,
            "table_points": row.table_points,
            "table_points_exact": row.table_points,
            "score": shown_score(row.score),
            "games": len(row.game_scores),
            "substitute": row.player.substitute,
            "withdrawn_from_round": row.player.withdrawn_from_round,
            "joins_from_round": row.player.joins_from_round,
            "unconfirmed_games": row.provisional_games,
        }
        for row in rows
    ]


def _row_class(record: dict[str, Any]) -> str:
    classes = []
    if record["substitute"]:
        classes.append("substitute")
    if record["withdrawn_from_round"] is not None:
        classes.append("withdrawn")
    if record.get("unconfirmed_games"):
        classes.append("provisional")
    return " ".join(classes)


class StandingsTable(tables.Table):
    rank = tables.Column(
        verbose_name=gettext_lazy("Rank"), order_by="rank_order", attrs=NUMBER, default="–"
    )
    key = tables.Column(verbose_name=gettext_lazy("Key"), order_by="key_order")
    name = tables.Column(verbose_name=gettext_lazy("Name"), order_by=("name", "key"))
    country = tables.Column(verbose_name=gettext_lazy("Country"), default="")
    club = tables.Column(verbose_name=gettext_lazy("Club"), default="")
    table_points = tables.Column(verbose_name=gettext_lazy("Table points"), attrs=NUMBER)
    score = tables.Column(verbose_name=gettext_lazy("Score"), attrs=NUMBER)
    games = tables.Column(verbose_name=gettext_lazy("Games"), attrs=NUMBER)
    # Only in the exports: hidden columns still take part in `as_values`.
    table_points_exact = tables.Column(
        verbose_name=gettext_lazy("Table points (exact)"), visible=False
    )
    substitute = tables.Column(verbose_name=gettext_lazy("Substitute"), visible=False)
    withdrawn_from_round = tables.Column(
        verbose_name=gettext_lazy("Withdrawn from round"), visible=False
    )
    # Provisional standings only: games counted whose sheets are not confirmed yet.
    unconfirmed_games = tables.Column(verbose_name=gettext_lazy("Unconfirmed games"), visible=False)

    class Meta:
        orderable = True
        attrs = {"class": "standings"}
        row_attrs = {"class": _row_class, "data-key": lambda record: record["key"]}
        empty_text = gettext_lazy("No players yet.")

    def __init__(self, data: Any, *, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        self.tournament = tournament

    def render_name(self, record: dict[str, Any]) -> str:
        url = reverse("public:player", args=[self.tournament.slug, record["key"]])
        marks = []
        if record["substitute"]:
            marks.append(("substitute", "substitute"))
        if record["withdrawn_from_round"] is not None:
            marks.append(("withdrawn", f"withdrawn from round {record['withdrawn_from_round']}"))
        if record.get("joins_from_round") is not None:
            marks.append(("late", f"plays from round {record['joins_from_round']}"))
        unconfirmed = record.get("unconfirmed_games", 0)
        return format_html(
            '<a href="{}">{}</a>{}{}',
            url,
            record["name"],
            format_html_join("", ' <span class="badge {}">{}</span>', marks),
            format_html(
                ' <span class="badge provisional" data-unconfirmed="{}">'
                '<span aria-hidden="true">† </span>{}</span>',
                unconfirmed,
                ngettext(
                    "includes %(count)s unconfirmed game",
                    "includes %(count)s unconfirmed games",
                    unconfirmed,
                )
                % {"count": unconfirmed},
            )
            if unconfirmed
            else "",
        )

    # The exports (CSV, XLSX) write what people typed as text that cannot be a formula.
    def value_key(self, value: str) -> str:
        return safe_text(value)

    def value_name(self, value: str) -> str:
        return safe_text(value)

    def value_country(self, value: str) -> str:
        return safe_text(value)

    def value_club(self, value: str) -> str:
        return safe_text(value)

    def render_table_points(self, value: Fraction) -> str:
        return format_points(value)

    def value_table_points(self, value: Fraction) -> Decimal:
        return points_as_decimal(value)

    def value_table_points_exact(self, value: Fraction) -> str:
        return str(value)

    def value_substitute(self, value: bool) -> str:
        return "yes" if value else "no"
