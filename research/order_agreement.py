"""The move order never changes a verdict: DFS under random move priors against df-pn.

    python -m research.order_agreement --problems ../shared/sgf-problems [--also DIR...] [--limit N]
                                    [--seeds 6] [--max-nodes 300000]

For every problem (those of ``--problems``, then of each ``--also`` folder, at
most ``--limit`` of each), each side moving first and each ko master, df-pn
solves the position unguided; then DFS solves it once per seed with a random
move prior (the guide's hook, :mod:`model.guide`'s ``fill``) that reorders
its moves.  Every DFS verdict must be df-pn's: any that differs is printed,
and the exit code is 1.  Cases df-pn does not settle within the budget are
skipped, and a DFS solve out of budget counts as no answer.
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

from bench.common import load_problems, warm_up
from solver import Solver
from solver.movegen import MAX_PRIOR_WEIGHT


class RandomGuide:
    """A guide whose prior is random numbers over the search area, both colours, weighed as
    heavily as the solver allows."""

    weight = MAX_PRIOR_WEIGHT

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def fill(self, solver, prior: np.ndarray) -> None:
        prior[:] = 0.0
        prior[1:3, solver.area_cells] = self.rng.random((2, solver.area_cells.size))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", default="../shared/sgf-problems")
    parser.add_argument("--also", nargs="*", default=["sgf-problems"], help="more problem folders")
    parser.add_argument("--limit", type=int, default=0, help="at most this many problems a folder (0: all)")
    parser.add_argument("--seeds", type=int, default=6, help="random orders a case")
    parser.add_argument("--max-nodes", type=int, default=300_000, help="node budget a solve")
    args = parser.parse_args(argv)

    problems = []
    for folder in [args.problems, *args.also]:
        found = load_problems(folder)
        problems += found[:args.limit] if args.limit else found
    warm_up(problems[0])
    cases = orders = differ = skipped = 0
    for problem in problems:
        for to_play in (problem.to_play, 3 - problem.to_play):
            for ko_master in ("attacker", "defender"):
                expected = Solver(problem).solve(to_play, ko_master=ko_master, algo="dfpn",
                                                 max_nodes=args.max_nodes).winner
                if expected is None:
                    skipped += 1
                    continue
                cases += 1
                for seed in range(args.seeds):
                    got = Solver(problem).solve(to_play, ko_master=ko_master, max_nodes=args.max_nodes,
                                                guide=RandomGuide(seed)).winner
                    orders += 1
                    if got is not None and got != expected:
                        differ += 1
                        print(f"DIFFERS: {problem.source}, {'BW'[to_play - 1]} first, {ko_master} ko master, "
                              f"seed {seed}: DFS {got}, df-pn {expected}", flush=True)
    print(f"order agreement: {cases} cases x {args.seeds} orders = {orders} DFS solves, {differ} differ "
          f"from df-pn; {skipped} cases df-pn did not settle within {args.max_nodes:,} nodes")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
