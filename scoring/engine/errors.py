"""Why a hand cannot be scored: a stable code, a message key and the message's parameters.

The codes are public (the API, the case format and its results). One code covers several
sentences, each with its own key in `messages.MESSAGES`; `HandError.message` is the English
sentence, and the presentation layer writes it in the reader's language from the key and
parameters.
"""

from __future__ import annotations

from typing import Any

from .messages import render

UNKNOWN_TILE = "UNKNOWN_TILE"
TILE_COUNT_GT_4 = "TILE_COUNT_GT_4"
WRONG_TILE_COUNT = "WRONG_TILE_COUNT"
INVALID_MELD = "INVALID_MELD"
CONTRADICTORY_SITUATION = "CONTRADICTORY_SITUATION"
BAD_INPUT = "BAD_INPUT"
NOT_WIN = "NOT_WIN"
BELOW_8_FAN = "BELOW_8_FAN"
# Wilmington Advanced 12-Tile (the joker, five copies, its minimum in points).
JOKER_COUNT = "JOKER_COUNT"  # no joker, or more than one
JOKER_WIN_TILE = "JOKER_WIN_TILE"  # the joker named as the winning tile
JOKER_AS_MISMATCH = "JOKER_AS_MISMATCH"  # a declared set's joker_as missing or not fitting it
TILE_COUNT_GT_5 = "TILE_COUNT_GT_5"  # a sixth copy of a tile
BELOW_MINIMUM = "BELOW_MINIMUM"  # a valid WA hand worth less than the minimum: a faulty out

#: Codes for input that could not be read as a hand at all (no total can be given).
STRUCTURAL = frozenset(
    {
        UNKNOWN_TILE,
        TILE_COUNT_GT_4,
        WRONG_TILE_COUNT,
        INVALID_MELD,
        CONTRADICTORY_SITUATION,
        BAD_INPUT,
        NOT_WIN,
    }
)
#: The codes of a WA hand that could not be read or is no winning hand.
WA_STRUCTURAL = STRUCTURAL | {JOKER_COUNT, JOKER_WIN_TILE, JOKER_AS_MISMATCH, TILE_COUNT_GT_5}


class HandError(ValueError):
    """A hand that cannot be scored.

    `code` is the stable public code; `message_key` names the sentence and `message_params`
    fills it in; `message` is that sentence in English.
    """

    def __init__(self, code: str, message_key: str, /, **params: Any) -> None:
        self.code = code
        self.message_key = message_key
        self.message_params = params
        self.message = render(message_key, params)
        super().__init__(self.message)

    def __repr__(self) -> str:
        return f"HandError({self.code!r}, {self.message_key!r}, {self.message_params!r})"
