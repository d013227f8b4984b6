"""The load benchmark's viewer polls as htmx and the browser send them
(benchmarks/venue_load.py), with a stand-in for the network: no server, no database."""

import asyncio
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import venue_load  # noqa: E402
from venue_load import Answer, Stats, next_send  # noqa: E402


def test_the_next_poll_follows_the_timer_or_the_late_answer():
    # Timer every 20 s from 100: answered in time, the next tick.
    assert next_send(100, 20, sent=100, now=101) == 120
    # Sent at a tick, answered after the next one: that tick was queued, sent at once.
    assert next_send(100, 20, sent=120, now=150) == 150
    # A queued poll sent between ticks, answered in time: the timer's next tick.
    assert next_send(100, 20, sent=150, now=151) == 160


def test_polls_carry_the_last_etag_and_count_timeouts_one_at_a_time():
    sent: list[dict[str, str]] = []
    in_flight = 0
    most = 0

    async def send(method, path, headers, body, timeout):
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        sent.append(dict(headers))
        try:
            number = len(sent)
            if number == 3:  # no answer in time
                await asyncio.sleep(0.05)
                return Answer(0, "", False, b"", 0.05, "timeout")
            await asyncio.sleep(0.001)
            if number == 1:
                return Answer(200, '"v1"', False, b"", 0.001)
            return Answer(304, "", False, b"", 0.001)
        finally:
            in_flight -= 1

    async def run() -> Stats:
        stats = Stats()
        now = time.monotonic()
        await venue_load.poll(send, "poll", "/t/x/", 0.02, now, now, now + 0.15, stats, 1.0)
        return stats

    # A thread of its own: the browser tests' Playwright keeps an event loop running in this
    # one for the rest of the session when they ran first in this process.
    with ThreadPoolExecutor(max_workers=1) as pool:
        stats = pool.submit(asyncio.run, run()).result()
    assert most == 1
    assert "If-None-Match" not in sent[0]
    assert all(headers["If-None-Match"] == '"v1"' for headers in sent[1:])
    assert all(headers["HX-Request"] == "true" for headers in sent)
    assert stats.statuses["poll"]["200"] == 1
    assert stats.statuses["poll"]["timeout"] == 1
    assert stats.errors == ["poll: timeout"]
    assert stats.queued["poll"] >= 1  # ticks that came while the slow one was out
    assert len(stats.times["poll"]) == len(sent) - 1  # the timeout has no answer time


def test_what_a_viewer_saw_is_read_from_the_etag_they_hold():
    stats = Stats()
    # Table 7's hands 1-3 were recorded as audit entries 11, 15 and 20, acknowledged at 100,
    # 104 and 108; table 8 has none.
    entries = {7: [11, 15, 20]}
    stats.acknowledged_at.update({(7, 1): 100.0, (7, 2): 104.0, (7, 3): 108.0})
    stats.held += [
        (7, 99.0, 'W/"live-1.4.0-abcdefabcdefabcd"'),  # before any hand: nothing missed
        (7, 103.0, '"live-1.4.0-abcdefabcdefabcd"'),  # hand 1 missed for 3 s
        (7, 106.0, 'W/"live-1.4.15-abcdefabcdefabcd"'),  # saw hands 1-2
        (7, 110.0, '"live-1.4.15-abcdefabcdefabcd"'),  # hand 3 missed for 2 s
        (7, 111.0, '"live-1.5.20-abcdefabcdefabcd"'),  # saw all three
        (8, 111.0, '"live-1.5.0-abcdefabcdefabcd"'),
        (7, 130.0, '"live-1.4.0-abcdefabcdefabcd"'),  # after the window: not counted
    ]

    assert venue_load.lags_seen(entries, stats, ended=120.0) == [0.0, 3.0, 0.0, 2.0, 0.0, 0.0]
