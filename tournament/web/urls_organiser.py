"""The organiser's pages, under manage/. Names index, create, dashboard and audit are fixed."""

from __future__ import annotations

from django.urls import include, path

from tournament.web.organiser import (
    accounts,
    attendance,
    audit,
    board,
    check_in,
    corrections,
    player_links,
    players,
    prize_giving,
    registrations,
    rehearsal,
    rounds,
    stages,
    tournaments,
)

app_name = "organiser"

table_patterns = [
    path("", corrections.detail, name="table"),
    path("hands/<int:hand>/", corrections.hand, name="hand"),
    path("hands/remove-last/", corrections.remove_hand, name="remove_hand"),
    path("penalties/new/", corrections.add_penalty, name="penalty_add"),
    path("penalties/<int:penalty>/", corrections.penalty, name="penalty"),
    path("penalties/<int:penalty>/remove/", corrections.remove_penalty_view, name="penalty_remove"),
    path("false-wins/new/", corrections.add_false_win, name="false_win_add"),
    path("end/", corrections.end, name="end_game"),
    path("reopen/", corrections.reopen, name="reopen_game"),
    path("confirm/", board.confirm, name="confirm_game"),
    path("time/", board.table_time, name="table_time"),
]

round_patterns = [
    path("", rounds.detail, name="round"),
    path("seat/", rounds.seat, name="round_seat"),
    path("swap/", rounds.swap, name="round_swap"),
    path("status/", rounds.status, name="round_status"),
    path("remove/", rounds.remove, name="round_remove"),
    path("referees/", rounds.referees, name="round_referees"),
    path("board/", board.board, name="board"),
    path("clock/", board.clock, name="clock"),
    path("confirm-all/", board.confirm_all, name="confirm_all"),
    path("tables/<int:table>/", include(table_patterns)),
]

tournament_patterns = [
    path("", tournaments.dashboard, name="dashboard"),
    path("settings/", tournaments.edit, name="settings"),
    path("settings/hide-standings/", prize_giving.hide, name="standings_hide"),
    path("settings/reveal-standings/", prize_giving.reveal, name="standings_reveal"),
    path("settings/hide-standings-again/", prize_giving.hide_again, name="standings_hide_again"),
    path("audit/", audit.audit, name="audit"),
    path("cut/", stages.cut, name="cut"),
    path("players/", players.index, name="players"),
    path("players/add/", players.add, name="player_add"),
    path("players/import/", players.import_csv, name="players_import"),
    path("players/<player_key:key>/", players.edit, name="player"),
    path("players/<player_key:key>/remove/", players.remove, name="player_remove"),
    path("registrations/", registrations.index, name="registrations"),
    path("registrations/settings/", registrations.settings, name="registration_settings"),
    path("registrations/<int:registration>/", registrations.edit, name="registration"),
    path(
        "registrations/<int:registration>/<slug:action>/",
        registrations.decide,
        name="registration_decide",
    ),
    path("players/<player_key:key>/link/", player_links.player_link, name="player_link"),
    path("player-links/", player_links.field_links, name="player_links"),
    path("player-links/slips/", player_links.slips, name="player_link_slips"),
    path("check-in/", check_in.desk, name="check_in"),
    path("check-in/scan/", check_in.scan, name="check_in_scan"),
    path("check-in/switch/", check_in.switch, name="check_in_switch"),
    path("check-in/players/<player_key:key>/", check_in.player, name="check_in_player"),
    path("attendance/", attendance.attendance, name="attendance"),
    path("attendance/close/", attendance.close, name="attendance_close"),
    path("attendance/reopen/", attendance.reopen, name="attendance_reopen"),
    path("attendance/late/", attendance.late, name="attendance_late"),
    path("attendance/absent/", attendance.absent, name="attendance_absent"),
    path("referees/", accounts.referees, name="referees"),
    path("referees/new/", accounts.create_referees, name="referees_create"),
    path("referees/add/", accounts.attach_referee, name="referees_attach"),
    path("referees/slips/", accounts.slips, name="referee_slips"),
    path("referees/<str:username>/unlock/", accounts.unlock_referee, name="referee_unlock"),
    path("referees/<str:username>/password/", accounts.reset_password, name="referee_password"),
    path("referees/<str:username>/active/", accounts.set_active, name="referee_active"),
    path("calls/<int:call>/answer/", board.answer, name="referee_call_answer"),
    path("rehearsal/", rehearsal.rehearsal, name="rehearsal"),
    path("rehearsal/<int:rehearsal>/delete/", rehearsal.delete, name="rehearsal_delete"),
    path("rounds/new/", rounds.create, name="round_create"),
    path("rounds/<int:number>/", include(round_patterns)),
]

urlpatterns = [
    path("", tournaments.index, name="index"),
    path("new/", tournaments.create, name="create"),
    path("tokens/", accounts.tokens, name="tokens"),
    path("tokens/<int:token>/revoke/", accounts.revoke, name="token_revoke"),
    path("<slug:slug>/", include(tournament_patterns)),
]
