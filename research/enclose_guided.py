"""Open-board problems through ``enclose``, unguided and guided by a network: what the guide settles.

    python -m research.enclose_guided OPEN_DIR... --guide PATH [--sample N] [--seed S] [--max-nodes N]
                                   [--earlier ENCLOSE_JSONL --outcome unsettled]

Each sampled problem is enclosed twice (``pipeline.enclose.outcome.enclose_file``,
one process, the same node budget a solve), without and with the packed
network ``--guide`` ordering the solver's moves (:mod:`model.guide`).  A
guide changes only the order and the effort, so where both runs settle a
problem they must agree on its outcome, target, goal and winning moves; any
difference is printed and the exit code is 1.  ``--earlier`` with
``--outcome`` samples only the problems an earlier ``enclose`` run
(its ``enclose.jsonl``) gave that outcome, say the unsettled ones.

Prints the outcomes both ways, the problems that only one run settled, and
the nodes and seconds of each (the guide's evaluations included).  BLAS runs
single-threaded, as in ``bench.guided_bench``.
"""
from __future__ import annotations

import bench.single_thread_blas   # noqa: F401  (before numpy loads its BLAS)

import argparse   # noqa: E402
import os   # noqa: E402
import collections   # noqa: E402
import json   # noqa: E402
import random   # noqa: E402
import sys   # noqa: E402
import time   # noqa: E402

from bench.common import open_problems   # noqa: E402
from model.guide import Guide   # noqa: E402
from pipeline.enclose.outcome import enclose_file   # noqa: E402
from pipeline.enclose.command import DEFAULT_MAX_NODES   # noqa: E402
from solver import DEFAULT_MAX_AREA   # noqa: E402

# what must match where both runs settle a problem
SAME = ("outcome", "target", "goal", "winning")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("open", nargs="+", metavar="OPEN_DIR")
    parser.add_argument("--guide", required=True, help="packed network (.tsq) or model folder")
    parser.add_argument("--sample", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES)
    parser.add_argument("--earlier", help="enclose.jsonl of an earlier run, to sample by its outcome")
    parser.add_argument("--outcome", default="unsettled", help="with --earlier: the outcome to sample")
    args = parser.parse_args(argv)

    problems = open_problems(args.open)
    if args.earlier:
        with open(args.earlier) as f:   # matched by the file read, whatever folder was named
            earlier = {os.path.realpath(row["file"]): row["outcome"] for row in map(json.loads, f)}
        problems = {name: path for name, path in problems.items()
                    if earlier.get(os.path.realpath(path)) == args.outcome}
    if not problems:
        print(f"no open-board problems under {', '.join(args.open)}"
              + (f" with outcome {args.outcome} in {args.earlier}" if args.earlier else ""), file=sys.stderr)
        return 1
    chosen = sorted(random.Random(args.seed).sample(sorted(problems), min(args.sample, len(problems))))
    guide = Guide.load(args.guide)
    for warm_guide in (None, guide):   # compilation and the first evaluation, out of the timings
        enclose_file(problems[chosen[0]].read_bytes(), "warm-up", chosen[0], 1000, DEFAULT_MAX_AREA,
                     guide=warm_guide)

    totals = {name: collections.Counter() for name in ("unguided", "guided")}
    outcomes = {name: collections.Counter() for name in totals}
    only = {name: [] for name in totals}
    differ = 0
    for name in chosen:
        data = problems[name].read_bytes()
        rows = {}
        for run, used in (("unguided", None), ("guided", guide)):
            started = time.perf_counter()
            rows[run] = enclose_file(data, str(problems[name]), name, args.max_nodes, DEFAULT_MAX_AREA,
                                     guide=used).record
            totals[run]["seconds"] += time.perf_counter() - started
            totals[run]["nodes"] += rows[run].get("nodes", 0)
            outcomes[run][rows[run]["outcome"]] += 1
        settled = {run: rows[run]["outcome"] != "unsettled" for run in rows}
        if all(settled.values()):
            different = [key for key in SAME if rows["unguided"].get(key) != rows["guided"].get(key)]
            if different:
                differ += 1
                print(f"differ: {name}: " + ", ".join(
                    f"{key} {rows['unguided'].get(key)} / {rows['guided'].get(key)}" for key in different))
        else:
            for run in rows:
                if settled[run]:
                    only[run].append(f"{name} ({rows[run]['outcome']}, area {rows[run].get('area')})")

    print(f"{len(chosen)} problems sampled (seed {args.seed}) of {len(problems)}"
          + (f" whose earlier outcome was {args.outcome}" if args.earlier else "")
          + f"; node budget {args.max_nodes:,} a solve; guide {guide.source}")
    kinds = sorted(set(outcomes["unguided"]) | set(outcomes["guided"]))
    print("\n| run | " + " | ".join(kinds) + " | nodes | seconds |")
    print("|---|" + "---:|" * (len(kinds) + 2))
    for run in totals:
        print(f"| {run} | " + " | ".join(str(outcomes[run][kind]) for kind in kinds)
              + f" | {totals[run]['nodes']:,} | {totals[run]['seconds']:.1f} |")
    for run in only:
        print(f"\nsettled only {run} ({len(only[run])}): " + ("; ".join(only[run]) or "none"))
    print(f"\nguide: {guide.stats()}; settled both ways and different: {differ}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
