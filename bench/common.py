"""What the benchmarks and the research scripts share: the problems they read, the warm-up,
readings an enclose run reported, and solves stopped at a wall time."""
from __future__ import annotations

import json
import multiprocessing
import os
import random
import time
from pathlib import Path

from solver import Problem, ProblemError, Solver, load_problem, search_area

# area buckets of the reach tables: (label, smallest, largest)
BUCKETS = (("≤ 14", 0, 14), ("15-16", 15, 16), ("17-18", 17, 18), ("19-20", 19, 20), ("21-25", 21, 25),
           ("26-30", 26, 30), ("> 30", 31, 10**6))
# a solve's own setup (the solver's tables) is not counted; the process gets this much more
SLACK_SECONDS = 0.5


def load_problems(folder: str, with_pl_only: bool = True) -> list:
    """Every problem under ``folder`` that has MA and a closed wall (and PL, by default), in
    path order."""
    files = sorted(str(p) for p in Path(folder).rglob("*.sgf"))
    problems = []
    for f in files:
        try:
            problem = load_problem(f, require_to_play=with_pl_only)
            search_area(problem)   # the wall must be closed
        except ProblemError:
            continue
        problems.append(problem)
    if with_pl_only:
        print(f"{len(files)} files, {len(problems)} with PL and MA and a closed wall")
    else:
        print(f"{len(files)} files, {len(problems)} with MA and a closed wall "
              f"({sum(p.to_play is not None for p in problems)} with PL)")
    return problems


def warm_up(problem, algorithms=("dfs", "dfpn"), guide=None) -> None:
    """Compile (or load from numba's cache) the searches, and with ``guide`` evaluate the
    network once; say how long it took."""
    started = time.perf_counter()
    side = problem.to_play or problem.attacker
    for algo in algorithms:
        Solver(problem).solve(side, algo=algo, max_nodes=10_000)
        if guide is not None:
            Solver(problem).solve(side, algo=algo, max_nodes=10_000, guide=guide)
    print(f"JIT compilation, first solves{' and evaluations' if guide is not None else ''}: "
          f"{time.perf_counter() - started:.2f} s (excluded below)")


def short_name(problem) -> str:
    return "/".join(Path(problem.source).parts[-2:])


def open_problems(folders: list[str]) -> dict[str, Path]:
    """Every ``*.sgf`` under the folders, by its folder's name and its path there."""
    found = {}
    for folder in map(Path, folders):
        for path in sorted(folder.rglob("*.sgf")):
            found[str(Path(folder.resolve().name) / path.relative_to(folder).with_suffix(""))] = path
    return found


def reported_problems(open_dirs: list[str], earlier_jsonl: str, outcome: str, low: int, high: int,
                      exclude: frozenset[str] = frozenset()) -> tuple[dict[str, Path], dict[str, dict]]:
    """The problems under ``open_dirs`` (by name, as :func:`open_problems` names
    them) that the run of ``earlier_jsonl`` reported with ``outcome`` and a search area of ``low``
    to ``high`` empty points, less the files whose real paths are in ``exclude``; and each one's
    reading in that run."""
    problems = open_problems(open_dirs)
    with open(earlier_jsonl) as f:   # matched by the file read, whatever folder was named
        earlier = {os.path.realpath(row["file"]): row for row in map(json.loads, f)}
    reported = {name: earlier.get(os.path.realpath(path), {}) for name, path in problems.items()}
    kept = {name: path for name, path in problems.items()
            if reported[name].get("outcome") == outcome and low <= reported[name].get("area", -1) <= high
            and os.path.realpath(path) not in exclude}
    return kept, {name: reported[name] for name in kept}


def drawn(problems: dict[str, Path], sample: int, seed: int) -> list[str]:
    """``sample`` of the problems' names (all if fewer), drawn with ``seed``, sorted."""
    return sorted(random.Random(seed).sample(sorted(problems), min(sample, len(problems))))


def solve_in_child(connection, problem: Problem, side: int, algo: str, guide, race: bool = True) -> None:
    try:
        verdict = Solver(problem, race=race).solve(side, algo=algo, guide=guide)
        connection.send((verdict.winner, verdict.nodes, verdict.seconds))
    except Exception as exc:   # a fault of the solver, not of time: the parent says so
        connection.send(f"{type(exc).__name__}: {exc}")
    connection.close()


def timed_solve(problem: Problem, side: int, algo: str, guide, seconds: float, race: bool = True) -> tuple | None:
    """(winner, nodes, seconds) of a solve that ended within ``seconds``, else None.  The solve
    runs in a forked process (the parent's compiled searches and loaded network with it),
    killed when its time is up; a solve that fails raises RuntimeError.  ``race``: the
    solver's race count (:mod:`solver.race`) on or off."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=solve_in_child, args=(sender, problem, side, algo, guide, race))
    child.start()
    sender.close()
    result = None
    if receiver.poll(seconds + SLACK_SECONDS):
        try:
            result = receiver.recv()
        except EOFError:   # the child died without an answer
            result = None
    if child.is_alive():
        child.kill()
    child.join()
    receiver.close()
    if isinstance(result, str):
        raise RuntimeError(f"{problem.source}, {algo}: the solve failed: {result}")
    if result is None or result[2] > seconds:
        return None
    return result


def took(result: tuple | None) -> str:
    return f"{result[2]:.2f} s, {result[1]:,} nodes" if result else "over time"
