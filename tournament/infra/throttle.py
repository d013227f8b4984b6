"""Who is knocking, and how often they got it wrong.

`client_ip` is the caller's address, behind reverse proxies only when the settings say how
many there are (`PROXY_COUNT`): the login lockout (django-axes, configured in the settings) and
the API token throttle below both count failures by it.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from datetime import datetime, timedelta

from axes.models import AccessAttempt
from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from tournament.models import TokenFailures


def client_ip(request: HttpRequest) -> str:
    """The client's address. With `PROXY_COUNT` = n > 0, each of the n proxies appends the
    address it was reached from to X-Forwarded-For, so the client is the n-th entry from the
    right; whatever the client put before it is not believed. Without proxies, or when the
    header is short or holds no address there, the address of the connection."""
    remote = request.META.get("REMOTE_ADDR") or ""
    count = settings.PROXY_COUNT
    if count <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(forwarded) < count:
        return remote
    candidate = forwarded[-count]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def locked_out_usernames(usernames: Iterable[str]) -> set[str]:
    """Those of `usernames` that the login form refuses now from some address (django-axes
    counts wrong passwords by username and address)."""
    return set(
        AccessAttempt.objects.filter(
            username__in=list(usernames),
            failures_since_start__gte=settings.AXES_FAILURE_LIMIT,
            attempt_time__gte=timezone.now() - settings.AXES_COOLOFF_TIME,
        ).values_list("username", flat=True)
    )


# --- Counting failures by key -----------------------------------------------------------------
#
# One row of the TokenFailures table per key: an address for wrong API tokens; for the login
# (tournament.web.login) "login-address <address>" (wrong passwords from an address, whatever
# the usernames) and "login-browser <digest>" (wrong passwords from a browser that has logged
# in before). After `limit` failures within `cool_off` of the first, the key is locked for
# `cool_off` from the failure that locked it; failures while it is locked are not counted and
# do not lengthen it.


def lockout(key: str) -> datetime | None:
    """Until when `key` is locked, or None."""
    return (
        TokenFailures.objects.filter(address=key, locked_until__gt=timezone.now())
        .values_list("locked_until", flat=True)
        .first()
    )


def note_failure(key: str, *, limit: int, cool_off: timedelta) -> datetime | None:
    """Count a failure of `key`; until when it is now locked, or None."""
    now = timezone.now()
    with transaction.atomic():
        row, _ = TokenFailures.objects.select_for_update().get_or_create(
            address=key, defaults={"since": now}
        )
        if row.locked_until is not None and row.locked_until > now:
            return row.locked_until
        if now - row.since > cool_off or row.locked_until is not None:
            row.failures, row.since, row.locked_until = 0, now, None
        row.failures += 1
        if row.failures >= limit:
            row.locked_until = now + cool_off
        row.save()
    # Rows that have been quiet for a while say nothing any more.
    quiet = 2 * max(settings.TOKEN_COOLOFF, settings.AXES_COOLOFF_TIME)
    TokenFailures.objects.filter(since__lt=now - quiet).exclude(locked_until__gt=now).delete()
    return row.locked_until


# --- Wrong API tokens ------------------------------------------------------------------------
#
# After TOKEN_FAILURE_LIMIT wrong tokens from one address within TOKEN_COOLOFF, every wrong
# token from that address is refused (429) until TOKEN_COOLOFF has passed since the failure
# that locked it. A valid token is never counted, and never refused for its address
# (tournament.api.auth): at a venue behind one address, one phone retrying a revoked token must
# not shut out the others.


def token_lockout(address: str) -> datetime | None:
    """Until when wrong tokens from `address` are refused, or None."""
    return lockout(address)


def note_token_failure(address: str) -> datetime | None:
    """Count a wrong token from `address`; until when the address is now locked, or None."""
    return note_failure(
        address, limit=settings.TOKEN_FAILURE_LIMIT, cool_off=settings.TOKEN_COOLOFF
    )
