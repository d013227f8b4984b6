"""Two referees submitting the same hand at the same moment through the API.

Each request runs in its own thread, so on its own PostgreSQL connection: exactly one hand is
saved (201) and the other referee gets 409 with the conflict message.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tournament.models import Deal
from tournament.services import assign_referees

HANDS = "/api/tournaments/spring-cup/rounds/1/tables/1/hands"


@pytest.mark.django_db(transaction=True)
def test_same_hand_from_two_referees_at_once_saves_exactly_one(
    api_as, table, bob, carol, organiser
):
    assign_referees(table=table, referees=[bob, carol], actor=organiser)
    clients = {"1": api_as(bob), "2": api_as(carol)}
    barrier = threading.Barrier(2)
    answers: dict[str, tuple[int, dict]] = {}

    def submit(winner: str) -> None:
        try:
            barrier.wait(timeout=10)
            body = {"number": 1, "result": "win", "winner": winner, "discarder": "3", "fan": 8}
            response = clients[winner].post(HANDS, body)
            answers[winner] = (response.status_code, response.json())
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(winner,)) for winner in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    statuses = sorted(status for status, _ in answers.values())
    assert statuses == [201, 409]
    refused = next(body for status, body in answers.values() if status == 409)
    assert refused["error"] == "conflict"
    assert "Hand 1 at table 1 was already entered by" in refused["message"]
    saved = Deal.objects.get(table=table)
    winner = next(key for key, (status, _) in answers.items() if status == 201)
    assert saved.winner.player.key == winner
