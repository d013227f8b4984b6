"""The "live" cache (settings.CACHES): Django's database cache, with a cheaper set() on
PostgreSQL.

It keeps the live fragments under their ETags (tournament.web.live), one set() for each
fragment drawn, which is after nearly every hand at a busy venue. Django's set() runs five
statements: it counts the table's rows (to cull it when full), then in a transaction looks the
key up and updates or inserts it. Here it is one upsert in the connection's autocommit, and the
rows are counted (and the table culled as Django culls it) on one set() in CULL_EVERY.
"""

from __future__ import annotations

import base64
import pickle
import random
from contextlib import nullcontext
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache
from django.db import DatabaseError, connections, router, transaction
from django.utils import timezone

CULL_EVERY = 20


class LiveFragmentCache(DatabaseCache):
    _table: str  # DatabaseCache's own, which django-stubs does not list

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        if connection.vendor != "postgresql":
            super().set(key, value, timeout, version)
            return
        key = self.make_and_validate_key(key, version=version)
        seconds = self.get_backend_timeout(timeout)
        if seconds is None:
            expires = datetime.max
        else:
            expires = datetime.fromtimestamp(seconds, tz=UTC if settings.USE_TZ else None)
        # Stored as Django's set() stores them, so that its get() reads them.
        expires = expires.replace(microsecond=0)
        pickled = base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")
        table = connection.ops.quote_name(self._table)
        upsert = (
            f"INSERT INTO {table} (cache_key, value, expires) VALUES (%s, %s, %s)"
            " ON CONFLICT (cache_key) DO UPDATE SET value = EXCLUDED.value,"
            " expires = EXCLUDED.expires"
        )
        params = [key, pickled, connection.ops.adapt_datetimefield_value(expires)]
        try:
            # Inside a transaction (a test's, a view's), a savepoint keeps a failure from
            # breaking it; otherwise the statement commits alone.
            with transaction.atomic(using=db) if connection.in_atomic_block else nullcontext():
                with connection.cursor() as cursor:
                    if random.randrange(CULL_EVERY) == 0:
                        self._cull_when_full(db, cursor)
                    cursor.execute(upsert, params)
        except DatabaseError:
            pass  # as Django's set(): a fragment not kept is drawn again

    def _cull_when_full(self, db: str, cursor: Any) -> None:
        cursor.execute(f"SELECT COUNT(*) FROM {connections[db].ops.quote_name(self._table)}")
        count = cursor.fetchone()[0]
        if count > self._max_entries:
            now = timezone.now().replace(microsecond=0)
            self._cull(db, cursor, now, count)  # type: ignore[attr-defined]  # Django's own
