"""A venue under load: referees entering hands through the API while the players' browsers poll
the live pages, on the production set-up.

    .venv/bin/python benchmarks/venue_load.py [--players 400] [--referees 100]
        [--viewers 400 2000] [--seconds 60] [--warmup 50] [--workers 4] [--port 8820]
        [--repeat K] [--blind] [--storm S]

It starts gunicorn (`_server.py`: `--workers` sync workers, DEBUG off, PostgreSQL, persistent
connections) on 127.0.0.1 over the benchmark database (bench_database.py), and runs one phase
with no viewers, then one for each number of `--viewers`. Each phase seeds the tournament of
tournament_scale.py afresh (`--players` players, rounds 1-2 finished, round 3 in play, nothing
entered) and gives each of `--referees` referees an API token and an equal share of round 3's
tables. Then, for a bounded time, all in one asyncio loop (aiohttp for the referees, a small
client of its own for the viewers' polls, `LeanPhone`):

- every referee enters complete MCR games at its tables, one POST per hand (16 a table, each
  with its own Idempotency-Key, sent again with the same key after a lost answer), as fast as
  the server answers (with `--pace P`, a referee's hands P seconds apart, the first at a
  random moment of the first P seconds: a venue's pace, to read the referees' waits);
- every viewer (player p of the field, p = 1, 2, ...) polls the public standings fragment every
  30 s and its round-3 table's fragment every 20 s, as static/tournament/live.js does (htmx's
  HX-Request header, If-None-Match with the ETag of its last answer), starting at a random
  moment of each period; a poll still waiting when the next is due skips that one, as htmx
  does. The viewers poll for `--warmup` seconds before the referees start, so that they hold
  ETags as browsers that have been open a while do. Every phase, the one without viewers too,
  waits those `--warmup` seconds after each referee has read its tables through the API once,
  so that every phase starts with its workers equally warm. Each live address is also opened
  once more at a random moment of the last seconds an update may be kept before the window
  (`run_phase`), so that what nginx keeps is of every age as the window opens.

With `--blind` the viewers send no conditional header at all (a client that keeps nothing: every
poll asks as a first one). With `--storm S`, S seconds into the window every viewer opens its
pages whole at the same moment (a round is seated and the projector says "check your table"):
those answers are counted as "storm page".

The server reads LIVE_STALE_SECONDS and LIVE_BUSY_SECONDS from the environment
(config/settings.py; the first line printed gives them): LIVE_STALE_SECONDS=0 with
LIVE_BUSY_SECONDS=0 draws a public fragment again after every change. With referees as fast as
answered the processors are soon all taken (tournament.web.live.busy), and LIVE_BUSY_SECONDS
is the window then.

With `--repeat K` the phases run K times over (the rate without viewers moves by a third from
one run to the next on a shared machine): each ratio is against its own run's rate without
viewers, and the goals are judged on the median ratio.

The referees stop after `--seconds` (or when their games are complete), the viewers with them.
The window the rate is measured over closes after `--seconds` or as soon as three quarters of
the hands are acknowledged, whichever comes first: the server does not serve the referees
evenly, and until 2026-11-28 a phase's rate was over the time the last game took to end, which
measured the stragglers' luck as much as the server. It prints, for each phase, hands per
second over that window (and how many referees still had hands to enter as it closed), the
ratio to the phase without
viewers, each endpoint's answers by status and their 50th/95th/99th percentile times, the
errors, and checks straight from the database: every hand the API acknowledged is there once
(none lost, none doubled, numbered 1..n at each table) and nothing else; every hand's payments
add up to zero; every seat's score is its hands' points plus its penalties; one audit record per
hand. Traffic goes to 127.0.0.1 only; every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import math
import os
import random
import re
import resource
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from _server import (  # noqa: E402
    HOST,
    machine_cpu,
    process_cpu,
    start_serve,
    start_server,
    stop_server,
)
from bench_database import database_url, ensure_database, setup_django  # noqa: E402

ROUND = 3
HANDS = 16  # an MCR game
WINDOW_SHARE = 0.75  # the window closes once this share of the hands is acknowledged
VIEWER_ENDPOINTS = ("standings poll", "table poll")
STANDINGS_EVERY = 30  # seconds, tournament.web.public.LIVE_SECONDS
TABLE_EVERY = 20


# --- The clients: aiohttp for the referees, LeanPhone for the viewers' polls --------------------

KEEPALIVE = 25.0  # seconds an idle connection is kept: under nginx's keepalive_timeout (30 s)
GRACE = 5.0  # seconds a referee's request in flight at the end of a phase may still take
RETRY_PAUSE = 1.0  # seconds a referee waits before sending a hand again after a lost answer
# X-Live-Cache of an answer nginx gave from what it keeps: HIT, or UPDATING while one request
# fills again what ran out (hosting.live_cache: proxy_cache_use_stale updating).
FROM_NGINX = ("HIT", "UPDATING")


@dataclass
class Answer:
    status: int  # 0: no answer (refused, reset, timed out)
    etag: str
    replayed: bool
    body: bytes  # the start of an error's body
    seconds: float
    error: str = ""  # "timeout", or the connection error's name
    from_nginx: bool = False  # answered from what nginx keeps (X-Live-Cache: FROM_NGINX)


Send = Callable[[str, str, dict[str, str], bytes, float], Awaitable[Answer]]


def session_for_phone(port: int):
    """What one phone's browser holds: up to 6 kept-alive connections to the site. The body is
    read but not unzipped (that costs the phone, not the server)."""
    import aiohttp

    connector = aiohttp.TCPConnector(limit=6, keepalive_timeout=KEEPALIVE, ssl=False)
    session = aiohttp.ClientSession(
        base_url=f"http://{HOST}:{port}", connector=connector, auto_decompress=False
    )

    async def send(
        method: str, path: str, headers: dict[str, str], body: bytes, timeout: float
    ) -> Answer:
        began = time.perf_counter()
        try:
            async with session.request(
                method,
                path,
                headers=headers,
                data=body or None,
                timeout=aiohttp.ClientTimeout(total=timeout),
            ) as response:
                content = await response.read()
                return Answer(
                    response.status,
                    response.headers.get("ETag", ""),
                    response.headers.get("Idempotent-Replayed") == "true",
                    content[:200] if response.status >= 400 else b"",
                    time.perf_counter() - began,
                    from_nginx=response.headers.get("X-Live-Cache") in FROM_NGINX,
                )
        except TimeoutError:
            return Answer(0, "", False, b"", time.perf_counter() - began, "timeout")
        except (aiohttp.ClientError, OSError) as error:
            return Answer(0, "", False, b"", time.perf_counter() - began, type(error).__name__)

    return session, send


class LeanPhone:
    """A viewer's phone for the polls: the same requests as `session_for_phone`, on asyncio's
    streams, with no more work than reading an answer takes (status line, the few headers
    read here, the body by its length or its chunks). The phones are on the same cores as
    the server, and aiohttp spends about a millisecond of them a request: at 2,000 viewers a
    tenth of the machine. Up to 6 kept-alive connections, each closed after KEEPALIVE idle
    seconds (before nginx closes it); a kept connection found closed when reused is opened
    again once, as a browser does."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter, float]] = []
        self.open = 0

    async def close(self) -> None:
        for _reader, writer, _since in self.idle:
            writer.close()
        self.idle.clear()

    async def send(
        self, method: str, path: str, headers: dict[str, str], body: bytes, timeout: float
    ) -> Answer:
        began = time.perf_counter()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        request = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        try:
            async with asyncio.timeout(timeout):
                return await self._exchange(request, began)
        except TimeoutError:
            return Answer(0, "", False, b"", time.perf_counter() - began, "timeout")
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            return Answer(0, "", False, b"", time.perf_counter() - began, type(error).__name__)

    async def _exchange(self, request: bytes, began: float) -> Answer:
        now = time.monotonic()
        while self.idle:
            reader, writer, since = self.idle.pop()
            if now - since < KEEPALIVE and not reader.at_eof():
                try:
                    return await self._over(reader, writer, request, began)
                except (ConnectionError, asyncio.IncompleteReadError):
                    pass  # closed by the server while kept: open another, as browsers do
            writer.close()
        if self.open >= 6:
            raise OSError("more than 6 requests at once")
        reader, writer = await asyncio.open_connection(HOST, self.port)
        return await self._over(reader, writer, request, began)

    async def _over(self, reader, writer, request: bytes, began: float) -> Answer:
        self.open += 1
        kept = False
        try:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head[9:12])
            length, chunked, close = None, False, False
            etag = cache = replayed = ""
            for line in head.decode("latin-1").split("\r\n")[1:]:
                name, _, value = line.partition(":")
                name, value = name.lower(), value.strip()
                if name == "content-length":
                    length = int(value)
                elif name == "transfer-encoding":
                    chunked = "chunked" in value.lower()
                elif name == "connection":
                    close = value.lower() == "close"
                elif name == "etag":
                    etag = value
                elif name == "x-live-cache":
                    cache = value
                elif name == "idempotent-replayed":
                    replayed = value
            if status in (204, 304) or 100 <= status < 200:
                content = b""
            elif chunked:
                parts = []
                while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                    parts.append(await reader.readexactly(size + 2))
                await reader.readuntil(b"\r\n")  # no trailers are sent
                content = b"".join(parts)
            elif length is not None:
                content = await reader.readexactly(length)
            else:
                content, close = await reader.read(), True
            kept = not close
            return Answer(
                status, etag, replayed == "true",
                content[:200] if status >= 400 else b"",
                time.perf_counter() - began, from_nginx=cache in FROM_NGINX,
            )  # fmt: skip
        finally:
            self.open -= 1
            if kept:
                self.idle.append((reader, writer, time.monotonic()))
            else:
                writer.close()


# --- What happened ------------------------------------------------------------------------------


@dataclass
class Stats:
    """Answer times by endpoint, statuses, errors; hands acknowledged by table."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, dict[str, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    errors: list[str] = field(default_factory=list)
    queued: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    acknowledged: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    unknown: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    hand_times: list[float] = field(default_factory=list)
    replays: int = 0
    resent: int = 0
    from_nginx: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    at_work: int = 0  # referees with hands left to enter as the window closed
    # When each hand was acknowledged, by (table, hand number), and what each table poll
    # answered in the window left its viewer holding: (table, when, ETag).
    acknowledged_at: dict[tuple[int, int], float] = field(default_factory=dict)
    held: list[tuple[int, float, str]] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)  # seconds, see `viewer_lags`

    def note(self, endpoint: str, answer: Answer, expected: tuple[int, ...]) -> None:
        self.statuses[endpoint][str(answer.status or answer.error)] += 1
        self.from_nginx[endpoint] += answer.from_nginx
        if answer.status:
            self.times[endpoint].append(answer.seconds)
        if answer.status not in expected:
            detail = answer.error or " ".join(answer.body.decode("utf-8", "replace").split())
            said = " ".join(str(part) for part in (answer.status or "", detail) if part)
            self.errors.append(f"{endpoint}: {said}")


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
    send: Send, slug: str, token: str, tables: list[Seating], start: float, stop: float,
    stats: Stats, timeout: float, pace: float = 0.0, offset: float = 0.0,
    acknowledged: Callable[[], None] = lambda: None,
) -> None:  # fmt: skip
    """Enter every hand of `tables` in order, each as soon as the last was acknowledged (with
    `pace`, not before `offset` + `pace` seconds a hand after `start`), until `stop`. A hand
    whose answer was lost (no answer, timeout, 5xx) is sent again with the same
    Idempotency-Key after RETRY_PAUSE, as often as needed; a refusal (4xx) is an error and the
    referee goes on with its next table."""
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    entered = 0
    for table in tables:
        path = f"/api/tournaments/{slug}/rounds/{ROUND}/tables/{table.number}/hands"
        for number in range(1, HANDS + 1):
            if pace:
                await asyncio.sleep(max(0.0, start + offset + entered * pace - time.monotonic()))
            entered += 1
            body = json.dumps(hand_body(table, number)).encode()
            sent = {**headers, "Idempotency-Key": str(uuid.uuid4())}
            lost = False
            while True:
                now = time.monotonic()
                if now >= stop:
                    stats.unknown[table.number] += lost  # it may have been stored
                    return
                # A request still running at the end of the phase may take GRACE more.
                wait = max(1.0, min(timeout, stop + GRACE - now))
                answer = await send("POST", path, sent, body, wait)
                stats.note("hand POST", answer, (200, 201))
                if answer.status in (200, 201) or 400 <= answer.status < 500:
                    break
                lost = True
                stats.resent += 1
                await asyncio.sleep(RETRY_PAUSE)
            if answer.status not in (200, 201):
                break  # refused: the following hands would be out of order
            stats.acknowledged[table.number] += 1
            stats.acknowledged_at[table.number, number] = time.monotonic()
            stats.replays += answer.replayed
            stats.hand_times.append(time.monotonic() - start)
            acknowledged()


def next_send(first: float, every: float, sent: float, now: float) -> float:
    """When htmx sends the next poll of `hx-trigger="every <every>s"` started at `first`, whose
    request sent at `sent` was answered at `now`: its timer fires at first + k * every whatever
    the answers; a tick that comes while a request is in flight is queued (htmx's default
    hx-sync "queue last") and sent as soon as the answer arrives."""
    tick = first + (math.floor((sent - first) / every + 1e-9) + 1) * every
    return now if tick <= now else tick


async def poll(
    send: Send, endpoint: str, path: str, every: float, first: float, start: float,
    stop: float, stats: Stats, timeout: float, etag: str = "", revalidate: bool = True,
) -> None:  # fmt: skip
    """One live region's polls until `stop`, as the browser and htmx send them: the ETag of the
    last 200 in If-None-Match (the browser revalidates its kept copy: Cache-Control no-cache),
    one request in flight at most; with `revalidate` False, never a conditional header (a
    client that keeps nothing). Polls sent before `start` are not counted; a request
    without answer after `timeout` counts as a timeout (htmx would wait on)."""
    headers = {
        "HX-Request": "true",
        "HX-Current-URL": f"http://{HOST}{path}",
        "Accept": "*/*",
        "Accept-Encoding": "gzip, deflate, br",
        "Accept-Language": "en",
    }
    due = first
    while True:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        sent = time.monotonic()
        if sent >= stop:
            return
        asked = {**headers, "If-None-Match": etag} if etag and revalidate else headers
        answer = await send("GET", path, asked, b"", timeout)
        if sent >= start:
            stats.note(endpoint, answer, (200, 304))
        if answer.status == 200 and answer.etag:
            etag = answer.etag
        if sent >= start and answer.status in (200, 304) and endpoint == "table poll":
            stats.held.append((int(path.rstrip("/").rpartition("/")[2]), time.monotonic(), etag))
        due = next_send(first, every, sent, time.monotonic())
        if sent >= start and due <= time.monotonic():
            stats.queued[endpoint] += 1


# --- The venue ----------------------------------------------------------------------------------


def seed(players: int, referees: int) -> tuple[str, list[tuple[str, list[Seating]]]]:
    """The tournament, and for each referee an API token and its tables of round 3."""
    from django.contrib.auth import get_user_model
    from django.db import connections
    from tournament_scale import build

    from tournament.infra.tokens import issue_token
    from tournament.models import ApiToken, Table

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
    # Each phase deletes the last one's venue and writes its own. Where autovacuum is off (it
    # is on this workplace's PostgreSQL) the dead rows pile up phase after phase, and every
    # phase would run on a bigger database than the one before; VACUUM gives each the same.
    with connections["default"].cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
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


def requests_cpu(
    folder: Path, paths: list[dict[str, tuple[str, int]]], start: float, ended: float
) -> dict[str, tuple[int, float]]:
    """What gunicorn's threads spent in the requests that ended within (start, ended], from
    the lines _request_cpu.py wrote in `folder`: (requests, CPU seconds) by endpoint. A poll
    reaches gunicorn only when nginx does not answer it (the pages opened again before the
    window are none of its requests)."""
    endpoint_of = {path: name for where in paths for name, (path, _every) in where.items()}
    used: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for log in folder.glob("*.log"):
        for line in log.read_text().splitlines():
            moment, method, path, seconds = line.split(" ")
            if not start < float(moment) <= ended:
                continue
            if method == "POST" and path.endswith("/hands"):
                name = "hand POST"
            elif method == "GET" and path in endpoint_of:
                name = endpoint_of[path]
            else:
                name = "other"
            used[name][0] += 1
            used[name][1] += float(seconds)
    return {name: (int(count), seconds) for name, (count, seconds) in used.items()}


def viewer_lags(slug: str, stats: Stats, ended: float) -> list[float]:
    """For each table poll answered in the window (until `ended`), how long the first hand
    its viewer did not yet see had been acknowledged then (0 when they saw every hand
    acknowledged). What a fragment shows is read from its ETag: its last audit entry of the
    table (tournament.web.live), and so the hands recorded up to it."""
    from tournament.models import AuditEntry

    entries: dict[int, list[int]] = defaultdict(list)
    for table, entry in (
        AuditEntry.objects.filter(
            tournament__slug=slug,
            table__round__number=ROUND,
            action=AuditEntry.Action.HAND_RECORDED,
        )
        .order_by("id")
        .values_list("table__number", "id")
    ):
        entries[table].append(entry)
    return lags_seen(entries, stats, ended)


def lags_seen(entries: dict[int, list[int]], stats: Stats, ended: float) -> list[float]:
    """`viewer_lags` from each table's audit entries of its hands, in order."""
    lags = []
    for table, when, etag in stats.held:
        if when > ended:
            continue
        match = re.search(r"live-\d+\.\d+\.(\d+)-", etag)
        seen = bisect.bisect_right(entries.get(table, []), int(match[1])) if match else 0
        missed = stats.acknowledged_at.get((table, seen + 1))
        lags.append(when - missed if missed is not None and missed < when else 0.0)
    return lags


def integrity(slug: str, stats: Stats) -> list[str]:
    """What is wrong in the database after a phase (nothing: an empty list)."""
    from django.db.models import F

    from tournament.models import AuditEntry, Deal, Penalty, Seat

    problems = []
    hands = list(
        Deal.objects.filter(table__round__tournament__slug=slug, table__round__number=ROUND)
        .select_related("table")
        .order_by("table__number", "number")
    )
    by_table: dict[int, list[Deal]] = defaultdict(list)
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
        Deal.objects.filter(table__round__tournament__slug=slug)
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
    client_cpu: float  # seconds of this process' CPU over the window
    server_cpu: dict[str, float]  # seconds of gunicorn, nginx, PostgreSQL over the window
    load: tuple[float, float]  # 1-minute load average at the start and the end of the window
    machine: dict[str, float]  # the machine's CPU seconds over the window: busy, idle, ...
    baseline: Phase | None = None  # the phase of the same run with no viewers
    # At the start and the end of the window, the share of the last 10 s in which some task
    # waited for a processor (Linux's pressure stall information; tournament.web.live.busy).
    pressure: tuple[float | None, float | None] = (None, None)
    # gunicorn's threads' CPU in requests over the window, by endpoint: (requests, seconds)
    # (_request_cpu.py; empty with --server sync).
    request_cpu: dict[str, tuple[int, float]] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0

    @property
    def ratio(self) -> float:
        """The rate against the rate with no viewers of the same run."""
        base = self.baseline.rate if self.baseline else 0.0
        return self.rate / base if base else 0.0

    @property
    def cpu_per_hand(self) -> float:
        """Seconds of the server's CPU (gunicorn, nginx, PostgreSQL) over the window per hand
        acknowledged in it: the hands' own and the viewers' share."""
        return sum(self.server_cpu.values()) / self.hands if self.hands else 0.0

    @property
    def viewers_share(self) -> float:
        """The viewers' requests' share of the CPU gunicorn's threads spent in requests over
        the window."""
        whole = sum(seconds for _count, seconds in self.request_cpu.values())
        viewers = sum(self.request_cpu.get(name, (0, 0.0))[1] for name in VIEWER_ENDPOINTS)
        return viewers / whole if whole else 0.0

    @property
    def cpu_ratio(self) -> float:
        """The CPU per hand with no viewers of the same run against this phase's: the rate
        ratio the server would show if it had the cores to itself (neither the client nor
        the machine's other users taking any), as the CPU it used says."""
        base = self.baseline.cpu_per_hand if self.baseline else 0.0
        return base / self.cpu_per_hand if self.cpu_per_hand else 0.0


async def prime(port: int, paths: list[dict[str, tuple[str, int]]], timeout: float) -> dict:
    """The ETag of each live path, fetched once: a viewer's ETag depends only on the address,
    the language and its session (none here), so every browser open a while holds these."""
    session, send = session_for_phone(port)
    etags: dict[str, str] = {}
    async with session:
        for path in sorted({path for where in paths for path, _every in where.values()}):
            answer = await send("GET", path, {"HX-Request": "true", "Accept-Language": "en"},
                                b"", timeout)  # fmt: skip
            etags[path] = answer.etag
    return etags


async def open_page(send: Send, path: str, at: float, timeout: float) -> None:
    """A first poll of `path` at `at`: a page just opened, which sends no ETag."""
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    headers = {
        "HX-Request": "true",
        "Accept-Language": "en",
        "Accept-Encoding": "gzip, deflate, br",
    }
    await send("GET", path, headers, b"", timeout)


async def reload_page(send: Send, path: str, at: float, stats: Stats, timeout: float) -> None:
    """`path` opened whole at `at`, as a phone does when its player reloads the page (no
    conditional header, no HX-Request), counted as a "storm page"."""
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    headers = {
        "Accept": "text/html",
        "Accept-Language": "en",
        "Accept-Encoding": "gzip, deflate, br",
    }
    stats.note("storm page", await send("GET", path, headers, b"", timeout), (200,))


async def run_phase(
    port: int, slug: str, shares, paths, seconds: float, warmup: float, seed_value: int,
    timeout: float, cold: bool, mark: Callable[[], None], pace: float = 0.0,
    opened_over: float = 0.0, blind: bool = False, storm: float | None = None,
) -> tuple[Stats, float, float, float]:  # fmt: skip
    """Viewers from `warmup` seconds before the referees, referees for `seconds`; the stats,
    the window (start, end) and this process' CPU seconds over it; `mark` is called as the
    window opens and as it closes. Each live address is opened once more at a random moment
    of the last `opened_over` seconds before the window (see below)."""
    etags = {} if cold or not paths else await prime(port, paths, timeout)
    stats = Stats()
    rng = random.Random(seed_value)
    phones = []
    lean: list[LeanPhone] = []
    begin = time.monotonic()
    # Every phase, the one without viewers too, opens its window after `warmup` seconds with
    # the workers warmed the same way: each referee reads its tables through the API first.
    start = begin + warmup
    stop = start + seconds
    tasks = []
    for where in paths:
        phone = LeanPhone(port)
        lean.append(phone)
        send = phone.send
        for endpoint, (path, every) in where.items():
            # The page was opened at a random moment: its first poll comes `every` later.
            first = begin + rng.uniform(0, every)
            tasks.append(asyncio.create_task(
                poll(send, endpoint, path, every, first, start, stop, stats, timeout,
                     "" if blind else etags.get(path, ""), revalidate=not blind)
            ))  # fmt: skip
            # A reload storm: every phone opens its pages whole at the same moment.
            if storm is not None:
                tasks.append(asyncio.create_task(
                    reload_page(send, path, start + storm, stats, timeout)
                ))  # fmt: skip
    # At a venue pages are opened all the time, and a first poll (no ETag) always reaches the
    # application, whose answer nginx then keeps: what nginx keeps is of every age. `prime`
    # alone would leave every address kept from the same moment, and all of them running out
    # together (or not at all within a window shorter than what they are kept). So each
    # address is opened once more at a random moment of the `opened_over` seconds before the
    # window; these requests are not counted.
    if paths and opened_over:
        session, send = session_for_phone(port)
        phones.append(session)
        since = max(begin, start - opened_over)
        for path in sorted({path for where in paths for path, _every in where.values()}):
            at = rng.uniform(since, start)
            tasks.append(asyncio.create_task(open_page(send, path, at, timeout)))
    referees = []
    for token, tables in shares:
        session, send = session_for_phone(port)
        phones.append(session)
        referees.append((send, token, tables))
    await asyncio.gather(
        *(send("GET", f"/api/tournaments/{slug}/rounds/{ROUND}/tables/{table.number}",
               {"Authorization": f"Bearer {token}"}, b"", timeout)
          for _send, token, tables in referees for table in tables)
    )  # fmt: skip
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    offsets = random.Random(seed_value + 1)  # the same in every phase, whatever the viewers
    mark()
    cpu = time.process_time()
    # The window closes after `seconds`, or once WINDOW_SHARE of the hands are acknowledged:
    # the server does not serve the referees evenly (some finish their game in about 5 s, the
    # last after over half a minute), so the time the last game took to end measures the
    # stragglers' luck more than the server, and the rate is taken while most are at work.
    whole = sum(len(tables) for _send, _token, tables in referees) * HANDS
    target = math.ceil(whole * WINDOW_SHARE)
    window: list[tuple[float, float]] = []  # (end, this process' CPU), once
    at_work = [len(referees)]

    def close_window() -> None:
        if not window:
            window.append((min(time.monotonic(), stop), time.process_time() - cpu))
            stats.at_work = at_work[0]
            mark()

    def acknowledged() -> None:
        if len(stats.hand_times) >= target:
            close_window()

    async def busy(*arguments) -> None:
        await referee(*arguments, acknowledged=acknowledged)
        at_work[0] -= 1

    await asyncio.gather(
        *(busy(send, slug, token, tables, start, stop, stats, timeout, pace,
               offsets.uniform(0, pace))
          for send, token, tables in referees)
    )  # fmt: skip
    close_window()
    ended, cpu = window[0]
    # Viewers' requests still running when the referees are done are not waited for.
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for session in phones:
        await session.close()
    for phone in lean:
        await phone.close()
    return stats, start, ended, cpu


def percentile_line(name: str, times: list[float], statuses: dict[str, int]) -> str:
    counted = ", ".join(f"{status}: {count}" for status, count in sorted(statuses.items()))
    if len(times) >= 2:
        cuts = statistics.quantiles(times, n=100, method="inclusive")
        p50, p95, p99 = (cuts[i] * 1000 for i in (49, 94, 98))
    else:
        p50 = p95 = p99 = (times[0] * 1000) if times else 0.0
    return (
        f"  {name:13} {sum(statuses.values()):7} sent  p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  "
        f"p99 {p99:7.1f} ms  ({counted})"
    )


def report(phase: Phase, baseline: Phase | None, cores: int) -> None:
    ratio = (
        f" = {phase.rate / baseline.rate:.2f} of the rate with no viewers"
        if baseline and baseline.rate
        else ""
    )
    window = phase.seconds
    print(f"viewers {phase.viewers}: {phase.hands} hands acknowledged in {window:.1f} s = "
          f"{phase.rate:.2f} hands/s{ratio}; {phase.stats.at_work} referees still at work as "
          "the window closed")  # fmt: skip
    server = sum(phase.server_cpu.values())
    each = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in phase.server_cpu.items())
    per_hand = f"{phase.cpu_per_hand * 1000:.1f} ms of server CPU a hand" + (
        f" ({phase.cpu_ratio:.2f} of the rate with no viewers by CPU)" if baseline else ""
    )
    if None not in phase.pressure:
        print(f"  processors waited for (some, last 10 s): {phase.pressure[0]:.0f}% -> "
              f"{phase.pressure[1]:.0f}%")  # fmt: skip
    print(f"  load average {phase.load[0]:.2f} -> {phase.load[1]:.2f}; CPU over the window: "
          f"client {phase.client_cpu:.1f} s ({phase.client_cpu / window:.0%} of one core), "
          f"server {server:.1f} s ({server / window / cores:.0%} of {cores} cores: {each}); "
          f"{per_hand}")  # fmt: skip
    if phase.request_cpu:
        spent = sum(seconds for _count, seconds in phase.request_cpu.values())
        each = "; ".join(
            f"{name} {count} x {seconds / count * 1000:.1f} ms = {seconds:.1f} s"
            for name, (count, seconds) in sorted(phase.request_cpu.items())
        )
        gunicorn = phase.server_cpu.get("gunicorn", 0.0)
        of = f" ({spent / gunicorn:.0%} of gunicorn's CPU)" if gunicorn else ""
        print(f"  gunicorn's threads in requests{of}: {each}; the viewers' share "
              f"{phase.viewers_share:.1%}")  # fmt: skip
    if phase.machine:
        whole = sum(phase.machine.values()) or 1.0
        shares = ", ".join(
            f"{name} {seconds / whole:.0%}" for name, seconds in phase.machine.items()
        )
        print(f"  the machine's cores over the window: {shares}")
    print("  per endpoint, requests sent in the window; times of those answered; "
          "by status (timeout/errors: no answer):")  # fmt: skip
    for name in sorted(phase.stats.statuses):
        print(percentile_line(name, phase.stats.times[name], phase.stats.statuses[name]))
        if phase.stats.from_nginx[name]:
            print(f"  {'':13} {phase.stats.from_nginx[name]} answered by nginx from what it "
                  "keeps (LIVE_STALE_SECONDS), without the application")  # fmt: skip
        if phase.stats.queued[name]:
            print(f"  {'':13} {phase.stats.queued[name]} polls came due while the last was "
                  "unanswered (htmx queues one and sends it on the answer)")  # fmt: skip
    if phase.stats.lags:
        lags = phase.stats.lags
        cuts = statistics.quantiles(lags, n=100, method="inclusive") if len(lags) > 1 else lags * 99
        print(f"  what the viewers saw: at each table poll answered in the window, the first "
              f"hand of the table they had not seen had been acknowledged p50 {cuts[49]:.1f} s, "
              f"p95 {cuts[94]:.1f} s, at most {max(lags):.1f} s before "
              f"(0 when they had seen every one)")  # fmt: skip
    print(f"  errors: {len(phase.stats.errors)}; hands sent again after a lost answer: "
          f"{phase.stats.resent}, of which the server replayed {phase.stats.replays}")  # fmt: skip
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
    parser.add_argument("--warmup", type=float, default=50.0)
    parser.add_argument(
        "--server",
        choices=["nginx", "gunicorn", "sync"],
        default="nginx",
        help="nginx: scripts/serve (gunicorn gthread behind nginx, the production set-up); "
        "gunicorn: scripts/serve with PROXY=none; sync: bare gunicorn with sync workers",
    )
    parser.add_argument("--workers", type=int, help="default: scripts/serve's (4 for sync)")
    parser.add_argument("--threads", type=int, help="default: scripts/serve's")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds before a request "
                        "counts as a timeout")  # fmt: skip
    parser.add_argument("--cold", action="store_true", help="viewers start with no ETag")
    parser.add_argument("--blind", action="store_true", help="viewers never send a "
                        "conditional header (keep no copy, never revalidate)")  # fmt: skip
    parser.add_argument("--storm", type=float, help="a reload storm: S seconds into the "
                        "window, every viewer opens its pages whole at once")  # fmt: skip
    parser.add_argument("--pace", type=float, default=0.0, help="seconds between two hands "
                        "of a referee (default: as fast as answered)")  # fmt: skip
    parser.add_argument("--port", type=int, default=8810)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="run the phases this many times "
                        "over, each ratio against its own run's rate with no viewers, and judge "
                        "the goals on the median ratio")  # fmt: skip
    args = parser.parse_args()
    most = max([0, *args.viewers])
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(4096, 4 * most + 1024)), hard))

    url = database_url()
    ensure_database(url)
    setup_django(url)
    from django.conf import settings

    from tournament.web import live

    state = Path(tempfile.gettempdir()) / f"venue_load_{args.port}"
    state.mkdir(exist_ok=True)
    log = state / "server.log"
    requests_folder = state / "request_cpu"
    requests_folder.mkdir(exist_ok=True)
    cores = os.cpu_count() or 1
    pace = f"one every {args.pace:g} s" if args.pace else "as fast as answered"
    print(f"server: {args.server} on {HOST}:{args.port}, workers {args.workers or 'default'}, "
          f"threads {args.threads or 'default'}, DEBUG off, database {url.rsplit('/', 1)[-1]} "
          f"(log {log}); {args.players} players, {args.referees} referees entering hands "
          f"{pace}, {args.seconds:.0f} s a phase after {args.warmup:.0f} s of "
          f"viewers alone; client timeout {args.timeout:.0f} s; {cores} cores; public "
          f"fragments sent again for {settings.LIVE_STALE_SECONDS} s after a change "
          f"(LIVE_STALE_SECONDS), {settings.LIVE_BUSY_SECONDS} s while the processors are "
          "all taken (LIVE_BUSY_SECONDS)")  # fmt: skip
    # Each live address is opened again over the last seconds an update may be kept before
    # the window opens (at most --warmup: give a warm-up at least that long).
    opened_over = max(settings.LIVE_STALE_SECONDS, settings.LIVE_BUSY_SECONDS)
    if args.warmup < opened_over:
        print(f"note: --warmup {args.warmup:g} is shorter than an update may be kept "
              f"({opened_over} s): what nginx keeps as the window opens is younger than at a "
              "venue after a while")  # fmt: skip
    phases: list[Phase] = []
    baseline: Phase | None = None
    from django.db import connections

    for viewers in [0, *args.viewers] * max(1, args.repeat):
        slug, shares = seed(args.players, args.referees)
        paths = viewer_paths(slug, viewers)
        connections.close_all()
        # A server of its own for each phase: what an overloaded phase left queued is dropped
        # with it, and the database is checked with no request running.
        if args.server == "sync":
            server = start_server(port=args.port, database_url=url,
                                  workers=args.workers or 4, threads=1, log=log)  # fmt: skip
        else:
            for old in requests_folder.glob("*.log"):
                old.unlink()
            server = start_serve(
                port=args.port, database_url=url, state_dir=state, log=log,
                proxy="nginx" if args.server == "nginx" else "none",
                workers=args.workers, threads=args.threads, request_cpu=requests_folder,
            )  # fmt: skip
        try:
            marks: list[tuple[tuple[float, float | None], dict[str, float], dict[str, float]]]
            marks = []

            def mark(pid: int = server.pid, marks: list = marks) -> None:
                marks.append(((os.getloadavg()[0], live.cpu_pressure()), process_cpu(pid),
                              machine_cpu()))  # fmt: skip

            stats, start, ended, cpu = asyncio.run(
                run_phase(args.port, slug, shares, paths, args.seconds, args.warmup, args.seed,
                          args.timeout, args.cold, mark, args.pace, opened_over,
                          args.blind, args.storm)
            )  # fmt: skip
        finally:
            stop_server(server)
        hands = sum(1 for moment in stats.hand_times if moment <= ended - start)
        first, last = marks[0], marks[-1]
        used = {name: last[1][name] - first[1].get(name, 0.0) for name in last[1]}
        machine = {name: last[2][name] - first[2].get(name, 0.0) for name in last[2]}
        stats.lags = viewer_lags(slug, stats, ended)
        phase = Phase(viewers, hands, ended - start, stats, integrity(slug, stats), cpu,
                      used, (first[0][0], last[0][0]), machine,
                      pressure=(first[0][1], last[0][1]),
                      request_cpu=requests_cpu(requests_folder, paths, start, ended))  # fmt: skip
        if not viewers:
            baseline = phase
        phase.baseline = baseline
        phases.append(phase)
        report(phase, baseline if viewers else None, cores)
    print()
    for run in range(0, len(phases), len(args.viewers) + 1):
        rates = [
            f"{p.viewers} viewers {p.rate:.2f}" + (f" ({p.ratio:.2f})" if p.viewers else "")
            for p in phases[run : run + len(args.viewers) + 1]
        ]
        print("summary: hands acknowledged per second " + ", ".join(rates))
    goals = {400: 0.95, 2000: 0.8}
    if args.pace:
        print("goals not judged: with --pace the referees' pace sets the rate; read the hand "
              "POST times")  # fmt: skip
        goals = {}
    for viewers in args.viewers:
        ratios = [p.ratio for p in phases if p.viewers == viewers]
        middle = statistics.median(ratios)
        if len(ratios) > 1:
            listed = ", ".join(f"{ratio:.2f}" for ratio in ratios)
            print(f"{viewers} viewers: ratios {listed}, median {middle:.2f}")
        shares = [p.viewers_share for p in phases if p.viewers == viewers and p.request_cpu]
        if shares:
            listed = ", ".join(f"{share:.1%}" for share in shares)
            print(f"{viewers} viewers: their requests' share of the CPU gunicorn's threads spent "
                  f"in requests {listed}, median {statistics.median(shares):.1%}")  # fmt: skip
        by_cpu = [p.cpu_ratio for p in phases if p.viewers == viewers]
        listed = ", ".join(f"{ratio:.2f}" for ratio in by_cpu)
        print(f"{viewers} viewers: ratios by the server's CPU per hand {listed}, median "
              f"{statistics.median(by_cpu):.2f} (not the goal's measure: what the rate ratio "
              "would be with the cores the server's alone)")  # fmt: skip
        goal = goals.get(viewers)
        if goal is not None:
            met = "met" if middle >= goal else "NOT met"
            print(f"goal {viewers} viewers >= {goal} of no viewers: {met}")
    if any(phase.problems for phase in phases):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
