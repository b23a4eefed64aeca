"""Move generation's rows stay aligned: each move's recorded target liberties are the board's.

df-pn seeds a fresh child's numbers from the target's liberties after the move
(``movegen.C_TARGET_LIBERTIES``, filled by ``generate_moves``); sorting and
removing moves must carry that row along with the moves, or the knowledge
would land on the wrong child.  Checked on the own problems, both sides to
move, against a recount on the board after each move is played.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from solver import BLACK, WHITE, Solver, load_problem
from solver.movegen import (C_MOVES, C_SCORES, C_TARGET_LIBERTIES, generate_moves, remove_move,
                            sort_moves)
from solver.rules import NO_MOVE, PASS

OWN_PROBLEMS = sorted((Path(__file__).resolve().parents[1] / "sgf-problems").glob("eye-shapes/*.sgf"))
# liberties are counted up to this many (movegen.generate_moves)
COUNTED_UP_TO = 8


def recounted_liberties(solver: Solver, move: int, color: int) -> int:
    """The target's liberties after ``move`` (0 if it is captured), counted on the board."""
    x, y = solver.board.xy(move)
    assert solver.play(x, y, color)
    try:
        if solver.target_captured():
            return 0
        return min(solver.board.liberties(*solver.problem.target), COUNTED_UP_TO)
    finally:
        solver.take_back()


def assert_rows_aligned(solver: Solver, color: int, count: int) -> None:
    moves = solver.context[C_MOVES][0]
    liberties = solver.context[C_TARGET_LIBERTIES][0]
    for i in range(count):
        if moves[i] != PASS:
            assert liberties[i] == recounted_liberties(solver, int(moves[i]), color), i


def test_the_own_problems_are_there():
    assert len(OWN_PROBLEMS) >= 10


@pytest.mark.parametrize("path", OWN_PROBLEMS, ids=lambda p: p.stem)
def test_target_liberties_follow_their_moves_through_sort_and_removal(path):
    problem = load_problem(str(path))
    for color in (BLACK, WHITE):
        solver = Solver(problem)
        count, _ = generate_moves(solver.context, color, 0, 0, NO_MOVE)
        assert_rows_aligned(solver, color, count)
        sort_moves(solver.context, 0, count)
        scores = solver.context[C_SCORES][0]
        assert all(scores[i] >= scores[i + 1] for i in range(count - 1))
        assert_rows_aligned(solver, color, count)
        while count > 1:
            count = remove_move(solver.context, 0, count, count // 2)
            assert_rows_aligned(solver, color, count)
