"""gunicorn hooks that write down the processor time of each request, for venue_load.py.

Given to gunicorn as its configuration file (`GUNICORN_CMD_ARGS="--config <this file>"`, which
scripts/serve passes on), with REQUEST_CPU_DIR naming a folder. Each worker appends one line a
request to `<REQUEST_CPU_DIR>/<pid>.log`:

    <time.monotonic() at the end> <method> <path> <seconds of the answering thread's CPU>

The CPU is the thread's own (`time.thread_time()`) from gunicorn's `pre_request` to its
`post_request`: the application and the writing of the answer, not what the worker does around
requests (accepting, reading headers) nor the database server's share. A thread waiting for the
GIL or the database uses none. CLOCK_MONOTONIC is the machine's, so the benchmark can keep the
lines of its window.
"""

from __future__ import annotations

import os
import threading
import time
from typing import TextIO

_began = threading.local()
_lock = threading.Lock()
_files: dict[int, TextIO] = {}


def pre_request(worker, req) -> None:
    _began.cpu = time.thread_time()


def post_request(worker, req, environ, resp) -> None:
    began = getattr(_began, "cpu", None)
    if began is None:
        return
    used = time.thread_time() - began
    _began.cpu = None
    line = f"{time.monotonic():.4f} {req.method} {req.path} {used:.6f}\n"
    pid = os.getpid()
    with _lock:
        log = _files.get(pid)
        if log is None:
            folder = os.environ["REQUEST_CPU_DIR"]
            log = _files[pid] = open(os.path.join(folder, f"{pid}.log"), "a", buffering=1)  # noqa: SIM115
        log.write(line)
