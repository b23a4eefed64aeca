"""df-pn against DFS on every reference problem: verdicts, winning moves, cost.

    python -m bench.dfpn_agreement --problems ../shared/sgf-problems [--sides pl|both]
                                   [--ko-masters attacker|both] [--max-nodes N] [--all]

For each problem, each side moving first and each ko master asked for, both
searches solve the position; df-pn's winning move is then played and DFS must
find that the opponent cannot win after it (a pass is reported, not checked:
the solver has no way to play one).  Prints a markdown table per case (both
verdicts, nodes, seconds, the move check), then totals, and exits 1 if any
verdict differs, any search ran out of budget or any move fails.  The test
suite checks a fixed subset of these cases; this is the full run
(``make check-dfpn``).

``--all`` adds the problems without PL (both sides first; most are far larger):
a search out of budget (or a move check that runs out) is then counted, not a
failure.  The totals end with the hard cases, those either search took
``HARD_SECONDS`` or more on and both solved, where the two searches' speeds
are compared.
"""
from __future__ import annotations

import argparse
import statistics
import sys

from bench.common import load_problems, short_name, warm_up
from pipeline.markdown import markdown_table
from pipeline.progress import progress_bar
from solver import Solver
from solver.board import color_letter

# a case where either search takes this long is a hard one
HARD_SECONDS = 1.0


def check_move(problem, to_play: int, ko_master: str, verdict, max_nodes: int) -> str:
    """'wins' if DFS finds the opponent lost after ``verdict.move``, else why not."""
    if verdict.winner != to_play:
        return "-"
    if verdict.move == "pass":
        return "pass"
    solver = Solver(problem)
    if not solver.play(*verdict.move, to_play):
        return "ILLEGAL"
    if solver.target_captured():
        return "wins"
    reply = solver.solve(3 - to_play, ko_master=ko_master, max_nodes=max_nodes)
    return "wins" if reply.winner == to_play else "LOSES" if reply.winner else "unknown"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", default="../shared/sgf-problems")
    parser.add_argument("--sides", choices=("pl", "both"), default="both",
                        help="the side in PL[] only, or both sides moving first")
    parser.add_argument("--ko-masters", choices=("attacker", "both"), default="both",
                        help="the attacker as ko master only, or the defender too")
    parser.add_argument("--max-nodes", type=int, default=50_000_000, help="node budget per solve")
    parser.add_argument("--all", action="store_true",
                        help="the problems without PL too (both sides first); running out of budget is no failure")
    args = parser.parse_args(argv)

    problems = load_problems(args.problems, with_pl_only=not args.all)
    warm_up(problems[0])
    ko_masters = ("attacker", "defender") if args.ko_masters == "both" else ("attacker",)

    def sides(problem):
        if problem.to_play is None:
            return (problem.attacker, problem.defender)
        return (problem.to_play, 3 - problem.to_play) if args.sides == "both" else (problem.to_play,)

    cases = [(problem, to_play, ko_master) for problem in problems for to_play in sides(problem)
             for ko_master in ko_masters]

    rows, dfs_runs, dfpn_runs, failures = [], [], [], []
    for problem, to_play, ko_master in progress_bar(cases, desc="df-pn vs DFS", unit="case"):
        dfs = Solver(problem).solve(to_play, ko_master=ko_master, max_nodes=args.max_nodes)
        dfpn = Solver(problem).solve(to_play, ko_master=ko_master, algo="dfpn", max_nodes=args.max_nodes)
        move = check_move(problem, to_play, ko_master, dfpn, args.max_nodes)
        dfs_runs.append(dfs)
        dfpn_runs.append(dfpn)
        case = f"{short_name(problem)} {color_letter(to_play)} first, {ko_master} ko master"
        out_of_budget = "unknown" in (dfs.status, dfpn.status)
        if (dfpn.status != dfs.status and not (args.all and out_of_budget)) or (out_of_budget and not args.all):
            failures.append(f"{case}: DFS {dfs.status}, df-pn {dfpn.status}")
        if move in ("ILLEGAL", "LOSES") or (move == "unknown" and not args.all):
            failures.append(f"{case}: df-pn's move {dfpn.sgf_move} {move}")
        shown = f"{dfpn.sgf_move} {move}" if dfpn.move is not None else move
        rows.append([short_name(problem), color_letter(to_play), ko_master, dfs.status, dfs.nodes,
                     f"{dfs.seconds:.4f}", dfpn.status, dfpn.nodes, f"{dfpn.seconds:.4f}", shown])

    print()
    print(*markdown_table(["problem", "to play", "ko master", "DFS", "DFS nodes", "DFS s", "df-pn",
                           "df-pn nodes", "df-pn s", "df-pn move"], rows, align="llllrrlrrl"), sep="\n")
    print()
    totals = [["cases", len(dfs_runs), len(dfpn_runs)]]
    for label, measure in (("total nodes", lambda runs: f"{sum(v.nodes for v in runs)}"),
                           ("total seconds", lambda runs: f"{sum(v.seconds for v in runs):.3f}"),
                           ("median seconds", lambda runs: f"{statistics.median(v.seconds for v in runs):.5f}"),
                           ("nodes per second",
                            lambda runs: f"{sum(v.nodes for v in runs) / sum(v.seconds for v in runs):,.0f}")):
        totals.append([label, measure(dfs_runs), measure(dfpn_runs)])
    totals.append(["out of budget", sum(v.winner is None for v in dfs_runs), sum(v.winner is None for v in dfpn_runs)])
    hard = [(a, b) for a, b in zip(dfs_runs, dfpn_runs) if a.winner is not None and b.winner is not None
            and max(a.seconds, b.seconds) >= HARD_SECONDS]
    totals.append([f"the {len(hard)} cases of {HARD_SECONDS:g} s or more, solved by both: total nodes",
                   sum(a.nodes for a, _ in hard), sum(b.nodes for _, b in hard)])
    totals.append(["the same cases: total seconds", f"{sum(a.seconds for a, _ in hard):.3f}",
                   f"{sum(b.seconds for _, b in hard):.3f}"])
    if hard:
        totals.append(["the same cases: median seconds", f"{statistics.median(a.seconds for a, _ in hard):.3f}",
                       f"{statistics.median(b.seconds for _, b in hard):.3f}"])
    print(*markdown_table(["", "DFS", "df-pn"], totals), sep="\n")
    checked = sum(1 for v, (_, to_play, _) in zip(dfpn_runs, cases) if v.winner == to_play and v.move != "pass")
    print(f"\ndf-pn winning moves checked by DFS: {checked}; "
          f"passes not checked: {sum(1 for v in dfpn_runs if v.move == 'pass')}")
    print(f"failures (verdicts that differ, budgets run out, moves that do not win): {len(failures)}",
          *failures, sep="\n  ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
