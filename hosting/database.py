"""The PostgreSQL database `scripts/serve` runs on: created when it is missing, with what to do
said plainly when no server answers or the user may not create it, and the URL of a database on
this machine's own server (its Unix socket when there is one). Django's settings are not read:
the database may not exist yet.
"""

from __future__ import annotations

import os
from pathlib import Path

NO_SERVER = """\
No PostgreSQL server answers at {where} ({error}).
Either
  - install and start one on this machine (Debian/Ubuntu: sudo apt-get install postgresql;
    macOS: brew install postgresql@16 && brew services start postgresql@16), then run
    scripts/serve again: it creates the database {name!r} itself; or
  - give the address of another one: DATABASE_URL=postgres://user:password@host:5432/{name} \
scripts/serve"""

NOT_ALLOWED = """\
The PostgreSQL server at {where} refused {user!r} ({error}).
Create a role for this user that may create databases, once:
  sudo -u postgres createuser --createdb {user}
or create the database yourself and give its URL:
  sudo -u postgres createdb --owner=<user> {name}
  DATABASE_URL=postgres://<user>:<password>@127.0.0.1:5432/{name} scripts/serve"""


def ensure_database(url: str) -> str:
    """Create the PostgreSQL database `url` names when it is missing; say what happened.
    Raises SystemExit with what to do when there is no server or no right to create it."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    from config import env

    database = env.parse_database_url(url, base_dir=Path.cwd())
    if database["ENGINE"] != "django.db.backends.postgresql":
        return f"Using {database['NAME']} (not PostgreSQL: fine for trying, not for an event)."
    name = str(database["NAME"])
    admin = env.libpq_params(database, dbname="postgres")
    where = admin.get("host") or "the local socket"
    if "port" in admin:
        where += f":{admin['port']}"
    user = admin.get("user") or os.environ.get("PGUSER") or _login_name()
    try:
        conninfo = make_conninfo(**admin)
        with psycopg.connect(conninfo, autocommit=True, connect_timeout=5) as connection:
            exists = connection.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
            ).fetchone()
            if exists:
                return f"Using the database {name!r} on {where}."
            connection.execute(f'CREATE DATABASE "{name}"')
            return f"Created the database {name!r} on {where}."
    except psycopg.OperationalError as error:
        text = str(error)
        reason = next((line.strip() for line in text.splitlines() if line.strip()), "")
        if "Connection refused" in text or "No such file" in text or "timeout" in text:
            raise SystemExit(NO_SERVER.format(where=where, error=reason, name=name)) from None
        raise SystemExit(
            NOT_ALLOWED.format(where=where, user=user, error=reason, name=name)
        ) from None
    except psycopg.errors.InsufficientPrivilege as error:
        raise SystemExit(
            NOT_ALLOWED.format(where=where, user=user, error=error, name=name)
        ) from None


def _login_name() -> str:
    try:
        return os.getlogin()
    except OSError:
        return os.environ.get("USER", "?")


def local_database_url(name: str) -> str:
    """A URL for the database `name` on this machine's PostgreSQL: over the Unix socket
    when there is one (peer authentication as the current user), else 127.0.0.1:5432."""
    for folder in ("/var/run/postgresql", "/run/postgresql", "/tmp"):
        if Path(folder, ".s.PGSQL.5432").exists():
            return f"postgres:///{name}?host={folder}"
    return f"postgres://127.0.0.1:5432/{name}"
