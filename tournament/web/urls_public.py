"""Public pages of a tournament (readable without login when the tournament is public)."""

from __future__ import annotations

from django.urls import path

from tournament.web import projector, public

app_name = "public"

# Slugs and player keys are taken as any text (a key may even hold a slash) so that every
# stored tournament and player can be linked; the views answer 404 for unknown ones.

urlpatterns = [
    path("<str:slug>/", public.tournament_page, name="tournament"),
    path("<str:slug>/standings/", public.standings_page, name="standings"),
    path("<str:slug>/projector/", projector.projector, name="projector"),
    path("<str:slug>/rounds/<int:number>/", public.round_page, name="round"),
    path(
        "<str:slug>/rounds/<int:number>/tables/<int:table>/",
        public.table_page,
        name="table",
    ),
    path("<str:slug>/players/<path:key>/", public.player_page, name="player"),
]
