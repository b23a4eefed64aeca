"""Benson's algorithm: blocks that stay alive whatever the opponent plays.

For one colour, take its blocks and the regions it encloses (4-connected
components of the other points).  A region is *vital* to a block when every
empty point of the region is a liberty of that block.  Repeatedly drop the
blocks with fewer than two vital regions, and the regions bordered by a
dropped block, until nothing changes: the blocks left are unconditionally
alive, even if their owner always passes (Benson, "Life in the game of Go",
1976).  In a tsumego this marks a defender that already has two real eyes,
and attacker stones that can never be part of the fight.
"""
from __future__ import annotations

import numpy as np

from pipeline.board_view import BoardView
from pipeline.planes import plane_group
from solver.board import EMPTY


def alive_blocks(view: BoardView, color: int) -> np.ndarray:
    """bool ``[y, x]``: the stones of ``color`` in unconditionally alive blocks."""
    own = view.stones == color
    if not own.any():
        return own
    block_ids, chain_of = np.unique(view.blocks[own], return_inverse=True)
    chains = np.full(view.blocks.shape, -1, dtype=np.int64)
    chains[own] = chain_of
    regions, region_sizes = view.regions(color)
    region_count = len(region_sizes) - 1
    chain_count = len(block_ids)

    # touches[p, c]: point p (not of ``color``) is next to chain c.
    padded = np.full((view.size + 2, view.size + 2), -1, dtype=np.int64)
    padded[1:-1, 1:-1] = chains
    points = ~own.ravel()
    touches = np.zeros((points.sum(), chain_count + 1), dtype=bool)
    rows = np.arange(touches.shape[0])
    for neighbour in (padded[:-2, 1:-1], padded[2:, 1:-1], padded[1:-1, :-2], padded[1:-1, 2:]):
        touches[rows, neighbour.ravel()[points]] = True   # -1 (no chain) lands in the last column
    touches = touches[:, :-1]

    in_region = np.zeros((region_count, touches.shape[0]), dtype=bool)
    in_region[regions.ravel()[points], rows] = True
    empty = (view.stones.ravel()[points] == EMPTY)
    borders = (in_region.astype(np.int32) @ touches.astype(np.int32)) > 0
    liberties_in = (in_region & empty).astype(np.int32) @ touches.astype(np.int32)
    vital = borders & (liberties_in == (in_region & empty).sum(axis=1, keepdims=True))

    alive = np.ones(chain_count, dtype=bool)
    kept = np.ones(region_count, dtype=bool)
    while True:
        still_alive = alive & ((vital & kept[:, None]).sum(axis=0) >= 2)
        kept = ~(borders & ~still_alive[None, :]).any(axis=1)
        if np.array_equal(still_alive, alive):
            break
        alive = still_alive
    return own & alive[np.maximum(chains, 0)]


@plane_group(["benson_alive"])
def benson_alive(view: BoardView) -> np.ndarray:
    """Stones of either side in unconditionally alive blocks."""
    alive = alive_blocks(view, view.defender) | alive_blocks(view, view.attacker)
    return alive[..., None].view(np.uint8)
