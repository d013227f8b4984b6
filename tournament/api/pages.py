"""Pages of the lists that grow with a tournament (players, standings, a round's tables):
`?limit=` items from `?offset=`. Not `ninja.pagination`: its answer is `{items, count}`, while
ours keep their list's own name and other fields beside `count`, `limit`, `offset` and `next`
(the following page's address, null on the last one).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Schema
from pydantic import Field

# The furthest an offset may go: far beyond any tournament, within what the database takes.
MOST_OFFSET = 1_000_000


def _limit(what: str, default: int, most: int) -> Any:
    return Field(
        default,
        ge=1,
        le=most,
        description=f"How many {what} to answer (1 to {most}; default {default}).",
    )


def _offset(what: str) -> Any:
    return Field(0, ge=0, le=MOST_OFFSET, description=f"How many {what} to skip first (default 0).")


class PlayersPage(Schema):
    limit: int = _limit("players", 200, 1000)
    offset: int = _offset("players")


class TablesPage(Schema):
    limit: int = _limit("tables", 50, 250)
    offset: int = _offset("tables")


class TournamentsPage(Schema):
    limit: int = _limit("tournaments", 100, 500)
    offset: int = _offset("tournaments")


def paged(request: HttpRequest, page: Any, count: int, *, path: str | None = None) -> dict:
    """`count`, `limit`, `offset` and `next`: `path` (default: the request's, with its query)
    at the next offset."""
    following = page.offset + page.limit
    next_url = None
    if following < count:
        query = request.GET.copy() if path is None else type(request.GET)(mutable=True)
        query["limit"] = str(page.limit)
        query["offset"] = str(following)
        next_url = f"{path or request.path}?{query.urlencode()}"
    return {"count": count, "limit": page.limit, "offset": page.offset, "next": next_url}
