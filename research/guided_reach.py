"""How far the solver reaches in a fixed time, unguided and guided: open-board problems nobody has settled.

    python -m research.guided_reach OPEN_DIR... --earlier ENCLOSE_JSONL --guide PATH [--outcome unsettled]
                                 [--areas LOW-HIGH] [--sample N] [--seed S] [--seconds 10] [--algo dfs]

The problems an earlier ``enclose`` run left with ``--outcome`` (by default
``unsettled``: no reading settled within its node budget) are framed again as
that run reported them (those whose reported search area has ``--areas``
empty points): its reading's target, in the frame whose search area has the
reported size (the default frame, then the tighter and the wider ones
of :mod:`pipeline.enclose.question`).  Each framed position is solved with
each side moving first, by each algorithm, unguided and guided by the packed
network ``--guide``, every solve in a process of its own that is stopped at
``--seconds`` of wall time: a solve counts as solved only if it ended within
that time, the guide's evaluations included.  No node budget.

Prints the cases solved within the time each way by search area, the largest
area solved each way, and the nodes and seconds of the cases solved both ways.
Where both ways solve a case their winners must agree: a difference is printed
and the exit code is 1.  BLAS runs single-threaded, as in ``bench.guided_bench``.
"""
from __future__ import annotations

import bench.single_thread_blas   # noqa: F401  (before numpy loads its BLAS)

import argparse   # noqa: E402
import sys   # noqa: E402
import time   # noqa: E402

from bench.common import BUCKETS, drawn, reported_problems, timed_solve, took   # noqa: E402
from pipeline.enclose.reframe import framed_reading   # noqa: E402
from pipeline.markdown import markdown_table   # noqa: E402
from solver import ALGORITHMS, Solver   # noqa: E402
from solver.board import color_letter   # noqa: E402


def main(argv=None) -> int:
    from model.guide import Guide

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("open", nargs="+", metavar="OPEN_DIR")
    parser.add_argument("--earlier", required=True, help="enclose.jsonl of an earlier run")
    parser.add_argument("--outcome", default="unsettled", help="the earlier outcome to sample")
    parser.add_argument("--guide", required=True, help="packed network (.tsq) or model folder")
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--areas", default="0-400", metavar="LOW-HIGH",
                        help="only problems whose reported search area has LOW to HIGH empty points")
    parser.add_argument("--seconds", type=float, default=10.0, help="wall time a solve may take")
    parser.add_argument("--algo", default="dfs", help="comma-separated, of " + ", ".join(ALGORITHMS))
    args = parser.parse_args(argv)
    algorithms = [a for a in args.algo.split(",") if a]
    if not algorithms or any(a not in ALGORITHMS for a in algorithms):
        parser.error(f"--algo: a comma-separated list of {', '.join(ALGORITHMS)}")

    low, _, high = args.areas.partition("-")
    if not (low.isdigit() and high.isdigit()):
        parser.error("--areas: two numbers, LOW-HIGH")
    problems, reported = reported_problems(args.open, args.earlier, args.outcome, int(low), int(high))
    if not problems:
        print(f"no problems under {', '.join(args.open)} with outcome {args.outcome} and {args.areas} "
              f"empty points in {args.earlier}",
              file=sys.stderr)
        return 1
    chosen = drawn(problems, args.sample, args.seed)
    framed = {}
    for name in chosen:
        found = framed_reading(problems[name], reported[name])
        if isinstance(found, str):
            print(f"{name}: left out: {found}")
        else:
            framed[name] = found
    print(f"{len(chosen)} sampled of {len(problems)} with outcome {args.outcome} and {args.areas} empty points: "
          f"{len(framed)} framed again, "
          f"{len(chosen) - len(framed)} left out")
    if not framed:
        return 1

    guide = Guide.load(args.guide)
    started = time.perf_counter()
    first, _ = next(iter(framed.values()))
    for algo in algorithms:   # compile in this process, so that every child inherits the searches
        for warm_guide in (None, guide):
            Solver(first).solve(first.to_play, algo=algo, max_nodes=1000, guide=warm_guide)
    print(f"JIT compilation and the first evaluation: {time.perf_counter() - started:.2f} s (excluded)")

    cases = []   # (name, area, side, algo, unguided, guided)
    differ = []
    for name, (problem, area) in framed.items():
        for side in (problem.to_play, 3 - problem.to_play):
            for algo in algorithms:
                plain = timed_solve(problem, side, algo, None, args.seconds)
                guide.cache.clear()
                guided = timed_solve(problem, side, algo, guide, args.seconds)
                cases.append((name, area, side, algo, plain, guided))
                if plain and guided and plain[0] != guided[0]:
                    differ.append(f"{name} {color_letter(side)} first, {algo}: unguided winner "
                                  f"{color_letter(plain[0])}, guided {color_letter(guided[0])}")
                print(f"{name} ({area} points) {color_letter(side)} first, {algo}: unguided {took(plain)}, "
                      f"guided {took(guided)}", flush=True)

    for algo in algorithms:
        mine = [c for c in cases if c[3] == algo]
        rows = []
        for label, low, high in BUCKETS:
            inside = [c for c in mine if low <= c[1] <= high]
            if inside:
                rows.append([label, len(inside), sum(c[4] is not None for c in inside),
                             sum(c[5] is not None for c in inside),
                             sum(c[4] is None and c[5] is not None for c in inside),
                             sum(c[4] is not None and c[5] is None for c in inside)])
        rows.append(["all", len(mine), sum(c[4] is not None for c in mine), sum(c[5] is not None for c in mine),
                     sum(c[4] is None and c[5] is not None for c in mine),
                     sum(c[4] is not None and c[5] is None for c in mine)])
        print(f"\n{algo}: cases (a problem, a side first) solved within {args.seconds:g} s, by search area\n")
        print(*markdown_table(["empty points", "cases", "unguided", "guided", "guided only", "unguided only"],
                              rows, align="lrrrrr"), sep="\n")
        both_sides = {}
        for c in mine:
            both_sides.setdefault(c[0], []).append(c)
        for way, index in (("unguided", 4), ("guided", 5)):
            solved = [c[0][1] for c in both_sides.values() if all(x[index] is not None for x in c)]
            print(f"{way}: {len(solved)} of {len(both_sides)} problems solved both sides first, "
                  f"the largest {max(solved, default=0)} empty points")
        both = [c for c in mine if c[4] and c[5]]
        for label, subset in (("", both), (" and 1 s or more unguided", [c for c in both if c[4][2] >= 1])):
            if subset:
                nodes = [sum(c[index][1] for c in subset) for index in (4, 5)]
                seconds = [sum(c[index][2] for c in subset) for index in (4, 5)]
                print(f"the {len(subset)} cases solved both ways{label}: nodes {nodes[0]:,} unguided, "
                      f"{nodes[1]:,} guided ({nodes[1] / nodes[0]:.3f}); seconds {seconds[0]:.1f} and "
                      f"{seconds[1]:.1f} ({seconds[1] / seconds[0]:.3f})")
    print(f"\nwinners that differ where both ways solved: {len(differ)}", *differ, sep="\n  ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
