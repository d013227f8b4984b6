"""The "live" cache's set() on PostgreSQL (tournament.infra.live_cache): one upsert, read back by
Django's own get(), culled as Django culls."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournament.infra import live_cache
from tournament.infra.live_cache import LiveFragmentCache

pytestmark = pytest.mark.django_db


@pytest.fixture
def cache():
    kept = caches["live"]
    assert isinstance(kept, LiveFragmentCache)
    kept.clear()
    return kept


def test_what_is_set_is_read_back_and_a_second_set_replaces_it(cache):
    cache.set("fragment", (b"<p>one</p>", {"Content-Type": "text/html"}), 300)
    assert cache.get("fragment") == (b"<p>one</p>", {"Content-Type": "text/html"})

    cache.set("fragment", (b"<p>two</p>", {}), 300)
    assert cache.get("fragment") == (b"<p>two</p>", {})


def test_an_expired_entry_is_not_read(cache):
    cache.set("gone", b"x", -1)
    cache.set("kept", b"y", None)  # no expiry
    assert cache.get("gone") is None
    assert cache.get("kept") == b"y"


def test_one_statement_a_set_when_the_table_is_not_counted(cache, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the upsert is PostgreSQL's; elsewhere Django's set() runs")
    monkeypatch.setattr(live_cache.random, "randrange", lambda n: 1)  # not the culling turn
    with CaptureQueriesContext(connection) as queries:
        cache.set("fragment", b"x", 300)
    statements = [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    assert len(statements) == 1
    assert statements[0].startswith("INSERT INTO")


def test_a_full_table_is_culled_on_its_turn(cache, monkeypatch):
    monkeypatch.setattr(cache, "_max_entries", 10)
    monkeypatch.setattr(cache, "_cull_frequency", 2)
    monkeypatch.setattr(live_cache.random, "randrange", lambda n: 1)
    for number in range(15):
        cache.set(f"k{number}", number, 300)
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM live_fragment_cache")
        assert cursor.fetchone()[0] == 15  # not its turn: nothing culled

    monkeypatch.setattr(live_cache.random, "randrange", lambda n: 0)
    cache.set("last", "x", 300)
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM live_fragment_cache")
        # Django's cull: a full table loses 1/CULL_FREQUENCY of its rows, then the new one.
        assert cursor.fetchone()[0] < 15
    assert cache.get("last") == "x"


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_set_commits_alone():
    cache = caches["live"]
    assert not connection.in_atomic_block
    cache.set("fragment", b"kept", 300)
    assert cache.get("fragment") == b"kept"
    cache.clear()
