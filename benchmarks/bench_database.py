"""The PostgreSQL database the benchmarks run in, and Django set up on it.

`mcr_bench` on the local server by default (created when missing); BENCH_DATABASE_URL names
another. Shared by tournament_scale.py and page_weight.py.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

DEFAULT_URL = "postgres://root@127.0.0.1:5432/mcr_bench"


def database_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)


def ensure_database(url: str) -> None:
    """Create the database `url` names when it is missing. Any URL the settings read works,
    the socket forms (``postgres:///name``, ``postgres:///name?host=/run/postgresql``)
    included: the URL goes through the settings' own parser, not string surgery."""
    import psycopg

    from config import env

    database = env.parse_database_url(url, base_dir=REPO)
    if database["ENGINE"] != "django.db.backends.postgresql":
        raise SystemExit(f"The benchmarks need PostgreSQL; BENCH_DATABASE_URL={url!r} is not.")
    name = str(database["NAME"])
    admin = env.libpq_params(database, dbname="postgres")
    with psycopg.connect(**admin, autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
        ).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{name}"')


def setup_django(url: str) -> None:
    """Django on `url`, migrated. DEBUG lets WhiteNoise serve static files from the source
    folders. The test client's host is allowed here: setup_test_environment() would add it
    too, but it also slows template rendering down to record contexts, which would distort
    the page timings."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DEBUG", "true")
    os.environ["ALLOWED_HOSTS"] = "testserver,localhost"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
