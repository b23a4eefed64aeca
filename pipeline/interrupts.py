"""Signals turned into KeyboardInterrupt, and telling an interrupt apart from a failure.

The command line (:mod:`cli.main`) turns Ctrl-C into one line and exit
code 130; ``tsumego train`` also treats SIGTERM (a logout, a batch job's time limit, ``kill``)
as Ctrl-C, so it keeps its checkpoints (:mod:`model.checkpoints`).  Both use
the handler and the test below.
"""
from __future__ import annotations

import contextlib
import signal
import threading


@contextlib.contextmanager
def raising_interrupt(signum: int, default, before=None):
    """Meanwhile, signal ``signum`` raises KeyboardInterrupt (after calling ``before``, when
    given).  Where the signal is handled by someone else (its handler is not ``default``) or
    off the main thread (signals reach the main thread only), it stays as it is."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signum) is not default:
        yield
        return

    def handler(number, frame):
        if before is not None:
            before()
        raise KeyboardInterrupt

    signal.signal(signum, handler)
    try:
        yield
    finally:
        signal.signal(signum, default)


def interrupted(exc: BaseException | None) -> bool:
    """Whether ``exc`` is a KeyboardInterrupt or was raised while handling one: Beam re-raises
    an interrupt met inside a step as a RuntimeError naming the step."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False
