"""A venue under load: referees entering hands through the API while the players' browsers poll
the live pages, on the production set-up.

    .venv/bin/python benchmarks/venue_load.py [--players 400] [--referees 100]
        [--viewers 400 2000] [--seconds 60] [--warmup 30] [--workers 4] [--port 8820]

It starts gunicorn (`_server.py`: `--workers` sync workers, DEBUG off, PostgreSQL, persistent
connections) on 127.0.0.1 over the benchmark database (bench_database.py), and runs one phase
with no viewers, then one for each number of `--viewers`. Each phase seeds the tournament of
tournament_scale.py afresh (`--players` players, rounds 1-2 finished, round 3 in play, nothing
entered) and gives each of `--referees` referees an API token and an equal share of round 3's
tables. Then, for a bounded time, all in one asyncio loop with its own small HTTP/1.1 client:

- every referee enters complete MCR games at its tables, one POST per hand (16 a table, each
  with its own Idempotency-Key, sent again with the same key after a lost answer), as fast as
  the server answers;
- every viewer (player p of the field, p = 1, 2, ...) polls the public standings fragment every
  30 s and its round-3 table's fragment every 20 s, as static/tournament/live.js does (htmx's
  HX-Request header, If-None-Match with the ETag of its last answer), starting at a random
  moment of each period; a poll still waiting when the next is due skips that one, as htmx
  does. The viewers poll for `--warmup` seconds before the referees start, so that they hold
  ETags as browsers that have been open a while do.

The referees stop after `--seconds` (or when their games are complete), the viewers with them.
It prints, for each phase, hands per second over that window, the ratio to the phase without
viewers, each endpoint's answers by status and their 50th/95th/99th percentile times, the
errors, and checks straight from the database: every hand the API acknowledged is there once
(none lost, none doubled, numbered 1..n at each table) and nothing else; every hand's payments
add up to zero; every seat's score is its hands' points plus its penalties; one audit record per
hand. Traffic goes to 127.0.0.1 only; every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from _server import HOST, start_server, stop_server  # noqa: E402
from bench_database import database_url, ensure_database, setup_django  # noqa: E402

ROUND = 3
HANDS = 16  # an MCR game
STANDINGS_EVERY = 30  # seconds, tournament.web.public.LIVE_SECONDS
TABLE_EVERY = 20
TIMEOUT = 60.0  # seconds a request may take before it counts as lost


# --- A small HTTP/1.1 client: one connection per request, as gunicorn's sync workers close it --


@dataclass
class Answer:
    status: int  # 0: no answer (refused, reset, timed out)
    headers: dict[str, str]
    body: bytes
    seconds: float
    error: str = ""


async def _exchange(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        writer.write(request)
        await writer.drain()
        return await reader.read()  # to the end: the server closes the connection
    finally:
        writer.close()


async def fetch(
    port: int,
    method: str,
    path: str,
    headers: dict[str, str],
    body: bytes = b"",
    timeout: float = TIMEOUT,
) -> Answer:
    lines = [
        f"{method} {path} HTTP/1.1",
        f"Host: {HOST}:{port}",
        "Connection: close",
        f"Content-Length: {len(body)}",
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
    start = time.perf_counter()
    try:
        raw = await asyncio.wait_for(_exchange(port, request), timeout)
    except (OSError, TimeoutError) as error:
        return Answer(0, {}, b"", time.perf_counter() - start, type(error).__name__)
    seconds = time.perf_counter() - start
    head, _, content = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split(" ", 2)[1])
    except (IndexError, ValueError):
        return Answer(0, {}, b"", seconds, "no status line")
    answer_headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        answer_headers[name.strip().lower()] = value.strip()
    return Answer(status, answer_headers, content, seconds)


# --- What happened ------------------------------------------------------------------------------


@dataclass
class Stats:
    """Answer times by endpoint, statuses, errors; hands acknowledged by table."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, dict[int, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    errors: list[str] = field(default_factory=list)
    acknowledged: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    unknown: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    hand_times: list[float] = field(default_factory=list)
    replays: int = 0

    def note(self, endpoint: str, answer: Answer, expected: tuple[int, ...]) -> None:
        self.times[endpoint].append(answer.seconds)
        self.statuses[endpoint][answer.status] += 1
        if answer.status not in expected:
            detail = answer.error or answer.body[:200].decode("utf-8", "replace")
            self.errors.append(f"{endpoint}: {answer.status} {detail}")


@dataclass(frozen=True)
class Seating:
    number: int
    keys: tuple[str, str, str, str]  # the players at E, S, W, N


def hand_body(table: Seating, number: int) -> dict:
    """Hand `number` at `table`: a mix of discards, self-draws and draws (fan 8 to 24)."""
    if number % 7 == 0:
        return {"number": number, "result": "draw"}
    winner = (number + table.number) % 4
    discarder = None if number % 3 == 0 else (winner + 1 + number % 3) % 4
    return {
        "number": number,
        "result": "win",
        "winner": table.keys[winner],
        "discarder": None if discarder is None else table.keys[discarder],
        "fan": 8 + (number * 5 + table.number) % 17,
    }


async def referee(
    port: int, slug: str, token: str, tables: list[Seating], start: float, stop: float, stats: Stats
) -> None:
    """Enter every hand of `tables` in order until `stop`; a hand whose answer was lost is sent
    again with its key (twice at most)."""
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    for table in tables:
        path = f"/api/tournaments/{slug}/rounds/{ROUND}/tables/{table.number}/hands"
        for number in range(1, HANDS + 1):
            if time.monotonic() >= stop:
                return
            body = json.dumps(hand_body(table, number)).encode()
            sent = {**headers, "Idempotency-Key": str(uuid.uuid4())}
            for _attempt in range(3):
                # Waiting past the end of the phase (and a little more) tells nothing more.
                wait = min(TIMEOUT, stop + 5 - time.monotonic())
                answer = await fetch(port, "POST", path, sent, body, timeout=max(1.0, wait))
                stats.note("hand POST", answer, (200, 201))
                if answer.status or time.monotonic() >= stop:
                    break
            if answer.status in (200, 201):
                stats.acknowledged[table.number] += 1
                stats.replays += answer.headers.get("idempotent-replayed") == "true"
                stats.hand_times.append(time.monotonic() - start)
            else:
                if answer.status == 0:
                    stats.unknown[table.number] += 1
                break  # the following hands would be out of order: next table


async def viewer(
    port: int, paths: dict[str, tuple[str, int]], begin: float, start: float, stop: float,
    stats: Stats, rng: random.Random,
) -> None:  # fmt: skip
    """Poll each of `paths` (endpoint: (path, period)) from a random moment of its period until
    `stop`, with the ETag of its last answer; polls before `start` are not counted."""

    async def poll(endpoint: str, path: str, every: int) -> None:
        etag = None
        due = begin + rng.uniform(0, every)
        while True:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            if time.monotonic() >= stop:
                return
            headers = {"HX-Request": "true", "Accept-Encoding": "gzip"}
            if etag:
                headers["If-None-Match"] = etag
            asked = time.monotonic()
            wait = max(1.0, min(TIMEOUT, stop + 5 - asked))
            answer = await fetch(port, "GET", path, headers, timeout=wait)
            if asked >= start:
                stats.note(endpoint, answer, (200, 304))
            if answer.status == 200:
                etag = answer.headers.get("etag")
            due += every
            now = time.monotonic()
            if due < now:  # still waiting when the next poll was due: that one is skipped
                due += every * ((now - due) // every + 1)

    await asyncio.gather(*(poll(endpoint, *where) for endpoint, where in paths.items()))


# --- The venue ----------------------------------------------------------------------------------


def seed(players: int, referees: int) -> tuple[str, list[tuple[str, list[Seating]]]]:
    """The tournament, and for each referee an API token and its tables of round 3."""
    from django.contrib.auth import get_user_model
    from django.db import connections
    from tournament_scale import build

    from tournament.models import ApiToken, Table
    from tournament.tokens import issue_token

    tournament, _organiser = build(players)
    tables = list(
        Table.objects.filter(round__tournament=tournament, round__number=ROUND)
        .order_by("number")
        .prefetch_related("seats__player")
    )
    users = [
        get_user_model().objects.get_or_create(username=f"bench-referee-{n}")[0]
        for n in range(1, referees + 1)
    ]
    ApiToken.objects.filter(user__in=users).delete()
    shares: list[tuple[str, list[Seating]]] = []
    for index, user in enumerate(users):
        mine = tables[index::referees]
        for table in mine:
            table.referees.add(user)
        _token, secret = issue_token(user=user, name="venue load")
        shares.append(
            (
                secret,
                [
                    Seating(
                        table.number,
                        tuple(seat.player.key for seat in sorted(table.seats.all(), key=_index)),  # type: ignore[arg-type]
                    )
                    for table in mine
                ],
            )
        )
    connections.close_all()
    return tournament.slug, shares


def _index(seat) -> int:
    return seat.index


def viewer_paths(slug: str, viewers: int) -> list[dict[str, tuple[str, int]]]:
    """What viewer p (player p's browser) polls: the standings and player p's table."""
    from tournament.models import Seat

    table_of = dict(
        Seat.objects.filter(round__tournament__slug=slug, round__number=ROUND).values_list(
            "player__key", "table__number"
        )
    )
    keys = sorted(table_of, key=int)
    return [
        {
            "standings poll": (f"/t/{slug}/standings/", STANDINGS_EVERY),
            "table poll": (
                f"/t/{slug}/rounds/{ROUND}/tables/{table_of[keys[p % len(keys)]]}/",
                TABLE_EVERY,
            ),
        }
        for p in range(viewers)
    ]


def integrity(slug: str, stats: Stats) -> list[str]:
    """What is wrong in the database after a phase (nothing: an empty list)."""
    from django.db.models import F

    from tournament.models import AuditEntry, Hand, Penalty, Seat

    problems = []
    hands = list(
        Hand.objects.filter(table__round__tournament__slug=slug, table__round__number=ROUND)
        .select_related("table")
        .order_by("table__number", "number")
    )
    by_table: dict[int, list[Hand]] = defaultdict(list)
    for hand in hands:
        by_table[hand.table.number].append(hand)
    for number in sorted(set(by_table) | set(stats.acknowledged)):
        stored = [hand.number for hand in by_table.get(number, [])]
        acknowledged = stats.acknowledged.get(number, 0)
        if stored != list(range(1, len(stored) + 1)):
            problems.append(f"table {number}: hands numbered {stored}")
        allowed = range(acknowledged, acknowledged + stats.unknown.get(number, 0) + 1)
        if len(stored) not in allowed:
            problems.append(
                f"table {number}: {len(stored)} hands stored, {acknowledged} acknowledged"
            )
    unbalanced = (
        Hand.objects.filter(table__round__tournament__slug=slug)
        .exclude(east_points=-(F("south_points") + F("west_points") + F("north_points")))
        .count()
    )
    if unbalanced:
        problems.append(f"{unbalanced} hands whose payments do not add up to zero")
    seats = Seat.objects.filter(round__tournament__slug=slug, round__number=ROUND).select_related(
        "table"
    )
    points: dict[tuple[int, int], int] = defaultdict(int)
    for hand in hands:
        for index, paid in enumerate(hand.payments):
            points[hand.table.number, index] += paid
    penalties = Penalty.objects.filter(
        table__round__tournament__slug=slug, table__round__number=ROUND
    ).select_related("table")
    by_seat = {(seat.table.number, seat.index): seat for seat in seats}
    offender_index = {seat.pk: seat.index for seat in seats}
    for penalty in penalties:
        for index, paid in enumerate(penalty.payments(offender_index[penalty.seat_id])):
            points[penalty.table.number, index] += paid
    wrong = [
        f"table {table} seat {index}: score {seat.score}, hands and penalties "
        f"{points[table, index]}"
        for (table, index), seat in by_seat.items()
        if seat.score != points[table, index]
    ]
    problems += wrong[:10] + ([f"... {len(wrong) - 10} more seats"] if len(wrong) > 10 else [])
    audited = AuditEntry.objects.filter(
        table__round__tournament__slug=slug,
        table__round__number=ROUND,
        action=AuditEntry.Action.HAND_RECORDED,
    ).count()
    if audited != len(hands):
        problems.append(f"{audited} audit records of recorded hands for {len(hands)} hands")
    return problems


@dataclass
class Phase:
    viewers: int
    hands: int
    seconds: float
    stats: Stats
    problems: list[str]

    @property
    def rate(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


async def run_phase(
    port: int, slug: str, shares, paths, seconds: float, warmup: float, seed_value: int
) -> tuple[Stats, float, float]:
    stats = Stats()
    rng = random.Random(seed_value)
    begin = time.monotonic()
    start = begin + (warmup if paths else 0.0)
    stop = start + seconds
    viewers = [
        asyncio.create_task(viewer(port, where, begin, start, stop, stats, rng)) for where in paths
    ]
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    await asyncio.gather(
        *(referee(port, slug, token, tables, start, stop, stats) for token, tables in shares)
    )
    ended = min(time.monotonic(), stop)
    await asyncio.gather(*viewers)
    return stats, start, ended


def percentile_line(name: str, times: list[float], statuses: dict[int, int]) -> str:
    counted = ", ".join(
        f"{status or 'none'}: {count}" for status, count in sorted(statuses.items())
    )
    if len(times) >= 2:
        cuts = statistics.quantiles(times, n=100, method="inclusive")
        p50, p95, p99 = (cuts[i] * 1000 for i in (49, 94, 98))
    else:
        p50 = p95 = p99 = (times[0] * 1000) if times else 0.0
    return (
        f"  {name:15} {len(times):7} answers  p50 {p50:8.1f} ms  p95 {p95:8.1f} ms  "
        f"p99 {p99:8.1f} ms  ({counted})"
    )


def report(phase: Phase, baseline: Phase | None) -> None:
    ratio = f", {phase.rate / baseline.rate:.2f} of no viewers" if baseline else ""
    print(f"viewers {phase.viewers}: {phase.hands} hands in {phase.seconds:.1f} s = "
          f"{phase.rate:.2f} hands/s{ratio}")  # fmt: skip
    for name in sorted(phase.stats.times):
        print(percentile_line(name, phase.stats.times[name], phase.stats.statuses[name]))
    print(f"  errors: {len(phase.stats.errors)}; answers replayed: {phase.stats.replays}")
    for error in phase.stats.errors[:5]:
        print(f"    {error}")
    if phase.problems:
        print("  INTEGRITY: " + "; ".join(phase.problems))
    else:
        print("  integrity: every acknowledged hand stored once, payments zero-sum, "
              "seat scores = hands + penalties, one audit record per hand")  # fmt: skip
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--referees", type=int, default=100)
    parser.add_argument("--viewers", type=int, nargs="*", default=[400, 2000])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument(
        "--threads", type=int, default=1, help="gthread workers of this many threads (1: sync)"
    )
    parser.add_argument("--port", type=int, default=8820)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    most = max([0, *args.viewers])
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(4096, 4 * most + 1024)), hard))

    url = database_url()
    ensure_database(url)
    setup_django(url)
    log = Path(tempfile.gettempdir()) / f"venue_load_{args.port}.log"
    print(
        f"gunicorn: {args.workers} workers × {args.threads} threads on {HOST}:{args.port},"
        f" DEBUG off (log {log}); "
        f"{args.players} players, {args.referees} referees, {args.seconds:.0f} s a phase"
    )
    phases: list[Phase] = []
    from django.db import connections

    for viewers in [0, *args.viewers]:
        slug, shares = seed(args.players, args.referees)
        paths = viewer_paths(slug, viewers)
        connections.close_all()
        # A server of its own for each phase: what an overloaded phase left queued is dropped
        # with it, and the database is checked with no request running.
        server = start_server(
            port=args.port, database_url=url, workers=args.workers, threads=args.threads, log=log
        )
        try:
            stats, start, ended = asyncio.run(
                run_phase(args.port, slug, shares, paths, args.seconds, args.warmup, args.seed)
            )
        finally:
            stop_server(server)
        hands = sum(1 for moment in stats.hand_times if moment <= ended - start)
        phase = Phase(viewers, hands, ended - start, stats, integrity(slug, stats))
        phases.append(phase)
        report(phase, phases[0] if viewers else None)
    baseline = phases[0]
    print()
    rates = [
        f"{p.viewers} viewers {p.rate:.2f}"
        + (f" ({p.rate / baseline.rate:.2f})" if p.viewers else "")
        for p in phases
    ]
    print("summary: hands/s " + ", ".join(rates))
    goals = {400: 0.95, 2000: 0.8}
    for phase in phases[1:]:
        goal = goals.get(phase.viewers)
        if goal is not None:
            met = "met" if phase.rate >= goal * baseline.rate else "NOT met"
            print(f"goal {phase.viewers} viewers >= {goal} of no viewers: {met}")
    if any(phase.problems for phase in phases):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
