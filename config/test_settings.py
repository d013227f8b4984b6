"""Settings of the test runs: the application's settings with test-only speed-ups.

pytest uses this module (see `[tool.pytest.ini_options]` in pyproject.toml); everything else
(`manage.py`, the servers) keeps `config.settings`. Only changes that make tests faster without
changing what they check belong here.
"""

from __future__ import annotations

from config.settings import *  # noqa: F403

# The tests make users by the hundred; the default PBKDF2 hasher spends most of a test's time
# on their passwords. MD5 is unsafe for real passwords and fine for throw-away test users.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
