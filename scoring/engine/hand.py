"""The hand model both notations parse to."""

from __future__ import annotations

from dataclasses import dataclass, field

from .tiles import CODES, WIND_CODES

CHOW, PUNG, KONG = "chow", "pung", "kong"
SOURCES = ("left", "across", "right")


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set. `tile` is the lowest tile (a chow) or the repeated tile.

    Only a kong can be concealed. `claimed` (the tile taken for a chow) and `source` (whose
    discard made a pung or kong) are kept for the record; they do not change the score.
    """

    kind: str
    tile: int
    concealed: bool = False
    claimed: int | None = None
    source: str | None = None

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == KONG else 3)


@dataclass(frozen=True, slots=True)
class Hand:
    """A declared win: standing tiles without the winning tile, declared sets, the winning
    tile and the situation it was won in. Tiles are engine indexes (see tiles.py)."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    win_tile: int = 0
    self_drawn: bool = False
    seat_wind: int = 0
    prevailing_wind: int = 0
    flowers: int = 0
    last_tile_of_kind: bool = False
    robbing_the_kong: bool = False
    replacement_tile: bool = False
    last_wall_tile: bool = False
    extra: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def to_case(self) -> dict:
        """The hand in the case format of shared/data/README.md (which calls the prevailing
        wind `prevalent_wind`)."""
        melds = []
        for meld in self.melds:
            entry: dict = {
                "type": meld.kind,
                "tiles": [CODES[t] for t in meld.tiles],
                "concealed": meld.concealed,
            }
            if meld.kind == CHOW:
                entry["claimed"] = CODES[meld.claimed if meld.claimed is not None else meld.tile]
            elif not meld.concealed:
                entry["from"] = meld.source or "left"
            melds.append(entry)
        return {
            "concealed": [CODES[t] for t in self.concealed],
            "melds": melds,
            "win_tile": CODES[self.win_tile],
            "self_drawn": self.self_drawn,
            "seat_wind": WIND_CODES[self.seat_wind],
            "prevalent_wind": WIND_CODES[self.prevailing_wind],
            "flowers": self.flowers,
            "last_tile_of_kind": self.last_tile_of_kind,
            "kong_related": self.robbing_the_kong or self.replacement_tile,
            "last_wall_tile": self.last_wall_tile,
        }
