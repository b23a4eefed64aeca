"""Benson's algorithm: blocks that stay alive whatever the opponent plays.

For one colour, take its blocks and the regions it encloses (4-connected
components of the other points).  A region is *vital* to a block when every
empty point of the region is a liberty of that block.  Repeatedly drop the
blocks with fewer than two vital regions, and the regions bordered by a
dropped block, until nothing changes: the blocks left are unconditionally
alive, even if their owner always passes (Benson, "Life in the game of Go",
1976).  In a tsumego this marks a defender that already has two real eyes,
and attacker stones that already live on their own.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.planes.board_view import BoardView
from pipeline.planes.registry import plane_group


@njit(cache=True)
def _alive(stones, color, blocks, regions, region_count):
    rows, cols = stones.shape
    block_count = blocks.max() + 1
    # borders[r, b]: region r touches block b; liberties[r, b]: empty points of r next to b.
    borders = np.zeros((region_count, block_count), dtype=np.bool_)
    liberties = np.zeros((region_count, block_count), dtype=np.int32)
    empties = np.zeros(region_count, dtype=np.int32)
    own_block = np.zeros(block_count, dtype=np.bool_)
    touching = np.empty(4, dtype=np.int32)
    for y in range(rows):
        for x in range(cols):
            if stones[y, x] == color:
                own_block[blocks[y, x]] = True
                continue
            r = regions[y, x]
            empty = stones[y, x] == 0
            empties[r] += empty
            seen = 0
            for v, u in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                if 0 <= v < rows and 0 <= u < cols and stones[v, u] == color:
                    b = blocks[v, u]
                    if b in touching[:seen]:
                        continue
                    touching[seen] = b
                    seen += 1
                    borders[r, b] = True
                    liberties[r, b] += empty
    alive = own_block.copy()
    kept = np.ones(region_count, dtype=np.bool_)
    changed = True
    while changed:
        changed = False
        for b in range(block_count):
            if alive[b]:
                vital = 0
                for r in range(region_count):
                    vital += kept[r] and borders[r, b] and liberties[r, b] == empties[r]
                if vital < 2:
                    alive[b] = False
                    changed = True
        for r in range(region_count):
            for b in range(block_count):
                if borders[r, b] and not alive[b]:
                    kept[r] = False
    result = np.zeros((rows, cols), dtype=np.bool_)
    for y in range(rows):
        for x in range(cols):
            result[y, x] = stones[y, x] == color and alive[blocks[y, x]]
    return result


def alive_blocks(view: BoardView, color: int) -> np.ndarray:
    """bool ``[y, x]``: the stones of ``color`` in unconditionally alive blocks."""
    if not (view.stones == color).any():
        return np.zeros(view.stones.shape, dtype=bool)
    regions, sizes = view.regions(color)
    return _alive(view.stones, color, view.blocks, regions, len(sizes) - 1)


@plane_group(["benson_alive"])
def benson_alive(view: BoardView) -> np.ndarray:
    """Stones of either side in unconditionally alive blocks."""
    alive = alive_blocks(view, view.defender) | alive_blocks(view, view.attacker)
    return alive[..., None].view(np.uint8)
