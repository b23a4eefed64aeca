"""The registry of plane groups: the decorator that gives a group its planes and place.

A plane group is a function of a :class:`pipeline.planes.board_view.BoardView`
returning uint8 ``[size, size, k]`` for the whole board, decorated with the
names of its k planes::

    @plane_group(["ladder_captured"])
    def ladder(view):
        return ...                       # uint8 [view.size, view.size, 1]

The planes of a subproblem are the groups' outputs side by side, in the order
of ``GROUP_MODULES`` and, inside a module, in the order the functions are
written.  That order is fixed by this file alone, whatever order modules
happen to be imported in, so plane k means the same thing in every record.
The package (``pipeline/planes/__init__.py``) imports every group module, so
``from pipeline.planes import board_planes`` sees them all.

Adding planes is therefore one function and two lines: write the decorated
function in a module named after what it holds (it imports ``plane_group``
from here), append the module's name to ``GROUP_MODULES`` and import it in
the package's ``__init__``.  The features stage, ``features.json``,
``tsumego features --show`` and the model pick the new planes up from
``plane_names()``; old records no longer match F, so the features stage must
be rerun.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from pipeline.planes.board_view import BoardView, board_view

# Plane order: the modules holding plane groups, first to last.
GROUP_MODULES: tuple[str, ...] = (
    "pipeline.planes.basic",     # the planes of dcnn-eval, the original network
    "pipeline.planes.eyes",      # eye candidates, nakade centres
    "pipeline.planes.benson",    # unconditionally alive blocks
    "pipeline.planes.euler",     # Euler number of each side's stone groups
    "pipeline.planes.tactical",  # ladders, ladder escapes, snapbacks, nets
)


@dataclass(frozen=True)
class PlaneGroup:
    name: str
    planes: tuple[str, ...]
    compute: Callable[[BoardView], np.ndarray]
    module: str
    line: int


PLANE_GROUPS: list[PlaneGroup] = []


def _order(group: PlaneGroup) -> tuple[int, int]:
    return GROUP_MODULES.index(group.module), group.line


def plane_group(names):
    """Register a function of a BoardView as the planes ``names``."""
    names = tuple(names)

    def register(fn):
        if fn.__module__ not in GROUP_MODULES:
            raise ValueError(f"plane group {fn.__name__}: add {fn.__module__!r} to "
                             f"pipeline.planes.registry.GROUP_MODULES to give its planes a place")
        group = PlaneGroup(fn.__name__, names, fn, fn.__module__, fn.__code__.co_firstlineno)
        PLANE_GROUPS.append(group)
        PLANE_GROUPS.sort(key=_order)
        taken = [name for g in PLANE_GROUPS for name in g.planes]
        if len(taken) != len(set(taken)):
            raise ValueError(f"plane group {fn.__name__}: a plane name in {names} is already taken")
        return fn

    return register


def plane_names(groups=None) -> list[str]:
    """Names of all planes in order (or of the given groups')."""
    return [name for group in (PLANE_GROUPS if groups is None else groups) for name in group.planes]


def board_planes(sub, groups=None) -> np.ndarray:
    """uint8 ``[size, size, F]``: every plane of a position on the whole board.

    ``sub`` is anything :func:`pipeline.planes.board_view.board_view` reads; ``groups``
    picks a subset of ``PLANE_GROUPS`` (for benchmarks and inspection).
    """
    view = sub if isinstance(sub, BoardView) else board_view(sub)
    groups = PLANE_GROUPS if groups is None else groups
    out = np.empty((view.size, view.size, sum(len(g.planes) for g in groups)), dtype=np.uint8)
    start = 0
    for group in groups:
        planes = group.compute(view)
        end = start + len(group.planes)
        if planes.shape != (view.size, view.size, end - start):
            raise ValueError(f"plane group {group.name} returned {planes.shape}, expected "
                             f"{(view.size, view.size, end - start)}")
        out[..., start:end] = planes
        start = end
    return out


def group_named(name: str) -> PlaneGroup:
    for group in PLANE_GROUPS:
        if group.name == name:
            return group
    raise KeyError(f"no plane group {name!r}; the groups are {[g.name for g in PLANE_GROUPS]}")
