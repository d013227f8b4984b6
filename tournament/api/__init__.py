"""The tournament JSON API under /api/tournaments: tournaments, players, rounds, tables, hands,
standings.

`schemas` holds the JSON shapes (and `fields` their field types); answers are read by them
from the models and read-model objects, which `serialisers` prepares in a fixed number of
queries; `auth` says who is calling and what they may reach (its gates run before a
body is read), `errors` words what is refused, `deal_arguments` turns a deal as sent into the
services' arguments, and `tournaments`, `rounds`, `table_sheets` (a table's game sheet, its
deals and penalties), `check_in` and the others are the endpoints. Each write runs in one
transaction: whatever goes wrong inside it is rolled back and answered with its error code.
An endpoint marked `own_transaction` (the hand POST) keeps its transaction to the
write itself and reads its answer after the commit, so that the table's lock is not held while
it is built.
"""

from __future__ import annotations

from functools import wraps
from typing import Any

from django.db import transaction
from ninja import Router

from tournament.api import (
    check_in,
    ema,
    player_links,
    registrations,
    rounds,
    table_sheets,
    tournaments,
)
from tournament.api.auth import READERS_AND_ORGANISERS, SAFE_METHODS, token_use


def _write_in_transaction(handler: Any) -> Any:
    if getattr(handler, "own_transaction", False):
        return handler

    @wraps(handler)
    def run(request: Any, *args: Any, **kwargs: Any) -> Any:
        if request.method in SAFE_METHODS:
            return handler(request, *args, **kwargs)
        with transaction.atomic(), token_use(request):
            return handler(request, *args, **kwargs)

    return run


router = Router(auth=READERS_AND_ORGANISERS, tags=["tournaments"])
router.add_decorator(_write_in_transaction)
for part in (tournaments, rounds, table_sheets, check_in, player_links, registrations, ema):
    router.add_router("tournaments", part.router)
