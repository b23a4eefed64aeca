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

from pipeline.planes.board_view import BoardView
from pipeline.planes.registry import plane_group
from pipeline.planes.regions import label_components, regions_around


def euler_numbers(view: BoardView, color: int) -> np.ndarray:
    """int ``[y, x]``: the Euler number of each stone's group; 2 on other points."""
    groups, sizes = label_components(view.stones == color, diagonal=True)
    count = len(sizes) - 1
    per_group = np.append(2 - regions_around(groups, count), 2)
    return per_group[groups]


@plane_group(["euler<=0", "euler<=-1"])
def euler(view: BoardView) -> np.ndarray:
    """Stones of either side whose group's Euler number is at most 0, and at most -1."""
    number = np.minimum(euler_numbers(view, view.defender), euler_numbers(view, view.attacker))
    return np.stack([number <= 0, number <= -1], axis=-1).view(np.uint8)
