"""Read settings from environment variables.

Each helper takes the raw string (or ``None`` when the variable is unset) and returns a
Python value, raising ``ImproperlyConfigured`` with a message that names the variable when the
value makes no sense. They are plain functions so the tests can call them directly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})

POSTGRES_SCHEMES = frozenset({"postgres", "postgresql", "pgsql"})


def parse_bool(name: str, value: str | None, *, default: bool) -> bool:
    """Turn true/false, 1/0, yes/no or on/off (any case) into a bool."""
    if value is None or value.strip() == "":
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a yes/no value; use one of true/false, 1/0, yes/no, on/off."
    )


def parse_list(value: str | None, *, default: list[str] | None = None) -> list[str]:
    """Split a comma-separated value, dropping blanks: ``"a, b,"`` gives ``["a", "b"]``."""
    if value is None or value.strip() == "":
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def parse_int(name: str, value: str | None, *, default: int, minimum: int = 0) -> int:
    """A whole number of at least `minimum`; unset or blank gives `default`."""
    if value is None or value.strip() == "":
        return default
    try:
        number = int(value.strip())
    except ValueError:
        number = None
    if number is None or number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number of at least {minimum}.")
    return number


MAKE_A_KEY = (
    "set SECRET_KEY to a long random string (for example the output of "
    "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`), "
    "or set DEBUG=true for local development."
)


def secret_key(value: str | None, *, debug: bool, development_key: str) -> str:
    """Return SECRET_KEY; outside DEBUG a strong key must be given: the length and variety
    Django's deployment check asks for, and not one of Django's insecure generated keys."""
    if debug:
        return value or development_key
    if not value:
        raise ImproperlyConfigured(
            f"SECRET_KEY is not set. It is required when DEBUG is off: {MAKE_A_KEY}"
        )
    weakness = _weakness(value)
    if weakness:
        raise ImproperlyConfigured(f"SECRET_KEY is too weak ({weakness}): {MAKE_A_KEY}")
    return value


def _weakness(key: str) -> str:
    if key.startswith(SECRET_KEY_INSECURE_PREFIX):
        return f"it starts with {SECRET_KEY_INSECURE_PREFIX!r}, as Django's throw-away keys do"
    if len(key) < SECRET_KEY_MIN_LENGTH:
        return f"{len(key)} characters; it needs at least {SECRET_KEY_MIN_LENGTH}"
    if len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS:
        return (
            f"{len(set(key))} different characters; it needs at least "
            f"{SECRET_KEY_MIN_UNIQUE_CHARACTERS}"
        )
    return ""


def parse_database_url(url: str, *, base_dir: Path) -> dict[str, Any]:
    """Turn a database URL into a Django ``DATABASES`` entry.

    Understood forms:

    - ``sqlite:///db.sqlite3`` (relative to ``base_dir``), ``sqlite:////abs/path.sqlite3``,
      ``sqlite:///:memory:``
    - ``postgres://user:password@host:port/name`` (also ``postgresql://``), with any query
      parameters passed on to libpq as options (``?sslmode=require``)
    - ``postgres:///name`` to connect over the default Unix socket, or
      ``postgres:///name?host=/path/to/socket/dir`` for another socket folder
    """
    scheme, sep, rest = url.partition("://")
    scheme = scheme.lower()
    if not sep:
        raise ImproperlyConfigured(
            f"DATABASE_URL={url!r} is not a URL; expected sqlite:///path or "
            "postgres://user:password@host:port/name."
        )
    if scheme == "sqlite":
        return _sqlite(url, rest, base_dir)
    if scheme in POSTGRES_SCHEMES:
        return _postgres(url)
    raise ImproperlyConfigured(
        f"DATABASE_URL uses the unsupported scheme {scheme!r}; use sqlite:// or postgres://."
    )


def _sqlite(url: str, rest: str, base_dir: Path) -> dict[str, Any]:
    # After "sqlite://" comes an empty host and then "/path": strip that one slash, so that
    # "sqlite:///db.sqlite3" is relative and "sqlite:////srv/db.sqlite3" is absolute.
    if not rest.startswith("/") or rest == "/":
        raise ImproperlyConfigured(
            f"DATABASE_URL={url!r} names no file; use sqlite:///relative/path.sqlite3 or "
            "sqlite:////absolute/path.sqlite3."
        )
    path = unquote(rest[1:])
    if path == ":memory:":
        name: str | Path = ":memory:"
    else:
        name = Path(path) if path.startswith("/") else base_dir / path
    return {"ENGINE": "django.db.backends.sqlite3", "NAME": name}


def _postgres(url: str) -> dict[str, Any]:
    parts = urlsplit(url)
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise ImproperlyConfigured(
            f"DATABASE_URL={_hide_password(url)!r} names no database; add it after the last "
            "slash, as in postgres://user@localhost:5432/mcr."
        )
    try:
        port = parts.port
    except ValueError as error:
        raise ImproperlyConfigured(
            f"DATABASE_URL={_hide_password(url)!r} has a bad port: {error}."
        ) from error
    options = dict(parse_qsl(parts.query))
    host = options.pop("host", None) or unquote(parts.hostname or "")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": name,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": host,
        "PORT": str(port) if port else "",
        "OPTIONS": options,
    }


def _hide_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def libpq_params(database: dict[str, Any], *, dbname: str | None = None) -> dict[str, str]:
    """The keywords ``psycopg.connect`` takes for a PostgreSQL ``DATABASES`` entry made by
    `parse_database_url`, connected to `dbname` when given (``"postgres"`` to create a
    database). Empty parts are left out so that libpq falls back on its defaults: the Unix
    socket for no host, the current system user for no user."""
    params = {
        "dbname": dbname or str(database["NAME"]),
        "user": database.get("USER", ""),
        "password": database.get("PASSWORD", ""),
        "host": database.get("HOST", ""),
        "port": database.get("PORT", ""),
        **database.get("OPTIONS", {}),
    }
    return {key: str(value) for key, value in params.items() if value}
