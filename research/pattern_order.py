"""The learned move patterns against the liberty heuristic (or other weights): nodes, time and verdicts.

    python -m research.pattern_order --enclosed OUT/enclosed [--sample 60] [--areas 14-17] \\
        [--algo dfs,dfpn] [--max-nodes 1000000] [--workers 2] [--log FILE.jsonl] \\
        [--patterns FILE.npz] [--baseline FILE.npz]

The cases: every reference problem with PL (``../shared/sgf-problems``) and
``--sample`` enclosed book problems drawn (seed 0) from the half of an
``enclose`` output the shipped patterns were *not* fitted on
(:func:`solver.pattern_training.training_half`), each side first.  Each case is
solved unguided twice in one process, by the baseline's order (the liberty
heuristic, ``move_patterns=False``, unless ``--baseline`` names weights) and
by the patterns' (the shipped ones unless ``--patterns`` names others), so
both see the same load.  Prints, per algorithm and set: the cases settled each
way, the nodes and seconds of the cases settled both ways (patterns over
baseline), the median ratio over the cases of 100,000 nodes or more, and any
verdict that differs (there should be none).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from solver import ProblemError, Solver, load_problem, search_area
from solver.pattern_training import enclosed_names
from solver.patterns import MovePatterns

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "sgf-problems"


def cases(enclosed: Path, sample: int, areas: tuple[int, int]) -> list[tuple[str, str]]:
    """(set, problem file) pairs: the reference problems, then the drawn enclosed ones."""
    out = []
    for path in sorted(SHARED.resolve().rglob("*.sgf")):
        try:
            search_area(load_problem(str(path), require_to_play=True))
        except ProblemError:
            continue
        out.append(("reference", str(path)))
    names = enclosed_names(enclosed, areas, training=False)
    for name in sorted(random.Random(0).sample(names, min(sample, len(names)))):
        out.append(("enclosed", str(enclosed / f"{name}.sgf")))
    return out


def weights(path: str | None, default: bool):
    """The ``move_patterns`` a solver is given for a weights file, or ``default`` without one."""
    return MovePatterns.load(path) if path else default


def solve_case(job) -> list[dict]:
    """Each side of one problem solved in both orders; ``job`` is (set, path, algo, max nodes,
    baseline weights file or None, patterns weights file or None)."""
    kind, path, algo, max_nodes, baseline, patterns_file = job
    problem = load_problem(path, require_to_play=True)
    orders = (("baseline", weights(baseline, False)), ("patterns", weights(patterns_file, True)))
    rows = []
    for side in (problem.to_play, 3 - problem.to_play):
        row = {"set": kind, "file": path, "side": side, "algo": algo}
        for name, patterns in orders:
            verdict = Solver(problem, move_patterns=patterns).solve(side, algo=algo, max_nodes=max_nodes)
            row[name] = {"winner": verdict.winner, "nodes": verdict.nodes, "seconds": round(verdict.seconds, 4)}
        rows.append(row)
    return rows


def warm_up(job) -> None:
    """Compile the searches in this process before anything is timed."""
    algo, path = job
    problem = load_problem(path, require_to_play=True)
    for patterns in (False, True):   # the code is compiled once for any weights
        Solver(problem, move_patterns=patterns).solve(problem.to_play, algo=algo, max_nodes=1000)


def summary(rows: list[dict]) -> list[str]:
    lines = ["| algorithm | set | cases | settled, baseline / patterns | nodes, patterns / baseline "
             "| seconds, patterns / baseline | median case ≥ 100,000 nodes | verdicts differ |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for algo in sorted({r["algo"] for r in rows}):
        for kind in ("reference", "enclosed", "all"):
            chosen = [r for r in rows if r["algo"] == algo and (kind == "all" or r["set"] == kind)]
            if not chosen:
                continue
            both = [r for r in chosen if r["baseline"]["winner"] is not None and r["patterns"]["winner"] is not None]
            differ = sum(r["baseline"]["winner"] != r["patterns"]["winner"] for r in both)
            nodes = [sum(r[k]["nodes"] for r in both) for k in ("baseline", "patterns")]
            seconds = [sum(r[k]["seconds"] for r in both) for k in ("baseline", "patterns")]
            big = [r["patterns"]["nodes"] / r["baseline"]["nodes"] for r in both if r["baseline"]["nodes"] >= 100_000]
            settled = [sum(r[k]["winner"] is not None for r in chosen) for k in ("baseline", "patterns")]
            median = f"{statistics.median(big):.3f} ({len(big)})" if big else "-"
            lines.append(f"| {algo} | {kind} | {len(chosen)} | {settled[0]} / {settled[1]} "
                         f"| {nodes[1] / max(1, nodes[0]):.3f} ({nodes[1]:,} / {nodes[0]:,}) "
                         f"| {seconds[1] / max(1e-9, seconds[0]):.3f} ({seconds[1]:.1f} / {seconds[0]:.1f}) "
                         f"| {median} | {differ} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--enclosed", type=Path, required=True, help="an enclose output folder")
    parser.add_argument("--sample", type=int, default=60)
    parser.add_argument("--areas", default="14-17")
    parser.add_argument("--algo", default="dfs,dfpn")
    parser.add_argument("--max-nodes", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--log", type=Path, help="one JSON line per case")
    parser.add_argument("--patterns", help="the weights measured (default: the shipped ones)")
    parser.add_argument("--baseline", help="the weights compared with (default: the liberty heuristic)")
    args = parser.parse_args(argv)
    for given in (args.patterns, args.baseline):
        if given:
            try:
                MovePatterns.load(given)
            except ValueError as exc:
                parser.error(str(exc))
    low, high = (int(x) for x in args.areas.split("-"))
    chosen = cases(args.enclosed, args.sample, (low, high))
    algos = args.algo.split(",")
    jobs = [(kind, path, algo, args.max_nodes, args.baseline, args.patterns)
            for algo in algos for kind, path in chosen]
    rows = []
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for algo in algos:
            list(pool.map(warm_up, [(algo, chosen[0][1])] * args.workers))
        for result in pool.map(solve_case, jobs):
            rows.extend(result)
            if args.log:
                with args.log.open("a") as log:
                    for row in result:
                        log.write(json.dumps(row) + "\n")
    print(f"{sum(k == 'reference' for k, _ in chosen)} reference and {sum(k == 'enclosed' for k, _ in chosen)} "
          f"enclosed problems ({low}-{high} empty points, the half the patterns were not fitted on), "
          f"both sides first, {args.max_nodes:,} nodes a solve; baseline: {args.baseline or 'the liberty heuristic'}, "
          f"patterns: {args.patterns or 'the shipped weights'}")
    print("\n".join(summary(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
