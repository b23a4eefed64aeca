"""The validation problems of ``tsumego train``: whole problems of the train split held back.

Early stopping and the plateau schedule pick the epoch whose weights are
kept by the loss of the records they watch.  Watching the test split would
make the test figure part of the choice: on a folder of a dozen test
problems the test accuracy swings by ten points from one epoch to the next,
and the epoch kept is the one where the swing went up (measured:
RESULTS.md, "make all on a fresh clone").  So ``tsumego train`` holds back
a share of the train split's problems, whole (the subproblems of one tree
share its shape), watches their loss, and scores the test split once, with
the weights chosen.

The problems are taken in the order of a hash of their ids until they hold
``--validation-fraction`` of the train split's records, not of its problems:
the problems' sizes are very uneven, and a tenth of ``make all``'s 84
train problems by count held 1% of their records, 547 records of 10
small problems whose loss stopped falling at the 9th epoch, where a run
watching the test split saw its loss fall until the 20th (RESULTS.md,
"The epoch chosen on problems held back from training").  The order does not depend on
the training seed, so runs with other seeds watch the same problems.
"""
from __future__ import annotations

import hashlib

# --validation-fraction's default
DEFAULT_FRACTION = 0.1


def _share(problem: str) -> float:
    """A stable number in [0, 1) for a problem id (the same on every machine and run)."""
    return int.from_bytes(hashlib.sha256(f"validation/{problem}".encode()).digest()[:8], "big") / 2.0 ** 64


def validation_problems(counts: dict[str, int], fraction: float) -> list[str]:
    """The ids of ``counts`` (problem id → records) held back, sorted.

    Problems are taken in the order of their hash until they hold ``fraction``
    of the records, passing over any that would take the records held back
    past twice that (a problem of a third of the records would otherwise
    turn much of the training into validation) and never taking the last
    problem left; when every problem is passed over, the smallest is held
    back alone.  ``fraction`` 0 holds back none.  ValueError when
    ``fraction`` is outside [0, 1), or when fewer than two problems leave
    nothing to train on once one is held back.
    """
    if not 0 <= fraction < 1:
        raise ValueError(f"--validation-fraction {fraction}: need 0 <= fraction < 1")
    if fraction == 0:
        return []
    if len(counts) < 2:
        raise ValueError(f"the train split holds {len(counts)} problem(s): too few to hold one back "
                         "for validation (--validation-fraction 0 watches the test split)")
    ranked = sorted(counts, key=lambda problem: (_share(problem), problem))
    target = fraction * sum(counts.values())
    held, records = [], 0
    for problem in ranked:
        if records >= target or len(held) == len(counts) - 1:
            break
        if records + counts[problem] <= 2 * target:
            held.append(problem)
            records += counts[problem]
    return sorted(held or [min(ranked, key=counts.__getitem__)])
