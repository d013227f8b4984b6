"""Small helpers of the referee table-screen tests in tests/web (this folder is on the test
path, so they import it by name); the `world` and `referee_client` fixtures are in
tests/web/conftest.py."""

from __future__ import annotations

from django.contrib.messages import get_messages

from tournament.services import record_hand


def messages_of(response) -> list[str]:
    """The messages the response's request left for the next page."""
    return [str(message) for message in get_messages(response.wsgi_request)]


def draws(world, count: int) -> None:
    """Hands 1 to `count` of table 1 drawn, entered by its referee."""
    for number in range(1, count + 1):
        record_hand(table=world.table, number=number, result="draw", entered_by=world.referee)
