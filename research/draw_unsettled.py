"""Draws book problems an earlier ``enclose`` run left unsettled into a draws file (``bench/draws/``).

    python -m research.draw_unsettled OPEN_DIR... --earlier ENCLOSE_JSONL --seed S [--sample N]
                                   [--areas LOW-HIGH] [--outcome unsettled] [--exclude DRAWS.jsonl...]
                                   --out FILE.jsonl

The problems are chosen as ``research.guided_reach`` chooses them (the same
filter by outcome and reported area, the same seeded sample), less those
already listed in the ``--exclude`` files, which are removed before the sample
so that a fresh draw holds ``--sample`` problems nobody has measured on.  Each
line of ``--out`` is the earlier run's reading as ``research.guided_budget
--draws`` and ``research.guided_reach --earlier`` read it: the file (as found
under OPEN_DIR, so relative to the current folder if OPEN_DIR is), the
outcome, the target and the search area's size, and ``draw``, the seed.  No
positions: the files stay where they are.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from bench.common import drawn, reported_problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("open", nargs="+", metavar="OPEN_DIR")
    parser.add_argument("--earlier", required=True, help="enclose.jsonl of an earlier run")
    parser.add_argument("--outcome", default="unsettled", help="the earlier outcome to sample")
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, required=True, help="the draw's seed, written as its number")
    parser.add_argument("--areas", default="0-400", metavar="LOW-HIGH",
                        help="only problems whose reported search area has LOW to HIGH empty points")
    parser.add_argument("--exclude", nargs="*", default=[], metavar="DRAWS.jsonl",
                        help="draws files whose problems are not drawn again")
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args(argv)
    low, _, high = args.areas.partition("-")
    if not (low.isdigit() and high.isdigit()):
        parser.error("--areas: two numbers, LOW-HIGH")
    if args.out.exists():
        parser.error(f"--out: {args.out} exists; a draw is written once")

    excluded = set()
    for name in args.exclude:
        with open(name) as f:
            excluded |= {os.path.realpath(json.loads(line)["file"]) for line in f if line.strip()}
    problems, reported = reported_problems(args.open, args.earlier, args.outcome, int(low), int(high),
                                           frozenset(excluded))
    chosen = drawn(problems, args.sample, args.seed)
    if not chosen:
        print(f"no problems under {', '.join(args.open)} with outcome {args.outcome} and {args.areas} "
              f"empty points in {args.earlier} outside the excluded draws", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w") as out:
        for name in chosen:
            row = reported[name]
            out.write(json.dumps(dict(file=str(problems[name]), outcome=row["outcome"], target=row["target"],
                                      area=row["area"], draw=args.seed)) + "\n")
    print(f"{len(chosen)} drawn (seed {args.seed}) of {len(problems)} with outcome {args.outcome} and "
          f"{args.areas} empty points, {len(excluded)} earlier draws' problems excluded: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
