"""Solver benchmark: our DFS and df-pn against tsumego.js 1.1.0 on the same problems, one run.

    python -m bench.solver_bench --problems ../shared/sgf-problems [--peer-timeout 60]

Prints a markdown table per problem (verdicts, seconds, nodes of our DFS,
tsumego.js and our df-pn side by side), then the totals, medians, nodes per
second and the ratio of total times DFS / tsumego.js.  JIT compilation is timed
separately and excluded from the per-problem times.

tsumego.js gets ``--peer-timeout`` seconds per problem, so one slow problem
cannot hang the run.  A problem it does not finish shows ``timeout`` and is
left out of the ratio, which is then taken over the problems both finished;
the summary says how many were left out, what DFS spent on them, and what the
ratio would be counting each timeout as its full limit (an upper bound, since
tsumego.js would have needed longer).  A verdict that differs is followed
along a line until one of the two solvers contradicts itself
(:mod:`bench.peer.disagreement`), and the line says which.  The exit status is 1
where a difference is left unexplained (not where tsumego.js contradicts itself).
"""
from __future__ import annotations

import argparse
import statistics
import sys

from bench.common import load_problems, short_name, warm_up
from bench.peer import tsumego_js
from bench.peer.disagreement import follow_disagreement
from pipeline.markdown import markdown_table
from solver import Solver


def _seconds(row: dict) -> str:
    if "seconds" in row:
        return f"{row['seconds']:.4f}"
    return "timeout" if row.get("timed_out") else "-"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", default="../shared/sgf-problems")
    parser.add_argument("--max-nodes", type=int, default=0, help="node budget per solve (0: none)")
    parser.add_argument("--peer-timeout", type=float, default=60.0,
                        help="seconds tsumego.js may spend on one problem")
    args = parser.parse_args(argv)

    problems = load_problems(args.problems)
    warm_up(problems[0])
    dfs, dfpn = {}, {}
    for problem in problems:
        dfs[problem.source] = Solver(problem).solve(problem.to_play, max_nodes=args.max_nodes)
        dfpn[problem.source] = Solver(problem).solve(problem.to_play, algo="dfpn", max_nodes=args.max_nodes)
    peer = {row["file"]: row for row in tsumego_js.solve_files([p.source for p in problems],
                                                                file_timeout=args.peer_timeout)}

    rows, peer_differs, dfpn_differs, timed_out = [], [], [], []
    peer_wrong = 0   # differences where tsumego.js is shown to contradict itself
    for problem in problems:
        ours, other, p = dfs[problem.source], dfpn[problem.source], peer.get(problem.source, {})
        p_status = p.get("status") or ("timeout" if p.get("timed_out") else "error")
        if p.get("timed_out"):
            timed_out.append(problem.source)
        elif p_status != ours.status:
            # where the two part: followed until one of them contradicts itself
            why = ("" if "error" in p else
                   "; " + follow_disagreement(problem, problem.source, file_timeout=args.peer_timeout))
            peer_differs.append(f"{problem.source}: DFS {ours.status}, tsumego.js {p.get('error', p_status)}{why}")
            peer_wrong += why.endswith("tsumego.js contradicts itself")
        if other.status != ours.status:
            dfpn_differs.append(f"{problem.source}: DFS {ours.status}, df-pn {other.status}")
        rows.append([short_name(problem), Solver(problem).area_size, ours.status, p_status, other.status,
                     f"{ours.seconds:.4f}", _seconds(p), f"{other.seconds:.4f}",
                     ours.nodes, p.get("nodes", "-"), other.nodes])
    print()
    print(*markdown_table(["problem", "area", "DFS", "tsumego.js", "df-pn", "DFS s", "tsumego.js s",
                           "df-pn s", "DFS nodes", "tsumego.js nodes", "df-pn nodes"],
                          rows, align="lrlllrrrrrr"), sep="\n")

    finished = [p for p in problems if "seconds" in peer.get(p.source, {})]
    columns = {
        "DFS": ([dfs[p.source].seconds for p in problems], sum(dfs[p.source].nodes for p in problems)),
        "tsumego.js": ([peer[p.source]["seconds"] for p in finished],
                       sum(peer[p.source]["nodes"] for p in finished)),
        "df-pn": ([dfpn[p.source].seconds for p in problems], sum(dfpn[p.source].nodes for p in problems)),
    }
    print()
    print(*markdown_table(["", *columns], [
        ["problems in the totals", *(len(t) for t, _ in columns.values())],
        ["total seconds", *(f"{sum(t):.3f}" for t, _ in columns.values())],
        ["median seconds", *(f"{statistics.median(t):.5f}" if t else "-" for t, _ in columns.values())],
        ["total nodes", *(n for _, n in columns.values())],
        ["nodes per second", *(f"{n / sum(t):,.0f}" if sum(t) else "-" for t, n in columns.values())],
    ]), sep="\n")

    ours_finished = sum(dfs[p.source].seconds for p in finished)
    peer_total = sum(columns["tsumego.js"][0])
    print(f"\nratio of total times (DFS / tsumego.js) over the {len(finished)} problems both finished: "
          f"{ours_finished / peer_total:.3f}" if peer_total else "\nratio: tsumego.js finished no problem")
    if timed_out:
        ours_late = sum(dfs[s].seconds for s in timed_out)
        bound = (ours_finished + ours_late) / (peer_total + args.peer_timeout * len(timed_out))
        print(f"tsumego.js timed out on {len(timed_out)} problems ({args.peer_timeout:g} s each), "
              f"left out of the ratio; DFS took {ours_late:.3f} s on them; counting each timeout "
              f"as {args.peer_timeout:g} s the ratio would be at most {bound:.3f}")
        print(*(f"  {s}" for s in timed_out), sep="\n")
    dfs_total = sum(columns["DFS"][0])
    print(f"ratio of total times (df-pn / DFS): {sum(columns['df-pn'][0]) / dfs_total:.3f}")
    print(f"verdicts that differ, DFS vs tsumego.js: {len(peer_differs)}", *peer_differs, sep="\n  ")
    print(f"verdicts that differ, df-pn vs DFS: {len(dfpn_differs)}", *dfpn_differs, sep="\n  ")
    # exit 1 on a difference not explained (tsumego.js contradicting itself is explained), so
    # that `make bench` goes on to its other benchmarks
    return 1 if len(peer_differs) > peer_wrong or dfpn_differs else 0


if __name__ == "__main__":
    sys.exit(main())
