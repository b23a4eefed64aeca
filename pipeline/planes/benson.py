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
from pipeline.planes.regions import enclosed_regions
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


@njit(cache=True)
def _alive_stones(stones, defender, blocks):
    """uint8 ``[y, x, 1]``: the stones of either side in unconditionally alive blocks."""
    rows, cols = stones.shape
    plane = np.zeros((rows, cols, 1), dtype=np.uint8)
    for color in (defender, 3 - defender):
        if not (stones == color).any():
            continue
        regions, sizes = enclosed_regions(stones, color)
        alive = _alive(stones, color, blocks, regions, sizes.shape[0] - 1)
        for y in range(rows):
            for x in range(cols):
                if alive[y, x]:
                    plane[y, x, 0] = 1
    return plane


def unconditionally_alive(stones: np.ndarray, color: int, blocks: np.ndarray) -> np.ndarray:
    """bool ``[y, x]``: ``color``'s stones in blocks Benson's test keeps alive (``blocks``: the
    labels of :func:`pipeline.planes.regions.label_blocks`)."""
    regions, sizes = enclosed_regions(stones, color)
    return _alive(stones, color, blocks, regions, sizes.shape[0] - 1)


@plane_group(["benson_alive"])
def benson_alive(view: BoardView) -> np.ndarray:
    """Stones of either side in unconditionally alive blocks.  (One compiled call for both
    sides: with the regions labelled and the planes combined in Python, 22 µs a subproblem.)"""
    return _alive_stones(view.stones, view.defender, view.blocks)
