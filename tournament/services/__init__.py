"""Writes: every change to tournament data goes through one of these functions."""

from tournament.services.games import end_game
from tournament.services.hands import correct_hand, record_hand
from tournament.services.penalties import record_false_win, record_penalty
from tournament.services.seating import create_table

__all__ = [
    "correct_hand",
    "create_table",
    "end_game",
    "record_false_win",
    "record_hand",
    "record_penalty",
]
