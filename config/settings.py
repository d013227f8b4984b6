"""Django settings, read from environment variables with development defaults.

Variables (see docs/deployment.md, "Configuration"):

- ``DEBUG``: true/false (default true, for local development)
- ``SECRET_KEY``: required when DEBUG is off
- ``DATABASE_URL``: ``sqlite:///path`` or ``postgres://user:password@host:port/name``
  (default: the SQLite file db.sqlite3 at the repository root)
- ``CONN_MAX_AGE``: seconds a database connection is kept for reuse (default 60, 0 in DEBUG)
- ``ALLOWED_HOSTS``, ``CSRF_TRUSTED_ORIGINS``: comma-separated lists
- ``HTTPS`` and the HTTPS-only settings it gives the default of (``SECURE_SSL_REDIRECT``,
  ``SESSION_COOKIE_SECURE``, ``CSRF_COOKIE_SECURE``, ``SECURE_HSTS_SECONDS``,
  ``SECURE_HSTS_INCLUDE_SUBDOMAINS``, ``SECURE_HSTS_PRELOAD``); ``PROXY_SSL_HEADER``,
  ``PROXY_COUNT``: what the reverse proxy in front says about the request
- ``LOGIN_FAILURE_LIMIT``, ``LOGIN_COOLOFF_MINUTES``, ``LOGIN_ADDRESS_FAILURE_LIMIT``,
  ``TOKEN_FAILURE_LIMIT``, ``TOKEN_COOLOFF_MINUTES``: throttling of wrong passwords and API
  tokens
- ``LIVE_STALE_SECONDS``: how old a public live fragment may be when it is sent again rather
  than drawn anew after a change (default 15; 0 for never); ``LIVE_BUSY_SECONDS``: the same
  while the machine's processors are all taken (default 45; not above LIVE_STALE_SECONDS for
  no difference)
- ``TEST_DATABASE_NAME``: name of the throw-away PostgreSQL test database
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF

from config import env

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env.parse_bool("DEBUG", os.environ.get("DEBUG"), default=True)

SECRET_KEY = env.secret_key(
    os.environ.get("SECRET_KEY"),
    debug=DEBUG,
    development_key="django-insecure-development-only-never-use-in-production",
)

ALLOWED_HOSTS = env.parse_list(
    os.environ.get("ALLOWED_HOSTS"), default=["localhost", "127.0.0.1", "[::1]"]
)
CSRF_TRUSTED_ORIGINS = env.parse_list(os.environ.get("CSRF_TRUSTED_ORIGINS"))


def _bool(name: str, default: bool) -> bool:
    return env.parse_bool(name, os.environ.get(name), default=default)


def _int(name: str, default: int, minimum: int = 0) -> int:
    return env.parse_int(name, os.environ.get(name), default=default, minimum=minimum)


# HTTPS. Outside DEBUG the site is taken to be served over HTTPS, and every HTTPS-only setting
# is on; a venue serving plain http on its local network says HTTPS=false (or switches single
# settings off). `python manage.py check --deploy` then has nothing to say about them.
HTTPS = _bool("HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = _bool("SECURE_SSL_REDIRECT", HTTPS)
SESSION_COOKIE_SECURE = _bool("SESSION_COOKIE_SECURE", HTTPS)
CSRF_COOKIE_SECURE = _bool("CSRF_COOKIE_SECURE", HTTPS)
SECURE_HSTS_SECONDS = _int("SECURE_HSTS_SECONDS", 365 * 24 * 60 * 60 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = _bool("SECURE_HSTS_PRELOAD", HTTPS)
# Only a proxy that sets X-Forwarded-Proto itself (and drops the client's) may be believed
# about the scheme; without one, a client could claim https.
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if _bool("PROXY_SSL_HEADER", False) else None
)
# How many reverse proxies in front append to X-Forwarded-For. 0: the client's address is the
# connection's (REMOTE_ADDR) and X-Forwarded-For, which anyone can send, is ignored.
PROXY_COUNT = _int("PROXY_COUNT", 0)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    # Country names in every language for the players' ISO 3166 codes.
    "django_countries",
    "csp",
    # Counts failed logins and locks a username out from an address (see AXES_ below).
    "axes",
    "tournament",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy and Permissions-Policy on every answer (see below).
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    # An address or query string holding a NUL (which PostgreSQL cannot compare): 404 or 400
    # before any view looks something up by it (tournament/web/nul.py).
    "tournament.web.nul.RefuseNulMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and API answers gzipped for clients that accept it (static files are WhiteNoise's,
    # above). BREACH: Django pads each gzipped answer with random bytes and masks the CSRF
    # token anew in every answer; no other secret is repeated in a page.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before common: picks the language from the cookie set by the language
    # switch, else from the browser's Accept-Language, else LANGUAGE_CODE.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # request.htmx: whether a request comes from htmx, and which element asked (HX-Target).
    "django_htmx.middleware.HtmxMiddleware",
    # A visit (GET/HEAD) to a web address that only takes a submitted form: a redirect to the
    # page the form lives on, never the browser's bare 405 (the API's 405 answers are left).
    "tournament.web.form_only.FormOnlyMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: turns a login refused for a lockout into the login page saying so.
    "axes.middleware.AxesMiddleware",
]

# Our pages load nothing from elsewhere and carry no inline script, inline style or event
# handler attribute (scripts and styles are files under static/; htmx is told not to add its
# indicator style, templates/_htmx_config.html), so the policy allows our own origin only.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# Browser features no page uses are switched off; the projector may go full screen.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    "accelerometer": [],
    "autoplay": [],
    "camera": [],
    "display-capture": [],
    "encrypted-media": [],
    "fullscreen": ["self"],
    "geolocation": [],
    "gyroscope": [],
    "magnetometer": [],
    "microphone": [],
    "midi": [],
    "payment": [],
    "usb": [],
}

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "tournament.web.context_processors.navigation",
            ],
        },
    },
]

DATABASES = {
    "default": env.parse_database_url(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        base_dir=BASE_DIR,
    ),
}
# Persistent connections: each application server process keeps its connection for
# CONN_MAX_AGE seconds instead of opening one per request (a few milliseconds each against
# PostgreSQL), checked before reuse so that a restarted database costs one error-free
# reconnect. The development server opens a thread per request, so DEBUG defaults to 0.
DATABASES["default"]["CONN_MAX_AGE"] = env.parse_int(
    "CONN_MAX_AGE", os.environ.get("CONN_MAX_AGE"), default=0 if DEBUG else 60
)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Several test runs may share one PostgreSQL server; scripts/test gives each its own name.
if os.environ.get("TEST_DATABASE_NAME") and "postgresql" in DATABASES["default"]["ENGINE"]:
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DATABASE_NAME"]}

# "live": the fragments the live pages poll, the last one drawn at each address (with its ETag,
# tournament.web.live) in a table of the database, so that every application server shares
# them and a database made anew starts without them. The table is made by a migration
# (tournament 0020).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "live": {
        "BACKEND": "tournament.infra.live_cache.LiveFragmentCache",
        "LOCATION": "live_fragment_cache",
        "OPTIONS": {"MAX_ENTRIES": 2000, "CULL_FREQUENCY": 4},
    },
}

# A public live fragment (standings, round, table) drawn less than LIVE_STALE_SECONDS ago is
# sent again to the viewers polling it, even when a hand has been entered since, rather than
# drawn once more for each of them: at a venue whose tables all change every few seconds, the
# drawing would otherwise take the referees' share of the server. A viewer then sees a change
# at most this much later than the poll's own period (20 or 30 s); 0 draws after every change.
LIVE_STALE_SECONDS = _int("LIVE_STALE_SECONDS", 15)
# While the machine's processors are all taken (tournament.web.live.busy), up to
# LIVE_BUSY_SECONDS instead: the referees' hands go first. A venue's pace (a hand every few
# minutes a table) leaves the processors mostly idle; referees entering hands as fast as the
# server answers take them all (benchmarks/venue_load.py).
LIVE_BUSY_SECONDS = _int("LIVE_BUSY_SECONDS", 45)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login throttling (django-axes, with tournament.web.login.LoginHandler). At a venue every
# phone may share one address (NAT), so a valid password must get through and guessing must
# not:
# - after LOGIN_FAILURE_LIMIT wrong passwords for one username from one address, that username
#   is locked out from that address for LOGIN_COOLOFF_MINUTES, counted from the failure that
#   locked it: tries during the lock are refused without being counted and do not lengthen it
#   (AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT off);
# - after LOGIN_ADDRESS_FAILURE_LIMIT wrong passwords from one address, whatever the usernames
#   (password spraying), every login from that address is locked the same way;
# - a browser that has logged in as the username before (a signed cookie, voided by a new
#   password) is counted apart: neither lock applies to it, its own wrong passwords lock it
#   alone after LOGIN_FAILURE_LIMIT.
# Failures are kept in the database, so every application server sees them. Unlock early: the
# referee accounts page's Unlock, the admin's "Access attempts" (and "wrong API tokens by
# address" for an address's or a browser's lock), or `manage.py axes_reset_username <name>`.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = _int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_HANDLER = "tournament.web.login.LoginHandler"
LOGIN_ADDRESS_FAILURE_LIMIT = _int("LOGIN_ADDRESS_FAILURE_LIMIT", 50, minimum=1)
AXES_CLIENT_IP_CALLABLE = "tournament.infra.throttle.client_ip"
AXES_LOCKOUT_CALLABLE = "tournament.web.login.locked_out"
AXES_USERNAME_CALLABLE = "tournament.web.login.recorded_username"

# API token throttling (tournament.infra.throttle): after TOKEN_FAILURE_LIMIT wrong tokens from one
# address within TOKEN_COOLOFF_MINUTES, every token from it is answered 429 for that long.
# Counted in the database (the TokenFailures table) for the same reason as the logins.
TOKEN_FAILURE_LIMIT = _int("TOKEN_FAILURE_LIMIT", 20, minimum=1)
TOKEN_COOLOFF = timedelta(minutes=_int("TOKEN_COOLOFF_MINUTES", 5, minimum=1))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# The interface is in English and Simplified Chinese (locale/zh_Hans/LC_MESSAGES/django.po,
# compiled .mo committed). The chosen language is kept in a cookie by the language switch.
LANGUAGES = [
    ("en", "English"),
    ("zh-hans", "简体中文"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files need `collectstatic` first, so only outside development.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Fixed here rather than read from DEBUG when the first request comes: the test runner turns
# DEBUG off, and tests should still find static files without a collectstatic.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# Django prints its own log to the console only when DEBUG is on; outside DEBUG, send warnings and
# errors there too, so they reach the server's log.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "handlers": {
        "production_console": {
            "class": "logging.StreamHandler",
            "level": "WARNING",
            "filters": ["require_debug_false"],
        },
    },
    "root": {"handlers": ["production_console"], "level": "WARNING"},
}
