"""Statistics pages, mounted at t/<slug>/statistics/ (the slug comes from the include in
config/urls.py)."""

from __future__ import annotations

from django.urls import path

from tournament.web import stats

app_name = "stats"

urlpatterns = [
    path("", stats.tournament_page, name="tournament"),
    path("players/<path:key>/", stats.player_page, name="player"),
]
