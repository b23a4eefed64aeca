"""A CPU-time limit for a compiled search.

The searches run compiled, without the GIL (``solver.jit.kernel`` is ``nogil``), and
stop at the next node once ``counters[ABORT]`` is set.  While a search runs under
:func:`cpu_limit`, a watchdog thread reads the searching thread's CPU clock every few
milliseconds and sets the flag (``ABORT_TIME_LIMIT``) once the limit has passed.

The limit is CPU time, not wall time: "a minute of one core" whatever else the
machine is doing, so an effort given in seconds settles the same readings on a busy
machine as on an idle one, give or take the watchdog's poll (a few milliseconds).
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager

from .table import ABORT, ABORT_TIME_LIMIT

# How often the watchdog reads the clock: a limit overruns by about this much at most.
POLL_SECONDS = 0.004


def thread_cpu_clock() -> int:
    """The clock id of the calling thread's CPU time (``time.CLOCK_THREAD_CPUTIME_ID`` is the
    caller's own: this one can be read from another thread)."""
    return time.pthread_getcpuclockid(threading.get_ident())


@contextmanager
def cpu_limit(counters, until: float | None):
    """Stop the search run inside the block once the calling thread's CPU clock
    (:func:`time.thread_time`) reaches ``until``; None: no limit.  A limit already
    passed raises the flag before the search starts."""
    if until is None:
        yield
        return
    if time.thread_time() >= until:
        counters[ABORT] = ABORT_TIME_LIMIT
        yield
        return
    clock = thread_cpu_clock()
    done = threading.Event()

    def watch():
        while not done.wait(POLL_SECONDS):
            if time.clock_gettime(clock) >= until:
                counters[ABORT] = ABORT_TIME_LIMIT
                return

    watchdog = threading.Thread(target=watch, name="search-cpu-limit", daemon=True)
    watchdog.start()
    try:
        yield
    finally:
        done.set()
        watchdog.join()
