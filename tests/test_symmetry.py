"""The verdict does not change under the 8 board symmetries nor a colour swap.

Positions are generated: a corner pocket of w×h points walled in by a two-line
band of attacker stones (so the wall has liberties outside), with random
stones of both colours inside and the target at the pocket's corner.
"""
import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

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


def transforms(stones):
    for k in range(4):
        rotated = np.rot90(stones, k)
        yield rotated
        yield rotated.T


def verdict(stones, to_play, target):
    problem = Problem("generated", SIZE, np.ascontiguousarray(stones), target, to_play)
    try:
        _check_legal(problem)
        v = Solver(problem).solve(to_play, max_nodes=BUDGET)
    except ProblemError:
        return None
    return v.status


def target_of(stones, marked):
    y, x = np.argwhere(marked)[0]
    return int(x), int(y)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pockets())
def test_verdict_is_invariant_under_symmetries_and_colour_swap(case):
    stones, to_play = case
    marker = np.zeros_like(stones)
    marker[0, 0] = 1
    reference = verdict(stones, to_play, (0, 0))
    assume(reference not in (None, "unknown"))
    for board, marked in zip(transforms(stones), transforms(marker)):
        target = target_of(board, marked)
        assert verdict(board, to_play, target) == reference
        swapped = np.where(board > 0, 3 - board, 0).astype(np.int8)
        assert verdict(swapped, 3 - to_play, target) == reference
