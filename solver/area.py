"""The search area of an enclosed problem (the thick-wall convention).

The area is found the way the reference solver tsumego.js does it
(``mgen/fixed.ts``): start at the target and spread over every point that is
not an attacker stone, through orthogonal *and diagonal* steps, so a wall with
a diagonal gap leaks.  Attacker blocks touching that region with at most one
liberty outside it may be captured: their stones and liberties join the area.
The target block's own stones are not moves.  At least one attacker block must
have two or more liberties outside the region: that is the outer wall.

Any block with a liberty outside the final area can never be captured, since no
move is ever played outside it; such stones are marked *safe* so that the
compiled liberty scans stop as soon as they reach them.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .board import EMPTY
from .jit import kernel
from .problem import Problem, ProblemError

DEFAULT_MAX_AREA = 40

# Neighbour steps (dx, dy): the four orthogonal ones first, then the diagonals.
_STEPS = np.array([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)], dtype=np.int64)


@dataclass(frozen=True)
class SearchArea:
    points: tuple[tuple[int, int], ...]   # candidate moves, row-major order
    safe: np.ndarray                      # bool [y, x]: stones that cannot be captured


@kernel
def _flood(stones, x, y, steps, into, mark, stamp, queue):
    """Every point reached from (x, y) by the first ``steps`` of _STEPS (4 or 8) over accepted points.

    ``into`` > 0 accepts that colour (so 4 steps give a block); ``into`` < 0
    accepts every point but the colour ``-into``.  The points go to
    queue[:n], each marked with ``stamp``; returns n.
    """
    size = stones.shape[0]
    mark[y, x] = stamp
    queue[0, 0], queue[0, 1] = x, y
    n, i = 1, 0
    while i < n:
        px, py = queue[i, 0], queue[i, 1]
        i += 1
        for k in range(steps):
            u, v = px + _STEPS[k, 0], py + _STEPS[k, 1]
            if 0 <= u < size and 0 <= v < size and mark[v, u] != stamp:
                c = stones[v, u]
                if (into >= 0 and c == into) or (into < 0 and c != -into):
                    mark[v, u] = stamp
                    queue[n, 0], queue[n, 1] = u, v
                    n += 1
    return n


@njit(cache=True)  # allocates its masks: an entry point, not a kernel
def _area_and_safe(stones, tx, ty, attacker):
    """(area, safe, has_wall): bool [y, x] masks of the search area and of uncapturable stones.

    The region is every non-attacker point reached from the target through the
    eight steps; attacker blocks touching it orthogonally with at most one
    liberty outside it join the area with their liberties (they may be
    captured); a block with more is outer wall.  The target block is no move.
    A stone is safe when its block has a liberty outside the area.
    """
    size = stones.shape[0]
    mark = np.zeros((size, size), dtype=np.int64)
    queue = np.empty((size * size, 2), dtype=np.int64)
    block = np.empty((size * size, 2), dtype=np.int64)
    region = np.zeros((size, size), dtype=np.bool_)
    n = _flood(stones, tx, ty, 8, -attacker, mark, 1, queue)
    for i in range(n):
        region[queue[i, 1], queue[i, 0]] = True
    area = region.copy()
    stamp = 1
    has_wall = False
    done = np.zeros((size, size), dtype=np.bool_)
    for i in range(n):
        px, py = queue[i, 0], queue[i, 1]
        for k in range(4):
            u, v = px + _STEPS[k, 0], py + _STEPS[k, 1]
            if not (0 <= u < size and 0 <= v < size) or stones[v, u] != attacker or done[v, u]:
                continue
            stamp += 1
            m = _flood(stones, u, v, 4, attacker, mark, stamp, block)
            outside = 0
            stamp += 1
            for j in range(m):
                done[block[j, 1], block[j, 0]] = True
                for d in range(4):
                    a, b = block[j, 0] + _STEPS[d, 0], block[j, 1] + _STEPS[d, 1]
                    if 0 <= a < size and 0 <= b < size and stones[b, a] == EMPTY and mark[b, a] != stamp:
                        mark[b, a] = stamp
                        if not region[b, a]:
                            outside += 1
            if outside > 1:
                has_wall = True
                continue
            for j in range(m):
                area[block[j, 1], block[j, 0]] = True
                for d in range(4):
                    a, b = block[j, 0] + _STEPS[d, 0], block[j, 1] + _STEPS[d, 1]
                    if 0 <= a < size and 0 <= b < size and stones[b, a] == EMPTY:
                        area[b, a] = True
    stamp += 1
    m = _flood(stones, tx, ty, 4, stones[ty, tx], mark, stamp, block)
    for j in range(m):
        area[block[j, 1], block[j, 0]] = False

    safe = np.zeros((size, size), dtype=np.bool_)
    seen = np.zeros((size, size), dtype=np.bool_)
    for y in range(size):
        for x in range(size):
            if stones[y, x] == EMPTY or seen[y, x]:
                continue
            stamp += 1
            m = _flood(stones, x, y, 4, stones[y, x], mark, stamp, block)
            free = False
            for j in range(m):
                seen[block[j, 1], block[j, 0]] = True
                for d in range(4):
                    a, b = block[j, 0] + _STEPS[d, 0], block[j, 1] + _STEPS[d, 1]
                    if 0 <= a < size and 0 <= b < size and stones[b, a] == EMPTY and not area[b, a]:
                        free = True
            if free:
                for j in range(m):
                    safe[block[j, 1], block[j, 0]] = True
    return area, safe, has_wall


def search_area(problem: Problem, max_area: int = DEFAULT_MAX_AREA) -> SearchArea:
    stones = np.ascontiguousarray(problem.stones, dtype=np.int8)
    x, y = problem.target
    area, safe, has_wall = _area_and_safe(stones, x, y, problem.attacker)
    if not has_wall:
        raise ProblemError(problem.source,
                           "open wall: no attacker block around the target has two liberties outside the area")
    # Occupied points stay in the area: their stones may be captured.
    ys, xs = np.nonzero(area)                 # row-major order
    moves = tuple(zip(xs.tolist(), ys.tolist()))
    empty = int(np.count_nonzero(area & (stones == EMPTY)))
    if empty > max_area:
        raise ProblemError(problem.source,
                           f"search area of {empty} empty points exceeds the limit of {max_area} (is the wall open?)")
    return SearchArea(points=moves, safe=safe)
