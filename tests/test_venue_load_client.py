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


def test_the_requests_cpu_of_the_window_by_endpoint(tmp_path):
    """venue_load.requests_cpu: the lines gunicorn's hooks wrote that ended within the window,
    summed by endpoint; a poll's address names its endpoint, a hand is a POST to .../hands."""
    paths = [
        {"standings poll": ("/t/x/standings/", 30), "table poll": ("/t/x/rounds/3/tables/1/", 20)},
        {"standings poll": ("/t/x/standings/", 30), "table poll": ("/t/x/rounds/3/tables/2/", 20)},
    ]
    (tmp_path / "101.log").write_text(
        "9.0 POST /api/tournaments/x/rounds/3/tables/1/hands 0.500\n"  # before the window
        "10.5 POST /api/tournaments/x/rounds/3/tables/1/hands 0.040\n"
        "11.0 GET /t/x/rounds/3/tables/2/ 0.010\n"
        "12.0 GET /api/tournaments/x/rounds/3/tables/1 0.002\n"
    )
    (tmp_path / "102.log").write_text(
        "10.7 POST /api/tournaments/x/rounds/3/tables/2/hands 0.060\n"
        "19.0 GET /t/x/standings/ 0.030\n"
        "20.0 GET /t/x/rounds/3/tables/1/ 0.020\n"
        "20.5 GET /t/x/rounds/3/tables/1/ 0.900\n"  # after the window
    )
    used = venue_load.requests_cpu(tmp_path, paths, start=10.0, ended=20.0)
    assert used.keys() == {"hand POST", "table poll", "standings poll", "other"}
    assert used["hand POST"][0] == 2 and abs(used["hand POST"][1] - 0.1) < 1e-9
    assert used["table poll"][0] == 2 and abs(used["table poll"][1] - 0.03) < 1e-9
    assert used["standings poll"] == (1, 0.03)
    assert used["other"] == (1, 0.002)
    phase = venue_load.Phase(400, 0, 1.0, Stats(), [], 0.0, {}, (0, 0), {}, request_cpu=used)
    assert abs(phase.viewers_share - 0.06 / 0.162) < 1e-9


def test_the_lean_phone_reads_answers_and_keeps_its_connections():
    """venue_load.LeanPhone, the viewers' client, against a small server on the loopback: an
    answer by its length, a 304, chunks, one until the connection closes, a kept connection
    the server closed (opened again once, as browsers do), and a timeout."""

    async def scenario():
        accepted = []

        async def serve(reader, writer):
            accepted.append(writer)
            served = 0
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                path = head.split(b" ")[1].decode()
                served += 1
                if path == "/race" and served > 1:
                    writer.close()  # closed as the request came: a kept connection's race
                    return
                if path == "/slow":
                    await asyncio.sleep(5)
                    return
                answers = {
                    "/ok": b'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nETag: "a"\r\n'
                    b"X-Live-Cache: HIT\r\n\r\nhello",
                    "/same": b'HTTP/1.1 304 Not Modified\r\nETag: "a"\r\n\r\n',
                    "/chunks": b'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nETag: "c"\r\n'
                    b"\r\n5\r\nhello\r\n5;x=1\r\nworld\r\n0\r\n\r\n",
                    "/closing": b"HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\nnot here",
                    "/dropped": b'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nETag: "d"\r\n\r\nok',
                    "/race": b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
                }
                writer.write(answers[path])
                await writer.drain()
                if path in ("/closing", "/dropped"):
                    writer.close()  # "/dropped" says nothing: its connection looks kept
                    return

        server = await asyncio.start_server(serve, venue_load.HOST, 0)
        port = server.sockets[0].getsockname()[1]
        phone = venue_load.LeanPhone(port)
        asked = {"HX-Request": "true", "If-None-Match": '"a"'}
        ok = await phone.send("GET", "/ok", asked, b"", 2)
        assert (ok.status, ok.etag, ok.from_nginx, ok.error) == (200, '"a"', True, "")
        same = await phone.send("GET", "/same", asked, b"", 2)
        chunks = await phone.send("GET", "/chunks", asked, b"", 2)
        assert (same.status, chunks.status, chunks.etag) == (304, 200, '"c"')
        assert len(accepted) == 1  # all three over one kept connection
        closing = await phone.send("GET", "/closing", asked, b"", 2)
        assert (closing.status, closing.body) == (404, b"not here")
        assert len(accepted) == 1 and not phone.idle  # that connection is not kept
        dropped = await phone.send("GET", "/dropped", asked, b"", 2)
        assert dropped.status == 200 and len(phone.idle) == 1 and len(accepted) == 2
        await asyncio.sleep(0.05)
        again = await phone.send("GET", "/ok", asked, b"", 2)  # the kept one was closed
        assert again.status == 200 and len(accepted) == 3
        race = [await phone.send("GET", "/race", asked, b"", 2) for _ in range(2)]
        assert [answer.status for answer in race] == [200, 200] and len(accepted) == 5
        slow = await phone.send("GET", "/slow", asked, b"", 0.2)
        assert (slow.status, slow.error) == (0, "timeout") and phone.open == 0
        await phone.close()
        server.close()
        for writer in accepted:
            writer.close()

    # In a thread of its own: a browser test before it in the same process may have left an
    # event loop running in this one (Playwright's).
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, scenario()).result()
