"""A problem's 16 variants (8 board symmetries × colour swap) and its canonical one.

``solve-all`` grows each problem's tree in one orientation chosen from the
position alone, so that a problem and any turned, mirrored or colour-swapped
copy of it get the same tree, moves, winning moves and end states, turned
back.  Without it the results would depend on the orientation: the search
breaks ties between moves by the order of the board's points, and the
transposition table's contents by the Zobrist hashes of the stones.

The canonical variant is the one whose (stones, target, side to move) compare
smallest; when several variants coincide (a problem with a symmetry of its
own) the first in the order (swap, symmetry) is taken.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pipeline.symmetries import UNDOING, transform, transform_point
from solver import BLACK, EMPTY, WHITE, Problem


# SWAPPED[c]: colour c after a colour swap (EMPTY stays EMPTY)
SWAPPED = np.array([EMPTY, WHITE, BLACK], dtype=np.int8)


def swap_colors(stones: np.ndarray) -> np.ndarray:
    """Black stones become White and White ones Black."""
    return SWAPPED[stones]


@dataclass(frozen=True)
class Orientation:
    """Symmetry ``symmetry`` (:mod:`pipeline.symmetries`), then a colour swap if ``swap``."""

    symmetry: int
    swap: bool
    size: int

    # -- from the problem's orientation to this one -------------------------------
    def stones(self, stones: np.ndarray) -> np.ndarray:
        turned = transform(stones, self.symmetry)
        return swap_colors(turned) if self.swap else turned

    def point(self, x: int, y: int) -> tuple[int, int]:
        return transform_point(x, y, self.symmetry, self.size)

    def color(self, color: int) -> int:
        return 3 - color if self.swap and color != EMPTY else color

    def problem(self, problem: Problem, to_play: int) -> tuple[Problem, int]:
        """The problem and its side to move in this orientation (the stubs are in the stones already)."""
        turned = Problem(source=problem.source, size=problem.size, stones=self.stones(problem.stones),
                         target=self.point(*problem.target),
                         to_play=None if problem.to_play is None else self.color(problem.to_play))
        return turned, self.color(to_play)

    # -- back to the problem's orientation ---------------------------------------
    # (by tables made once: a tree turns back every node's moves and end state)
    @cached_property
    def _points_back(self) -> dict[tuple[int, int], tuple[int, int]]:
        return {self.point(x, y): (x, y) for y in range(self.size) for x in range(self.size)}

    @cached_property
    def _cells_back(self) -> np.ndarray:
        """Flat indices: ``stones_back(a).ravel() == a.ravel()[_cells_back]`` (colours aside)."""
        cells = np.arange(self.size * self.size).reshape(self.size, self.size)
        return transform(cells, UNDOING[self.symmetry]).ravel()

    def stones_back(self, stones: np.ndarray) -> np.ndarray:
        back = stones.ravel()[self._cells_back].reshape(stones.shape)
        return SWAPPED[back] if self.swap else back

    def point_back(self, x: int, y: int) -> tuple[int, int]:
        return self._points_back[x, y]

    def color_back(self, color: int) -> int:
        return self.color(color)


def variants(size: int):
    """The 16 orientations of a size×size board, in the order (swap, symmetry)."""
    return [Orientation(symmetry, swap, size) for swap in (False, True) for symmetry in range(8)]


def canonical_orientation(problem: Problem, to_play: int) -> Orientation:
    """The orientation in which the problem (with ``to_play`` moving first) compares smallest."""
    def key(orientation: Orientation):
        x, y = orientation.point(*problem.target)
        return orientation.stones(problem.stones).tobytes(), y, x, orientation.color(to_play)

    return min(variants(problem.size), key=key)
