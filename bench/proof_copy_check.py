"""df-pn's proof copied into DFS's table (solver.proof_copy), checked on a folder of problems.

    python -m bench.proof_copy_check [--problems ../shared/sgf-problems] [--max-nodes 2000000] [--workers 2]

Each problem, each side first, the attacker as ko master: a DFS solve (the judge) and a df-pn
solve with the time search's knowledge, each within ``--max-nodes``; where both settle, the
df-pn proof is copied into that solver's DFS table and the main line read on it.  Counts the
keys both DFS tables hold as exact and those whose winners differ, and the lines that do
not end with the judge's winner as that winner's lines end (a capture for the attacker, two
passes for the defender).  Exit code 1 if any differ.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import sys

import numpy as np

from bench.common import load_problems
from pipeline.time_search import time_search_options
from solver import Solver
from solver.proof_copy import copy_proof
from solver.solver import ko_master_value

EXACT = 1   # solver.dfs's table value: bit 0 exact, bits 1-2 winner


def exact_winners(table) -> dict[int, int]:
    """key -> winner of every exact entry in a DFS table."""
    held = (table.keys != 0) & (table.values[:, 0] & EXACT != 0)
    return dict(zip(table.keys[held].tolist(), ((table.values[held, 0] >> 1) & 3).tolist()))


def check(job) -> dict:
    """One problem, both sides first: the counts of the module doc."""
    problem, max_nodes = job
    out = {"problem": problem.source, "cases": 0, "shared": 0, "differ": 0, "bad_lines": []}
    for first in (1, 2):
        judge = Solver(problem)
        plain = judge.solve(first, max_nodes=max_nodes)
        solver = Solver(problem, **time_search_options())
        proved = solver.solve(first, algo="dfpn", max_nodes=max_nodes)
        if plain.winner is None or proved.winner is None:
            continue
        out["cases"] += 1
        copy_proof(solver, first, ko_master_value("attacker", solver.defender))
        copies, own = exact_winners(solver.tables["dfs"]), exact_winners(judge.tables["dfs"])
        both = copies.keys() & own.keys()
        out["shared"] += len(both)
        out["differ"] += int(np.count_nonzero([copies[key] != own[key] for key in both]))
        line = solver.principal_variation(first, max_nodes=2 * max_nodes)
        if not (line.winner == plain.winner == proved.winner and line.complete
                and line.captured == (line.winner != solver.defender)):
            out["bad_lines"].append({"first": first, "winner": line.winner, "ended": line.ended})
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", default="../shared/sgf-problems")
    parser.add_argument("--max-nodes", type=int, default=2_000_000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    problems = load_problems(args.problems, with_pl_only=False)
    total = {"problems": len(problems), "cases": 0, "shared": 0, "differ": 0, "bad lines": 0}
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for out in pool.imap_unordered(check, [(p, args.max_nodes) for p in problems]):
            for key in ("cases", "shared", "differ"):
                total[key] += out[key]
            total["bad lines"] += len(out["bad_lines"])
            if out["differ"] or out["bad_lines"]:
                print(json.dumps(out), flush=True)
    print(" ".join(f"{key}: {value:,}" for key, value in total.items()))
    return 1 if total["differ"] or total["bad lines"] else 0


if __name__ == "__main__":
    sys.exit(main())
