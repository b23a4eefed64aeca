"""Tactical planes: what the ladder, snapback and net readers find on the whole board.

A network of limited depth cannot read a ladder across the board, which is
why some Go networks have a ladder detector built in; here the solver's readers
(:mod:`solver.tactics`) read every block once and hand the answers over as
planes.  They are the same for both sides' blocks, so a position and its
colour-swapped twin get the same planes, like the other groups:

* ``ladder_captured``: stones of a block a ladder captures (a block in atari
  that cannot escape with its owner to move; a block with two liberties that
  the opponent, moving first, ladders);
* ``ladder_escape``: the move that saves a block in atari, when one does;
* ``snapback_point``: points where a throw-in is a snapback;
* ``net_captured``: stones of a block with two liberties that no ladder
  captures but a one-move net does.
"""
from __future__ import annotations

import numpy as np

from pipeline.planes.board_view import BoardView
from pipeline.planes.registry import plane_group
from solver.tactics import MAPS, stones_maps


@plane_group(MAPS)
def tactics(view: BoardView) -> np.ndarray:
    return np.moveaxis(stones_maps(view.stones), 0, -1)
