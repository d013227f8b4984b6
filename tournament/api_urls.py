"""The tournament JSON API, mounted under /api/ (described in tournament.openapi)."""

from __future__ import annotations

from django.urls import path, re_path

from tournament.api import rounds, tables, tournaments
from tournament.api.http import endpoint, unknown_address

app_name = "tournament_api"

TOURNAMENT = "tournaments/<slug:slug>"
ROUND = f"{TOURNAMENT}/rounds/<int:number>"
TABLE = f"{ROUND}/tables/<int:table>"

urlpatterns = [
    path(
        "tournaments",
        endpoint(GET=tournaments.list_tournaments, POST=tournaments.create),
        name="tournaments",
    ),
    path(
        TOURNAMENT,
        endpoint(GET=tournaments.detail, PATCH=tournaments.change),
        name="tournament",
    ),
    path(
        f"{TOURNAMENT}/players",
        endpoint(GET=tournaments.list_players, POST=tournaments.add),
        name="players",
    ),
    path(
        f"{TOURNAMENT}/players/<str:key>",
        endpoint(PATCH=tournaments.change_player),
        name="player",
    ),
    path(
        f"{TOURNAMENT}/standings",
        endpoint(GET=tournaments.show_standings),
        name="standings",
    ),
    path(
        f"{TOURNAMENT}/rounds",
        endpoint(GET=rounds.list_rounds, POST=rounds.create),
        name="rounds",
    ),
    path(ROUND, endpoint(GET=rounds.detail), name="round"),
    path(f"{ROUND}/seating", endpoint(POST=rounds.seat), name="seating"),
    path(f"{ROUND}/status", endpoint(POST=rounds.change_status), name="round_status"),
    path(
        f"{ROUND}/clock",
        endpoint(GET=rounds.show_clock, POST=rounds.change_clock),
        name="round_clock",
    ),
    path(f"{ROUND}/board", endpoint(GET=rounds.show_board), name="round_board"),
    path(TABLE, endpoint(GET=tables.detail), name="table"),
    path(f"{TABLE}/referees", endpoint(PUT=rounds.set_referees), name="referees"),
    path(f"{TABLE}/hands", endpoint(POST=tables.submit_hand), name="hands"),
    path(
        f"{TABLE}/hands/<int:hand>",
        endpoint(PUT=tables.correct, DELETE=tables.remove_last),
        name="hand",
    ),
    path(f"{TABLE}/false-wins", endpoint(POST=tables.false_win), name="false_wins"),
    path(f"{TABLE}/penalties", endpoint(POST=tables.penalise), name="penalties"),
    path(
        f"{TABLE}/penalties/<int:penalty>",
        endpoint(PATCH=tables.correct_penalty_view, DELETE=tables.remove_penalty_view),
        name="penalty",
    ),
    path(f"{TABLE}/end", endpoint(POST=tables.end), name="end"),
    path(f"{TABLE}/confirm", endpoint(POST=tables.confirm), name="confirm"),
    # Anything else under tournaments/ (a typo, a trailing slash) gets a JSON 404 too.
    re_path(r"^tournaments/", unknown_address, name="unknown"),
]
