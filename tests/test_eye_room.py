"""No room for two eyes (solver.eye_room) against plain search.

Every claim the rule makes is re-solved with the rule and the race count off, each
claimed side to move, and the attacker's claimed move played and solved again: on
written positions in their eight orientations and both colours, on random walled
pockets and along random lines of every own problem.  Whole solves agree with the rule
on and off, both searches.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from pipeline.symmetries import transform, transform_point
from solver import BLACK, WHITE, ProblemError, Solver
from tests.test_benson import random_pockets
from tests.test_move_generation import positions_along_random_lines
from tests.test_race import _own_problems, _parse, _solver

BUDGET = 1_000_000

# (name, rows as in tests/test_race: X defender, @ target, O attacker; claimed)
WRITTEN = [
    ("one interior point, the other liberties beside the wall", [
        "X.X@.O",
        "XXXXOO",
        "OOOOO.",
    ], True),
    ("two interior points apart: room for two eyes", [
        ".X.X@O",
        "XXXXXO",
        "OOOOOO",
    ], False),
    ("an eye of two points: not claimed (the rule asks one point at most)", [
        "..XX@.O",
        "XXXXXOO",
        "OOOOOO.",
    ], False),
    ("a straight three: the defender to move lives", [
        "...X@.O",
        "XXXXXOO",
        "OOOOOO.",
    ], False),
    ("an attacker stone beside the room that is not wall", [
        "X.XO.O",
        "XX@XOO",
        "OOOOO.",
    ], False),
    ("a second defender block in the room, beside the wall", [
        "@X.XO.",
        "XXXOO.",
        "OOOO..",
    ], True),
]


def _checked(solver: Solver, side: int, move) -> str | None:
    """Why the claim fails under plain search (the solver's rule and count off), or None."""
    attacker = solver.problem.attacker
    solver.context.race[0] = 0      # DFS asks no room rule by default; the count off too
    try:
        if solver.solve(side, max_nodes=BUDGET, table=solver.new_table("dfs", 12)).winner != attacker:
            return "verdict"
        if side == attacker:
            assert solver.play(*move, side)
            lost = not solver.target_captured() and solver.solve(
                3 - side, max_nodes=BUDGET, table=solver.new_table("dfs", 12)).winner != attacker
            solver.take_back()
            if lost:
                return "move"
        return None
    finally:
        solver.context.race[0] = 1


@pytest.mark.parametrize("name, rows, claimed", WRITTEN, ids=[w[0] for w in WRITTEN])
def test_written_positions_in_every_orientation_and_colour(name, rows, claimed):
    for defender in (BLACK, WHITE):
        stones, (tx, ty) = _parse(rows, defender)
        for symmetry in range(8):
            solver = _solver(transform(stones, symmetry), transform_point(tx, ty, symmetry, 9))
            for side in (BLACK, WHITE):
                proved, move = solver.no_room(side)
                assert proved == claimed, (name, defender, symmetry, side)
                if proved:
                    assert _checked(solver, side, move) is None, (name, defender, symmetry, side)


def test_every_claim_in_random_pockets_is_the_plain_searchs():
    rng = np.random.default_rng(77)
    claims, wrong = Counter(), []
    for stones, target in random_pockets(rng, 3000, heights=(2, 4), fill="...XXXO"):
        try:
            solver = _solver(np.ascontiguousarray(stones), target)
        except ProblemError:
            continue
        for side in (BLACK, WHITE):
            proved, move = solver.no_room(side)
            if proved:
                claims[side == solver.problem.attacker] += 1
                why = _checked(solver, side, move)
                if why:
                    wrong.append((stones.tolist(), target, side, why))
    assert not wrong, wrong[:3]
    assert claims[True] >= 100 and claims[False] >= 100, claims


def test_every_claim_along_random_lines_of_the_own_problems_is_the_plain_searchs():
    claims, wrong = 0, []
    for path, solver, color in positions_along_random_lines(23, moves_a_line=24):
        for side in (color, 3 - color):
            proved, move = solver.no_room(side)
            if proved:
                claims += 1
                why = _checked(solver, side, move)
                if why:
                    wrong.append((path.name, solver.history[:], side, why))
    assert not wrong, wrong[:3]
    assert claims >= 20, claims


@pytest.mark.parametrize("algo", ["dfs", "dfpn"])
def test_own_problems_agree_on_and_off(algo):
    settled = proofs = 0
    for problem in _own_problems():
        on, off = Solver(problem, eye_room=("dfs", "dfpn")), Solver(problem, eye_room=())
        for side in (BLACK, WHITE):
            a = on.solve(side, algo=algo, max_nodes=BUDGET)
            b = off.solve(side, algo=algo, max_nodes=BUDGET)
            assert a.winner == b.winner or None in (a.winner, b.winner), (problem.source, side)
            settled += a.winner is not None and b.winner is not None
            proofs += on.eye_room_proofs
    assert settled >= 180 and proofs > 0
