"""Big answers are gzipped for clients that accept it; live polls still answer 304."""

from __future__ import annotations

import gzip

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_standings_page_is_gzipped_when_accepted(client, board):
    url = reverse("public:standings", args=["spring-cup"])
    plain = client.get(url)
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})

    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert len(packed.content) < len(plain.content)
    assert gzip.decompress(packed.content).decode().count("Player") == (
        plain.content.decode().count("Player")
    )


def test_the_api_is_gzipped_when_accepted(client, board):
    response = client.get(
        "/api/tournaments/spring-cup/standings", headers={"Accept-Encoding": "gzip"}
    )

    assert response["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.content).startswith(b"{")


def test_a_gzipped_live_update_is_still_answered_304(client, board):
    url = reverse("public:standings", args=["spring-cup"])
    headers = {"HX-Request": "true", "Accept-Encoding": "gzip"}
    first = client.get(url, headers=headers)

    assert first["ETag"].startswith('W/"')  # gzip makes the tag weak; If-None-Match compares weakly
    assert client.get(url, headers={**headers, "If-None-Match": first["ETag"]}).status_code == 304
