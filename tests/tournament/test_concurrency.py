"""Two referees submitting the same hand at the same moment, on two database connections."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from tournament.models import Deal
from tournament.services import DealInput, record_deal


@pytest.mark.django_db(transaction=True)
def test_same_hand_submitted_twice_at_once_saves_exactly_one(table, referee, east, south):
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def submit(winner):
        try:
            barrier.wait(timeout=10)
            hand = record_deal(
                table=table,
                number=1,
                deal=DealInput(result="win", winner=winner, fan=8),
                entered_by=referee,
            )
            outcomes.append(hand)
        except ValidationError as error:
            outcomes.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(winner,)) for winner in (east, south)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    saved = [outcome for outcome in outcomes if isinstance(outcome, Deal)]
    refused = [outcome for outcome in outcomes if isinstance(outcome, ValidationError)]
    assert len(saved) == 1
    assert [error.code for error in refused] == ["conflict"]
    assert "Hand 1 at table 1 was already entered by bob" in refused[0].messages[0]
    assert Deal.objects.filter(table=table).count() == 1
