"""Building WA hands for the tests in a few words, and reading the worked examples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scoring.engine.wa import WaResult, parse_wa_case, score_wa_hand

from ..oracle import shared_dir

DATA = Path(__file__).resolve().parents[2] / "data"
CASES_NAME = "wa-cases.jsonl"


def cases_file() -> Path:
    """The worked examples in the shared folder, or the copy in tests/data without it."""
    shared = shared_dir() / "data" / CASES_NAME
    return shared if shared.exists() else DATA / CASES_NAME


def load_cases() -> list[dict[str, Any]]:
    return [json.loads(line) for line in cases_file().read_text().splitlines() if line.strip()]


def meld(spec: str, joker_as: str | None = None) -> dict[str, Any]:
    """A declared set: "[C C C]" a pung or chow, "{E E E E}" a melded kong, "(E E E E)" a
    concealed kong."""
    tiles = spec[1:-1].split()
    real = {tile for tile in tiles if tile != "J"}
    kind = "kong" if len(tiles) == 4 else "pung" if len(real) == 1 else "chow"
    entry: dict[str, Any] = {"type": kind, "tiles": tiles, "concealed": spec[0] == "("}
    if joker_as is not None:
        entry["joker_as"] = joker_as
    return entry


def case(concealed: str, win: str | None, *melds: dict[str, Any], **flags: Any) -> dict:
    """A hand in the case format: standing tiles as codes separated by spaces (J the joker),
    the winning tile, declared sets (`meld`), flags; seat South, round East, on a discard
    unless said otherwise."""
    return {
        "concealed": concealed.split(),
        "melds": list(melds),
        "win_tile": win,
        "seat_wind": flags.pop("seat_wind", "S"),
        "prevalent_wind": flags.pop("prevalent_wind", "E"),
        "self_drawn": flags.pop("self_drawn", False),
        **flags,
    }


def score(concealed: str, win: str | None, *melds: dict[str, Any], **flags: Any) -> WaResult:
    return score_wa_hand(parse_wa_case(case(concealed, win, *melds, **flags)))


def patterns(result: WaResult) -> dict[str, int]:
    """Scored pattern key -> count."""
    return {line.key: line.count for line in result.patterns}
