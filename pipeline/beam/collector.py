"""Python's garbage collector in a stage's workers: the objects made at import set aside.

A full pass of the cycle collector walks every object it tracks, and a worker
holds a great many that live as long as it does: those of numpy, numba's
compiled kernels and Beam, made when the stage's code is imported.  A big run
collects many times, and each full pass walks them all again: on 366,691
subproblems, 16% of the ``features`` stage's CPU with one worker (RESULTS.md,
"The features stage at scale: the collector's passes").  ``gc.freeze`` moves
the objects alive at that moment into a generation the collector never
walks; what the work makes later is collected as before.
"""
from __future__ import annotations

import gc


def set_aside_imports() -> None:
    """Once a process, after the imports (a DoFn's ``setup``): freeze what is alive now.
    A process that has frozen objects already is left as it is, so that what the work
    made since its first call stays collectable."""
    if gc.get_freeze_count() == 0:
        gc.collect()   # garbage made while importing is freed, not frozen
        gc.freeze()
