"""API tokens: made with a random secret, stored as its hash, looked up by the secret."""

from __future__ import annotations

import hashlib
import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from tournament.models import ApiToken

PREFIX = "mcr_"


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def issue_token(*, user: AbstractBaseUser, name: str) -> tuple[ApiToken, str]:
    """A new token for `user`; returns it with its secret, which is not stored anywhere."""
    secret = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name.strip() or "API token", prefix=secret[:8], key_hash=_hash(secret)
    )
    return token, secret


def user_for_token(secret: str) -> AbstractBaseUser | None:
    """The active user a secret belongs to, or None; notes when the token was last used."""
    if not secret.startswith(PREFIX):
        return None
    token = ApiToken.objects.select_related("user").filter(key_hash=_hash(secret)).first()
    if token is None or not token.user.is_active:
        return None
    ApiToken.objects.filter(pk=token.pk).update(last_used=timezone.now())
    return token.user
