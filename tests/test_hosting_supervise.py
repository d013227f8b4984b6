"""scripts/serve watches its servers: gunicorn's master killed outright is started again while
nginx keeps running, and the site answers again within seconds; past RESTART_LIMIT restarts
within RESTART_WINDOW seconds the script stops with a message rather than loop for ever."""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from test_hosting import NGINX, REPO_ROOT, SERVE, database_url, free_port


def children(pid: int) -> dict[int, str]:
    """The processes whose parent is `pid`, with their command lines."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except (OSError, IndexError, ValueError):
            continue
    return {child: command.decode(errors="replace") for child, command in found.items()}


def server_pids(serve: int) -> tuple[int | None, int | None]:
    """The gunicorn master and the nginx master that scripts/serve started."""
    gunicorn = nginx = None
    for child, command in children(serve).items():
        if not command.strip():  # a process that has just ended has no command line
            continue
        program = " ".join(command.split()[:2])  # the interpreter and the script, or nginx
        if command.startswith("nginx") or "nginx" in command.split()[0]:
            nginx = child
        elif "gunicorn" in program:
            gunicorn = child
    return gunicorn, nginx


def answers(port: int) -> int | None:
    try:
        page = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        page.request("GET", "/api/tournaments")
        status = page.getresponse().status
        page.close()
        return status
    except OSError:
        return None


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed")
@pytest.mark.skipif(not (REPO_ROOT / ".venv" / "bin" / "gunicorn").exists(), reason="no .venv")
@pytest.mark.django_db(transaction=True)
def test_a_killed_gunicorn_comes_back_and_endless_deaths_stop_the_script(tmp_path):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("scripts/serve runs on PostgreSQL")
    port = free_port()
    environ = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "SETUP": "0",
        "STATE_DIR": str(tmp_path),
        "DATABASE_URL": database_url(),
        "WORKERS": "1",
        "THREADS": "2",
        "RESTART_LIMIT": "1",
        "RESTART_WINDOW": "600",
    }
    environ.pop("DJANGO_SETTINGS_MODULE", None)
    log_path = tmp_path / "serve.log"
    log = open(log_path, "wb")  # noqa: SIM115
    server = subprocess.Popen(
        [str(SERVE)], env=environ, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        assert wait_for(lambda: answers(port) == 200, 60), log_path.read_text()
        gunicorn, nginx = server_pids(server.pid)
        assert gunicorn and nginx, children(server.pid)
        workers = set(children(gunicorn))
        assert workers

        os.kill(gunicorn, signal.SIGKILL)

        # Started again, nginx untouched, and the site answers within seconds (from the new
        # master's workers: the old one's leave once they see their master gone).
        assert wait_for(lambda: server_pids(server.pid)[0] not in (None, gunicorn), 15), (
            log_path.read_text()
        )
        again, same_nginx = server_pids(server.pid)
        # An old worker finishes the request it holds first: up to gunicorn's graceful timeout
        # (30 s in scripts/serve), so it is given that and a margin for a busy machine.
        assert wait_for(lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers), 50)
        assert wait_for(lambda: answers(port) == 200, 30), log_path.read_text()
        assert same_nginx == nginx
        assert server.poll() is None
        assert "gunicorn stopped (status 137); starting it again" in log_path.read_text()

        # A second death within the window is one restart too many: the script stops.
        os.kill(again, signal.SIGKILL)
        assert server.wait(timeout=30) != 0
        text = log_path.read_text()
        assert "gunicorn stopped (status 137) after 1 restarts within 600 s; stopping." in text
        assert not (tmp_path / "gunicorn.sock").exists()
        assert answers(port) is None  # nginx stopped with it
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=40)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
        log.close()
