"""Reach: the readings enclose leaves unsettled, solved within a fixed wall time, before and after.

    python -m bench.reach_bench [--readings FILE.jsonl...] [--areas 12-40] [--sample N] [--seed S]
                                [--seconds 10] [--algo dfs|dfpn]

Each line of ``--readings`` (by default ``bench/draws/unsettled-readings.jsonl``) is a
reading an ``enclose`` run left unsettled: the book problem's file, the target and the size
of its search area (the format of `bench/draws`).  Each is framed again as that run framed it
(:func:`pipeline.enclose.reframe.framed_reading`) and solved with its side to play first, in a
forked process stopped at ``--seconds`` of wall time, no node budget: once without the
solver's static race count (:mod:`solver.race`, "before") and once with it ("after").
Prints, by search area, the readings each way settled in time, the largest area settled,
and the nodes and seconds where both settled; where both settle, the winners must agree
(exit code 1 otherwise).  Unguided: the guide's gains are ``research.guided_reach``'s.
"""
from __future__ import annotations

import bench.single_thread_blas   # noqa: F401  (before numpy loads its BLAS)

import argparse   # noqa: E402
import json   # noqa: E402
import random   # noqa: E402
import sys   # noqa: E402
import time   # noqa: E402
from pathlib import Path   # noqa: E402

from bench.common import BUCKETS, timed_solve, took   # noqa: E402
from pipeline.enclose.reframe import framed_reading   # noqa: E402
from pipeline.markdown import markdown_table   # noqa: E402
from solver import ALGORITHMS, Solver   # noqa: E402
from solver.board import color_letter   # noqa: E402

REPOSITORY = Path(__file__).resolve().parents[1]
DEFAULT_READINGS = REPOSITORY / "bench" / "draws" / "unsettled-readings.jsonl"
WAYS = (("before", False), ("after", True))


def read_readings(paths: list[str]) -> list[dict]:
    """The readings listed in ``paths`` (one listed twice, the same file and target, is one
    reading), in file order; each line's ``file`` relative to the repository's root."""
    readings, seen = [], set()
    for path in paths:
        with open(path) as lines:
            for row in map(json.loads, lines):
                if (row["file"], row["target"]) not in seen:
                    seen.add((row["file"], row["target"]))
                    readings.append(row)
    return readings


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readings", nargs="+", default=[str(DEFAULT_READINGS)], metavar="FILE.jsonl")
    parser.add_argument("--areas", default="12-40", metavar="LOW-HIGH",
                        help="only readings whose search area has LOW to HIGH empty points")
    parser.add_argument("--sample", type=int, default=0, help="this many readings drawn (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=10.0, help="wall time a solve may take")
    parser.add_argument("--algo", default="dfs", choices=ALGORITHMS)
    args = parser.parse_args(argv)
    low, _, high = args.areas.partition("-")
    if not (low.isdigit() and high.isdigit()):
        parser.error("--areas: two numbers, LOW-HIGH")

    readings = [r for r in read_readings(args.readings) if int(low) <= r["area"] <= int(high)]
    if args.sample:
        readings = random.Random(args.seed).sample(readings, min(args.sample, len(readings)))
    framed = []
    for row in readings:
        found = framed_reading(REPOSITORY / row["file"], row)
        if isinstance(found, str):
            print(f"{row['file']}: left out: {found}")
        else:
            framed.append((row["file"], *found))
    print(f"{len(framed)} readings of {args.areas} empty points framed again ({len(readings) - len(framed)} "
          f"left out), each solved with its side to play first, {args.algo}, within {args.seconds:g} s")
    if not framed:
        return 1
    started = time.perf_counter()
    _, first, _ = framed[0]
    for _, race in WAYS:   # compile here, so that every child inherits the searches
        Solver(first, race=race).solve(first.to_play, algo=args.algo, max_nodes=1000)
    print(f"JIT compilation: {time.perf_counter() - started:.2f} s (excluded)")

    cases = []   # (file, area, before, after)
    differ = []
    for name, problem, area in framed:
        results = [timed_solve(problem, problem.to_play, args.algo, None, args.seconds, race=race) for _, race in WAYS]
        cases.append((name, area, *results))
        before, after = results
        if before and after and before[0] != after[0]:
            differ.append(f"{name}: winner {color_letter(before[0])} before, {color_letter(after[0])} after")
        print(f"{name} ({area} points, {color_letter(problem.to_play)} first): before {took(before)}, "
              f"after {took(after)}", flush=True)

    rows = []
    for label, lo, hi in BUCKETS + (("all", 0, 10**6),):
        inside = [c for c in cases if lo <= c[1] <= hi]
        if inside:
            rows.append([label, len(inside), sum(c[2] is not None for c in inside),
                         sum(c[3] is not None for c in inside),
                         max((c[1] for c in inside if c[2]), default="-"),
                         max((c[1] for c in inside if c[3]), default="-")])
    print(f"\nreadings settled within {args.seconds:g} s, by search area\n")
    print(*markdown_table(["empty points", "readings", "before", "after", "largest before", "largest after"],
                          rows, align="lrrrrr"), sep="\n")
    both = [c for c in cases if c[2] and c[3]]
    if both:
        nodes = [sum(c[i][1] for c in both) for i in (2, 3)]
        seconds = [sum(c[i][2] for c in both) for i in (2, 3)]
        print(f"\nthe {len(both)} readings settled both ways: nodes {nodes[0]:,} before, {nodes[1]:,} after "
              f"({nodes[1] / nodes[0]:.3f}); seconds {seconds[0]:.1f} and {seconds[1]:.1f} "
              f"({seconds[1] / seconds[0]:.3f})")
    print(f"winners that differ where both settled: {len(differ)}", *differ, sep="\n  ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
