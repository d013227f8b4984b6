"""API tokens: made with a random secret, stored as its hash, looked up by the secret."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db.models import Subquery
from django.utils import timezone

from tournament.models import ApiToken, TokenFailures

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
    token, _locked = find_token(secret)
    if token is None:
        return None
    if use_due(token):
        note_use(token.pk)
    return token.user


def find_token(secret: str, address: str | None = None) -> tuple[ApiToken | None, datetime | None]:
    """The token of an active user that `secret` is, or None; with `address`, also until when
    tokens from that address are refused (`tournament.infra.throttle.token_lockout`), read in the
    same query when the token is found."""
    if not secret.startswith(PREFIX):
        return None, None
    tokens = ApiToken.objects.select_related("user").filter(key_hash=_hash(secret))
    if address is not None:
        locked = TokenFailures.objects.filter(address=address, locked_until__gt=timezone.now())
        tokens = tokens.annotate(locked_until=Subquery(locked.values("locked_until")[:1]))
    token = tokens.first()
    if token is None or not token.user.is_active:
        return None, None
    return token, getattr(token, "locked_until", None)


def use_due(token: ApiToken) -> bool:
    """Whether the token's last use is to be noted now (at most once every LAST_USED_EVERY)."""
    return token.last_used is None or timezone.now() - token.last_used >= LAST_USED_EVERY


def note_use(token_id: int) -> None:
    """Note that the token is used now. A write through the API does it inside its own
    transaction (tournament.api.auth.token_use), so that it costs no commit of its own."""
    ApiToken.objects.filter(pk=token_id).update(last_used=timezone.now())
