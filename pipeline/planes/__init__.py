"""The feature planes: every plane group, registered in plane order.

Importing the package imports each group module (the order of the planes is
``registry.GROUP_MODULES``, not this import order), so the names below see
every group.  Layer: reads the solver's board and tactical readers, never the
stages or the model.

The groups' compiled functions call those of ``regions.py`` and numba's cache
checks only the caller's own file, so the package's cached machine code goes
whenever any of its sources changes (``solver.jit.tie_cache_to_sources``),
before any group runs.
"""
from pathlib import Path

from solver.jit import tie_cache_to_sources

tie_cache_to_sources(Path(__file__).resolve().parent)

from pipeline.planes import basic, benson, euler, eyes, tactical  # noqa: E402,F401  (registers the groups)
from pipeline.planes.registry import (GROUP_MODULES, PLANE_GROUPS, PlaneGroup, board_planes,  # noqa: E402
                                      group_named, plane_group, plane_names)

__all__ = ["GROUP_MODULES", "PLANE_GROUPS", "PlaneGroup", "board_planes", "group_named",
           "plane_group", "plane_names"]
