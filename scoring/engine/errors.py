"""Why a hand cannot be scored, as a stable code and a sentence a referee understands."""

from __future__ import annotations

UNKNOWN_TILE = "UNKNOWN_TILE"
TILE_COUNT_GT_4 = "TILE_COUNT_GT_4"
WRONG_TILE_COUNT = "WRONG_TILE_COUNT"
INVALID_MELD = "INVALID_MELD"
CONTRADICTORY_SITUATION = "CONTRADICTORY_SITUATION"
BAD_INPUT = "BAD_INPUT"
NOT_WIN = "NOT_WIN"
BELOW_8_FAN = "BELOW_8_FAN"

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


class HandError(ValueError):
    """A hand that cannot be scored. `code` is stable; `message` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"HandError({self.code!r}, {self.message!r})"
