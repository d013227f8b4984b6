"""API tokens: made with a random secret, stored as its hash, looked up by the secret."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from tournament.models import ApiToken

PREFIX = "mcr_"
# How far behind `last_used` may be. A program may read several times a minute; writing the
# moment of every request would make each read a write. The tokens page shows the last use to
# the minute, so an hour-old value says "in use today", which is what it is for.
LAST_USED_EVERY = timedelta(hours=1)


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def issue_token(*, user: User, name: str) -> tuple[ApiToken, str]:
    """A new token for `user`; returns it with its secret, which is not stored anywhere."""
    secret = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name.strip() or "API token", prefix=secret[:8], key_hash=_hash(secret)
    )
    return token, secret


def user_for_token(secret: str) -> User | None:
    """The active user a secret belongs to, or None. Notes when the token was last used, at
    most once every LAST_USED_EVERY."""
    if not secret.startswith(PREFIX):
        return None
    token = ApiToken.objects.select_related("user").filter(key_hash=_hash(secret)).first()
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used is None or now - token.last_used >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
    return token.user
