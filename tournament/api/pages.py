"""Pages of the API's lists that grow with a tournament (players, standings, a round's
tables): `?limit=` items from `?offset=`, a default page when they are left out.

An answer carries, next to its list, `count` (the items in all), the `limit` and `offset` it
was given and `next`, the address of the following page (null on the last one), so a client
that reads every page follows `next` until it is null. A value out of range or not a whole
number is answered 400 `invalid` naming the parameter, as every wrong field is.
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
    """`count`, `limit`, `offset` and `next` for an answer holding `page` of a list of `count`
    items; `next` is `path` (default: the request's own) with the same query and the next
    offset."""
    following = page.offset + page.limit
    next_url = None
    if following < count:
        query = request.GET.copy() if path is None else type(request.GET)(mutable=True)
        query["limit"] = str(page.limit)
        query["offset"] = str(following)
        next_url = f"{path or request.path}?{query.urlencode()}"
    return {"count": count, "limit": page.limit, "offset": page.offset, "next": next_url}
