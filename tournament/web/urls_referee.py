from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_safe

app_name = "referee"


@require_safe
@login_required
def index(request):
    # Placeholder until the referee pages land.
    return render(request, "home.html", {"tournaments": []})


urlpatterns = [path("", index, name="index")]
