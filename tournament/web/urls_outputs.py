"""The organiser's printouts and files, mounted at manage/<slug>/print/ (the slug comes from
the include in config/urls.py)."""

from __future__ import annotations

from django.urls import path

from tournament.web import ema_readiness, outputs

app_name = "outputs"

urlpatterns = [
    path("", outputs.index, name="index"),
    path("ema.csv", outputs.ema_file, name="ema_csv"),
    path("ema/", outputs.ema_page, name="ema"),
    path("ema/readiness/", ema_readiness.page, name="ema_readiness"),
    path("standings/", outputs.standings_page, name="standings"),
    path("teams/", outputs.team_standings_page, name="teams"),
    path("teams.csv", outputs.team_standings_file, name="teams_csv"),
    path("seating-by-player/", outputs.player_seating, name="player_seating"),
    path("rounds/<int:number>/seating/", outputs.round_seating, name="round_seating"),
    path("rounds/<int:number>/sheets/", outputs.filled_sheets, name="sheets"),
    path("rounds/<int:number>/sheets/blank/", outputs.blank_sheets, name="blank_sheets"),
]
