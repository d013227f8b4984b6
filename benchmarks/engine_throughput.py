"""Throughput of the scoring engine against PyMahjongGB on the shared case corpus, and of the
Japanese Transitional and Wilmington Advanced 12-Tile engines beside it.

    .venv/bin/python benchmarks/engine_throughput.py [--repeat 5] [--profile wmo-2006]
        [--wa-hands 3000]

Both sides score the same hands: every corpus case with a valid shape (no error, or
BELOW_8_FAN).  Parsing is done before timing for both: engine ``Deal`` objects via
``parse_case`` and PyMahjongGB argument tuples via ``tests/engine/oracle.py``.  One process,
pinned to one core where the OS allows it.  Prints plain text: hands per second for each, the
ratio engine / PyMahjongGB against the target, and peak memory.

The JT engine scores the same tiles read as JT wins (`jt_case`: the MCR flags mapped to JT's;
shapes JT does not have, such as knitted hands, are left out), parsed before timing too, in the
same run; its rate is compared with the MCR engine's (target: at least half).

The engine may memoise per-suit decompositions, so its first pass over the corpus (cold) is
reported apart from the best of the repeated passes (warm).

WA: the winners' hands of the worked examples (`wa-cases.jsonl`) and `--wa-hands` random
winning hands (four sets and a pair, one standing tile turned into the joker, some sets
declared; a fixed seed, so every run scores the same hands), parsed before timing. Printed
beside MCR's warm rate, with the ratio WA / MCR against its target (a quarter).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import resource
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from MahjongGB import MahjongFanCalculator  # noqa: E402

import scoring.engine as engine  # noqa: E402
from scoring.engine import jt  # noqa: E402
from scoring.engine.wa import WaHand, parse_wa_case, score_wa_hand  # noqa: E402
from tests.engine.oracle import corpus_file, load_cases, to_gb_args  # noqa: E402
from tests.engine.wa.helpers import load_cases as wa_load_cases  # noqa: E402

TARGET_RATIO = 0.10
JT_TARGET_RATIO = 0.5
WA_TARGET_RATIO = 0.25
SCORED = (None, "BELOW_8_FAN")
WA_SEED = 16
SUITED = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)]
TILES = SUITED + list("ESWNCFP")


def pin_to_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def clear_engine_caches() -> int:
    """Empty every functools cache in the engine's modules, so a pass starts cold."""
    cleared = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("scoring.engine"):
            continue
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
                cleared += 1
    return cleared


def jt_case(case: dict) -> dict:
    """An MCR corpus case read as a JT win: the same tiles, winds and self-drawn flag; the kong
    flag is a supplement tile (self-drawn) or robbing a kong (a discard), the last-tile flag the
    last wall tile or the last discard."""
    drawn = case.get("self_drawn", False)
    kong, last = case.get("kong_related", False), case.get("last_wall_tile", False)
    return {
        **case,
        "supplement_tile": kong and drawn,
        "robbing_kong": kong and not drawn,
        "last_wall_tile": last and drawn,
        "last_discard": last and not drawn,
    }


def jt_hands(cases: list[dict]) -> list[jt.JtHand]:
    """The corpus hands JT scores as wins."""
    hands = []
    for case in cases:
        try:
            hand = jt.parse_jt_case(jt_case(case))
        except engine.HandError:
            continue
        if jt.score_jt_hand(hand).error is None:
            hands.append(hand)
    return hands


def random_wa_case(rng: random.Random) -> dict:
    """A random WA winning hand in the case format (at most four real copies of a tile)."""

    def unit(size: int) -> list[str]:
        if size == 2:
            return [rng.choice(TILES)] * 2
        if rng.random() < 0.5:
            suit, start = rng.choice("mps"), rng.randint(1, 7)
            return [f"{start + step}{suit}" for step in range(3)]
        return [rng.choice(TILES)] * 3

    while True:
        sets, pair = [unit(3) for _ in range(4)], unit(2)
        n_declared = rng.choice((0, 0, 1, 2))
        standing = [tile for u in [*sets[n_declared:], pair] for tile in u]
        joker = standing.pop(rng.randrange(len(standing)))
        copies = Counter(tile for u in [*sets, pair] for tile in u)
        copies[joker] -= 1
        if max(copies.values()) <= 4:
            break
    win = standing.pop(rng.randrange(len(standing)))
    standing.append("J")
    rng.shuffle(standing)
    melds = [
        {"type": "pung" if len(set(u)) == 1 else "chow", "tiles": u, "concealed": False}
        for u in sets[:n_declared]
    ]
    return {
        "concealed": standing,
        "melds": melds,
        "win_tile": win,
        "self_drawn": rng.random() < 0.5,
        "seat_wind": rng.choice("ESWN"),
        "prevalent_wind": rng.choice("ESWN"),
    }


def wa_hands(n: int) -> list[WaHand]:
    """The worked examples' winning hands (those with tiles), then `n` random ones."""
    raws: list[dict] = []
    for case in wa_load_cases():
        if case.get("kind") == "win":
            raws += [case, *case.get("extra_winners", [])]
    rng = random.Random(WA_SEED)
    raws += [random_wa_case(rng) for _ in range(n)]
    return [parse_wa_case(raw, prevailing_wind="E") for raw in raws]


def timed_pass(run: Callable[[], None]) -> float:
    gc.collect()
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="warm passes (best of)")
    parser.add_argument("--profile", default=engine.DEFAULT_PROFILE)
    parser.add_argument("--wa-hands", type=int, default=3000, help="random WA hands")
    args = parser.parse_args()

    cases = [c for c in load_cases() if c["expected"]["error"] in SCORED]
    if not cases:
        sys.exit(f"no corpus at {corpus_file()} (set MCR_SHARED_DIR)")
    pinned = pin_to_one_core()
    hands = [engine.parse_case(c) for c in cases]
    gb_calls = [to_gb_args(c) for c in cases]
    profile = args.profile

    def run_engine() -> None:
        for hand in hands:
            engine.score_hand(hand, profile=profile)

    jt_wins = jt_hands(cases)

    def run_jt() -> None:
        for hand in jt_wins:
            jt.score_jt_hand(hand)

    wa = wa_hands(args.wa_hands)

    def run_wa() -> None:
        for hand in wa:
            score_wa_hand(hand)

    def run_gb() -> None:
        for call in gb_calls:
            MahjongFanCalculator(*call, verbose=True)

    # memory first, on a cold engine: tracemalloc slows the run, so it is never timed
    clear_engine_caches()
    tracemalloc.start()
    run_engine()
    _, engine_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    cleared = clear_engine_caches()
    engine_cold = timed_pass(run_engine)
    engine_warm = min(timed_pass(run_engine) for _ in range(args.repeat))
    clear_engine_caches()
    jt_cold = timed_pass(run_jt)
    jt_warm = min(timed_pass(run_jt) for _ in range(args.repeat))
    wa_cold = timed_pass(run_wa)
    wa_warm = min(timed_pass(run_wa) for _ in range(args.repeat))
    gb_first = timed_pass(run_gb)
    gb_best = min(timed_pass(run_gb) for _ in range(args.repeat))
    maxrss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux

    n = len(hands)
    engine_rate, gb_rate = n / engine_warm, n / gb_best
    ratio = engine_rate / gb_rate
    print(f"corpus: {corpus_file()}")
    print(f"hands: {n} valid shapes of {len(load_cases())} cases; profile {profile}")
    print(f"process: Python {sys.version.split()[0]}, {pinned}, best of {args.repeat} warm passes")
    print(f"engine caches cleared before the cold pass: {cleared}")
    print()
    print(f"engine      cold first pass  {n / engine_cold:10.0f} hands/s  ({engine_cold:.3f} s)")
    print(f"engine      warm best pass   {engine_rate:10.0f} hands/s  ({engine_warm:.3f} s)")
    print(f"PyMahjongGB first pass       {n / gb_first:10.0f} hands/s  ({gb_first:.3f} s)")
    print(f"PyMahjongGB best pass        {gb_rate:10.0f} hands/s  ({gb_best:.3f} s)")
    print()
    verdict = "meets" if ratio >= TARGET_RATIO else "below"
    print(f"ratio engine/PyMahjongGB (warm): {ratio:.3f}  target >= {TARGET_RATIO:.2f}: {verdict}")
    print(f"ratio engine/PyMahjongGB (cold): {(n / engine_cold) / gb_rate:.3f}")
    print()
    n_jt = len(jt_wins)
    jt_rate = n_jt / jt_warm
    jt_ratio = jt_rate / engine_rate
    print(f"JT engine: {n_jt} of the {n} hands are JT wins (the others are shapes JT lacks)")
    print(f"JT engine   cold first pass  {n_jt / jt_cold:10.0f} hands/s  ({jt_cold:.3f} s)")
    print(f"JT engine   warm best pass   {jt_rate:10.0f} hands/s  ({jt_warm:.3f} s)")
    verdict = "meets" if jt_ratio >= JT_TARGET_RATIO else "below"
    print(f"ratio JT/MCR engine (warm): {jt_ratio:.3f}  target >= {JT_TARGET_RATIO:.2f}: {verdict}")
    wa_rate = len(wa) / wa_warm
    wa_ratio = wa_rate / engine_rate
    print(f"WA hands: {len(wa)} (worked examples and random hands, seed {WA_SEED})")
    print(f"WA engine   cold first pass  {len(wa) / wa_cold:10.0f} hands/s  ({wa_cold:.3f} s)")
    print(f"WA engine   warm best pass   {wa_rate:10.0f} hands/s  ({wa_warm:.3f} s)")
    wa_verdict = "meets" if wa_ratio >= WA_TARGET_RATIO else "below"
    print(
        f"ratio WA/MCR engine (warm): {wa_ratio:.3f}  target >= {WA_TARGET_RATIO:.2f}: {wa_verdict}"
    )
    print()
    print(f"tracemalloc peak during a cold engine pass: {engine_peak / 1024 / 1024:.1f} MiB")
    print(f"process peak RSS (ru_maxrss): {maxrss_kib / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
