"""df-pn's simulation (Kawano's, solver.dfpn._simulate) against plain df-pn.

A child met for the first time beside a move refuted on every path is first tried with
that refutation replayed; what the replay proves is stored as exact.  Exactness is the
contract: with the simulation on and off the verdicts must be the same everywhere (random
pockets and races, each side first, each ko master; the reference and the own problems),
and it must prove something somewhere, or the test proves nothing.
"""
from __future__ import annotations

import itertools

import numpy as np

from solver import BLACK, WHITE, Solver
from solver.dfpn import SIMULATION_NODES
from solver.table import SIMULATED
from tests.test_race import _own_problems, _random_problems


def _agree(problems, budget, ko_masters, check_moves=True):
    """(cases settled both ways, siblings the simulation proved); with ``check_moves``, plain
    DFS finds no refutation of each winning move the simulation's df-pn gives."""
    settled = proved = 0
    for problem in problems:
        on, off = Solver(problem, simulation_nodes=SIMULATION_NODES), Solver(problem)
        for side, ko_master in itertools.product((BLACK, WHITE), ko_masters):
            a = on.solve(side, ko_master=ko_master, algo="dfpn", max_nodes=budget)
            proved += int(on.counters[SIMULATED])
            b = off.solve(side, ko_master=ko_master, algo="dfpn", max_nodes=budget)
            assert a.winner == b.winner or None in (a.winner, b.winner), (problem.source, side, ko_master)
            settled += a.winner is not None and b.winner is not None
            if check_moves and a.winner == side and a.move != "pass":
                # the move it gives wins: plain DFS finds no refutation
                check = Solver(problem)
                check.play(*a.move, side)
                if not check.target_captured():
                    reply = check.solve(3 - side, ko_master=ko_master, max_nodes=budget)
                    assert reply.winner in (side, None), (problem.source, side, ko_master, a.move)
    return settled, proved


def test_random_pockets_and_races_agree_on_and_off():
    problems = _random_problems(np.random.default_rng(84), 100, 100)
    settled, proved = _agree(problems, 1_000_000, ("attacker", "defender", "none"))
    assert settled >= 800 and proved >= 1000, (settled, proved)


def test_reference_problems_agree_on_and_off(shared_problems):
    settled, proved = _agree(shared_problems, 1_000_000, ("attacker",), check_moves=False)
    assert settled >= 150 and proved >= 1000, (settled, proved)


def test_own_problems_agree_on_and_off():
    problems = _own_problems()
    settled, proved = _agree(problems, 1_000_000, ("attacker", "defender"))
    assert settled >= 4 * len(problems) - 8 and proved >= 50, (settled, proved)
