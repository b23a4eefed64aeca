"""Folds of whole problems, for cross-validation, and per-problem weights.

A solve-all tree turns one problem into up to a few hundred thousand
subproblems that share its shape, so a test figure is only about unseen
shapes when whole problems are held out.  The reference corpus is very
uneven (a couple of problems hold over a third of the records; measured:
RESULTS.md, "Cross-validation by problem: the dense network"), which makes one hash split's
test set a handful of problems and its figure noisy.  ``assign_folds``
therefore deals the problems, largest first, to the fold holding the fewest
records so far: every fold gets a share of the records and every problem is
tested exactly once across the folds.

``problem_weights`` can also even out the problems' pull on training: with
``sqrt`` a problem of n records weighs as much as √n records would, scaled so
that the weights of all records still sum to their number.
"""
from __future__ import annotations

import json
import os

import numpy as np

from pipeline.formats.records import count_problems

BALANCES = ("none", "sqrt")


def cached_problem_counts(data_dir: str, cache: str, written: dict) -> dict[str, int]:
    """``count_problems``, kept in the file ``cache`` for the next fold's run.

    ``written`` is ``features.json``'s record counts: records written again
    into the same folder make a new count, so no new problem is left out.
    """
    key = {"data": os.path.abspath(data_dir), "written": written}
    if os.path.exists(cache):
        with open(cache) as f:
            stored = json.load(f)
        if {name: stored.get(name) for name in key} == key:
            return stored["counts"]
    counts = count_problems(data_dir)
    partial = f"{cache}.{os.getpid()}.partial"
    with open(partial, "w") as f:
        json.dump({**key, "counts": counts}, f, indent=1)
    os.replace(partial, cache)   # folds run side by side may count at once; each write is whole
    return counts


def extra_problem_overlap(extra: tuple[str, ...], problems, splits: tuple[str, ...] | None = None) -> str | None:
    """An error naming the first folder of ``extra`` whose records (of ``splits``; default
    both) share a problem id with ``problems`` (records the evaluation holds out would be
    trained on), else None."""
    problems = set(problems)
    for folder in extra:
        shared = sorted(set(count_problems(folder, splits)) & problems)
        if shared:
            return (f"--extra-train {folder}: holds {len(shared)} of the evaluated problems "
                    f"({', '.join(shared[:3])}{', ...' if len(shared) > 3 else ''}), which training "
                    "must not see")
    return None


def assign_folds(counts: dict[str, int], folds: int,
                 together: list[list[str]] | tuple = ()) -> dict[str, int]:
    """Problem id → fold in ``range(folds)``: largest problem first, into the lightest fold.

    Each list of ``together`` (problems holding the same position:
    ``tsumego same-positions``) is dealt as one problem of all their records,
    so a copy of a test problem is never trained on; ids without records are
    ignored.
    """
    if folds < 2:
        raise ValueError("cross-validation needs at least 2 folds")
    if len(counts) < folds:
        raise ValueError(f"{len(counts)} problems cannot fill {folds} folds")
    members = {problem: [problem] for problem in counts}   # unit (its first id) -> its problems
    for group in together:
        present = sorted({problem for problem in group if problem in counts})
        units = sorted({unit for unit, held in members.items() if set(held) & set(present)})
        if len(units) > 1:
            joined = sorted(problem for unit in units for problem in members.pop(unit))
            members[joined[0]] = joined
    if len(members) < folds:
        raise ValueError(f"{len(members)} groups of problems cannot fill {folds} folds")
    size = {unit: sum(counts[problem] for problem in held) for unit, held in members.items()}
    totals = [0] * folds
    fold_of = {}
    for unit in sorted(members, key=lambda unit: (-size[unit], unit)):
        fold = min(range(folds), key=lambda k: (totals[k], k))
        for problem in members[unit]:
            fold_of[problem] = fold
        totals[fold] += size[unit]
    return fold_of


def read_together(path: str) -> list[list[str]]:
    """The groups of ``tsumego same-positions``' JSON file (its ``groups``)."""
    with open(path) as f:
        found = json.load(f)
    groups = found.get("groups") if isinstance(found, dict) else None
    if not isinstance(groups, list) or not all(isinstance(group, list) for group in groups):
        raise ValueError(f"{path}: no list of groups (write it with tsumego same-positions)")
    return [[str(problem) for problem in group] for group in groups]


def problem_weights(counts: dict[str, int], balance: str) -> dict[str, float]:
    """Weight of each record of a problem (see the module's docstring); all positive."""
    if balance == "none":
        return {problem: 1.0 for problem in counts}
    if balance == "sqrt":
        total = sum(counts.values())
        scale = total / sum(np.sqrt(count) for count in counts.values())
        return {problem: float(scale / np.sqrt(count)) for problem, count in counts.items()}
    raise ValueError(f"unknown balance {balance!r}; one of {', '.join(BALANCES)}")
