"""The production set-up for the load benchmark: gunicorn serving `config.wsgi` on 127.0.0.1
with the production settings (DEBUG off, PostgreSQL, persistent connections).

One function starts it, so that the benchmark can later start `scripts/serve` (gunicorn behind
nginx) instead without changing anything else.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"


def _collect_static(env: dict[str, str]) -> None:
    """The hashed static files the production storage reads (its manifest), once."""
    if (REPO / "staticfiles" / "staticfiles.json").exists():
        return
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=REPO,
        env=env,
        check=True,
    )


def start_server(
    *, port: int, database_url: str, workers: int = 4, threads: int = 1, log: Path | None = None
) -> subprocess.Popen[bytes]:
    """gunicorn with `workers` workers on HOST:`port` (sync ones, or with `threads` > 1 gthread
    ones of that many threads, as scripts/serve runs), ready to answer when this returns.
    Stop it with stop_server()."""
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": database_url,
        "ALLOWED_HOSTS": HOST,
        "HTTPS": "false",  # plain http on the loopback, as a venue's local network
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    _collect_static(env)
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command = [
        str(gunicorn), "config.wsgi", "--bind", f"{HOST}:{port}",
        "--workers", str(workers),
        *(["--worker-class", "gthread", "--threads", str(threads)] if threads > 1
          else ["--worker-class", "sync"]),
        "--timeout", "120",
        "--backlog", "4096", "--log-level", "warning",
    ]  # fmt: skip
    output = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115
    server = subprocess.Popen(command, cwd=REPO, env=env, stdout=output, stderr=output)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn stopped at start (exit {server.returncode}); see {log}")
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    stop_server(server)
    raise SystemExit(f"gunicorn did not listen on {HOST}:{port} within 60 s")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    """Stop the server started above (its master stops its workers)."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
