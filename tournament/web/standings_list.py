"""The public standings as a page: the rows of `tournament.web.standings_table.standing_rows`
searched,
sorted and cut into pages in plain Python, for a plain template loop.

The standings page is polled every 30 seconds by every phone in the hall, so its fragment is
rendered without django-tables2, whose per-cell machinery cost nine tenths of the poll at 400
players (benchmarks/live_polls.py). `tournament.web.standings_table.StandingsTable` still writes the
exports, and the addresses mean the same to both: `sort` (a column, "-" before it for
descending, as django-tables2 reads it), `page`, `per_page`; and here `q`, a search by name.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpRequest, QueryDict
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext

from tournament.reads.selectors import format_points
from tournament.web.query import whole_number

STANDINGS_PER_PAGE = 200
MOST_PER_PAGE = 1000
# The longest search the page reads; longer text is cut, never refused.
MOST_SEARCH = 100


@dataclass(frozen=True)
class Column:
    name: str
    label: Any  # a lazy translation
    order_by: tuple[str, ...]
    number: bool = False
    # Left out of the narrow layout (a phone held upright): rank, name, table points and score
    # stay; these are in the wide layout and the exports.
    wide_only: bool = False


COLUMNS = (
    Column("rank", gettext_lazy("Rank"), ("rank_order",), number=True),
    Column("key", gettext_lazy("Key"), ("key_order",), wide_only=True),
    Column("name", gettext_lazy("Name"), ("name", "key")),
    Column("country", gettext_lazy("Country"), ("country",), wide_only=True),
    Column("club", gettext_lazy("Club"), ("club",), wide_only=True),
    Column("table_points", gettext_lazy("Table points"), ("table_points",), number=True),
    Column("score", gettext_lazy("Score"), ("score",), number=True),
    Column("games", gettext_lazy("Games"), ("games",), number=True, wide_only=True),
)
BY_NAME = {column.name: column for column in COLUMNS}


def folded(text: str) -> str:
    """`text` for a search that ignores case and accents: "Müller" and "muller" match."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def search_text(request: HttpRequest) -> str:
    """The `q` of the address, stripped and cut to MOST_SEARCH characters."""
    return " ".join(request.GET.get("q", "").split())[:MOST_SEARCH]


def matching(rows: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """The rows whose name holds every word of `text`, or whose key is `text`."""
    if not text:
        return rows
    words = folded(text).split()
    key = text.casefold()
    return [
        row
        for row in rows
        if row["key"].casefold() == key or all(word in folded(row["name"]) for word in words)
    ]


def sort_order(request: HttpRequest) -> list[tuple[str, bool]]:
    """The columns of `?sort=` (comma-separated, "-" for descending) that exist, as (name,
    descending); others are ignored, as django-tables2 does."""
    order: list[tuple[str, bool]] = []
    for part in request.GET.get("sort", "").split(","):
        descending = part.startswith("-")
        name = part[1:] if descending else part
        if name in BY_NAME and all(name != seen for seen, _ in order):
            order.append((name, descending))
    return order


def _sort_key(column: Column) -> Callable[[dict[str, Any]], tuple]:
    return lambda row: tuple(row[field] for field in column.order_by)


def sorted_rows(rows: list[dict[str, Any]], order: list[tuple[str, bool]]) -> list[dict[str, Any]]:
    """`rows` (in ranking order) sorted by `order`; sorts are stable, so players level in the
    sorted columns stay in ranking order, both ways."""
    result = list(rows)
    for name, descending in reversed(order):
        result.sort(key=_sort_key(BY_NAME[name]), reverse=descending)
    return result


def _address(path: str, query: QueryDict, **changes: Any) -> str:
    """`path` with the query `query` and `changes` (None removes a parameter)."""
    query = query.copy()
    for name, value in changes.items():
        if value is None:
            query.pop(name, None)
        else:
            query[name] = str(value)
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else path


def headings(request: HttpRequest, order: list[tuple[str, bool]]) -> list[dict[str, Any]]:
    """Each column heading: its label, classes and the address that sorts by it (ascending,
    or the other way when it is the column sorted by now). A new sort starts at page 1."""
    current = dict(order[:1])
    result = []
    for column in COLUMNS:
        classes = ["orderable"]
        if column.number:
            classes.insert(0, "number")
        if column.wide_only:
            classes.append("wide-only")
        descending = current.get(column.name)
        if descending is not None:
            classes.append("desc" if descending else "asc")
        sort = column.name if descending in (None, True) else f"-{column.name}"
        result.append(
            {
                "label": column.label,
                "classes": " ".join(classes),
                "aria_sort": ""
                if descending is None
                else ("descending" if descending else "ascending"),
                # The query string alone, as django-tables2 wrote it: a link relative to the
                # page, which the htmx fragment shares.
                "url": _address("?", request.GET, sort=sort, page=None),
            }
        )
    return result


def page_of(rows: list[dict[str, Any]], request: HttpRequest) -> Page:
    """One page of `rows`: `per_page` (1 to 1,000, else STANDINGS_PER_PAGE) and `page` (past
    the last page: the last) never fail, whatever the address says."""
    per_page = whole_number(
        request, "per_page", default=STANDINGS_PER_PAGE, least=1, most=MOST_PER_PAGE
    )
    paginator = Paginator(rows, per_page)
    number = whole_number(request, "page", default=1, least=1, most=paginator.num_pages)
    return paginator.page(number)


def page_links(
    request: HttpRequest, page: Page, *, param: str = "page", anchor: str = ""
) -> list[dict[str, Any]]:
    """The links to the other pages: previous, numbers (with gaps), next. The page number goes
    in the query parameter `param`; `anchor` (a fragment id) is added to each link."""
    if page.paginator.num_pages < 2:
        return []
    suffix = f"#{anchor}" if anchor else ""

    def url(number: int | str) -> str:
        return _address("?", request.GET, **{param: number}) + suffix

    links: list[dict[str, Any]] = []
    if page.has_previous():
        links.append(
            {
                "text": gettext("previous"),
                "url": url(page.previous_page_number()),
                "class": "previous",
            }
        )
    for number in page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1):
        if number == page.paginator.ELLIPSIS:
            links.append({"text": number, "url": "", "class": "gap"})
        else:
            links.append(
                {
                    "text": number,
                    "url": url(number),
                    "class": "active" if number == page.number else "",
                }
            )
    if page.has_next():
        links.append(
            {"text": gettext("next"), "url": url(page.next_page_number()), "class": "next"}
        )
    return links


def display_rows(rows: list[dict[str, Any]], slug: str) -> list[dict[str, Any]]:
    """What the template writes for each row of a page: classes, link, marks, points."""
    # One reverse() for the page, not one a row: keys are letters and digits only.
    player_url = reverse("public:player", args=[slug, "KEY"])
    head, tail = player_url.rsplit("KEY", 1)
    shown = []
    for index, row in enumerate(rows):
        classes = []
        if row["substitute"]:
            classes.append("substitute")
        if row["withdrawn_from_round"] is not None:
            classes.append("withdrawn")
        if row.get("unconfirmed_games"):
            classes.append("provisional")
        classes.append("odd" if index % 2 else "even")
        unconfirmed = row.get("unconfirmed_games", 0)
        shown.append(
            {
                **row,
                # Numbers as text: the template then writes them without asking the locale
                # (no thousands separator either way), which is a third of the rendering.
                "rank": "–" if row["rank"] is None else str(row["rank"]),
                "score": str(row["score"]),
                "games": str(row["games"]),
                "classes": " ".join(classes),
                "url": f"{head}{row['key']}{tail}",
                "points_text": format_points(row["table_points"]),
                "withdrawn_text": gettext("withdrawn from round %(number)s")
                % {"number": row["withdrawn_from_round"]}
                if row["withdrawn_from_round"] is not None
                else "",
                "joins_text": gettext("plays from round %(number)s")
                % {"number": row["joins_from_round"]}
                if row.get("joins_from_round") is not None
                else "",
                "unconfirmed_text": ngettext(
                    "includes %(count)s unconfirmed game",
                    "includes %(count)s unconfirmed games",
                    unconfirmed,
                )
                % {"count": unconfirmed}
                if unconfirmed
                else "",
            }
        )
    return shown


def standings_context(request: HttpRequest, rows: list[dict[str, Any]], slug: str) -> dict:
    """The search, sort and page of the standings `rows` that the address asks for."""
    text = search_text(request)
    found = matching(rows, text)
    order = sort_order(request)
    page = page_of(sorted_rows(found, order), request)
    return {
        "search": text,
        "found": len(found),
        "headings": headings(request, order),
        "rows": display_rows(list(page.object_list), slug),
        "page": page,
        "page_links": page_links(request, page),
        "clear_search": _address(request.path, request.GET, q=None, page=None),
        "search_form_hidden": [
            (name, value)
            for name in ("provisional", "sort", "per_page")
            for value in request.GET.getlist(name)[:1]
        ],
    }
