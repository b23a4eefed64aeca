"""The table's reuse of exact results against the judge that reuses none.

DFS stores a result as exact when it relied on no position of the path
(solver.rules), and reuses it on every later path.  Where repetitions are
banned by path, such reuse can carry a result onto a path where it does not
hold (graph-history interaction: the relevance-zone prototype's plain table
met it, RESULTS.md §145).  ``Solver(reuse_exact=False)`` reads every node on
its own path, taking stored results only as move order: on the project's ko
problems, each side first, each ko master, both must answer the same, and the
judge must read more nodes, or it reused something.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from solver import BLACK, WHITE, Solver, load_problem

ROOT = Path(__file__).resolve().parents[1]
KO_PROBLEMS = sorted((ROOT / "sgf-problems" / "ko").glob("*.sgf"))
BUDGET = 3_000_000


@pytest.mark.parametrize("path", KO_PROBLEMS, ids=lambda p: p.stem)
def test_the_table_answers_as_the_judge_that_reuses_nothing(path):
    problem = load_problem(path)
    reused, judged = Solver(problem), Solver(problem, reuse_exact=False)
    more_nodes = 0
    for side, ko_master in itertools.product((BLACK, WHITE), ("attacker", "none", "defender")):
        a = reused.solve(side, ko_master=ko_master, algo="dfs", max_nodes=BUDGET)
        b = judged.solve(side, ko_master=ko_master, algo="dfs", max_nodes=BUDGET)
        assert a.winner is not None and b.winner is not None, (path.stem, side, ko_master)
        assert a.winner == b.winner, (path.stem, side, ko_master)
        more_nodes += b.nodes > a.nodes
    assert more_nodes > 0
