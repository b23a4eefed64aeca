"""Feature throughput: subproblems per second on one core, per plane group and in total.

    python -m bench.features_bench [--problems ../shared/sgf-problems]
                                   [--subproblems out/solve-all/subproblems] [--repeats 5]

Reads the subproblem SGFs of ``--subproblems`` when that folder exists (the
output of ``tsumego solve-all``); otherwise derives subproblems from the
problems of ``--problems``: each root position and the positions after one
move of either side inside the search area, each with both sides to move,
written as subproblem SGFs to a temporary folder and read back.

Prints, as the median over ``--repeats`` passes of CPU time of this process
(one thread, so per core):

- SGF parsing (``parse_subproblem``), which the stage pays once per file;
- the planes of the original dcnn-eval network cut into windows
  (``subproblem_windows`` with the groups of ``pipeline.planes.basic``; "dcnn-eval
  planes" in the output), the target being 5,000 subproblems/s/core;
- all planes cut into windows, and serialising the record (``example_bytes``);
- the cost of each part alone: the board analysis (``board_view``), each plane
  group (marked ``*`` when added to dcnn-eval's), and the windowing.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from pipeline.errors import CommandError
from pipeline.planes.board_view import board_view
from pipeline.planes import PLANE_GROUPS, board_planes
from pipeline.formats.subproblem import Subproblem, parse_subproblem
from pipeline.planes.windows import cut_windows, subproblem_windows
from solver import ProblemError, Solver, load_problem

# The planes of the original dcnn-eval network, the set the throughput target is for.
DCNN_EVAL_PLANES_MODULE = "pipeline.planes.basic"
TARGET_PER_SECOND = 5_000
MOVES_PER_PROBLEM = 6


def derive_subproblems(problems: Path, folder: Path) -> None:
    """Write subproblem SGFs derived from each problem of ``problems`` into ``folder``."""
    for path in sorted(problems.rglob("*.sgf")):
        try:
            problem = load_problem(path)
            solver = Solver(problem)
        except ProblemError:
            continue
        source = str(path.relative_to(problems).with_suffix(""))
        lines = [[]] + [[(move, color)] for move in solver.moves()[:MOVES_PER_PROBLEM]
                        for color in (problem.attacker, problem.defender)]
        for line in lines:
            if not all(solver.play(*move, color) for move, color in line):
                continue
            if not solver.target_captured():
                for to_play in (problem.attacker, problem.defender):
                    sub = Subproblem(size=problem.size, stones=solver.board.to_array(), target=problem.target,
                                     to_play=to_play, available_moves=solver.area_size, source=source)
                    (folder / sub.name()).write_text(sub.to_sgf())
            for _ in line:
                solver.take_back()


def per_second(work, items, repeats: int) -> float:
    """Items per CPU second of ``work`` over ``items``: the median of ``repeats`` passes."""
    work(items[0])  # warm-up: numba kernels load from their cache
    rates = []
    for _ in range(repeats):
        started = time.process_time()
        for item in items:
            work(item)
        rates.append(len(items) / (time.process_time() - started))
    return statistics.median(rates)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", default="../shared/sgf-problems")
    parser.add_argument("--subproblems", default="out/solve-all/subproblems")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        return measure(args)
    except CommandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.code


def measure(args) -> int:
    """Print both tables for the subproblems ``args`` names; returns the exit code."""
    with tempfile.TemporaryDirectory(prefix="features-bench-") as scratch:
        folder = Path(args.subproblems)
        if folder.is_dir() and any(folder.glob("*.sgf")):
            origin = f"subproblems of {folder}"
        else:
            folder = Path(scratch)
            derive_subproblems(Path(args.problems), folder)
            origin = f"subproblems derived from {args.problems} (roots and one move, both sides to play)"
        files = sorted(folder.glob("*.sgf"))
        data = [(f.read_bytes(), str(f)) for f in files]
    subs = []
    for raw, name in data:
        try:
            subs.append(parse_subproblem(raw, name))
        except ProblemError as exc:
            print(f"skipped: {exc}")
    if not subs:
        raise CommandError("no subproblems to measure")
    print(f"{len(subs)} {origin}")

    base_groups = [g for g in PLANE_GROUPS if g.module == DCNN_EVAL_PLANES_MODULE]
    base_planes = sum(len(g.planes) for g in base_groups)
    all_planes = sum(len(g.planes) for g in PLANE_GROUPS)
    rows = [("parse SGF (parse_subproblem)", per_second(lambda d: parse_subproblem(*d), data, args.repeats))]
    base_rate = per_second(lambda s: subproblem_windows(s, base_groups), subs, args.repeats)
    rows.append((f"dcnn-eval planes + windows ({base_planes} planes)", base_rate))
    rows.append((f"all planes + windows ({all_planes} planes)",
                 per_second(subproblem_windows, subs, args.repeats)))

    from pipeline.formats.records import example_bytes

    records = [(subproblem_windows(s), s) for s in subs]
    rows.append(("serialise a record (example_bytes)", per_second(
        lambda r: example_bytes(r[0][0], 0, r[0][1], 0, int(r[1].defender_first), r[1].source, "x"),
        records, args.repeats)))

    print(f"\n{'per subproblem, one core':48s} {'per second':>12s} {'µs each':>9s}")
    for label, rate in rows:
        print(f"{label:48s} {rate:12,.0f} {1e6 / rate:9.1f}")
    verdict = "meets" if base_rate >= TARGET_PER_SECOND else "MISSES"
    print(f"dcnn-eval planes + windows {verdict} the target of {TARGET_PER_SECOND:,}/s/core")

    views = [board_view(s) for s in subs]
    parts = [("board analysis (board_view)", per_second(board_view, subs, args.repeats))]
    # Each group gets a copy of the view with no enclosed regions computed yet,
    # so a group pays for the regions it asks for, as it would alone.
    for group in PLANE_GROUPS:
        added = group.module != DCNN_EVAL_PLANES_MODULE
        label = f"  {group.name} ({len(group.planes)}){' *' if added else ''}"
        parts.append((label, per_second(lambda v, g=group: board_planes(replace(v, region_cache={}), [g]),
                                        views, args.repeats)))
    parts.append(("  (copying the view and registry overhead alone)",
                  per_second(lambda v: board_planes(replace(v, region_cache={}), []), views, args.repeats)))
    cuts = [(board_planes(v), *np.nonzero(v.target)) for v in views]
    parts.append((f"windowing ({all_planes} planes)", per_second(lambda c: cut_windows(*c), cuts, args.repeats)))
    heading = "cost of each part (* added to dcnn-eval's planes)"
    print(f"\n{heading:48s} {'per second':>12s} {'µs each':>9s}")
    for label, rate in parts:
        print(f"{label:48s} {rate:12,.0f} {1e6 / rate:9.1f}")
    print("each group's row includes the copy and registry overhead")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
