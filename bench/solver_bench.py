"""Solver benchmark: ours (DFS) against tsumego.js 1.1.0 on the same problems, one run.

    python -m bench.solver_bench --problems ../shared/sgf-problems

Prints a markdown table per problem (verdicts, seconds, nodes side by side),
then the totals, the ratio of total times, medians and nodes per second.
JIT compilation is timed separately and excluded from the per-problem times.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from bench.peer import tsumego_js
from solver import ProblemError, Solver, load_problem


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", default="../shared/sgf-problems")
    parser.add_argument("--algo", default="dfs", choices=("dfs", "dfpn"))
    parser.add_argument("--max-nodes", type=int, default=0)
    args = parser.parse_args(argv)

    files = sorted(str(p) for p in Path(args.problems).rglob("*.sgf"))
    problems = []
    for f in files:
        try:
            problems.append(load_problem(f))
        except ProblemError:
            continue
    print(f"{len(files)} files, {len(problems)} with PL and MA and a closed wall")

    started = time.perf_counter()
    Solver(problems[0]).solve(problems[0].to_play, algo=args.algo)
    print(f"JIT compilation and first solve: {time.perf_counter() - started:.2f} s (excluded below)")

    ours = {}
    for problem in problems:
        verdict = Solver(problem).solve(problem.to_play, algo=args.algo, max_nodes=args.max_nodes)
        ours[problem.source] = verdict
    peer = {row["file"]: row for row in tsumego_js.solve_files([p.source for p in problems])}

    print()
    print("| problem | area | ours | tsumego.js | ours s | tsumego.js s | ours nodes | tsumego.js nodes |")
    print("|---|---:|---|---|---:|---:|---:|---:|")
    disagreements = []
    our_times, peer_times, our_nodes, peer_nodes = [], [], 0, 0
    for problem in problems:
        v = ours[problem.source]
        p = peer.get(problem.source, {})
        p_status = p.get("status", "error")
        if p_status != v.status:
            disagreements.append(problem.source)
        name = "/".join(Path(problem.source).parts[-2:])
        area = Solver(problem).area_size
        print(f"| {name} | {area} | {v.status} | {p_status} | {v.seconds:.4f} | "
              f"{p.get('seconds', float('nan')):.4f} | {v.nodes} | {p.get('nodes', '-')} |")
        our_times.append(v.seconds)
        our_nodes += v.nodes
        if "seconds" in p:
            peer_times.append(p["seconds"])
            peer_nodes += p["nodes"]
    total_ours, total_peer = sum(our_times), sum(peer_times)
    print()
    print("| | ours | tsumego.js |")
    print("|---|---:|---:|")
    print(f"| problems | {len(our_times)} | {len(peer_times)} |")
    print(f"| total seconds | {total_ours:.3f} | {total_peer:.3f} |")
    print(f"| median seconds | {statistics.median(our_times):.5f} | {statistics.median(peer_times):.5f} |")
    print(f"| total nodes | {our_nodes} | {peer_nodes} |")
    print(f"| nodes per second | {our_nodes / total_ours:,.0f} | {peer_nodes / total_peer:,.0f} |")
    print(f"\nratio of total times (ours / tsumego.js): {total_ours / total_peer:.3f}")
    print(f"verdicts that differ: {len(disagreements)}", *disagreements, sep="\n  ")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
