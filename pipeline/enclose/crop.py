"""The smallest square board that holds a framed problem, its edges kept.

A book problem sits in a corner or on a side of a 19×19 board, and the frame
leaves most of that board empty.  The enclosed problem is written on the
smallest square board (from ``MIN_CROP`` to ``MAX_CROP`` lines, the most the
reference solver tsumego.js reads) that holds the region, the wall and every block touching
them, one empty line beyond on each open side so the wall keeps its outside
liberties, and the board edges the problem leans on.  A crop is kept only
when the solver finds the very same search area and uncapturable stones on
it; otherwise the problem stays on its 19×19 board.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.enclose.frame import ORTHOGONAL, Frame, Point, block_of, on_board
from solver import Problem, ProblemError, search_area

MAX_CROP = 16
MIN_CROP = 9     # the smallest board of the project's own problems


@dataclass(frozen=True)
class Crop:
    stones: np.ndarray
    offset: Point        # (x, y) of the crop's first point on the original board

    def point(self, point: Point) -> Point:
        return point[0] - self.offset[0], point[1] - self.offset[1]


def needed(frame: Frame) -> set[Point]:
    """The region, the wall, and every block touching either."""
    stones = frame.stones
    size = stones.shape[0]
    points = set(frame.region) | set(frame.wall)
    for x, y in list(points):
        for dx, dy in ORTHOGONAL:
            u, v = x + dx, y + dy
            if on_board(size, u, v) and stones[v, u] and (u, v) not in points:
                points |= block_of(stones, (u, v))
    return points


def window(low: int, high: int, side: int, size: int) -> int:
    """The first line of a ``side``-long window over lines low..high that keeps a board edge
    it reaches, or leaves one free line beyond the points on an open side."""
    if low == 0:
        return 0
    if high == size - 1:
        return size - side
    return max(0, min(low - 1, size - side))


def crop(frame: Frame, max_area: int) -> Crop | None:
    """The frame on the smallest board that reads the same, or None when none does."""
    size = frame.stones.shape[0]
    points = needed(frame)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    span = lambda low, high: high - low + 1 + (low > 0) + (high < size - 1)
    side = max(span(min(xs), max(xs)), span(min(ys), max(ys)), MIN_CROP)
    if side > MAX_CROP:
        return None
    x0, y0 = window(min(xs), max(xs), side, size), window(min(ys), max(ys), side, size)
    stones = np.zeros((side, side), dtype=np.int8)
    for x, y in points:
        if frame.stones[y, x]:
            stones[y - y0, x - x0] = frame.stones[y, x]
    result = Crop(stones=stones, offset=(x0, y0))
    target = frame.target
    try:
        before = search_area(Problem("", size, frame.stones, target, None), max_area)
        after = search_area(Problem("", side, stones, result.point(target), None), max_area)
    except ProblemError:
        return None
    moved = {result.point(p) for p in before.points}
    safe_before = {result.point((int(x), int(y))) for y, x in zip(*np.nonzero(before.safe))
                   if (int(x), int(y)) in points}
    safe_after = {(int(x), int(y)) for y, x in zip(*np.nonzero(after.safe))}
    if moved != set(after.points) or safe_before != safe_after:
        return None
    return result
