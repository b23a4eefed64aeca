"""Tactical readers benchmark: time per position against the original pipeline's targets, one run.

    python -m bench.tactics_bench --problems ../shared/sgf-problems [--subproblems DIR]

Positions: the subproblems of ``solve-all`` when ``--subproblems`` names an
existing folder, otherwise each problem of ``--problems`` and positions a few
moves deep inside its search area (random legal moves, seeded).  For each
position and each reader the time of a cold reading (empty cache; the least
of ``--repeats`` runs) is measured; the table gives median, p90 and max in
milliseconds beside those targets (snapback detection < 0.1 ms, ladder
check < 0.5 ms, whole tactical pass < 1 ms).  Then the diagonal scan against plain simulation, and
the cache's hit rate over the whole set read in order.  JIT compilation and
a first untimed reading of the set come before timing.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import numpy as np

from pipeline.formats.subproblem import load_subproblem
from pipeline.markdown import markdown_table
from solver import BLACK, WHITE, ProblemError, Solver, load_problem
from solver.ladder import ladder_captures
from solver.net import net_captures
from solver.reading import C_CACHE_HITS, C_CACHE_LOOKUPS, board_from_stones, reading_for
from solver.snapback import snapback_points
from solver.tactics import load_stones, stones_maps

TARGETS_MS = {"snapback": 0.1, "ladder": 0.5, "whole pass": 1.0}


def problem_positions(problems_dir: str, depth: int, seed: int):
    """(name, stones) of each problem and of positions up to ``depth`` moves into its area."""
    rng = random.Random(seed)
    files = sorted(Path(problems_dir).rglob("*.sgf"))
    rejected = 0
    for path in files:
        try:
            problem = load_problem(path)
        except ProblemError:
            rejected += 1
            continue
        solver = Solver(problem)
        yield str(path), problem.stones.copy()
        color = problem.to_play
        for ply in range(1, depth + 1):
            moves = solver.moves()
            rng.shuffle(moves)
            if not any(solver.play(x, y, color) for x, y in moves):
                break
            if solver.target_captured():
                break
            yield f"{path}+{ply}", solver.board.to_array()
            color = 3 - color
    print(f"{len(files)} problem files, {rejected} rejected (no PL/MA or unreadable)")


def subproblem_positions(folder: Path):
    for path in sorted(folder.glob("*.sgf")):
        try:
            yield str(path), load_subproblem(path).stones
        except ProblemError as exc:
            print(f"skipped: {exc}")


def blocks_with(stones: np.ndarray, board, liberties: set[int]) -> list[tuple[int, int]]:
    """One stone of each block whose liberty count is in ``liberties``."""
    seen = set()
    points = []
    for y, x in zip(*np.nonzero(stones)):
        x, y = int(x), int(y)
        if (x, y) in seen:
            continue
        seen.update(board.block(x, y))
        if board.liberties(x, y, cap=3) in liberties:
            points.append((x, y))
    return points


def timed(fn, cold, repeats: int) -> tuple[float, object]:
    """Milliseconds of ``fn()``, the least of ``repeats`` runs each after ``cold()``.

    On a shared machine a run is sometimes descheduled for milliseconds; the
    least of a few cold runs is the reader's own time.
    """
    best = float("inf")
    for _ in range(repeats):
        cold()
        started = time.perf_counter()
        value = fn()
        best = min(best, (time.perf_counter() - started) * 1000.0)
    return best, value


def read_all(stones: np.ndarray, repeats: int, scan: bool = True) -> dict[str, tuple[float, object]]:
    """Each reader on one position, cold: with an empty cache."""
    board = board_from_stones(stones)
    reading = reading_for(board)
    reading.use_scan(scan)
    few = blocks_with(stones, board, {1, 2})
    two = [p for p in few if board.liberties(*p, cap=3) == 2]
    cold = reading.clear_cache
    results = {
        "snapback": timed(lambda: (snapback_points(board, BLACK), snapback_points(board, WHITE)),
                          cold, repeats),
        "ladder": timed(lambda: [ladder_captures(board, x, y) for x, y in few], cold, repeats),
    }
    laddered = {p for p, r in zip(few, results["ladder"][1]) if r.captured}
    results["net"] = timed(lambda: [net_captures(board, x, y) for x, y in two if (x, y) not in laddered],
                           cold, repeats)
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", default="../shared/sgf-problems")
    parser.add_argument("--subproblems", default="out/solve-all/subproblems",
                        help="solve-all output; used instead of --problems when it exists")
    parser.add_argument("--depth", type=int, default=3, help="moves played into each problem's area")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3, help="cold runs per timing; the least counts")
    args = parser.parse_args(argv)

    folder = Path(args.subproblems)
    if folder.is_dir() and any(folder.glob("*.sgf")):
        source = f"solve-all subproblems in {folder}"
        positions = list(subproblem_positions(folder))
    else:
        source = f"problems of {args.problems} and up to {args.depth} moves into each area (seed {args.seed})"
        positions = list(problem_positions(args.problems, args.depth, args.seed))
    if not positions:
        print("no positions to read")
        return 1
    print(f"{len(positions)} positions: {source}")

    # Every code path loads its compiled code on first use: read the set once.
    started = time.perf_counter()
    for _, stones in positions:
        read_all(stones, 1)
        stones_maps(stones)
    print(f"JIT compilation and a first reading of the set: {time.perf_counter() - started:.2f} s "
          "(excluded below)")

    times: dict[str, list[float]] = {"snapback": [], "ladder": [], "net": [], "whole pass": [],
                                     "whole pass without nets": [], "ladder, simulation only": []}
    counts = {"blocks with 1-2 liberties": 0, "blocks in ladders": 0, "snapback points": 0,
              "net captures": 0, "ladder nodes with the scan": 0, "ladder nodes, simulation only": 0}
    for _, stones in positions:
        results = read_all(stones, args.repeats)
        for name in ("snapback", "ladder", "net"):
            times[name].append(results[name][0])
        black, white = results["snapback"][1]
        counts["snapback points"] += len(black) + len(white)
        counts["blocks with 1-2 liberties"] += len(results["ladder"][1])
        counts["blocks in ladders"] += sum(r.captured for r in results["ladder"][1])
        counts["net captures"] += sum(r.captured for r in results["net"][1])
        counts["ladder nodes with the scan"] += sum(r.nodes for r in results["ladder"][1])
        simulated = read_all(stones, args.repeats, scan=False)["ladder"]
        times["ladder, simulation only"].append(simulated[0])
        counts["ladder nodes, simulation only"] += sum(r.nodes for r in simulated[1])
        for name, nets in (("whole pass", True), ("whole pass without nets", False)):
            times[name].append(timed(lambda: stones_maps(stones, with_nets=nets),
                                     pass_reading(stones).clear_cache, args.repeats)[0])

    rows = []
    for name, values in times.items():
        median = statistics.median(values)
        p90 = float(np.percentile(values, 90))
        target = TARGETS_MS.get(name.split(",")[0].replace(" without nets", ""))
        worst = max(values)
        meets = [("yes" if v < target else "no") if target else "-" for v in (median, p90, worst)]
        rows.append([name, f"{median:.4f}", f"{p90:.4f}", f"{worst:.4f}", target if target else "-", *meets])
    print()
    print(*markdown_table(["reader (per position)", "median ms", "p90 ms", "max ms", "target ms",
                           "median meets", "p90 meets", "all meet"], rows, align="lrrrrlll"), sep="\n")
    print()
    for name, value in counts.items():
        print(f"{name}: {value}")

    # The cache over the whole set read in order by the pass, as the features stage does.
    readings = {}
    for _, stones in positions:
        reading = readings.get(stones.shape[0])
        if reading is None:
            reading = readings[stones.shape[0]] = pass_reading(stones)
            reading.clear_cache()
            reading.counters[[C_CACHE_LOOKUPS, C_CACHE_HITS]] = 0
        stones_maps(stones)
    lookups = sum(int(r.counters[C_CACHE_LOOKUPS]) for r in readings.values())
    hits = sum(int(r.counters[C_CACHE_HITS]) for r in readings.values())
    print(f"cache of the whole pass over the set read in order: {hits} hits in {lookups} lookups "
          f"({100.0 * hits / max(lookups, 1):.1f}%)")
    return 0


def pass_reading(stones: np.ndarray):
    """The reader context the whole pass uses for positions of this size."""
    return reading_for(load_stones(stones))


if __name__ == "__main__":
    raise SystemExit(main())
