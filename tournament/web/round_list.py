"""The public round page cut to a bounded size: its tables by pages of TABLES_PER_PAGE (`page`),
its seating by name by pages of NAMES_PER_PAGE (`names`), and a search `q` ("find your table")
that lists the players found with their table and seat. The search matches as the public
standings' does (`standings_list.matching`: every word of the name, or the start number).
Parameters are read as every page reads them (`tournament.web.query`): a bad value gives a page.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpRequest

from tournament.models import Wind
from tournament.web.query import whole_number
from tournament.web.standings_list import matching, page_links, search_text

TABLES_PER_PAGE = 50
NAMES_PER_PAGE = TABLES_PER_PAGE * 4
# At most this many players found are listed (a one-letter search finds half the hall).
MOST_FOUND = 100


def _page(request: HttpRequest, items: list, per_page: int, param: str) -> Page:
    paginator = Paginator(items, per_page)
    number = whole_number(request, param, default=1, least=1, most=paginator.num_pages)
    return paginator.page(number)


def page_of_tables(request: HttpRequest, table_numbers: list[int]) -> Page:
    """The page of `table_numbers` (in order) that `page` asks for; past the last: the last."""
    return _page(request, table_numbers, TABLES_PER_PAGE, "page")


def round_seating(
    request: HttpRequest,
    seats: list[tuple[str, str, int, str]],
    table_numbers: list[int],
    current_page: int,
) -> dict[str, Any]:
    """The by-name seating page and the search result of the round's `seats` (name, key, table
    number, wind letter). Each line links to its table's board: on this page an anchor, on
    another page of tables that page with the anchor."""
    wind_names = dict(Wind.choices)
    page_by_table = {
        number: index // TABLES_PER_PAGE + 1 for index, number in enumerate(table_numbers)
    }
    rows: list[dict[str, Any]] = [
        {"name": name, "key": key, "table": table, "wind": wind} for name, key, table, wind in seats
    ]
    rows.sort(key=lambda row: (row["name"].casefold(), row["key"]))

    def shown(row: dict[str, Any]) -> dict[str, Any]:
        on_page = page_by_table.get(row["table"], 1)
        anchor = f"#table-{row['table']}"
        return {
            **row,
            "seat": wind_names.get(row["wind"], row["wind"]),
            "table_url": anchor if on_page == current_page else f"?page={on_page}{anchor}",
        }

    names_page = _page(request, rows, NAMES_PER_PAGE, "names")
    text = search_text(request)
    found = matching(rows, text) if text else []
    return {
        "seating": [shown(row) for row in names_page.object_list],
        "names_page": names_page,
        "names_page_links": page_links(request, names_page, param="names", anchor="seating"),
        "search": text,
        "found": [shown(row) for row in found[:MOST_FOUND]],
        "found_count": len(found),
        "found_cut": len(found) > MOST_FOUND,
        "paged": len(table_numbers) > TABLES_PER_PAGE,
    }
