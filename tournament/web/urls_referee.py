"""The referee's pages: my tables, and per table its screen and one POST address per entry."""

from __future__ import annotations

from django.urls import path

from tournament.web.referee import game, hands, my_tables, penalties, screen, sheets

app_name = "referee"

TABLE = "<slug:slug>/<int:round>/<int:table>/"

urlpatterns = [
    path("", my_tables.index, name="index"),
    path(TABLE, screen.table_page, name="table"),
    path(f"{TABLE}win/", hands.record_win, name="win"),
    path(f"{TABLE}full/", hands.record_full, name="full"),
    path(f"{TABLE}draw/", hands.record_draw, name="draw"),
    path(f"{TABLE}faulty-out/", hands.record_faulty_out, name="faulty_out"),
    path(f"{TABLE}false-win/", penalties.record_false_win, name="false_win"),
    path(f"{TABLE}penalty/", penalties.record_penalty, name="penalty"),
    path(f"{TABLE}undo/", hands.undo_last_hand, name="undo"),
    path(f"{TABLE}correct/", hands.correct_last_deal, name="correct"),
    path(f"{TABLE}end/", game.end_game, name="end"),
    path(f"{TABLE}live/", sheets.table_live, name="live"),
    # Game sheets waiting for a second referee's confirmation, and the confirmation itself.
    path("<slug:slug>/sheets/", sheets.sheets, name="sheets"),
    path(f"{TABLE}confirm/", sheets.confirm, name="confirm"),
]
