"""Public pages of a tournament (readable without login when the tournament is public)."""

from __future__ import annotations

from django.urls import path

from tournament.web import public

app_name = "public"

urlpatterns = [
    path("<slug:slug>/", public.tournament_page, name="tournament"),
    path("<slug:slug>/standings/", public.standings_page, name="standings"),
    path("<slug:slug>/rounds/<int:number>/", public.round_page, name="round"),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table>/",
        public.table_page,
        name="table",
    ),
    path("<slug:slug>/players/<str:key>/", public.player_page, name="player"),
]
