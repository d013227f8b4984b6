"""The environment-variable parsing behind config/settings.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config import env

BASE = Path("/srv/mcr")
REPO_ROOT = Path(__file__).resolve().parent.parent


def test_sqlite_relative_path_is_under_base_dir():
    db = env.parse_database_url("sqlite:///data/db.sqlite3", base_dir=BASE)
    assert db == {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE / "data/db.sqlite3"}


def test_sqlite_absolute_path_is_kept():
    db = env.parse_database_url("sqlite:////var/lib/mcr/db.sqlite3", base_dir=BASE)
    assert db["NAME"] == Path("/var/lib/mcr/db.sqlite3")


def test_sqlite_in_memory():
    db = env.parse_database_url("sqlite:///:memory:", base_dir=BASE)
    assert db["NAME"] == ":memory:"


def test_sqlite_without_a_path_is_refused():
    with pytest.raises(ImproperlyConfigured, match="names no file"):
        env.parse_database_url("sqlite://", base_dir=BASE)


@pytest.mark.parametrize("scheme", ["postgres", "postgresql"])
def test_postgres_url_with_every_part(scheme):
    db = env.parse_database_url(f"{scheme}://mcr:s%40cret@db.example:6543/mcr_live", base_dir=BASE)
    assert db == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "mcr_live",
        "USER": "mcr",
        "PASSWORD": "s@cret",
        "HOST": "db.example",
        "PORT": "6543",
        "OPTIONS": {},
    }


def test_postgres_socket_form_leaves_host_and_port_empty():
    db = env.parse_database_url("postgres:///mcr", base_dir=BASE)
    assert (db["NAME"], db["HOST"], db["PORT"], db["USER"]) == ("mcr", "", "", "")


def test_postgres_socket_folder_from_query():
    db = env.parse_database_url("postgres:///mcr?host=/run/postgresql", base_dir=BASE)
    assert db["HOST"] == "/run/postgresql"
    assert db["OPTIONS"] == {}


def test_postgres_query_parameters_become_options():
    db = env.parse_database_url("postgres://u@h/mcr?sslmode=require", base_dir=BASE)
    assert db["OPTIONS"] == {"sslmode": "require"}


def test_postgres_without_database_name_is_refused_and_hides_password():
    with pytest.raises(ImproperlyConfigured, match="names no database") as error:
        env.parse_database_url("postgres://u:hunter2@h:5432/", base_dir=BASE)
    assert "hunter2" not in str(error.value)


def test_unknown_scheme_is_refused():
    with pytest.raises(ImproperlyConfigured, match="unsupported scheme 'mysql'"):
        env.parse_database_url("mysql://u@h/mcr", base_dir=BASE)


@pytest.mark.parametrize("value", ["1", "true", "True", "YES", "on", " yes "])
def test_bool_true_words(value):
    assert env.parse_bool("DEBUG", value, default=False) is True


@pytest.mark.parametrize("value", ["0", "false", "FALSE", "no", "off"])
def test_bool_false_words(value):
    assert env.parse_bool("DEBUG", value, default=True) is False


@pytest.mark.parametrize("value", [None, "", "  "])
def test_bool_unset_gives_default(value):
    assert env.parse_bool("DEBUG", value, default=True) is True


def test_bool_bad_value_names_the_variable_and_the_choices():
    with pytest.raises(ImproperlyConfigured) as error:
        env.parse_bool("DEBUG", "maybe", default=True)
    message = str(error.value)
    assert "DEBUG='maybe'" in message
    assert "true/false" in message


def test_list_splits_on_commas_and_drops_blanks():
    assert env.parse_list(" example.org, .example.net ,,") == ["example.org", ".example.net"]


def test_list_unset_gives_default():
    assert env.parse_list(None, default=["localhost"]) == ["localhost"]


def test_secret_key_given_is_used():
    assert env.secret_key("k" * 50, debug=False, development_key="dev") == "k" * 50


def test_secret_key_falls_back_in_debug():
    assert env.secret_key(None, debug=True, development_key="dev") == "dev"


def test_secret_key_required_without_debug():
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is not set"):
        env.secret_key("", debug=False, development_key="dev")


def _load_settings(**environ: str) -> subprocess.CompletedProcess[str]:
    """Import config.settings in a fresh interpreter with exactly these variables."""
    return subprocess.run(
        [sys.executable, "-c", "import config.settings"],
        cwd=REPO_ROOT,
        env={"PATH": "/usr/bin:/bin", **environ},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_settings_refuse_to_start_without_secret_key_when_debug_is_off():
    result = _load_settings(DEBUG="false")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_settings_refuse_a_bad_debug_value():
    result = _load_settings(DEBUG="sometimes")
    assert result.returncode != 0
    assert "DEBUG='sometimes' is not a yes/no value" in result.stderr


def test_settings_load_in_production_mode_with_a_secret_key():
    result = _load_settings(DEBUG="no", SECRET_KEY="x" * 50, DATABASE_URL="postgres:///mcr")
    assert result.returncode == 0, result.stderr
