"""The network guiding the solver: nodes and seconds guided and unguided, the same verdicts.

    python -m bench.guided_bench --problems ../shared/sgf-problems --guide PATH
                                 [--max-nodes N] [--algo dfs,dfpn] [--all] [--weight W] [--fade N]

Every problem with PL, MA and a closed wall (the set of ``bench.solver_bench``;
``--all`` adds those without PL, most of them far larger: 135 of their 194 cases
need over 300,000 nodes) is solved with each side moving first, by each
algorithm asked for,
unguided and guided by the packed network ``--guide`` (a ``.tsq`` file or a
model folder, :mod:`model.guide`), each solve on a fresh solver.  A guided
verdict that differs from the unguided one is an error: it is listed and the
exit code is 1 (a solve out of budget either way is counted, not an error).

Prints a markdown table with a row per case that takes 1 s or more, or 200,000
nodes or more, unguided (and per case solved within budget one way only); then
per algorithm the totals and medians over all cases, and the totals over those of
1 s or more and over those of 200,000 nodes or more, guided / unguided (with
``--all`` also over the problems with PL and those without apart: the prior's
weight was chosen on the first, so the second are held out), and the cost of the guide (network evaluations, ms
each; an evaluation is counted in the guided seconds).  The guide's cache is
cleared before each guided solve, so every solve pays for its own evaluations.
JIT compilation and the first evaluation are timed separately and excluded.

BLAS runs single-threaded (``OPENBLAS_NUM_THREADS=1`` and its kin, unless set):
on a loaded machine a threaded BLAS spent 20 times longer on the network's
small products.
"""
from __future__ import annotations

import bench.single_thread_blas   # noqa: F401  (before numpy loads its BLAS)

import argparse   # noqa: E402
import statistics   # noqa: E402
import sys   # noqa: E402

from bench.common import load_problems, short_name, warm_up   # noqa: E402
from pipeline.markdown import markdown_table   # noqa: E402
from solver import ALGORITHMS, Solver   # noqa: E402
from solver.board import color_letter   # noqa: E402

# a case gets its own row when unguided it takes at least this long or this many nodes
ROW_SECONDS = 1.0
ROW_NODES = 200_000


def ratio(guided: float, unguided: float) -> str:
    return f"{guided / unguided:.3f}" if unguided else "-"


def summary_rows(algo: str, cases: list) -> list[list]:
    """Totals and medians of ``cases`` ``(problem, side, unguided, guided, evaluations, eval s)``."""
    if not cases:
        return [[algo, "cases", 0, "", ""]]
    both = [c for c in cases if c[2].winner is not None and c[3].winner is not None]
    nodes = [sum(c[2].nodes for c in cases), sum(c[3].nodes for c in cases)]
    both_nodes = [sum(c[2].nodes for c in both), sum(c[3].nodes for c in both)]
    seconds = [sum(c[2].seconds for c in cases), sum(c[3].seconds for c in cases)]
    per_case = [c[3].nodes / c[2].nodes for c in cases if c[2].nodes]
    evaluations = sum(c[4] for c in cases)
    eval_seconds = sum(c[5] for c in cases)
    return [
        [algo, "cases (solved both ways)", f"{len(cases)} ({len(both)})", "", ""],
        [algo, "out of budget", sum(c[2].winner is None for c in cases),
         sum(c[3].winner is None for c in cases), ""],
        [algo, "total nodes", nodes[0], nodes[1], ratio(nodes[1], nodes[0])],
        [algo, "total nodes, cases solved both ways", both_nodes[0], both_nodes[1],
         ratio(both_nodes[1], both_nodes[0])],
        [algo, "median nodes", statistics.median(c[2].nodes for c in cases),
         statistics.median(c[3].nodes for c in cases), ""],
        [algo, "median of the per-case ratios", "", "", f"{statistics.median(per_case):.3f}"],
        [algo, "cases guided fewer / more nodes", "",
         f"{sum(c[3].nodes < c[2].nodes for c in cases)} / {sum(c[3].nodes > c[2].nodes for c in cases)}", ""],
        [algo, "total seconds", f"{seconds[0]:.3f}", f"{seconds[1]:.3f}", ratio(seconds[1], seconds[0])],
        [algo, "median seconds", f"{statistics.median(c[2].seconds for c in cases):.5f}",
         f"{statistics.median(c[3].seconds for c in cases):.5f}", ""],
        [algo, "guide: evaluations, ms each, share of guided s", "",
         f"{evaluations}, {1000 * eval_seconds / max(evaluations, 1):.2f} ms", ratio(eval_seconds, seconds[1])],
    ] + large_case_rows(algo, both)


def large_case_rows(algo: str, both: list) -> list[list]:
    """Total nodes and seconds over the cases solved both ways that took ROW_NODES nodes or
    ROW_SECONDS seconds or more unguided (where the guide is meant to pay)."""
    rows = []
    for label, large in ((f"{ROW_NODES:,} nodes", lambda c: c[2].nodes >= ROW_NODES),
                         (f"{ROW_SECONDS:g} s", lambda c: c[2].seconds >= ROW_SECONDS)):
        cases = [c for c in both if large(c)]
        nodes = [sum(c[2].nodes for c in cases), sum(c[3].nodes for c in cases)]
        seconds = [sum(c[2].seconds for c in cases), sum(c[3].seconds for c in cases)]
        rows += [[algo, f"total nodes, the {len(cases)} cases of {label} or more unguided", nodes[0], nodes[1],
                  ratio(nodes[1], nodes[0])],
                 [algo, "total seconds, the same cases", f"{seconds[0]:.3f}", f"{seconds[1]:.3f}",
                  ratio(seconds[1], seconds[0])]]
    return rows


def main(argv=None) -> int:
    from model.guide import Guide

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", default="../shared/sgf-problems")
    parser.add_argument("--guide", required=True, help="packed network (.tsq) or model folder")
    parser.add_argument("--max-nodes", type=int, default=10_000_000, help="node budget per solve (0: none)")
    parser.add_argument("--algo", default="dfs,dfpn", help="comma-separated, of " + ", ".join(ALGORITHMS))
    parser.add_argument("--all", action="store_true",
                        help="the problems without PL too (both sides are solved anyway)")
    parser.add_argument("--weight", type=float,
                        help="the prior's weight in the move order (default: the guide's, by its architecture)")
    parser.add_argument("--fade", type=float,
                        help="the nodes over which the prior fades (0: it does not; default: the guide's)")
    args = parser.parse_args(argv)
    algorithms = [a for a in args.algo.split(",") if a]
    if not algorithms or any(a not in ALGORITHMS for a in algorithms):
        parser.error(f"--algo: a comma-separated list of {', '.join(ALGORITHMS)}")

    guide = Guide.load(args.guide)
    if args.weight is not None:
        guide.weight = args.weight
    if args.fade is not None:
        if args.fade < 0:
            parser.error("--fade must not be negative")
        guide.fade_nodes = args.fade
    print(f"guide: {guide.source} ({guide.net.architecture}, {guide.net.blocks} blocks, "
          f"{len(guide.net.planes)} planes), weight {guide.weight}, "
          + (f"fading over {guide.fade_nodes:g} nodes" if guide.fade_nodes else "not fading"))
    problems = load_problems(args.problems, not args.all)
    if not problems:
        print(f"no problems under {args.problems}", file=sys.stderr)
        return 1
    warm_up(problems[0], algorithms, guide)

    runs = {algo: [] for algo in algorithms}   # (problem, side, unguided, guided, evaluations, eval s)
    differ = []
    for problem in problems:
        for side in (problem.attacker, problem.defender):
            for algo in algorithms:
                plain = Solver(problem).solve(side, algo=algo, max_nodes=args.max_nodes)
                guide.cache.clear()
                evaluations, eval_seconds = guide.evaluations, guide.seconds
                guided = Solver(problem).solve(side, algo=algo, max_nodes=args.max_nodes, guide=guide)
                runs[algo].append((problem, side, plain, guided, guide.evaluations - evaluations,
                                   guide.seconds - eval_seconds))
                if plain.winner is not None and guided.winner is not None and plain.winner != guided.winner:
                    differ.append(f"{short_name(problem)} {color_letter(side)} first, {algo}: "
                                  f"unguided {plain.status}, guided {guided.status}")

    rows = []
    for algo in algorithms:
        for problem, side, plain, guided, _, _ in runs[algo]:
            solved_once = (plain.winner is None) != (guided.winner is None)
            big = plain.winner is not None and (plain.seconds >= ROW_SECONDS or plain.nodes >= ROW_NODES)
            if big or solved_once:
                rows.append([short_name(problem), color_letter(side), algo, plain.status, guided.status,
                             plain.nodes, guided.nodes, ratio(guided.nodes, plain.nodes),
                             f"{plain.seconds:.3f}", f"{guided.seconds:.3f}",
                             ratio(guided.seconds, plain.seconds)])
    print(f"\ncases of {ROW_SECONDS:g} s or {ROW_NODES:,} nodes or more unguided, and those solved "
          "one way only (out of budget the other):\n")
    print(*markdown_table(["problem", "first", "algo", "unguided", "guided", "nodes", "guided nodes",
                           "ratio", "s", "guided s", "ratio"], rows, align="lllllrrrrrr"), sep="\n")

    subsets = [("all", lambda problem: True)]
    if args.all:
        # the weight was chosen on the problems with PL: those without are held out
        subsets += [("with PL", lambda problem: problem.to_play is not None),
                    ("without PL", lambda problem: problem.to_play is None)]
    for label, keep in subsets:
        summary = []
        for algo in algorithms:
            summary += summary_rows(algo, [c for c in runs[algo] if keep(c[0])])
        print(f"\n{label} ({sum(keep(p) for p in problems)} problems, both sides first):\n")
        print(*markdown_table(["algo", "", "unguided", "guided", "guided / unguided"], summary,
                              align="llrrr"), sep="\n")
    print(f"\nverdicts that differ, guided vs unguided: {len(differ)}", *differ, sep="\n  ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
