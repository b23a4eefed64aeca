"""Eye-space planes: where a side could still make an eye, and the vital point of nakade shapes."""
from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.planes.board_view import BoardView
from pipeline.planes.registry import plane_group
from pipeline.planes.regions import enclosed_regions, unique_cut_points
from solver.board import EMPTY

# Eye spaces of 3 to 6 points can be killed by a stone on their vital point.
NAKADE_SIZES = (3, 6)


@njit(cache=True)
def _eye_candidates(padded, attacker, defender):
    rows, cols = padded.shape[0] - 2, padded.shape[1] - 2
    planes = np.zeros((rows, cols, 2), dtype=np.uint8)
    for y in range(1, rows + 1):
        for x in range(1, cols + 1):
            if padded[y, x] != EMPTY:
                continue
            for k in range(2):
                other = attacker if k == 0 else defender
                planes[y - 1, x - 1, k] = (padded[y - 1, x] != other and padded[y + 1, x] != other
                                           and padded[y, x - 1] != other and padded[y, x + 1] != other)
    return planes


@plane_group(["ally_can_be_eye", "enemy_can_be_eye"])
def eye_candidates(view: BoardView) -> np.ndarray:
    """Empty points with no orthogonal neighbour of the other side (the original pipeline's definition)."""
    return _eye_candidates(view.padded, view.attacker, view.defender)


@njit(cache=True)
def _nakade_centres(stones, defender, smallest, largest):
    rows, cols = stones.shape
    plane = np.zeros((rows, cols, 1), dtype=np.uint8)
    for color in (defender, 3 - defender):
        regions, sizes = enclosed_regions(stones, color)
        plane[:, :, 0] |= unique_cut_points(regions, sizes, smallest, largest)
    return plane


@plane_group(["nakade_centre"])
def nakade_centre(view: BoardView) -> np.ndarray:
    """The vital point of an enclosed eye space that is a nakade shape, for either side.

    An eye space is a region one side encloses (its empty points and the
    opponent's stones in it).  With 3 to 6 points, the shapes that a single
    stone reduces to one eye (straight and bent three, pyramid four, crossed
    and bulky five, rabbity six) are exactly those with one point whose
    removal splits the region: that point is marked, occupied or not.
    Shapes with two such points (straight or bent four...) are alive by miai,
    and the square four has none.  (One compiled call for both sides: with
    the regions labelled from Python, 14 µs a subproblem.)
    """
    return _nakade_centres(view.stones, view.defender, *NAKADE_SIZES)
