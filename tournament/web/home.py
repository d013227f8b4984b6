from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournament.reads.selectors import visible_tournaments


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"tournaments": visible_tournaments(request.user)})
