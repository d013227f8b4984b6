from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_safe

app_name = "organiser"


@require_safe
@login_required
def index(request):
    # Placeholder until the organiser pages land: the tournaments this user organises.
    tournaments = request.user.organised_tournaments.all()
    return render(request, "home.html", {"tournaments": tournaments})


urlpatterns = [path("", index, name="index")]
