"""The main line (solver.main_line): the principal variation cut where the status is settled.

Checked against its definition with fresh solvers (no warm table, no history): after
the cut the winner wins whatever single move the loser makes and the loser moves again;
at every winner's move before it, some loser move followed by the loser again wins for
the loser; the cut is a prefix of the full line ending with the winner's move.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from solver import BLACK, WHITE, Problem, Solver, load_problem
from solver.main_line import settled_length

ROOT = Path(__file__).resolve().parents[1]
# every third own problem (the folder sorted), both sides first
PROBLEMS = sorted((ROOT / "sgf-problems").rglob("*.sgf"))[::3]


def position_after(problem: Problem, moves) -> Problem:
    board = problem.board()
    for color, move in moves:
        if move != "pass":
            assert board.play(*move, color) >= 0
    return Problem(problem.source, problem.size, board.to_array(), problem.target, problem.to_play)


def loser_can_unsettle(position: Problem, loser: int, winner: int) -> bool:
    """Whether some loser move, the loser moving again, beats ``winner`` (fresh solves)."""
    solver = Solver(position)
    for x, y in solver.moves():
        if not solver.play(x, y, loser):
            continue
        if solver.target_captured():
            return True
        fresh = Solver(position_after(position, [(loser, (x, y))]))
        if fresh.solve(loser, max_nodes=2_000_000).winner != winner:
            return True
        solver.take_back()
    return False


@pytest.mark.parametrize("path", PROBLEMS, ids=lambda p: p.stem)
@pytest.mark.parametrize("first", [BLACK, WHITE], ids=["black-first", "white-first"])
def test_the_cut_is_where_the_status_is_first_settled(path, first):
    problem = load_problem(path)
    solver = Solver(problem)
    line = solver.principal_variation(first)
    assert line.winner is not None
    cut = settled_length(solver, line)
    assert 1 <= cut <= len(line.moves)
    assert np.array_equal(solver.board.to_array(), problem.stones)   # every move taken back
    loser = 3 - line.winner
    if cut < len(line.moves):
        assert line.moves[cut - 1][0] == line.winner
        if any(move == "pass" for _, move in line.moves[:cut]):
            return   # a pass on the way: the fresh position has another history; checked above only
        assert not loser_can_unsettle(position_after(problem, line.moves[:cut]), loser, line.winner)
    for index, (color, move) in enumerate(line.moves[:cut - 1]):
        if color == line.winner and move != "pass" and "pass" not in [m for _, m in line.moves[:index + 1]]:
            # an earlier winner's move: the loser could still turn the status there
            assert loser_can_unsettle(position_after(problem, line.moves[:index + 1]), loser, line.winner)


def test_past_its_time_the_check_leaves_the_line_whole_and_the_board_as_it_was():
    """``cpu_until`` bounds the checks (solve --seconds's line): none made, the whole line kept."""
    import time
    problem = load_problem(PROBLEMS[0])
    solver = Solver(problem)
    line = solver.principal_variation(BLACK)
    assert settled_length(solver, line) < len(line.moves)   # a line the checks would cut
    assert settled_length(solver, line, cpu_until=time.thread_time() - 1) == len(line.moves)
    assert settled_length(solver, line, cpu_until=time.thread_time() + 60) == settled_length(solver, line)
    assert np.array_equal(solver.board.to_array(), problem.stones)
