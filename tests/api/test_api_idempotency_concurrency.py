"""The same submission sent twice at the same moment (a phone retrying on a shaky connection).

Each request runs in its own thread, so on its own PostgreSQL connection, with the same
Idempotency-Key: exactly one hand is recorded (201) and the other request is answered as a
replay of it (200, Idempotent-Replayed: true), with the same hand.
"""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection

from tournament.models import Deal

HANDS = "/api/tournaments/spring-cup/rounds/1/tables/1/hands"


@pytest.mark.django_db(transaction=True)
def test_the_same_key_twice_at_once_records_one_hand(api_as, table, bob):
    key = str(uuid.uuid4())
    clients = [api_as(bob), api_as(bob)]
    for client in clients:
        client.headers["Idempotency-Key"] = key
    barrier = threading.Barrier(2)
    answers: list[tuple[int, str | None, dict]] = []

    def submit(client) -> None:
        try:
            barrier.wait(timeout=10)
            body = {"number": 1, "result": "win", "winner": "1", "discarder": "3", "fan": 8}
            response = client.post(HANDS, body)
            answers.append(
                (response.status_code, response.get("Idempotent-Replayed"), response.json())
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert sorted((status, replayed) for status, replayed, _ in answers) == [
        (200, "true"),
        (201, None),
    ]
    assert answers[0][2]["hand"] == answers[1][2]["hand"]
    saved = Deal.objects.get(table=table)
    assert str(saved.submission) == key
