"""Solve times of the project's own problems (DFS, the side in PL moving first), one run.

    python -m bench.own_problems_bench --problems sgf-problems

Prints a markdown table of every problem's area (empty points of the search
area), verdict, nodes and seconds, then the median and total time and the
nodes per second.  JIT compilation is timed separately and excluded.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from pipeline.markdown import markdown_table
from solver import ALGORITHMS, ProblemError, Solver, load_problem


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", default="sgf-problems")
    parser.add_argument("--algo", default="dfs", choices=ALGORITHMS)
    args = parser.parse_args(argv)

    root = Path(args.problems)
    problems, failed = [], 0
    for path in sorted(root.rglob("*.sgf")):
        try:
            problems.append(load_problem(path))
        except ProblemError as error:
            print(f"error: {error}", file=sys.stderr)
            failed += 1
    if not problems:
        print(f"no problems under {root}", file=sys.stderr)
        return 1

    started = time.perf_counter()
    Solver(problems[0]).solve(problems[0].to_play, algo=args.algo)
    print(f"JIT compilation and first solve: {time.perf_counter() - started:.2f} s (excluded below)\n")

    rows, seconds, nodes = [], [], 0
    for problem in problems:
        solver = Solver(problem)
        verdict = solver.solve(problem.to_play, algo=args.algo)
        name = Path(problem.source).relative_to(root).with_suffix("").as_posix()
        rows.append([name, solver.area_size, "BW"[problem.to_play - 1], verdict.status, verdict.nodes,
                     f"{verdict.seconds:.4f}"])
        seconds.append(verdict.seconds)
        nodes += verdict.nodes
    print(*markdown_table(["problem", "area", "to play", "status", "nodes", "seconds"], rows,
                         align="lrllrr"), sep="\n")
    total = sum(seconds)
    print(f"\n{len(problems)} problems ({failed} unreadable), {args.algo}: median {statistics.median(seconds):.4f} s, "
          f"max {max(seconds):.4f} s, total {total:.3f} s, {nodes} nodes, {nodes / total:,.0f} nodes/s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
