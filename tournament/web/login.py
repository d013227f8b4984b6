"""Logging in: the forms of the login pages, what django-axes records of a failed attempt, and
the page when axes has locked a username out from the caller's address."""

from __future__ import annotations

import hashlib
import math
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core import signing
from django.core.validators import MaxLengthValidator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.crypto import salted_hmac

from tournament.infra.throttle import client_ip, lockout, note_failure

LOCKED_OUT = 429


class _UsernameLimit:
    """Refuses, with the field's message, a username longer than the user model allows.

    Django's form only writes the limit into the field's HTML after the field is made, so a longer
    name reached authentication, and then axes' record of the failure."""

    fields: dict[str, Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))


class LoginForm(_UsernameLimit, AuthenticationForm):
    """The login page's form."""


class AdminLoginForm(_UsernameLimit, AdminAuthenticationForm):
    """The admin site's login form."""


USERNAME_RECORDED = AccessAttempt._meta.get_field("username").max_length


def recorded_username(
    request: HttpRequest, credentials: dict[str, Any] | None = None
) -> str | None:
    """The username axes counts failures under (`AXES_USERNAME_CALLABLE`): the one sent, cut to
    what its table holds. The login forms refuse longer names before; this covers any other
    way into authentication."""
    source = credentials if credentials else getattr(request, "data", request.POST)
    username = source.get(getattr(settings, "AXES_USERNAME_FORM_FIELD", "username"))
    return None if username is None else str(username)[:USERNAME_RECORDED]


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """The login page after axes has locked the username out (`AXES_LOCKOUT_CALLABLE`), saying
    why and for how long, answered 429."""
    username = request.POST.get("username", "")
    form = LoginForm(request, initial={"username": username})
    minutes = math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
    return render(
        request,
        "registration/login.html",
        {
            "form": form,
            "next": request.POST.get("next", ""),
            "locked_out_minutes": minutes,
        },
        status=LOCKED_OUT,
    )


# --- One address shared by many ----------------------------------------------------------------
#
# At a venue behind NAT every phone has one address, so the address tells a guesser from the
# organiser nothing. What the login counts, and whom it lets through:
#
# - wrong passwords for one username from one address: after LOGIN_FAILURE_LIMIT within
#   LOGIN_COOLOFF_MINUTES, that username is locked from that address for LOGIN_COOLOFF_MINUTES
#   from the failure that locked it (django-axes); tries while it is locked, the right password
#   among them, are refused without being counted and do not lengthen it;
# - wrong passwords from one address whatever the usernames (spraying a few guesses over many
#   usernames): after LOGIN_ADDRESS_FAILURE_LIMIT, every login from that address is refused the
#   same way;
# - a browser that has logged in as a username before (it keeps a signed cookie, `KNOWN_COOKIE`,
#   for KNOWN_BROWSER_DAYS, that a new password of the account voids) is counted apart: neither
#   lock above applies to it, so the organiser's own phone gets in with the right password
#   whoever is guessing behind the same address; its own wrong passwords lock it alone after
#   LOGIN_FAILURE_LIMIT. Guessing from a new browser stays bounded by the two locks.

KNOWN_COOKIE = "login_known"
KNOWN_SALT = "tournament.web.login.known"
KNOWN_BROWSER_DAYS = 180


def _password_mark(user: Any) -> str:
    """A mark of the account's password as it is now: a cookie made before a new password no
    longer matches."""
    return salted_hmac(KNOWN_SALT, user.password, algorithm="sha256").hexdigest()[:32]


def remember_browser(response: HttpResponse, request: HttpRequest, user: Any) -> None:
    """After a login: the browser is known for `user` from now on."""
    value = signing.dumps(
        {"u": user.get_username(), "p": _password_mark(user)}, salt=KNOWN_SALT, compress=True
    )
    response.set_cookie(
        KNOWN_COOKIE,
        value,
        max_age=KNOWN_BROWSER_DAYS * 24 * 60 * 60,
        httponly=True,
        secure=settings.SESSION_COOKIE_SECURE,
        samesite="Lax",
    )


def known_browser(request: HttpRequest, username: str | None) -> str | None:
    """The key the failures of this browser are counted under, when it has logged in as
    `username` before with the account's present password; else None."""
    value = request.COOKIES.get(KNOWN_COOKIE)
    if not value or not username:
        return None
    try:
        known = signing.loads(value, salt=KNOWN_SALT, max_age=KNOWN_BROWSER_DAYS * 24 * 60 * 60)
    except signing.BadSignature:
        return None
    if not isinstance(known, dict) or known.get("u") != username:
        return None
    User = get_user_model()
    user = User._default_manager.filter(**{User.USERNAME_FIELD: username}).first()
    if user is None or known.get("p") != _password_mark(user):
        return None
    return "login-browser " + hashlib.sha256(value.encode()).hexdigest()[:40]


def address_key(request: HttpRequest) -> str:
    return f"login-address {client_ip(request)}"


class LoginHandler(AxesDatabaseHandler):
    """django-axes' database handler (`AXES_HANDLER`) with the address's and the known
    browser's counts above."""

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        browser = known_browser(request, recorded_username(request, credentials))
        if browser is not None:
            return lockout(browser) is not None
        if super().is_locked(request, credentials):
            return True
        return lockout(address_key(request)) is not None

    def user_login_failed(
        self,
        sender: Any,
        credentials: dict[str, Any],
        request: HttpRequest | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None or getattr(request, "axes_locked_out", False):
            # Refused for a lock before the password was read: not counted (no lengthening).
            super().user_login_failed(sender, credentials, request, **kwargs)
            return
        browser = known_browser(request, recorded_username(request, credentials))
        limit, cool_off = settings.AXES_FAILURE_LIMIT, settings.AXES_COOLOFF_TIME
        if browser is not None:
            if note_failure(browser, limit=limit, cool_off=cool_off) is not None:
                request.axes_locked_out = True  # type: ignore[attr-defined]
            return
        note_failure(
            address_key(request), limit=settings.LOGIN_ADDRESS_FAILURE_LIMIT, cool_off=cool_off
        )
        super().user_login_failed(sender, credentials, request, **kwargs)


class SiteLoginView(LoginView):
    """The login page: a browser that logs in is known for that username from then on."""

    form_class = LoginForm

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        remember_browser(response, self.request, form.get_user())
        return response
