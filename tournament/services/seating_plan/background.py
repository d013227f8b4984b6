"""Where a seating job runs: `enqueue` hands it to the background.

Today the background is a daemon thread of the web process; a task queue could take its place
behind the same function, and the job runner would not change. With
`settings.SEATING_JOBS_INLINE` true (the tests) the job runs at once, in the caller.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connections, transaction


def enqueue(function: Callable[..., object], /, *args: Any, name: str, **kwargs: Any) -> bool:
    """Run `function(*args, **kwargs)` in the background; True when it has run already.

    The thread, called `name`, starts once the current transaction commits (at once outside
    one), so the job sees the rows written for it; it closes its database connections when it
    ends. Inline (`settings.SEATING_JOBS_INLINE`), the function runs before this returns.
    """
    if getattr(settings, "SEATING_JOBS_INLINE", False):
        function(*args, **kwargs)
        return True
    thread = threading.Thread(
        target=_run_then_close, args=(function, args, kwargs), daemon=True, name=name
    )
    transaction.on_commit(thread.start)
    return False


def _run_then_close(
    function: Callable[..., object], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    try:
        function(*args, **kwargs)
    finally:
        connections.close_all()  # this thread's connections only
