"""The sibling hints (Kawano's simulation as move ordering, solver.dfs) against plain search.

A node below a refuted sibling takes as its hint the move that won the
position it answers to in that sibling's subtree.  That only reorders the
moves, so the verdicts with the hints on and off must be the same
everywhere: on random races read to the end (each side first, each ko
master, DFS and df-pn), on the reference problems and on the project's own
problems; and the hints must change the order somewhere, or the test proves
nothing.
"""
from __future__ import annotations

import itertools

import numpy as np

from solver import BLACK, WHITE, Solver
from tests.test_race import _own_problems, _random_problems

BUDGET = 2_000_000


def _agree(problems, budget, ko_masters, algos=("dfs",)):
    """(cases settled both ways, cases whose node count the hints changed), by search."""
    settled = {algo: 0 for algo in algos}
    reordered = {algo: 0 for algo in algos}
    for problem in problems:
        on, off = Solver(problem), Solver(problem, sibling_hints=False)
        for algo, side, ko_master in itertools.product(algos, (BLACK, WHITE), ko_masters):
            a = on.solve(side, ko_master=ko_master, algo=algo, max_nodes=budget)
            b = off.solve(side, ko_master=ko_master, algo=algo, max_nodes=budget)
            assert a.winner == b.winner or None in (a.winner, b.winner), (problem.source, algo, side, ko_master)
            settled[algo] += a.winner is not None and b.winner is not None
            reordered[algo] += a.nodes != b.nodes
    return settled, reordered


def test_random_races_agree_on_and_off():
    problems = _random_problems(np.random.default_rng(63), 150, 150)
    settled, reordered = _agree(problems, BUDGET, ("attacker", "defender", "none"), ("dfs", "dfpn"))
    for algo in ("dfs", "dfpn"):
        assert settled[algo] >= 1200 and reordered[algo] >= 200, (algo, settled, reordered)


def test_reference_problems_agree_on_and_off(shared_problems):
    settled, reordered = _agree(shared_problems, 1_000_000, ("attacker", "defender"))
    assert settled["dfs"] >= 300 and reordered["dfs"] >= 50, (settled, reordered)


def test_own_problems_agree_on_and_off():
    problems = _own_problems()
    settled, reordered = _agree(problems, 1_000_000, ("attacker",), ("dfs", "dfpn"))
    for algo in ("dfs", "dfpn"):
        assert settled[algo] >= 2 * len(problems) - 4 and reordered[algo] >= 50, (algo, settled, reordered)
