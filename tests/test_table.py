"""The transposition table keeps its entry count through solves and growth without rescanning."""
from pathlib import Path

import numpy as np
import pytest

from solver import Solver, load_problem

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
