"""The Euler number of each side's stone groups: how many holes a group wraps around.

A group here is an 8-connected set of one side's stones (stones touching at a
corner enclose space as a wall does), and its Euler number is
``1 - holes``.  The board edge closes holes the way it closes eyes, so a
group's holes are the regions the rest of the board splits into, less one:
``E = 2 - regions``.  A group with ``E <= 0`` wraps around at least one
region (an eye, or for the attacker's wall the whole problem), ``E <= -1``
around two, the topological outline of a two-eyed group.  The reference
solver tsumego.js estimates a whole-board version with bit quads; per group
it also tells the network which stones own the holes.

The value is negative for living shapes and uint8 planes cannot hold it, so
each threshold is its own plane.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.planes.board_view import BoardView
from pipeline.planes.registry import plane_group
from pipeline.planes.regions import regions_around, stone_groups


@njit(cache=True)
def _euler_planes(stones, defender):
    rows, cols = stones.shape
    planes = np.zeros((rows, cols, 2), dtype=np.uint8)
    for color in (defender, 3 - defender):
        groups, sizes = stone_groups(stones, color)
        regions = regions_around(groups, sizes.shape[0] - 1)
        for y in range(rows):
            for x in range(cols):
                group = groups[y, x]
                if group >= 0:
                    number = 2 - regions[group]
                    planes[y, x, 0] = number <= 0
                    planes[y, x, 1] = number <= -1
    return planes


@plane_group(["euler<=0", "euler<=-1"])
def euler(view: BoardView) -> np.ndarray:
    """Stones of either side whose group's Euler number is at most 0, and at most -1.

    (One compiled call for both sides: with the groups labelled and the
    numbers compared in Python, 52 µs a subproblem.)"""
    return _euler_planes(view.stones, view.defender)
