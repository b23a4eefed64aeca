"""The transposition table: its entry count through solves and growth, its bound and what a full one drops."""
from pathlib import Path

import numpy as np
import pytest

from solver import Solver, load_problem
from solver.table import table_slot

PROBLEM = Path(__file__).resolve().parents[1] / "sgf-problems" / "eye-shapes" / "bulky-five-corner-live.sgf"


@pytest.mark.parametrize("algo", ["dfs", "dfpn"])
def test_the_count_is_the_number_of_keys_after_solves_and_growth(algo):
    problem = load_problem(PROBLEM)
    solver = Solver(problem, table_log2=2)    # four slots: every solve grows the table
    table = solver.tables[algo]
    for to_play in (problem.to_play, 3 - problem.to_play):
        solver.solve(to_play, algo=algo)
        assert table.keys.size > 4
        assert len(table) == np.count_nonzero(table.keys) > 0


@pytest.mark.parametrize("algo", ["dfs", "dfpn"])
def test_a_solve_on_a_table_of_its_own_leaves_the_solver_s_table_as_it_was(algo):
    problem = load_problem(PROBLEM)
    solver = Solver(problem)
    own = solver.new_table(algo, 2)     # four slots: the solve grows it
    verdict = solver.solve(problem.to_play, algo=algo, table=own)
    assert len(solver.tables[algo]) == 0 and len(own) > 4
    assert verdict.winner == Solver(problem).solve(problem.to_play, algo=algo).winner


# A few hundred entries: 1,024 DFS slots or 256 df-pn slots, three quarters of them used at most.
TINY_TABLE_MB = 0.02
OWN = Path(__file__).resolve().parents[1] / "sgf-problems"
# Own problems that take thousands of nodes (kos among them), far more than the tiny table holds.
PROBLEMS = ["ko/side-notch-ko.sgf", "ko/side-ten-ko.sgf", "ko/side-first-line-ko.sgf",
            "approach/edge-approach-ko.sgf", "side-shapes/ten-space-side-kill.sgf",
            "large-areas/side-twelve-points-live.sgf"]


def _check_bound(table, max_bytes):
    """The table stays within its bound, at most three quarters full, and finds every key it holds."""
    assert table.nbytes <= max_bytes and table.keys.size == table.max_slots
    assert len(table) == np.count_nonzero(table.keys) <= table.keys.size * 3 // 4
    held = np.flatnonzero(table.keys)
    assert all(table_slot(table.keys, table.keys[i]) == i for i in held)


@pytest.mark.parametrize("algo", ["dfs", "dfpn"])
def test_a_tiny_table_gives_the_verdicts_of_an_unbounded_one(algo):
    filled = 0
    for name in PROBLEMS:
        problem = load_problem(OWN / name)
        for to_play in (problem.to_play, 3 - problem.to_play):
            full = Solver(problem, max_table_mb=0).solve(to_play, algo=algo)
            solver = Solver(problem, max_table_mb=TINY_TABLE_MB)
            table = solver.tables[algo]
            tiny = solver.solve(to_play, algo=algo)
            assert full.status != "unknown"
            assert tiny.status == full.status, (name, to_play)
            _check_bound(table, TINY_TABLE_MB * 2**20)
            filled += len(table) == table.keys.size * 3 // 4
    assert filled >= len(PROBLEMS)   # the bound was reached, so entries were dropped


def test_a_tiny_table_keeps_its_bound_across_the_solves_of_a_walk():
    """A Solver walking a problem's moves (as solve-all does) reuses one table: it stays bounded."""
    problem = load_problem(OWN / PROBLEMS[0])
    solver = Solver(problem, max_table_mb=TINY_TABLE_MB)
    reference = Solver(problem, max_table_mb=0)
    for x, y in solver.moves()[:6]:
        for s in (solver, reference):
            assert s.play(x, y, problem.to_play)
        if not solver.target_captured():
            for algo in ("dfs", "dfpn"):
                for to_play in (problem.to_play, 3 - problem.to_play):
                    expected = reference.solve(to_play, algo=algo).status
                    assert solver.solve(to_play, algo=algo).status == expected
        for s in (solver, reference):
            s.take_back()
    for algo in ("dfs", "dfpn"):
        _check_bound(solver.tables[algo], TINY_TABLE_MB * 2**20)
