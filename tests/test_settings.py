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


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgres:///mcr", {"dbname": "postgres"}),
        (
            "postgresql:///mcr?host=/var/run/postgresql",
            {"dbname": "postgres", "host": "/var/run/postgresql"},
        ),
        (
            "postgres://root:pw@127.0.0.1:5433/mcr?sslmode=require",
            {
                "dbname": "postgres",
                "user": "root",
                "password": "pw",
                "host": "127.0.0.1",
                "port": "5433",
                "sslmode": "require",
            },
        ),
    ],
)
def test_libpq_params_leave_socket_parts_to_libpq(url, expected):
    db = env.parse_database_url(url, base_dir=BASE)
    assert env.libpq_params(db, dbname="postgres") == expected


def test_libpq_params_default_to_the_database_of_the_url():
    db = env.parse_database_url("postgres:///mcr_bench", base_dir=BASE)
    assert env.libpq_params(db) == {"dbname": "mcr_bench"}


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


STRONG_KEY = "7Jx-q2Lr9VwT_b4nYc8sKp0mZeH3uA6fGdR1tNo5iWjXyQ-lBvCkEa2Ms8Pz9Dh4Fg"


def test_secret_key_given_is_used():
    assert env.secret_key(STRONG_KEY, debug=False, development_key="dev") == STRONG_KEY


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("short-but-varied-0123456789", "27 characters; it needs at least 50"),
        ("ab" * 30, "2 different characters; it needs at least 5"),
        ("django-insecure-" + STRONG_KEY, "starts with 'django-insecure-'"),
    ],
)
def test_weak_secret_key_is_refused_without_debug(key, reason):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is too weak") as error:
        env.secret_key(key, debug=False, development_key="dev")
    assert reason in str(error.value)


def test_weak_secret_key_is_accepted_in_debug():
    assert env.secret_key("short", debug=True, development_key="dev") == "short"


def test_int_reads_whole_numbers_and_names_a_bad_one():
    assert env.parse_int("PROXY_COUNT", " 2 ", default=0) == 2
    assert env.parse_int("PROXY_COUNT", None, default=3) == 3
    for bad in ("two", "-1", "1.5"):
        with pytest.raises(ImproperlyConfigured, match="PROXY_COUNT="):
            env.parse_int("PROXY_COUNT", bad, default=0)


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
    result = _load_settings(DEBUG="no", SECRET_KEY=STRONG_KEY, DATABASE_URL="postgres:///mcr")
    assert result.returncode == 0, result.stderr


def test_settings_refuse_to_start_with_a_weak_secret_key_when_debug_is_off():
    result = _load_settings(DEBUG="false", SECRET_KEY="x" * 50)
    assert result.returncode != 0
    assert "SECRET_KEY is too weak (1 different characters" in result.stderr


PRODUCTION = {"DEBUG": "false", "SECRET_KEY": STRONG_KEY, "ALLOWED_HOSTS": "mcr.example.org"}


def _manage(*args: str, **environ: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO_ROOT,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": "sqlite:///:memory:", **environ},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_deployment_check_finds_nothing_with_production_settings():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def _production_settings(*names: str, **environ: str) -> list[str]:
    """The values of these settings, printed by a fresh interpreter under the production
    variables and `environ`."""
    values = ", ".join(f"settings.{name}" for name in names)
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); from django.conf import "
         f"settings; print({values}, sep='|')"],
        cwd=REPO_ROOT,
        env={"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings",
             **PRODUCTION, **environ},
        capture_output=True,
        text=True,
        timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().split("|")


HTTPS_ONLY = (
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
)


def test_https_only_settings_are_on_by_default_in_production():
    assert _production_settings(*HTTPS_ONLY) == ["True"] * 3 + ["31536000", "True", "True"]


def test_https_false_switches_the_https_only_settings_off():
    """A venue serving plain http on its own network says so; the deployment check then
    warns, as it should."""
    values = _production_settings(*HTTPS_ONLY, HTTPS="false")
    assert values == ["False"] * 3 + ["0", "False", "False"]


def test_one_https_only_setting_can_be_switched_off_alone():
    values = _production_settings(*HTTPS_ONLY, SECURE_HSTS_PRELOAD="no")
    assert values == ["True"] * 3 + ["31536000", "True", "False"]


def test_proxy_ssl_header_only_when_the_proxy_sets_it():
    assert _production_settings("SECURE_PROXY_SSL_HEADER") == ["None"]
    assert _production_settings("SECURE_PROXY_SSL_HEADER", PROXY_SSL_HEADER="true") == [
        "('HTTP_X_FORWARDED_PROTO', 'https')"
    ]


def test_database_connections_persist_in_production_with_health_checks():
    assert _production_settings(
        "DATABASES['default']['CONN_MAX_AGE']", "DATABASES['default']['CONN_HEALTH_CHECKS']"
    ) == ["60", "True"]


def test_conn_max_age_is_read_from_the_environment():
    values = _production_settings("DATABASES['default']['CONN_MAX_AGE']", CONN_MAX_AGE="0")
    assert values == ["0"]


def test_settings_refuse_a_negative_conn_max_age():
    result = _load_settings(DEBUG="true", CONN_MAX_AGE="-5")
    assert result.returncode != 0
    assert "CONN_MAX_AGE='-5' is not a whole number" in result.stderr
