"""What every plane group reads: one subproblem's board, analysed once.

Plane groups are small functions of a :class:`BoardView`.  The view holds the
facts several groups need (whose stones are whose, blocks with their sizes
and liberties, the target block, who moves first), computed once per
subproblem, so adding a group costs only what the group itself computes.
Colours are relative to the target: *ally* is the target's colour (the
defender), *enemy* the attacker's, which makes every plane the same for a
position and its colour-swapped twin.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from pipeline.planes.regions import label_blocks
from solver.board import BLACK, BORDER, WHITE


@dataclass
class BoardView:
    """A position seen from the target's side; all arrays are ``[y, x]``."""

    size: int
    stones: np.ndarray          # int8 EMPTY/BLACK/WHITE
    defender: int               # the target's colour
    to_play: int
    target: np.ndarray          # bool: stones of the target block
    blocks: np.ndarray          # int32 block label, -1 on empty points
    block_size: np.ndarray      # int32 stones in the point's block, 0 on empty points
    liberties: np.ndarray       # int32 liberties of the point's block, 0 on empty points
    padded: np.ndarray          # int8 stones with a ring of BORDER around them

    @property
    def attacker(self) -> int:
        return 3 - self.defender

    @property
    def attacker_first(self) -> bool:
        return self.to_play == self.attacker


@njit(cache=True)
def _analyse(stones, ty, tx):
    """Blocks, each point's block size and liberties, the target block and the padded board.

    (In one compiled call: with numpy's indexing and padding the analysis took 11 µs.)"""
    blocks, sizes, liberties = label_blocks(stones)
    rows, cols = stones.shape
    block_size = np.zeros((rows, cols), dtype=np.int32)
    block_liberties = np.zeros((rows, cols), dtype=np.int32)
    target = np.zeros((rows, cols), dtype=np.bool_)
    padded = np.full((rows + 2, cols + 2), BORDER, dtype=np.int8)
    target_block = blocks[ty, tx]
    for y in range(rows):
        for x in range(cols):
            padded[y + 1, x + 1] = stones[y, x]
            block = blocks[y, x]
            if block >= 0:
                block_size[y, x] = sizes[block]
                block_liberties[y, x] = liberties[block]
                target[y, x] = block == target_block
    return blocks, block_size, block_liberties, target, padded


def board_view(sub) -> BoardView:
    """Analyse a position with ``stones`` [y, x], ``target`` (x, y) and ``to_play``.

    Any object with those attributes will do (a :class:`pipeline.formats.subproblem.Subproblem`
    or a :class:`solver.problem.Problem`): labels are not needed.
    """
    stones = np.ascontiguousarray(sub.stones, dtype=np.int8)
    tx, ty = sub.target
    defender = int(stones[ty, tx])
    if defender not in (BLACK, WHITE):
        raise ValueError(f"the target {sub.target} is not on a stone")
    if sub.to_play not in (BLACK, WHITE):
        raise ValueError("who moves first is not given")
    blocks, block_size, liberties, target, padded = _analyse(stones, ty, tx)
    return BoardView(
        size=stones.shape[0],
        stones=stones,
        defender=defender,
        to_play=int(sub.to_play),
        target=target,
        blocks=blocks,
        block_size=block_size,
        liberties=liberties,
        padded=padded,
    )
