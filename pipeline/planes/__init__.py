"""The feature planes: every plane group, registered in plane order.

Importing the package imports each group module (the order of the planes is
``registry.GROUP_MODULES``, not this import order), so the names below see
every group.  Layer: reads the solver's board and tactical readers, never the
stages or the model.
"""
from pipeline.planes import basic, benson, euler, eyes, tactical  # noqa: F401  (registers the groups)
from pipeline.planes.registry import (GROUP_MODULES, PLANE_GROUPS, PlaneGroup, board_planes,
                                      group_named, plane_group, plane_names)

__all__ = ["GROUP_MODULES", "PLANE_GROUPS", "PlaneGroup", "board_planes", "group_named",
           "plane_group", "plane_names"]
