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


@pytest.mark.parametrize(
    ("query", "rows"),
    [
        ({"per_page": -1}, 1),  # brought into range: one row a page
        ({"per_page": 0}, 1),
        ({"per_page": "abc"}, 200),  # not a number: the default
        ({"per_page": 10**30}, 205),  # at most 1,000 a page: all 205 here
        ({"per_page": 50, "page": 9}, 5),  # past the last page: the last (rows 201-205)
        ({"page": -3}, 200),
        ({"page": "x"}, 200),
        ({"page": 10**30}, 5),
        ({"page": ""}, 200),
    ],
)
def test_any_page_or_page_size_in_the_address_gives_a_page(client, big_field, query, rows):
    url = reverse("public:standings", args=[big_field.slug])

    response = client.get(url, query)

    assert response.status_code == 200
    assert response.content.count(b'data-key="') == rows
