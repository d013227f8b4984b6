"""PyMahjongGB as an independent oracle for the scoring engine.

Turns a hand in the project's case format (``../shared/data/README.md``) into the arguments of
``MahjongGB.MahjongFanCalculator`` and maps its raw answer to one of the project's profiles
(``../shared/rules/RULINGS.md``).  This module never imports the engine: it is the independent
side of the differential tests.

What the calculator does, found by experiment with PyMahjongGB 1.4.0:

- Tiles: ``W1``-``W9`` characters, ``B1``-``B9`` dots, ``T1``-``T9`` bamboo, ``F1``-``F4`` winds
  east/south/west/north, ``J1`` red, ``J2`` green, ``J3`` white dragon.
- Packs are ``(kind, tile, offer)``: ``("CHI", middle tile, 1..3 = which tile was claimed)``,
  ``("PENG", tile, 1..3 = from left/across/right)``, ``("GANG", tile, offer)``.  Offer ``0`` means
  concealed for every kind: a ``GANG`` with offer 0 is a concealed kong (暗杠); a ``CHI`` or
  ``PENG`` with offer 0 is treated as a concealed set.  Offers above 3 raise
  ``ERROE_WRONG_OFFER_CODE``.
- Errors are ``TypeError`` with the message ``ERROR_NOT_WIN``, ``ERROR_WRONG_TILES_COUNT`` or
  ``ERROE_WRONG_TILE_CODE`` (sic); a list where a tuple is expected raises ``TypeError`` with a
  sentence.
- It does not check: a fifth copy of a tile (it then counts Tile Hog 255 times), a chow of
  honours or out of sequence, or contradictory flags.  Robbing the Kong on a self-drawn win or
  with the winning tile held elsewhere in the hand is silently dropped, as is Out with
  Replacement Tile without a kong and Last Tile when the winning tile is among the standing
  tiles.  The adapter checks tile codes, tile counts and declared sets itself; generators must
  only produce consistent situations.
- The raw answer follows the calculator's own table: Two Concealed Kongs (双暗杠) is 6 and one
  concealed plus one melded kong is a single fan 明暗杠 worth 5.  ``map_to_profile`` turns that
  into the project's profiles.
- It follows the Chinese rules where the Green Book is explicit and different (the five rows of
  RULINGS.md after the kong rows); ``GREEN_BOOK_ROWS`` restates its answer for ``wmo-2006``.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from MahjongGB import MahjongFanCalculator

MINIMUM_FAN = 8

SUITS = {"m": "W", "p": "B", "s": "T"}
HONOR_CODES = {"E": "F1", "S": "F2", "W": "F3", "N": "F4", "C": "J1", "F": "J2", "P": "J3"}
TILE_TO_GB: dict[str, str] = {
    **{f"{r}{suit}": f"{letter}{r}" for suit, letter in SUITS.items() for r in range(1, 10)},
    **HONOR_CODES,
}
TILE_CODES = tuple(TILE_TO_GB)
WIND_INDEX = {"E": 0, "S": 1, "W": 2, "N": 3}
OFFER_FROM = {"left": 1, "across": 2, "right": 3}

GB_ERRORS = {
    "ERROR_NOT_WIN": "NOT_WIN",
    "ERROR_WRONG_TILES_COUNT": "WRONG_TILE_COUNT",
    "ERROE_WRONG_TILE_CODE": "UNKNOWN_TILE",
}

FLOWER_ZH = "花牌"

# Profile data: fan points that differ from the calculator, and fans it merges.
PROFILE_POINTS: dict[str, dict[str, int]] = {
    "wmo-2006": {"双暗杠": 8},
    "cn-1998": {"双暗杠": 6},
}
SPLIT_FANS: dict[str, tuple[tuple[str, str, int], ...]] = {
    # one concealed + one melded kong: Two Melded Kongs 4 + Concealed Kong 2 in both profiles
    "明暗杠": (("Two Melded Kongs", "双明杠", 4), ("Concealed Kong", "暗杠", 2)),
}
PROFILES = tuple(PROFILE_POINTS)

Fan = tuple[str, str, int, int]  # (English name, Chinese name, points per fan, count)


class OracleError(Exception):
    """A hand the oracle rejects; ``code`` is one of the engine's error codes."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


def suit_and_rank(tile: str) -> tuple[str, int] | None:
    """``("m", 5)`` for ``"5m"``; ``None`` for an honour."""
    if len(tile) == 2 and tile[1] in SUITS:
        return tile[1], int(tile[0])
    return None


def all_tiles(case: Mapping[str, Any]) -> list[str]:
    """Every tile of the hand: standing tiles, declared sets and the winning tile."""
    tiles = list(case["concealed"])
    for meld in case["melds"]:
        tiles.extend(meld["tiles"])
    tiles.append(case["win_tile"])
    return tiles


def check_meld(meld: Mapping[str, Any]) -> None:
    tiles = list(meld["tiles"])
    kind = meld["type"]
    if kind == "chow":
        parts = [suit_and_rank(t) for t in tiles]
        if len(tiles) != 3 or None in parts:
            raise OracleError("INVALID_MELD", f"chow {tiles}")
        suits = {p[0] for p in parts}  # type: ignore[index]
        ranks = sorted(p[1] for p in parts)  # type: ignore[index]
        if len(suits) != 1 or ranks != list(range(ranks[0], ranks[0] + 3)):
            raise OracleError("INVALID_MELD", f"chow {tiles}")
        if meld.get("claimed", tiles[0]) not in tiles:
            raise OracleError("INVALID_MELD", f"claimed tile not in chow {tiles}")
    elif kind in ("pung", "kong"):
        size = 3 if kind == "pung" else 4
        if len(tiles) != size or len(set(tiles)) != 1:
            raise OracleError("INVALID_MELD", f"{kind} {tiles}")
    else:
        raise OracleError("INVALID_MELD", f"unknown set type {kind!r}")


def to_gb_args(case: Mapping[str, Any]) -> tuple[Any, ...]:
    """The positional arguments of ``MahjongFanCalculator`` for a case (without ``verbose``).

    Raises ``OracleError`` for an unknown tile, a fifth copy or an impossible declared set.
    """
    tiles = all_tiles(case)
    unknown = [t for t in tiles if t not in TILE_TO_GB]
    if unknown:
        raise OracleError("UNKNOWN_TILE", ", ".join(map(str, unknown)))
    over = sorted(t for t, n in Counter(tiles).items() if n > 4)
    if over:
        raise OracleError("TILE_COUNT_GT_4", ", ".join(over))
    packs = []
    for meld in case["melds"]:
        check_meld(meld)
        ordered = sorted(meld["tiles"], key=lambda t: suit_and_rank(t) or ("", 0))
        if meld["type"] == "chow":
            claimed = meld.get("claimed", ordered[0])
            packs.append(("CHI", TILE_TO_GB[ordered[1]], ordered.index(claimed) + 1))
        else:
            offer = 0 if meld.get("concealed") else OFFER_FROM[meld.get("from", "left")]
            kind = "PENG" if meld["type"] == "pung" else "GANG"
            packs.append((kind, TILE_TO_GB[ordered[0]], offer))
    return (
        tuple(packs),
        tuple(TILE_TO_GB[t] for t in case["concealed"]),
        TILE_TO_GB[case["win_tile"]],
        int(case.get("flowers", 0)),
        bool(case.get("self_drawn", False)),
        bool(case.get("last_tile_of_kind", False)),
        bool(case.get("kong_related", False)),
        bool(case.get("last_wall_tile", False)),
        WIND_INDEX[case.get("seat_wind", "E")],
        WIND_INDEX[case.get("prevalent_wind", "E")],
    )


def call_gb(args: tuple[Any, ...]) -> list[Fan]:
    """Run the calculator on prepared arguments; the raw fans, or ``OracleError``."""
    try:
        answer = MahjongFanCalculator(*args, verbose=True)
    except TypeError as exc:
        message = str(exc)
        raise OracleError(GB_ERRORS.get(message, "ORACLE_" + message), message) from None
    return [(en, zh, points, count) for points, count, zh, en in answer]


def raw_fans(case: Mapping[str, Any]) -> list[Fan]:
    """The calculator's own fans for a case: ``[(en, zh, points, count)]``."""
    return call_gb(to_gb_args(case))


# ---- the Green Book rows of RULINGS.md, each a change to the calculator's fans of a case ----

#: Hands whose shape implies the concealment: "combines with Fully Concealed if self-drawn".
CONCEALED_SHAPES_ZH = ("九莲宝灯", "四暗刻", "七对", "连七对", "十三幺", "全不靠", "七星不靠")
FULLY_CONCEALED: Fan = ("Fully Concealed Hand", "不求人", 4, 1)
HALF_FLUSH: Fan = ("Half Flush", "混一色", 6, 1)
DOUBLE_PUNG = ("Double Pung", "双同刻", 2)


def _names(fans: list[Fan]) -> set[str]:
    return {zh for _, zh, _, _ in fans}


def fully_concealed_row(fans: list[Fan], case: Mapping[str, Any]) -> list[Fan]:
    """Self-drawn concealed shapes with no claimed set: Fully Concealed Hand for Self-Drawn, or
    added where Last Tile Draw / Out with Replacement Tile already replaced Self-Drawn."""
    claimed = any(not meld.get("concealed") for meld in case["melds"])
    if not case.get("self_drawn") or claimed or not _names(fans) & set(CONCEALED_SHAPES_ZH):
        return fans
    kept = [fan for fan in fans if fan[1] != "自摸"]
    return kept if "不求人" in _names(kept) else [*kept, FULLY_CONCEALED]


def all_green_row(fans: list[Fan], case: Mapping[str, Any]) -> list[Fan]:
    """All Green holding the green dragon is also a Half Flush."""
    if "绿一色" in _names(fans) and "F" in all_tiles(case):
        return [*fans, HALF_FLUSH]
    return fans


def all_terminals_row(fans: list[Fan], case: Mapping[str, Any]) -> list[Fan]:
    """All Terminals also scores Double Pung for two pungs (or kongs) of 1s, or of 9s."""
    if "清幺九" not in _names(fans) or "七对" in _names(fans):
        return fans
    counts = Counter(all_tiles(case))
    pungs = Counter(tile[0] for tile, n in counts.items() if n >= 3)  # by rank: "1" or "9"
    doubles = sum(1 for n in pungs.values() if n == 2)  # three of a rank are a Triple Pung
    return [*fans, (*DOUBLE_PUNG, doubles)] if doubles else fans


def tile_hog_row(fans: list[Fan], case: Mapping[str, Any]) -> list[Fan]:
    """Tile Hog is for suit tiles only: none for four copies of an honour in Seven Pairs (the
    only hand where they are not a kong)."""
    if "七对" not in _names(fans):
        return fans
    honours = sum(
        1 for tile, n in Counter(all_tiles(case)).items() if n == 4 and not suit_and_rank(tile)
    )
    if not honours:
        return fans
    out: list[Fan] = []
    for en, zh, points, count in fans:
        if zh == "四归一":
            count -= honours
        if count:
            out.append((en, zh, points, count))
    return out


def nine_gates_row(fans: list[Fan], case: Mapping[str, Any]) -> list[Fan]:
    """Nine Gates does not combine with Pung of Terminals or Honors."""
    if "九莲宝灯" in _names(fans):
        return [fan for fan in fans if fan[1] != "幺九刻"]
    return fans


Row = Callable[[list[Fan], Mapping[str, Any]], list[Fan]]
GREEN_BOOK_ROWS: dict[str, tuple[Row, ...]] = {
    "wmo-2006": (
        fully_concealed_row,
        all_green_row,
        all_terminals_row,
        tile_hog_row,
        nine_gates_row,
    ),
    "cn-1998": (),
}


def map_to_profile(
    fans: Iterable[Fan], profile: str, case: Mapping[str, Any] | None = None
) -> list[Fan]:
    """The calculator's fans restated under a project profile.

    The kong rows need only the fans; the Green Book rows also read the hand (``case``).
    """
    points = PROFILE_POINTS[profile]
    mapped: list[Fan] = []
    for en, zh, value, count in fans:
        if zh in SPLIT_FANS:
            mapped.extend((e, z, p, count) for e, z, p in SPLIT_FANS[zh])
        else:
            mapped.append((en, zh, points.get(zh, value), count))
    rows = GREEN_BOOK_ROWS[profile]
    if rows and case is None:
        raise TypeError(f"mapping to {profile} needs the case")
    for row in rows:
        mapped = row(mapped, case)  # type: ignore[arg-type]
    return mapped


def result_from_fans(fans: list[Fan], profile: str) -> dict[str, Any]:
    total = sum(points * count for _, _, points, count in fans)
    flowers = sum(points * count for _, zh, points, count in fans if zh == FLOWER_ZH)
    excl = total - flowers
    return {
        "profile": profile,
        "error": None if excl >= MINIMUM_FAN else "BELOW_8_FAN",
        "total": total,
        "total_excl_flowers": excl,
        "fans": [list(f) for f in fans],
    }


def oracle_result(case: Mapping[str, Any], profile: str = "wmo-2006") -> dict[str, Any]:
    """The oracle's verdict in the shape of the corpus' ``expected`` field.

    Structural errors give ``{"profile", "error"}`` only, like the corpus.
    """
    try:
        fans = raw_fans(case)
    except OracleError as exc:
        return {"profile": profile, "error": exc.code}
    return result_from_fans(map_to_profile(fans, profile, case), profile)


def fan_multiset(fans: Iterable[Any]) -> list[tuple[str, int, int]]:
    """Fans as a sorted list of ``(zh, points, count)``; accepts corpus lists or engine dicts."""
    out = []
    for fan in fans:
        if isinstance(fan, Mapping):
            out.append((fan["zh"], fan["points"], fan["count"]))
        else:
            _, zh, points, count = fan
            out.append((zh, points, count))
    return sorted(out)


# ---- compact notation -> case format (an independent reading of ENGINE_CONTRACT.md) ----

_TOKEN = re.compile(r"\s*(?:(\d+)([mps])|([ESWNCFP])|([\[\]()]))")


def compact_to_case(text: str, **situation: Any) -> dict[str, Any]:
    """A case dict from the compact notation, e.g. ``"2345p 78s EE [PPP] [789m] 6s"``.

    Declared chows are claimed on their lowest tile and declared pungs/kongs come from the left;
    neither changes the score.  Raises ``ValueError`` on malformed text.
    """
    standing: list[str] = []
    melds: list[dict[str, Any]] = []
    group: list[str] | None = None
    closer = ""
    pos = 0
    text = text.strip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match:
            raise ValueError(f"cannot read {text[pos:]!r}")
        pos = match.end()
        digits, suit, honour, bracket = match.groups()
        if bracket in ("[", "("):
            if group is not None:
                raise ValueError("nested brackets")
            group, closer = [], "]" if bracket == "[" else ")"
            continue
        if bracket:
            if group is None or bracket != closer:
                raise ValueError(f"unmatched {bracket!r}")
            melds.append(_meld(group, concealed=closer == ")"))
            group = None
            continue
        tiles = [f"{d}{suit}" for d in digits] if digits else [honour]
        (standing if group is None else group).extend(tiles)
    if group is not None:
        raise ValueError("unclosed bracket")
    if not standing:
        raise ValueError("no winning tile")
    case: dict[str, Any] = {
        "concealed": standing[:-1],
        "melds": melds,
        "win_tile": standing[-1],
        "self_drawn": False,
        "seat_wind": "E",
        "prevalent_wind": "E",
        "flowers": 0,
        "last_tile_of_kind": False,
        "kong_related": False,
        "last_wall_tile": False,
    }
    unknown = set(situation) - set(case)
    if unknown:
        raise TypeError(f"unknown situation keys {sorted(unknown)}")
    case.update(situation)
    return case


def _meld(tiles: list[str], *, concealed: bool) -> dict[str, Any]:
    if concealed:
        return {"type": "kong", "tiles": tiles, "concealed": True}
    if len(tiles) == 3 and len(set(tiles)) == 3:
        return {"type": "chow", "tiles": tiles, "concealed": False, "claimed": tiles[0]}
    kind = "kong" if len(tiles) == 4 else "pung"
    return {"type": kind, "tiles": tiles, "concealed": False, "from": "left"}


# ---- comparing verdicts ----

SCORED = (None, "BELOW_8_FAN")


def mismatches(expected: Mapping[str, Any], got: Mapping[str, Any]) -> list[str]:
    """What differs between two verdicts in the corpus' shape (engine dicts are accepted too).

    Compared: the error code; for a scored hand (no error or ``BELOW_8_FAN``) also both totals
    and the multiset of fans by Chinese name, points and count.
    """
    problems = []
    if expected["error"] != got["error"]:
        problems.append(f"error: expected {expected['error']}, got {got['error']}")
    if expected["error"] in SCORED and got["error"] in SCORED:
        for key in ("total", "total_excl_flowers"):
            if expected[key] != got[key]:
                problems.append(f"{key}: expected {expected[key]}, got {got[key]}")
        want, have = Counter(fan_multiset(expected["fans"])), Counter(fan_multiset(got["fans"]))
        if want != have:
            problems.append(
                f"fans: missing {sorted((want - have).elements())}, "
                f"unexpected {sorted((have - want).elements())}"
            )
    return problems


# ---- the shared case corpus, or the sample of it committed beside the tests ----

#: A few hundred cases of the corpus, chosen by ``tests/data/select_sample.py``.
SAMPLE_FILE = Path(__file__).resolve().parents[1] / "data" / "mcr-cases-sample.jsonl"


def shared_dir() -> Path:
    """``../shared`` next to the repository, or ``$MCR_SHARED_DIR``."""
    override = os.environ.get("MCR_SHARED_DIR")
    return Path(override) if override else Path(__file__).resolve().parents[2].parent / "shared"


def corpus_file() -> Path:
    return shared_dir() / "data" / "mcr-cases.jsonl"


def changes_file() -> Path:
    """The corpus cases whose wmo-2006 answer the Green Book rows of RULINGS.md changed."""
    return shared_dir() / "data" / "mcr-cases-greenbook-changes.jsonl"


def read_cases(path: Path) -> list[dict[str, Any]]:
    """The cases of one file as they are; an empty list when it is absent."""
    if not path.is_file():
        return []
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def with_green_book_changes(
    cases: list[dict[str, Any]], changes: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The corpus with each changed case replaced by its line of the changes file (the whole
    case, with the new ``expected`` and the old one under ``expected_before``)."""
    by_id = {case["id"]: case for case in changes}
    return [by_id.get(case["id"], case) for case in cases]


def load_cases(path: Path | None = None) -> list[dict[str, Any]]:
    """Every case of the corpus with the Green Book changes applied (or the cases of the file
    ``path`` as they are); an empty list when it is absent."""
    if path is not None:
        return read_cases(path)
    cases = read_cases(corpus_file())
    if cases and not changes_file().is_file():
        raise FileNotFoundError(f"{changes_file()} is missing beside {corpus_file()}")
    return with_green_book_changes(cases, read_cases(changes_file()))


def corpus_or_sample() -> tuple[Path, list[dict[str, Any]]]:
    """The full corpus when it is there, else the committed sample: the file and its cases."""
    cases = load_cases()
    if cases:
        return corpus_file(), cases
    return SAMPLE_FILE, load_cases(SAMPLE_FILE)


def cn1998_expected(case: Mapping[str, Any]) -> dict[str, Any]:
    """A corpus case's expectation restated for the cn-1998 profile.

    It is the expectation from before the Green Book rows (``expected_before`` where the changes
    file gave a new one) with Two Concealed Kongs at 6 instead of 8, which can move a hand
    below 8.
    """
    expected = case.get("expected_before", case["expected"])
    if expected["error"] not in SCORED:
        return {"profile": "cn-1998", "error": expected["error"]}
    points = PROFILE_POINTS["cn-1998"]
    fans = [(en, zh, points.get(zh, p), n) for en, zh, p, n in expected["fans"]]
    return result_from_fans(fans, "cn-1998")
