"""A big field's standings come in pages of 200 rows; the exports still hold every player."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tournament.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def big_field(tournament):
    Player.objects.bulk_create(
        Player(tournament=tournament, key=str(number), name=f"Player {number:03}")
        for number in range(1, 206)
    )
    return tournament


def test_standings_page_shows_two_hundred_rows_a_page(client, big_field):
    url = reverse("public:standings", args=[big_field.slug])
    first = client.get(url)
    assert first.content.count(b'data-key="') == 200
    second = client.get(url, {"page": 2})
    assert second.content.count(b'data-key="') == 5


def test_csv_export_holds_every_player(client, big_field):
    url = reverse("public:standings", args=[big_field.slug])
    response = client.get(url, {"_export": "csv"})
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows) == 1 + 205
