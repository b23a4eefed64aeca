"""The defender does not fill an eye of the target block while the attacker is ko master.

``movegen.generate_moves`` leaves out such a move (its pass dominates it:
``movegen.fills_target_eye`` says why), and only then; the verdicts stay the
solver's (the reference problems' labels are checked in test_solver_reference,
the peer's in test_peer_differential).  Checked on a written position in its
eight orientations and both colours.
"""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.symmetries import transform, transform_point
from solver import BLACK, WHITE, Solver
from solver.board import EMPTY
from solver.movegen import C_COUNTERS, C_MOVES, generate_moves
from solver.problem import Problem, _check_legal
from solver.rules import NO_MOVE, PASS
from solver.solver import ko_master_value
from solver.table import TAGS

SIZE = 9
# 'X' defender, '@' the target, 'O' attacker, '.' empty, rows from the top.  The corner
# point is an eye of the target block (both its neighbours are target stones); the
# target's three other liberties make no second eye in one move, so no move makes it
# pass-alive (which would be generated alone) and both sides have moves.
ROWS = [
    ".X.O",
    "X@.O",
    "O.OO",
    "OOO.",
]
EYE = (0, 0)
NOT_AN_EYE = (2, 1)


def positions():
    """(stones, target, defender, the eye, a liberty that is not an eye) in each orientation and
    colour."""
    for defender in (BLACK, WHITE):
        stones = np.zeros((SIZE, SIZE), dtype=np.int8)
        for y, row in enumerate(ROWS):
            for x, ch in enumerate(row):
                stones[y, x] = {".": EMPTY, "X": defender, "@": defender, "O": 3 - defender}[ch]
        for symmetry in range(8):
            yield (transform(stones, symmetry), transform_point(1, 1, symmetry, SIZE), defender,
                   transform_point(*EYE, symmetry, SIZE), transform_point(*NOT_AN_EYE, symmetry, SIZE))


def solver_for(stones, target, defender) -> Solver:
    problem = Problem("written", SIZE, np.ascontiguousarray(stones), target, defender)
    _check_legal(problem)
    return Solver(problem)


def generated(solver: Solver, color: int, km: int, tags: int = 0) -> set:
    """The moves generate_moves gives ``color`` at the root, with ``tags`` pass situations
    counted on the path (C_TAGS)."""
    counters = solver.context[C_COUNTERS]
    counters[TAGS] = tags
    try:
        count, _ = generate_moves(solver.context, color, km, 0, NO_MOVE)
    finally:
        counters[TAGS] = 0
    moves = solver.context[C_MOVES][0][:count]
    return {"pass" if m == PASS else solver.board.xy(int(m)) for m in moves}


@pytest.mark.parametrize("index", range(16))
def test_the_eye_is_left_out_only_with_the_attacker_as_ko_master(index):
    stones, target, defender, eye, not_an_eye = list(positions())[index]
    solver = solver_for(stones, target, defender)
    with_master = generated(solver, defender, ko_master_value("attacker", defender))
    assert eye not in with_master
    assert "pass" in with_master
    assert not_an_eye in with_master
    for ko_master in ("defender", "none"):
        assert eye in generated(solver, defender, ko_master_value(ko_master, defender)), ko_master
    # the attacker's moves are its own: the eye is a suicide for it, the rest are there
    attacker_moves = generated(solver, 3 - defender, ko_master_value("attacker", defender))
    assert eye not in attacker_moves and not_an_eye in attacker_moves


def test_the_verdicts_are_the_same_in_every_orientation_and_colour():
    verdicts = set()
    for stones, target, defender, _, _ in positions():
        for first in ("defender", "attacker"):
            to_play = defender if first == "defender" else 3 - defender
            for ko_master in ("attacker", "defender", "none"):
                for algo in ("dfs", "dfpn"):
                    verdict = solver_for(stones, target, defender).solve(to_play, ko_master=ko_master,
                                                                          algo=algo)
                    verdicts.add((first, ko_master, verdict.status))
    # one status per question, whatever the orientation, colour or algorithm
    assert len(verdicts) == 6
