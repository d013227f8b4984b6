"""The referee's forms at one table: what each entry asks for, before the services check it.

Players are chosen by their key (the tournament's start number). Every form that records a
hand carries the hand number the page showed, so that a hand entered meanwhile at the same
table by another referee is refused as a conflict instead of being recorded twice.
"""

from __future__ import annotations

from tournament.web.referee.forms.base import (
    FLOWER_CHOICES,
    SELF_DRAWN,
    WIND_NAMES,
    EndForm,
    HandForm,
    KeyedForm,
    SeatView,
    TableForm,
    player_label,
    submission_field,
)
from tournament.web.referee.forms.hands import (
    CorrectForm,
    DrawForm,
    FaultyOutForm,
    FullForm,
    UndoForm,
    WinForm,
    WinnerForm,
    flowers_field,
)
from tournament.web.referee.forms.penalties import FalseWinForm, PenaltyForm, hand_choices

__all__ = [
    "CorrectForm",
    "DrawForm",
    "FaultyOutForm",
    "EndForm",
    "FLOWER_CHOICES",
    "FalseWinForm",
    "FullForm",
    "HandForm",
    "KeyedForm",
    "PenaltyForm",
    "SELF_DRAWN",
    "SeatView",
    "TableForm",
    "UndoForm",
    "WIND_NAMES",
    "WinForm",
    "WinnerForm",
    "flowers_field",
    "hand_choices",
    "player_label",
    "submission_field",
]
