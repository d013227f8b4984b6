"""Slow clients against the production set-up: bare gunicorn, then gunicorn behind nginx.

Starts `scripts/serve` on 127.0.0.1 (its own state folder, a PostgreSQL database with the demo
tournaments), holds SLOW_CLIENTS connections for SLOW_SECONDS that trickle their request one
byte a second (half of them the headers, half a POST body), and meanwhile sends NORMAL_REQUESTS
ordinary requests for the standings, one after another with a timeout each. Prints how many
answered and how fast, first without the slow clients (the baseline), then with them.

    .venv/bin/python benchmarks/slow_clients.py                 # both set-ups
    .venv/bin/python benchmarks/slow_clients.py --proxy nginx   # one of them

Environment: BENCH_DATABASE_URL (default postgres://root@127.0.0.1:5432/mcr_slow_clients,
created when missing), BENCH_PORT (default 8811), WORKERS and THREADS (passed to
scripts/serve; its defaults otherwise), SLOW_CLIENTS (20), SLOW_SECONDS (60),
NORMAL_REQUESTS (10), NORMAL_TIMEOUT (10 seconds).
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench_database import ensure_database

REPO = Path(__file__).resolve().parents[1]
SERVE = REPO / "scripts" / "serve"
PATH = "/t/demo-open/standings/"
HOST = "127.0.0.1"


def number(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


PORT = number("BENCH_PORT", 8811)
SLOW_CLIENTS = number("SLOW_CLIENTS", 20)
SLOW_SECONDS = number("SLOW_SECONDS", 60)
NORMAL_REQUESTS = number("NORMAL_REQUESTS", 10)
NORMAL_TIMEOUT = number("NORMAL_TIMEOUT", 10)
DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://root@127.0.0.1:5432/mcr_slow_clients"
)


def serve_env(state: Path, proxy: str, setup: bool) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        HOST=HOST,
        PORT=str(PORT),
        PROXY=proxy,
        SETUP="1" if setup else "0",
        STATE_DIR=str(state),
        DATABASE_URL=DATABASE_URL,
    )
    return env


def prepare(state: Path) -> None:
    """Install, migrate and collect static files once (scripts/serve's own setup), and load
    the demo tournaments (safe to run again)."""
    ensure_database(DATABASE_URL)
    env = serve_env(state, "none", setup=True)
    for command in (["migrate", "--noinput"], ["load_demo"]):
        subprocess.run(
            [str(SERVE), "manage", *command], env=env, check=True, stdout=subprocess.DEVNULL
        )
    subprocess.run(
        [str(SERVE), "manage", "collectstatic", "--noinput"],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def start(state: Path, proxy: str) -> subprocess.Popen[bytes]:
    log = open(state / f"serve-{proxy}.log", "wb")  # noqa: SIM115 (closed with the process)
    server = subprocess.Popen(
        [str(SERVE)],
        env=serve_env(state, proxy, setup=False),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"scripts/serve stopped; see {log.name}")
        try:
            status, _ = get(timeout=2)
            if status == 200:
                return server
        except OSError:
            pass
        time.sleep(0.3)
    stop(server)
    raise SystemExit(f"scripts/serve did not answer in 60 s; see {log.name}")


def stop(server: subprocess.Popen[bytes]) -> None:
    """TERM to scripts/serve, which stops gunicorn and nginx; its whole group if it lingers."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=40)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def get(timeout: float) -> tuple[int, float]:
    began = time.perf_counter()
    connection = http.client.HTTPConnection(HOST, PORT, timeout=timeout)
    try:
        connection.request("GET", PATH, headers={"Host": "localhost"})
        response = connection.getresponse()
        response.read()
        return response.status, time.perf_counter() - began
    finally:
        connection.close()


@dataclass
class Slow:
    """The slow connections' tallies (shared by their threads)."""

    connections: int = 0
    closed_by_server: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def slow_client(kind: str, until: float, tally: Slow) -> None:
    """Trickle a request one byte a second until `until`; when the server gives up on it, open
    another (as a crowd of phones on a weak signal would keep doing)."""
    if kind == "headers":
        head = f"GET {PATH} HTTP/1.1\r\nHost: localhost\r\n"
        trickle = "X-Slow: " + "a" * 10_000
    else:
        head = (
            "POST /accounts/login/ HTTP/1.1\r\nHost: localhost\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n"
        )
        trickle = "username=" + "a" * 99_990
    while time.monotonic() < until:
        try:
            with socket.create_connection((HOST, PORT), timeout=5) as sock:
                with tally.lock:
                    tally.connections += 1
                sock.sendall(head.encode())
                for byte in trickle:
                    if time.monotonic() >= until:
                        return
                    sock.sendall(byte.encode())
                    time.sleep(1)
        except OSError:
            with tally.lock:
                tally.closed_by_server += 1
            time.sleep(0.5)


def normal_requests(count: int, spacing: float) -> list[float | None]:
    """`count` requests one after another; the seconds each took, None for a failure."""
    results: list[float | None] = []
    for index in range(count):
        began = time.monotonic()
        try:
            status, seconds = get(timeout=NORMAL_TIMEOUT)
            results.append(seconds if status == 200 else None)
        except OSError:
            results.append(None)
        if index < count - 1:
            time.sleep(max(0.0, spacing - (time.monotonic() - began)))
    return results


def summary(results: list[float | None]) -> str:
    ok = [r for r in results if r is not None]
    text = f"{len(ok)}/{len(results)} answered"
    if ok:
        text += f", median {statistics.median(ok) * 1000:.0f} ms, slowest {max(ok) * 1000:.0f} ms"
    failed = len(results) - len(ok)
    if failed:
        text += f", {failed} failed or timed out after {NORMAL_TIMEOUT} s"
    each = " ".join("-" if r is None else f"{r * 1000:.0f}" for r in results)
    return f"{text}\n    each (ms, - for none): {each}"


def measure(state: Path, proxy: str) -> None:
    server = start(state, proxy)
    try:
        normal_requests(20, spacing=0.0)  # every worker loads its templates first
        baseline = normal_requests(NORMAL_REQUESTS, spacing=0.2)
        until = time.monotonic() + SLOW_SECONDS
        tally = Slow()
        threads = [
            threading.Thread(
                target=slow_client,
                args=("headers" if i % 2 == 0 else "body", until, tally),
                daemon=True,
            )
            for i in range(SLOW_CLIENTS)
        ]
        for thread in threads:
            thread.start()
        time.sleep(3)  # let them take their places
        spacing = max(0.0, (SLOW_SECONDS - 3 - NORMAL_TIMEOUT) / max(1, NORMAL_REQUESTS - 1))
        during = normal_requests(NORMAL_REQUESTS, spacing=spacing)
        for thread in threads:
            thread.join(timeout=SLOW_SECONDS + 10)
    finally:
        stop(server)
    label = {"none": "gunicorn alone", "nginx": "gunicorn behind nginx"}[proxy]
    print(f"{label}:")
    print(f"  without slow clients: {summary(baseline)}")
    print(
        f"  with {SLOW_CLIENTS} slow clients for {SLOW_SECONDS} s "
        f"({tally.connections} connections opened, {tally.closed_by_server} cut by the server): "
        f"{summary(during)}"
    )
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--proxy", choices=["none", "nginx", "both"], default="both")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="slow-clients-") as folder:
        state = Path(folder)
        prepare(state)
        print(
            f"{SLOW_CLIENTS} slow clients (half trickling headers, half a POST body, one byte a "
            f"second) for {SLOW_SECONDS} s; {NORMAL_REQUESTS} requests for {PATH} meanwhile, "
            f"timeout {NORMAL_TIMEOUT} s; WORKERS={os.environ.get('WORKERS', 'default')} "
            f"THREADS={os.environ.get('THREADS', 'default')}"
        )
        for proxy in ("none", "nginx") if args.proxy == "both" else (args.proxy,):
            measure(state, proxy)


if __name__ == "__main__":
    main()
