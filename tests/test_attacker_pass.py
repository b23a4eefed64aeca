"""The attacker's pass, while it is ko master, is searched only where it could win.

``movegen.generate_moves`` leaves it out while no pass situation is on the path (a
board move wins wherever the pass would: the comment there says why), and DFS skips it
where every board move has lost on every path.  Checked on a written position in its
eight orientations and both colours; the verdicts are checked against the reference
problems' labels and df-pn (test_solver_reference) and the peer
(test_peer_differential).
"""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.symmetries import transform, transform_point
from solver import BLACK, WHITE
from solver.board import EMPTY
from solver.solver import ko_master_value
from test_eye_fill import SIZE, generated, positions, solver_for


@pytest.mark.parametrize("index", range(16))
def test_the_attackers_pass_is_left_out_only_as_ko_master_before_any_pass(index):
    stones, target, defender, eye, not_an_eye = list(positions())[index]
    solver = solver_for(stones, target, defender)
    attacker = 3 - defender
    master = ko_master_value("attacker", defender)
    moves = generated(solver, attacker, master)
    assert "pass" not in moves
    assert not_an_eye in moves          # its board moves are all there
    # a pass situation on the path: the pass may win by it, and is searched
    assert "pass" in generated(solver, attacker, master, tags=1)
    for ko_master in ("defender", "none"):
        km = ko_master_value(ko_master, defender)
        assert "pass" in generated(solver, attacker, km), ko_master
    # the defender's pass is its own: always there while the target has two liberties
    assert "pass" in generated(solver, defender, master)


# A target that lives whoever starts: a straight four on the edge ('X' defender, '@' the
# target, 'O' attacker, rows from the top), not yet pass-alive, so the search reads it.
LIVING_ROWS = [
    "....@O",
    "@@@@@O",
    "OOOOOO",
]


def living_positions():
    """(stones, target, defender) of the straight four in each orientation and colour."""
    for defender in (BLACK, WHITE):
        stones = np.zeros((SIZE, SIZE), dtype=np.int8)
        for y, row in enumerate(LIVING_ROWS):
            for x, ch in enumerate(row):
                stones[y, x] = {".": EMPTY, "@": defender, "O": 3 - defender}[ch]
        for symmetry in range(8):
            yield transform(stones, symmetry), transform_point(4, 0, symmetry, SIZE), defender


@pytest.mark.parametrize("algo", ["dfs", "dfpn"])
def test_where_the_attacker_loses_as_ko_master_it_loses_without_its_threats(algo):
    """The step the rule rests on: the position after the attacker's pass and the
    defender's pass back (the same stones, the attacker's threats void) is no better for
    the attacker, so where every board move loses the pass loses too.  Here the attacker
    has no pass to try at the root, and the verdict is the one with its threats void."""
    for stones, target, defender in living_positions():
        attacker = 3 - defender
        solver = solver_for(stones, target, defender)
        assert "pass" not in generated(solver, attacker, ko_master_value("attacker", defender))
        assert "pass" in generated(solver, attacker, ko_master_value("none", defender))
        as_master = solver.solve(attacker, ko_master="attacker", algo=algo)
        voided = solver_for(stones, target, defender).solve(attacker, ko_master="none", algo=algo)
        assert as_master.winner == voided.winner == defender
        assert as_master.nodes > 1          # read, not static life
