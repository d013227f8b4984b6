"""Django settings, read from environment variables with development defaults.

Variables (see README.md):

- ``DEBUG``: true/false (default true, for local development)
- ``SECRET_KEY``: required when DEBUG is off
- ``DATABASE_URL``: ``sqlite:///path`` or ``postgres://user:password@host:port/name``
  (default: the SQLite file db.sqlite3 at the repository root)
- ``ALLOWED_HOSTS``, ``CSRF_TRUSTED_ORIGINS``: comma-separated lists
- ``TEST_DATABASE_NAME``: name of the throw-away PostgreSQL test database
"""

from __future__ import annotations

import os
from pathlib import Path

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

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "tournament",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
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
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

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
                "tournament.context_processors.navigation",
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
# Several test runs may share one PostgreSQL server; scripts/test gives each its own name.
if os.environ.get("TEST_DATABASE_NAME") and "postgresql" in DATABASES["default"]["ENGINE"]:
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DATABASE_NAME"]}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

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
