"""The referee's pages: my tables, and per table its screen and one POST address per entry."""

from __future__ import annotations

from django.urls import path

from tournament.web import referee, referee_sheets

app_name = "referee"

TABLE = "<slug:slug>/<int:round>/<int:table>/"

urlpatterns = [
    path("", referee.index, name="index"),
    path(TABLE, referee.table_page, name="table"),
    path(f"{TABLE}win/", referee.record_win, name="win"),
    path(f"{TABLE}full/", referee.record_full, name="full"),
    path(f"{TABLE}draw/", referee.record_draw, name="draw"),
    path(f"{TABLE}false-win/", referee.record_false_win, name="false_win"),
    path(f"{TABLE}penalty/", referee.record_penalty, name="penalty"),
    path(f"{TABLE}undo/", referee.undo_last_hand, name="undo"),
    path(f"{TABLE}correct/", referee.correct_last_hand, name="correct"),
    path(f"{TABLE}end/", referee.end_game, name="end"),
    path(f"{TABLE}live/", referee_sheets.table_live, name="live"),
    # Game sheets waiting for a second referee's confirmation, and the confirmation itself.
    path("<slug:slug>/sheets/", referee_sheets.sheets, name="sheets"),
    path(f"{TABLE}confirm/", referee_sheets.confirm, name="confirm"),
]
