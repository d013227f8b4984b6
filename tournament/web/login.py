"""Logging in: the forms of the login pages, what django-axes records of a failed attempt, and
the page when axes has locked a username out from the caller's address."""

from __future__ import annotations

import math
from typing import Any

from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

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
