"""Statistics pages, mounted at t/<slug>/statistics/ (the slug comes from the include in
config/urls.py)."""

from __future__ import annotations

from django.urls import path

import tournament.web.converters  # noqa: F401  (registers player_key)
from tournament.web import stats

app_name = "stats"

urlpatterns = [
    path("", stats.tournament_page, name="tournament"),
    path("players/<player_key:key>/", stats.player_page, name="player"),
]
