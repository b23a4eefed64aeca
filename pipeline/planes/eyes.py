"""Eye-space planes: where a side could still make an eye, and the vital point of nakade shapes."""
from __future__ import annotations

import numpy as np

from pipeline.planes.board_view import BoardView
from pipeline.planes.registry import plane_group
from pipeline.planes.regions import unique_cut_points

# Eye spaces of 3 to 6 points can be killed by a stone on their vital point.
NAKADE_SIZES = (3, 6)


@plane_group(["ally_can_be_eye", "enemy_can_be_eye"])
def eye_candidates(view: BoardView) -> np.ndarray:
    """Empty points with no orthogonal neighbour of the other side (the original pipeline's definition)."""
    padded = view.padded
    planes = np.empty((view.size, view.size, 2), dtype=bool)
    empty = view.empty
    for k, other in enumerate((view.attacker, view.defender)):
        foreign = padded == other
        planes[..., k] = empty & ~(foreign[:-2, 1:-1] | foreign[2:, 1:-1]
                                   | foreign[1:-1, :-2] | foreign[1:-1, 2:])
    return planes.view(np.uint8)


@plane_group(["nakade_centre"])
def nakade_centre(view: BoardView) -> np.ndarray:
    """The vital point of an enclosed eye space that is a nakade shape, for either side.

    An eye space is a region one side encloses (its empty points and the
    opponent's stones in it).  With 3 to 6 points, the shapes that a single
    stone reduces to one eye (straight and bent three, pyramid four, crossed
    and bulky five, rabbity six) are exactly those with one point whose
    removal splits the region: that point is marked, occupied or not.
    Shapes with two such points (straight or bent four...) are alive by miai,
    and the square four has none.
    """
    plane = np.zeros((view.size, view.size), dtype=np.uint8)
    for color in (view.defender, view.attacker):
        regions, sizes = view.regions(color)
        plane |= unique_cut_points(regions, sizes, *NAKADE_SIZES)
    return plane[..., None]
