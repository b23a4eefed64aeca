"""Move generation's rows stay aligned: each move's recorded target liberties and code are the board's.

And the history heuristic: DFS counts each node's winning move
(``movegen.C_CUTOFFS``), df-pn each proven node's, the order raises a counted
move by its share for that colour only, and the counts belong to one solve.

df-pn seeds a fresh child's numbers from the target's liberties after the move
(``movegen.C_TARGET_LIBERTIES``, filled by ``generate_moves``); sorting and
removing moves must carry that row along with the moves, or the knowledge
would land on the wrong child.  Checked on the own problems, both sides to
move, against a recount on the board after each move is played.
"""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from solver import BLACK, WHITE, Solver, load_problem
from solver.problem import ProblemError
from solver.movegen import (C_LIFE_RULED_OUT, C_MOVE_CODES, C_MOVES, C_SCORES, C_TARGET_LIBERTIES,
                            CUTOFF_SCALE, CUTOFF_WEIGHT, generate_moves, remove_move, sort_moves, target_lives)
from solver.patterns import OWN_LIBS_LEVELS, TARGET_LIBS_LEVELS, code_fields, neighbourhood
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
    """Each move's target liberties and code (solver.patterns: its neighbourhood, role and
    the target's liberties after it) are the board's."""
    moves = solver.context[C_MOVES][0]
    liberties = solver.context[C_TARGET_LIBERTIES][0]
    codes = solver.context[C_MOVE_CODES][0]
    for i in range(count):
        if moves[i] != PASS:
            recounted = recounted_liberties(solver, int(moves[i]), color)
            assert liberties[i] == recounted, i
            fields = code_fields(np.array([codes[i]]))
            assert fields["pattern"][0] == neighbourhood(solver.board.cells, int(moves[i]), solver.board.stride, color)
            assert fields["role"][0] == (color == solver.defender)
            assert fields["target_libs"][0] == min(recounted, TARGET_LIBS_LEVELS - 1)
            if color == solver.defender:
                # the moved stone's block: the target's where it joins it (movegen derives that)
                x, y = solver.board.xy(int(moves[i]))
                assert solver.play(x, y, color)
                own = solver.board.liberties(x, y)
                solver.take_back()
                assert fields["own_libs"][0] == min(max(own, 1), OWN_LIBS_LEVELS) - 1, (i, own)


def test_the_own_problems_are_there():
    assert len(OWN_PROBLEMS) >= 10


@pytest.mark.parametrize("path", OWN_PROBLEMS, ids=lambda p: p.stem)
def test_target_liberties_and_codes_follow_their_moves_through_sort_and_removal(path):
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


def positions_along_random_lines(seed: int, moves_a_line: int = 14):
    """(problem file, solver, colour) at each position of a random line of generated moves
    from every own problem (captures, merged blocks, the wall), the solver's board there;
    the line ends where the target is captured or the mover has no board move."""
    rng = random.Random(seed)
    for path in sorted(OWN_PROBLEMS[0].parents[1].rglob("*.sgf")):
        try:
            problem = load_problem(str(path))
        except ProblemError:
            continue
        solver = Solver(problem)
        color = problem.to_play
        for _ in range(moves_a_line):
            yield path, solver, color
            count, _ = generate_moves(solver.context, color, 0, 0, NO_MOVE)
            moves = [int(m) for m in solver.context[C_MOVES][0][:count] if m != PASS]
            if not moves:
                break
            assert solver.play(*solver.board.xy(rng.choice(moves)), color)
            if solver.target_captured():
                break
            color = 3 - color


def test_target_liberties_along_random_lines_of_every_own_problem():
    """The generation derives the target's liberties after a move that captures nothing
    from those before it, and counts them after the others: along random lines of every
    own problem, each side to move, both are the board's."""
    checked = 0
    for _, solver, color in positions_along_random_lines(11):
        for side in (color, 3 - color):
            count, _ = generate_moves(solver.context, side, 0, 0, NO_MOVE)
            assert_rows_aligned(solver, side, count)
            checked += count
    assert checked > 5_000, checked


def scores_by_move(solver: Solver, color: int) -> dict[int, float]:
    count, _ = generate_moves(solver.context, color, 0, 0, NO_MOVE)
    moves, scores = solver.context[C_MOVES][0][:count], solver.context[C_SCORES][0][:count]
    return {int(m): float(v) for m, v in zip(moves, scores)}


def test_a_move_that_won_elsewhere_is_raised_by_its_count():
    problem = load_problem(str(OWN_PROBLEMS[0]))
    solver = Solver(problem)
    color = problem.attacker
    before = scores_by_move(solver, color)
    last = min((m for m in before if m != PASS), key=before.get)
    count = 3 * CUTOFF_SCALE
    solver.cutoffs[color, last] = count
    after = scores_by_move(solver, color)
    raised = CUTOFF_WEIGHT * (count / CUTOFF_SCALE) / (1 + count / CUTOFF_SCALE)
    assert after[last] == pytest.approx(before[last] + raised)
    assert all(after[m] == before[m] for m in before if m != last)
    # the other colour's order reads its own counts only
    assert scores_by_move(solver, 3 - color) == scores_by_move(Solver(problem), 3 - color)


@pytest.mark.parametrize("path", OWN_PROBLEMS[:3], ids=lambda p: p.stem)
def test_the_searches_count_the_winning_moves_of_one_solve(path):
    problem = load_problem(str(path))
    solver = Solver(problem)
    verdict = solver.solve(problem.attacker, algo="dfs")
    assert verdict.winner is not None
    if verdict.move not in (None, "pass"):
        assert solver.cutoffs[verdict.winner, solver.board.point(*verdict.move)] >= 1
    assert solver.cutoffs[verdict.winner].sum() >= 1
    # df-pn counts the winning moves of the nodes it proves, from zero: every count is its own
    solver.cutoffs[3 - verdict.winner] = 1000.0
    proved = solver.solve(problem.attacker, algo="dfpn")
    assert proved.winner == verdict.winner
    assert solver.cutoffs.max() < 1000.0 and solver.cutoffs[proved.winner].sum() >= 1


def test_the_defenders_rows_say_where_no_move_makes_the_target_pass_alive():
    """``C_LIFE_RULED_OUT`` lets the searches skip asking a child whether the target is
    pass-alive: it is set for a defender's row exactly where no board move of the row
    makes it so (each move played and asked on the board), never for the attacker's.
    Along random lines of every own problem, each side to move."""
    rows = {True: 0, False: 0}
    for path, solver, color in positions_along_random_lines(12):
        for side in (color, 3 - color):
            count, _ = generate_moves(solver.context, side, 0, 0, NO_MOVE)
            ruled_out = solver.context[C_LIFE_RULED_OUT][0] == 1
            if side != solver.defender:
                assert not ruled_out
                continue
            lives = []
            for m in solver.context[C_MOVES][0][:count]:
                if m != PASS:
                    assert solver.play(*solver.board.xy(int(m)), side)
                    lives.append(bool(target_lives(solver.context)))
                    solver.take_back()
            assert ruled_out == (not any(lives)), (path.name, lives)
            rows[ruled_out] += 1
    assert rows[True] > 300 and rows[False] > 100, rows
