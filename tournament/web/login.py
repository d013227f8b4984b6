"""The login page when django-axes has locked a username out from the caller's address
(`AXES_LOCKOUT_CALLABLE`): the same page, saying why and for how long, answered 429."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

LOCKED_OUT = 429


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    username = request.POST.get("username", "")
    form = AuthenticationForm(request, initial={"username": username})
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
