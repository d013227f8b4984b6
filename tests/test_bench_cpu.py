"""The benchmarks' CPU accounting (benchmarks/_server.py): a process tree's CPU seconds by kind,
kept when a process of the tree has ended, and the machine's."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from _server import machine_cpu, process_cpu  # noqa: E402

pytestmark = pytest.mark.skipif(not Path("/proc/stat").exists(), reason="needs Linux's /proc")

# A shell (the tree's root, as scripts/serve is) whose child spins for a while and ends, then
# the shell waits for a line on its input: the child's time is only in the shell's count of
# the children it waited for.
SPIN = "import time\nend = time.process_time() + 0.4\nwhile time.process_time() < end: pass"


def test_a_trees_cpu_keeps_what_its_ended_processes_used():
    shell = subprocess.Popen(
        ["sh", "-c", f'"{sys.executable}" -c "$0"; echo spun; read line', SPIN],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        before = process_cpu(shell.pid)
        assert shell.stdout is not None and shell.stdout.readline() == "spun\n"
        after = process_cpu(shell.pid)
    finally:
        shell.communicate("\n", timeout=10)

    assert set(after) == {"gunicorn", "nginx", "postgresql"}
    assert after["gunicorn"] - before["gunicorn"] >= 0.3
    assert after["nginx"] == before["nginx"] == 0


def test_the_machines_cpu_grows_with_a_busy_process():
    before = machine_cpu()
    end = time.process_time() + 0.3
    while time.process_time() < end:
        pass
    after = machine_cpu()

    assert set(after) == {"busy", "idle", "iowait", "steal"}
    assert after["busy"] - before["busy"] >= 0.2
    assert all(after[name] >= before[name] for name in after)


def test_each_requests_cpu_is_written_down_by_the_answering_thread(tmp_path, monkeypatch):
    """gunicorn's hooks (benchmarks/_request_cpu.py): one line a request, with the thread's
    own CPU between pre_request and post_request; nothing for a request whose start it missed."""
    import threading
    from types import SimpleNamespace

    import _request_cpu

    monkeypatch.setenv("REQUEST_CPU_DIR", str(tmp_path))
    monkeypatch.setattr(_request_cpu, "_files", {})
    request = SimpleNamespace(method="POST", path="/api/x/hands")
    began = time.monotonic()

    def spin_then_sleep() -> None:
        _request_cpu.pre_request(None, request)
        end = time.thread_time() + 0.2
        while time.thread_time() < end:
            pass
        time.sleep(0.3)  # waiting (the database, the GIL) is not counted
        _request_cpu.post_request(None, request, {}, None)
        _request_cpu.post_request(None, request, {}, None)  # no pre_request: no line

    worker = threading.Thread(target=spin_then_sleep)
    worker.start()
    worker.join()
    for log in _request_cpu._files.values():
        log.close()
    [line] = (tmp_path / f"{os.getpid()}.log").read_text().splitlines()
    moment, method, path, seconds = line.split(" ")
    assert began < float(moment) <= time.monotonic()
    assert (method, path) == ("POST", "/api/x/hands")
    assert 0.2 <= float(seconds) < 0.45
