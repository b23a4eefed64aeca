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

from .board import EMPTY
from .problem import Problem, ProblemError

DEFAULT_MAX_AREA = 40

_ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
_EIGHT = _ORTHOGONAL + ((1, 1), (1, -1), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class SearchArea:
    points: tuple[tuple[int, int], ...]   # candidate moves, row-major order
    safe: np.ndarray                      # bool [y, x]: stones that cannot be captured


def _neighbours(x, y, size, steps=_ORTHOGONAL):
    for dx, dy in steps:
        u, v = x + dx, y + dy
        if 0 <= u < size and 0 <= v < size:
            yield u, v


def _block(stones, x, y):
    color = stones[y, x]
    size = stones.shape[0]
    seen = {(x, y)}
    todo = [(x, y)]
    while todo:
        p = todo.pop()
        for q in _neighbours(*p, size):
            if q not in seen and stones[q[1], q[0]] == color:
                seen.add(q)
                todo.append(q)
    return seen


def _liberties(stones, block):
    size = stones.shape[0]
    return {q for p in block for q in _neighbours(*p, size) if stones[q[1], q[0]] == EMPTY}


def search_area(problem: Problem, max_area: int = DEFAULT_MAX_AREA) -> SearchArea:
    stones = problem.stones
    size = problem.size
    attacker = problem.attacker

    region = {problem.target}
    todo = [problem.target]
    while todo:
        p = todo.pop()
        for q in _neighbours(*p, size, _EIGHT):
            if q not in region and stones[q[1], q[0]] != attacker:
                region.add(q)
                todo.append(q)

    area = set(region)
    has_wall = False
    seen = set()
    for p in region:
        for q in _neighbours(*p, size):
            if stones[q[1], q[0]] != attacker or q in seen:
                continue
            block = _block(stones, *q)
            seen |= block
            liberties = _liberties(stones, block)
            if len(liberties - region) > 1:
                has_wall = True
            else:
                area |= block | liberties
    if not has_wall:
        raise ProblemError(problem.source,
                           "open wall: no attacker block around the target has two liberties outside the area")

    area -= _block(stones, *problem.target)
    # Occupied points stay in the area: their stones may be captured.
    moves = tuple(sorted(area, key=lambda p: (p[1], p[0])))
    empty = sum(1 for x, y in moves if stones[y, x] == EMPTY)
    if empty > max_area:
        raise ProblemError(problem.source,
                           f"search area of {empty} empty points exceeds the limit of {max_area} (is the wall open?)")

    safe = np.zeros_like(stones, dtype=bool)
    done = set()
    for y, x in zip(*np.nonzero(stones)):
        p = (int(x), int(y))
        if p in done:
            continue
        block = _block(stones, *p)
        done |= block
        if any(q not in area for q in _liberties(stones, block)):
            for u, v in block:
                safe[v, u] = True
    return SearchArea(points=moves, safe=safe)
