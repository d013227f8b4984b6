"""Public pages of a tournament (readable without login when the tournament is public)."""

from __future__ import annotations

from django.urls import path

import tournament.web.converters  # noqa: F401  (registers player_key)
from tournament.web import projector, public, registration, teams

app_name = "public"

# Slugs are taken as any text so that every stored tournament can be linked, player keys as
# their alphabet allows (`models.PLAYER_KEY_PATTERN`); the views answer 404 for unknown ones.

urlpatterns = [
    path("<str:slug>/", public.tournament_page, name="tournament"),
    path("<str:slug>/standings/", public.standings_page, name="standings"),
    path("<str:slug>/teams/", teams.team_standings_page, name="teams"),
    # A team by its slug (`tournament.reads.teams.team_slugs`): never a "/", any other character.
    path("<str:slug>/teams/<str:team>/", teams.team_page, name="team"),
    path("<str:slug>/projector/", projector.projector, name="projector"),
    path("<str:slug>/projector/reveal/", projector.reveal, name="projector_reveal"),
    path("<str:slug>/rounds/<int:number>/", public.round_page, name="round"),
    path(
        "<str:slug>/rounds/<int:number>/tables/<int:table>/",
        public.table_page,
        name="table",
    ),
    path("<str:slug>/players/<player_key:key>/", public.player_page, name="player"),
    path("<str:slug>/register/", registration.register_page, name="register"),
    path("<str:slug>/register/done/", registration.registered_page, name="registered"),
]
