"""Positions of the project's own problems for tests that need real boards: each problem's
root and the positions after the attacker's first moves, as the solver generates them."""
from __future__ import annotations

from pathlib import Path

from solver import Solver, load_problem

PROBLEMS = Path(__file__).resolve().parents[1] / "sgf-problems"


def own_positions(every: int, first_moves: int = 2):
    """(index of the problem, its path, the problem, the solver at the position, the move played
    or None) for every ``every``-th own problem's root and its attacker's first ``first_moves``
    legal moves; the solver is taken back after each position is used."""
    for n, path in enumerate(sorted(PROBLEMS.glob("*/*.sgf"))[::every]):
        problem = load_problem(path)
        solver = Solver(problem)
        for move in [None] + solver.moves()[:first_moves]:
            if move is not None and not solver.play(*move, problem.attacker):
                continue
            yield n, path, problem, solver, move
            if move is not None:
                solver.take_back()
