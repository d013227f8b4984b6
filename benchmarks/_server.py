"""The servers of the load benchmark, all on 127.0.0.1 with the production settings (DEBUG off,
PostgreSQL, persistent connections):

- start_serve(): the documented production set-up, `scripts/serve` (gunicorn gthread on a unix
  socket behind nginx; with proxy="none", gunicorn gthread alone on the port), SETUP=0, its
  own STATE_DIR and database;
- start_server(): bare gunicorn with sync (or gthread) workers, for comparison.

process_cpu() reads the CPU seconds a server's processes and PostgreSQL have used, from /proc;
machine_cpu() the whole machine's, busy and idle.
"""

from __future__ import annotations

import os
import secrets
import shlex
import signal
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
    server = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=output, stderr=output, start_new_session=True
    )
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
    """Stop a server started here (gunicorn's master stops its workers; scripts/serve stops
    gunicorn and nginx); its own process group too if it lingers (scripts/serve's)."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=40)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(server.pid, signal.SIGKILL)
            except OSError:
                server.kill()
            server.wait()


SERVE = REPO / "scripts" / "serve"


def start_serve(
    *,
    port: int,
    database_url: str,
    state_dir: Path,
    proxy: str = "nginx",
    workers: int | None = None,
    threads: int | None = None,
    log: Path | None = None,
    request_cpu: Path | None = None,
) -> subprocess.Popen[bytes]:
    """`scripts/serve` on 127.0.0.1:`port` with SETUP=0 (the database must be migrated and the
    static files collected), behind nginx or (proxy="none") gunicorn alone; scripts/serve's
    WORKERS/THREADS unless given. With `request_cpu` (a folder), gunicorn writes down each
    request's CPU there (_request_cpu.py). Ready to answer when this returns; stop it with
    stop_server()."""
    env = {
        **os.environ,
        "HOST": HOST,
        "PORT": str(port),
        "SETUP": "0",
        "PROXY": proxy,
        "STATE_DIR": str(state_dir),
        "DATABASE_URL": database_url,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": f"{HOST},localhost",  # not the benchmark's Django settings
        "HTTPS": "false",
    }
    for name, value in (("WORKERS", workers), ("THREADS", threads)):
        if value:
            env[name] = str(value)
    if request_cpu:
        hooks = Path(__file__).with_name("_request_cpu.py")
        # Settings given in GUNICORN_CMD_ARGS (an experiment's) are kept.
        given = os.environ.get("GUNICORN_CMD_ARGS", "")
        env["GUNICORN_CMD_ARGS"] = f"{given} --config {shlex.quote(str(hooks))}".strip()
        env["REQUEST_CPU_DIR"] = str(request_cpu)
    _collect_static({**env, "DEBUG": "false", "DJANGO_SETTINGS_MODULE": "config.settings"})
    with socket.socket() as probe:  # what answered would otherwise be taken for this server
        if probe.connect_ex((HOST, port)) == 0:
            raise SystemExit(f"something already listens on {HOST}:{port}; give another --port")
    output = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115
    server = subprocess.Popen(
        [str(SERVE)], cwd=REPO, env=env, stdout=output, stderr=output, start_new_session=True
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(
                f"scripts/serve stopped at start (exit {server.returncode}); see {log}"
            )
        if _answers(port):
            time.sleep(1)  # scripts/serve stops at once when nginx cannot start
            if server.poll() is None:
                return server
            raise SystemExit(f"scripts/serve stopped at start; see {log}")
        time.sleep(0.3)
    stop_server(server)
    raise SystemExit(f"scripts/serve did not answer on {HOST}:{port} within 90 s; see {log}")


def _answers(port: int) -> bool:
    import http.client

    try:
        page = http.client.HTTPConnection(HOST, port, timeout=5)
        page.request("GET", "/")
        return page.getresponse().status not in (502, 503, 504)
    except OSError:
        return False


# Clock ticks a second, the unit of /proc's CPU times.
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _processes() -> dict[int, tuple[str, int, float]]:
    """Every process' (name, parent, CPU seconds): user + system of its own, plus those of its
    children that exited and were waited for (so a tree's sum keeps what its finished
    processes used). Empty where /proc is missing."""
    found = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        name = text[text.index("(") + 1 : text.rindex(")")]
        fields = text[text.rindex(")") + 2 :].split()
        used = sum(int(value) for value in fields[11:15]) / _TICK  # utime stime cutime cstime
        found[int(entry.name)] = (name, int(fields[1]), used)
    return found


def _tree(processes: dict[int, tuple[str, int, float]], roots: set[int]) -> set[int]:
    mine = set(roots)
    grew = True
    while grew:
        more = {pid for pid, (_n, parent, _u) in processes.items() if parent in mine} - mine
        grew = bool(more)
        mine |= more
    return mine


def process_cpu(root: int) -> dict[str, float]:
    """CPU seconds used so far by process `root` and every process under it (a gunicorn master
    and its workers, nginx), by kind: "nginx", "gunicorn" (any other process of the tree, the
    shell that started them included), and "postgresql": every PostgreSQL server on the machine
    (the postmasters and their backends, whichever client they serve), read from /proc; empty
    where /proc is missing."""
    processes = _processes()
    postmasters = {
        pid
        for pid, (name, parent, _used) in processes.items()
        if name == "postgres" and processes.get(parent, ("",))[0] != "postgres"
    }
    used: dict[str, float] = {"gunicorn": 0.0, "nginx": 0.0, "postgresql": 0.0}
    for pid in _tree(processes, {root}):
        name, _parent, seconds = processes.get(pid, ("", 0, 0.0))
        used["nginx" if name == "nginx" else "gunicorn"] += seconds
    for pid in _tree(processes, postmasters):
        used["postgresql"] += processes[pid][2]
    return used


def machine_cpu() -> dict[str, float]:
    """The machine's CPU seconds so far, all cores together, from /proc/stat's first line:
    "busy" (user, nice, system, interrupts), "idle", "iowait" and "steal" (taken by the host
    for its other guests, where it says so); empty where /proc is missing."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except OSError:
        return {}
    user, nice, system, idle, iowait, irq, softirq, steal = (int(v) / _TICK for v in fields[:8])
    return {
        "busy": user + nice + system + irq + softirq,
        "idle": idle,
        "iowait": iowait,
        "steal": steal,
    }
