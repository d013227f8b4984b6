"""Writes: every change to tournament data goes through one of these functions."""

from tournament.services.as_recorded import AsRecorded, SheetAsRecorded
from tournament.services.deal_input import DealInput
from tournament.services.deals import (
    check_results_open,
    correct_deal,
    correct_last_deal,
    record_deal,
    remove_last_hand,
)
from tournament.services.games import (
    check_end_game,
    confirm_game,
    confirm_submitted_games,
    end_game,
    reopen_game,
)
from tournament.services.games_in_memory import GameInMemory, games_in_memory, write_games
from tournament.services.penalties import (
    correct_penalty,
    record_false_win,
    record_penalty,
    remove_penalty,
)
from tournament.services.players import (
    add_player,
    import_players_csv,
    remove_player,
    update_player,
)
from tournament.services.round_clock import (
    change_clock,
    extend_clock,
    give_table_time,
    pause_clock,
    restore_table_time,
    resume_clock,
    start_clock,
)
from tournament.services.rounds import (
    assign_referees,
    assign_round_referees,
    create_round,
    remove_round,
    restore_table_referees,
    set_round_status,
    set_seating,
    swap_players,
)
from tournament.services.seating import create_table
from tournament.services.seating_plan.one_round import seat_round

__all__ = [
    "AsRecorded",
    "DealInput",
    "GameInMemory",
    "SheetAsRecorded",
    "add_player",
    "assign_referees",
    "assign_round_referees",
    "change_clock",
    "check_end_game",
    "check_results_open",
    "confirm_game",
    "confirm_submitted_games",
    "correct_deal",
    "correct_last_deal",
    "correct_penalty",
    "create_round",
    "create_table",
    "end_game",
    "extend_clock",
    "games_in_memory",
    "give_table_time",
    "import_players_csv",
    "pause_clock",
    "record_false_win",
    "record_deal",
    "record_penalty",
    "remove_last_hand",
    "remove_penalty",
    "remove_player",
    "remove_round",
    "reopen_game",
    "restore_table_referees",
    "restore_table_time",
    "resume_clock",
    "seat_round",
    "set_round_status",
    "set_seating",
    "start_clock",
    "swap_players",
    "update_player",
    "write_games",
]
