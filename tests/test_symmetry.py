"""The 8 board symmetries, and a verdict that does not change under them nor a colour swap.

Positions are generated: a corner pocket of w×h points walled in by a two-line
band of attacker stones (so the wall has liberties outside), with random
stones of both colours inside and the target at the pocket's corner.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pipeline.generate import DRAWN_SYMMETRY
from pipeline.symmetries import SYMMETRIES, transform, transform_point, turn
from solver import BLACK, WHITE, ProblemError, Solver
from solver.problem import Problem, _check_legal

SIZE = 9
BUDGET = 200_000


@st.composite
def pockets(draw):
    w = draw(st.integers(3, 5))
    h = draw(st.integers(2, 3))
    defender = draw(st.sampled_from([BLACK, WHITE]))
    attacker = 3 - defender
    stones = np.zeros((SIZE, SIZE), dtype=np.int8)
    for y in range(h + 2):
        for x in range(w + 2):
            if x >= w or y >= h:
                stones[y, x] = attacker
    inside = draw(st.lists(st.sampled_from([0, 0, defender, defender, attacker]),
                           min_size=w * h, max_size=w * h))
    for i, c in enumerate(inside):
        stones[i // w, i % w] = c
    stones[0, 0] = defender
    to_play = draw(st.sampled_from([BLACK, WHITE]))
    return stones, to_play


def verdict(stones, to_play, target):
    problem = Problem("generated", SIZE, np.ascontiguousarray(stones), target, to_play)
    try:
        _check_legal(problem)
        v = Solver(problem).solve(to_play, max_nodes=BUDGET)
    except ProblemError:
        return None
    return v.status


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pockets())
def test_verdict_is_invariant_under_symmetries_and_colour_swap(case):
    stones, to_play = case
    reference = verdict(stones, to_play, (0, 0))
    assume(reference not in (None, "unknown"))
    for symmetry in range(8):
        board = transform(stones, symmetry)
        target = transform_point(0, 0, symmetry, SIZE)
        assert verdict(board, to_play, target) == reference
        swapped = np.where(board > 0, 3 - board, 0).astype(np.int8)
        assert verdict(swapped, 3 - to_play, target) == reference


@pytest.mark.parametrize("size", [5, 11, 13])
def test_the_8_symmetries_are_the_turns_and_mirrors_of_the_square(size):
    board = np.arange(size * size).reshape(size, size)
    images = [transform(board, s) for s in range(8)]
    assert np.array_equal(images[0], board)
    assert np.array_equal(images[1], board.T)
    assert np.array_equal(images[2], board[:, ::-1].T)          # a quarter turn, counterclockwise as printed
    assert all(image.flags.c_contiguous for image in images)
    assert len({image.tobytes() for image in images}) == 8
    expected = {np.ascontiguousarray(f(np.rot90(board, k))).tobytes()
                for k in range(4) for f in (lambda a: a, np.transpose)}
    assert {image.tobytes() for image in images} == expected


@pytest.mark.parametrize("size", [5, 13])
def test_a_point_lands_where_its_stone_goes(size):
    board = np.arange(size * size).reshape(size, size)
    for s in range(8):
        image = transform(board, s)
        for y in range(size):
            for x in range(size):
                x2, y2 = transform_point(x, y, s, size)
                assert image[y2, x2] == board[y, x], (s, x, y)


def test_the_window_tables_are_the_board_symmetries():
    windows = np.random.default_rng(0).integers(0, 9, (3, 11, 11, 2))
    for s in range(8):
        assert np.array_equal(turn(windows, s), np.stack([transform(w, s) for w in windows]))
        assert np.array_equal(SYMMETRIES[s], transform(np.arange(121).reshape(11, 11), s).reshape(-1))


def test_the_generator_draws_each_symmetry_once():
    assert sorted(DRAWN_SYMMETRY) == list(range(8)) and DRAWN_SYMMETRY[0] == 0
