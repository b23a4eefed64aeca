"""What the forkserver of a local multi-processing run imports before it forks any worker.

:mod:`pipeline.beam.forked_workers` forks each worker from a forkserver that
has imported this package, then the stage's module here
(:mod:`.features`, :mod:`.solve_all`, :mod:`.enclose`): Beam's worker, the
stage's steps and their numba kernels, loaded once a run instead of once a
worker.  The logs are hushed first, as :mod:`pipeline.beam.worker` hushes
them before Beam loads (``TSUMEGO_VERBOSE`` is read from the command's
environment, which the forkserver inherits).

A warm-up that fails is left for the worker to meet again, where the stage
reports it as usual; it does not stop the forkserver.
"""
from __future__ import annotations

import contextlib
import importlib
from typing import Callable

from pipeline import quiet

quiet.hush()
importlib.import_module("apache_beam.runners.worker.sdk_worker_main")   # after hush: Beam logs as it loads


def ready(stage_module: str, warm_up: Callable[[], object]) -> None:
    """Import ``stage_module`` (the stage's steps) and run ``warm_up`` (one of :mod:`pipeline.warm_up`'s);
    an error is left for the worker to meet."""
    with contextlib.suppress(Exception):
        importlib.import_module(stage_module)
        warm_up()
