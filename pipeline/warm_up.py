"""Compile the solver's and the planes' kernels once, so that no command waits for numba.

    python -m pipeline.warm_up        # what ``make install`` runs last

The solver's hot path and the feature planes are numba functions with the
on-disk cache (:mod:`solver.jit`): the first process to call one compiles it
(the solver's DFS alone takes most of a minute on 2 cores), every later one
loads the machine code in well under a second.  Without this step the first
``tsumego solve`` after an install printed nothing for over a minute, and its
time line reported the compile as the solve's.  So the install solves a tiny
problem every way a command may (DFS and df-pn, both sides first, the race
count, the principal variation, a line's status checks) and cuts its feature
windows (what ``eval`` and the search's guide read), and the commands that
solve call :func:`warm_up_solver` before they time anything: a cached kernel
then loads outside the solve's time, and a kernel that still has to compile
(sources edited since the install) says so on stderr first.

The tiny problem is a straight three in the corner, White's eyes at A9-C9 of
a 9×9 board: Black to play kills at B9, White to play lives there.
"""
from __future__ import annotations

import sys
import time

from solver import BLACK, WHITE, Solver, parse_problem
from solver.jit import kernels_compiled
from solver.proof_copy import copy_proof

TINY_PROBLEM = b"(;SZ[9]PL[B]AB[ea][eb][ac][bc][cc][dc][ec]AW[da][ab][bb][cb][db]MA[da])"

_warm = False


def tiny_problem():
    return parse_problem(TINY_PROBLEM, "the warm-up problem")


def warm_up_solver(say=None) -> float:
    """Run every kernel a solve may call, once a process; seconds taken.  ``say`` (a function
    of one line), when given, hears "compiling the solver (once)…" if the machine code is not
    cached yet."""
    global _warm
    if _warm:
        return 0.0
    started = time.perf_counter()
    if say is not None and not kernels_compiled():
        say("compiling the solver (once, a few minutes)…")
    problem = tiny_problem()
    for algo in ("dfs", "dfpn"):
        solver = Solver(problem)
        for color in (BLACK, WHITE):
            solver.solve(color, algo=algo)
    copy_proof(solver, BLACK, 0)   # df-pn's proof into DFS's table, as a line on it starts
    solver = Solver(problem)
    line = solver.principal_variation(BLACK)
    from solver.main_line import settled_length
    settled_length(solver, line)
    solver.race_count(BLACK)
    _warm = True
    return time.perf_counter() - started


def warm_up_planes() -> float:
    """Cut the tiny problem's feature windows (the planes' kernels), and read it back as a
    written subproblem and frame it as a record (the features stage's other kernels); seconds taken."""
    from dataclasses import replace

    from pipeline.formats.subproblem import parse_subproblem, read_written_subproblem
    from pipeline.formats.tfrecord import framed
    from pipeline.planes.windows import labelled_windows

    started = time.perf_counter()
    sub = parse_subproblem(TINY_PROBLEM, "the warm-up problem")
    labelled_windows(replace(sub, end_state=sub.stones))   # (an end state: its windows are a kernel too)
    written = sub.to_sgf().encode()
    read_written_subproblem(written)
    framed(written)
    return time.perf_counter() - started


def main() -> int:
    solver_seconds = warm_up_solver(say=lambda line: print(line, file=sys.stderr, flush=True))
    planes_seconds = warm_up_planes()
    print(f"kernels ready: the solver in {solver_seconds:.1f} s, the feature planes in {planes_seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
