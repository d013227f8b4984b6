"""The secret key `scripts/serve` gives Django: made once (random, URL-safe), kept in a file only
its owner may read, and read back at every later start so that sessions and signed links
outlive a restart.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def secret_key(path: Path) -> str:
    """The key kept in `path`, made (50 random bytes, URL-safe) and written readable by the
    owner only the first time."""
    if path.exists():
        key = path.read_text().strip()
        if key:
            return key
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(key + "\n")
    return key
