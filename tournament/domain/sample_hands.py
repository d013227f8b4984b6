"""Winning hands entered by their tiles that each preset's engine accepts, with how they may be
won: for the dress rehearsal (services/rehearsal.py) and the tests' tournaments of every preset
(tests/preset_world.py).

Each hand holds its concealed tiles, its melds and its winning tile, in the engine's notation
(scoring/engine). None depends on the winner's seat or the prevailing wind.
"""

from __future__ import annotations

from typing import Any

Tiles = dict[str, Any]

# MCR: mixed shifted chows, all chows, concealed... worth at least 8 fan in any seat.
MCR_TILES: Tiles = {
    "concealed": ["1m", "2m", "3m", "2p", "3p", "4p", "3s", "4s", "5s", "7s", "8s", "9s", "5m"],
    "melds": [],
    "win_tile": "5m",
}
# MCR: a pure straight and more, at least 8 fan on a discard.
MCR_STRAIGHT: Tiles = {
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "3p", "4p", "5s"],
    "melds": [],
    "win_tile": "5s",
}
# JT: a concealed no-points hand (JT-03 of the shared cases), won on a discard after riichi ...
JT_TILES: Tiles = {
    "concealed": ["3m", "4m", "5p", "6p", "7p", "3s", "4s", "5s", "6s", "7s", "8s", "9m", "9m"],
    "melds": [],
    "win_tile": "2m",
}
# ... and a limit hand, self-drawn: four concealed pungs (Hidden Treasure, JT-18).
JT_LIMIT: Tiles = {
    "concealed": ["2m", "2m", "2m", "5p", "5p", "5p", "7s", "7s", "7s", "C", "C", "C", "9m"],
    "melds": [],
    "win_tile": "9m",
}
# WA: the joker in a pung of dragons (WA-22's hand), on a discard or self-drawn ...
WA_JOKER_SET: Tiles = {
    "concealed": ["C", "C", "C", "F", "F", "F", "5p", "6p", "2m", "3m", "4m", "P", "J"],
    "melds": [],
    "win_tile": "7p",
}
# ... and in the pair: a pure straight with a red-dragon pung (with the above, two winners on
# one discard of 7p).
WA_JOKER_PAIR: Tiles = {
    "concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "C", "C", "C", "J"],
    "melds": [],
    "win_tile": "7p",
}
