"""Static life: is the target block unconditionally alive (Benson's pass-alive)?

A block is *pass-alive* when the attacker cannot capture it even if the
defender passes at every turn, with any number of ko threats.  Benson's
algorithm decides it from the position alone, and here it is run on the
search area only:

* the blocks are the defender's blocks in the area;
* the regions are the connected sets of the area's non-defender points
  (empty points and capturable attacker stones);
* a region that touches a point outside the area (a stone of the
  uncapturable wall, an empty point no move is ever played on, or a defender
  stone outside the area) is never vital: the attacker stones that fill it
  would stay connected to something the search never takes away, so filling
  it is no suicide.  The board edge is no such point;
* a region is vital to a block when the region is enclosed (as above) and all
  its empty points are liberties of that block;
* repeatedly drop the blocks with fewer than two vital regions among the
  regions whose every bordering block is still kept, until nothing changes.

The target is pass-alive when its block is kept.  Why that settles the search
(Benson's argument): while the defender only passes, a kept block has two
vital regions that the attacker must fill completely before it runs out of
liberties, and the last point of the first one filled would be a suicide
(the region's attacker stones touch nothing but kept blocks, the edge and each
other) unless it captures a kept block, which would need the other region full
already.  So no kept block is ever captured, the target always has two
liberties (one in each vital region), the defender may always pass, and the
attacker only adds stones until the passes end the game: the defender wins
whatever the path, the ko master or the number of threats.  A node where the
target is pass-alive is therefore an exact, path-independent defender win,
stored as such.

:func:`target_pass_alive` answers False at once where fewer than two regions
around the target could be vital to it (the usual case in a fight); only a
target with two candidate eyes pays for the whole algorithm.  More than
``MAX_BLOCKS`` defender blocks in the area (64-bit block sets) also answers
False, which only ever means "not proved here".
"""
from __future__ import annotations

import numpy as np

from .board import BORDER, EMPTY, META_STAMP, next_stamp, collect_block
from .jit import kernel

MAX_BLOCKS = 64
_ONE = np.uint64(1)
_NONE = np.uint64(0)
_ALL = ~np.uint64(0)


@kernel
def _candidate_eyes(cells, stride, in_area, mark, meta, queue, target, enough):
    """Regions beside the target block that are enclosed and whose empty points all touch it.

    Counting stops at ``enough``.  Those are the only regions that can be
    vital to the target, so fewer than two rule out its life.  A region's flood
    stops at its first point that rules it out (in a fight, the open area around
    the target does at once); a later flood that meets a point of a stopped one is
    in the same region and stops too.
    """
    defender = cells[target]
    # the target block's stones go first in the queue, marked with the block's stamp;
    # each region's flood takes a later stamp of its own
    stones = collect_block(cells, mark, queue, meta, stride, target)
    block_stamp = meta[META_STAMP]
    found = 0
    for k in range(stones):
        s = queue[k]
        for start in (s - 1, s + 1, s - stride, s + stride):
            c = cells[start]
            if c == BORDER or c == defender or mark[start] >= block_stamp or in_area[start] == 0:
                continue
            region = next_stamp(mark, meta)
            if region < block_stamp:
                # the stamps wrapped round and the marks were cleared: rule nothing out
                # (Benson's algorithm, run next, decides)
                return enough
            # flood the region from ``start`` (its points go after the block's stones)
            mark[start] = region
            top = stones
            queue[top] = start
            top += 1
            candidate = True
            j = stones
            while j < top and candidate:
                r = queue[j]
                j += 1
                near_target = False
                for q in (r - 1, r + 1, r - stride, r + stride):
                    cq = cells[q]
                    if cq == BORDER:
                        continue
                    if in_area[q] == 0:
                        candidate = False       # not enclosed
                    elif cq == defender:
                        if mark[q] == block_stamp:
                            near_target = True
                    elif mark[q] != region:
                        if mark[q] >= block_stamp:
                            candidate = False   # a point of a region already ruled out
                        else:
                            mark[q] = region
                            queue[top] = q
                            top += 1
                if cells[r] == EMPTY and not near_target:
                    candidate = False           # an empty point the target does not touch
            if candidate:
                found += 1
                if found >= enough:
                    return found
    return found


@kernel
def benson_kept(cells, stride, area, in_area, mark, meta, queue, labels, border, vital, target):
    """Benson's algorithm over the area's defender blocks: the blocks kept (bit b for the block
    labelled b, the target's 0), none if the target's block is dropped.  Leaves ``labels``
    with each defender stone's block and each other area point's region (-1: not a region
    vital to a block), and ``border`` and ``vital`` with the regions' blocks
    (:func:`solver.zones.pass_alive_zone` reads them)."""
    defender = cells[target]
    stamp = next_stamp(mark, meta)
    # 1. the defender's blocks in the area, the target's first (label 0)
    blocks = 0
    for k in range(-1, area.size):
        p = target if k < 0 else area[k]
        if cells[p] != defender or mark[p] == stamp:
            continue
        if blocks == MAX_BLOCKS:
            return _NONE
        mark[p] = stamp
        labels[p] = blocks
        queue[0] = p
        n = 1
        i = 0
        while i < n:
            s = queue[i]
            i += 1
            for q in (s - 1, s + 1, s - stride, s + stride):
                if cells[q] == defender and mark[q] != stamp:
                    mark[q] = stamp
                    labels[q] = blocks
                    queue[n] = q
                    n += 1
        blocks += 1
    # 2. the regions: keep, for each enclosed region vital to some block, the
    # blocks bordering it and the blocks it is vital to
    regions = 0
    for k in range(area.size):
        p = area[k]
        if cells[p] == defender or mark[p] == stamp:
            continue
        mark[p] = stamp
        queue[0] = p
        n = 1
        i = 0
        enclosed = True
        bordering = _NONE
        vital_to = _ALL
        while i < n:
            r = queue[i]
            i += 1
            labels[r] = regions   # the region's number if it is kept below (zones read it)
            beside = _NONE
            for q in (r - 1, r + 1, r - stride, r + stride):
                cq = cells[q]
                if cq == BORDER:
                    continue
                if in_area[q] == 0:
                    enclosed = False
                elif cq == defender:
                    beside |= _ONE << np.uint64(labels[q])
                elif mark[q] != stamp:
                    mark[q] = stamp
                    queue[n] = q
                    n += 1
            bordering |= beside
            if cells[r] == EMPTY:
                vital_to &= beside
        if enclosed and vital_to != _ALL and vital_to != _NONE:
            border[regions] = bordering
            vital[regions] = vital_to
            regions += 1
        else:
            for j in range(n):
                labels[queue[j]] = -1
    # 3. drop blocks with fewer than two vital regions among the regions whose
    # bordering blocks are all kept, until nothing changes
    kept = _ALL if blocks == MAX_BLOCKS else (_ONE << np.uint64(blocks)) - _ONE
    changed = True
    while changed:
        changed = False
        for b in range(blocks):
            bit = _ONE << np.uint64(b)
            if kept & bit == _NONE:
                continue
            count = 0
            for r in range(regions):
                if vital[r] & bit != _NONE and border[r] & ~kept == _NONE:
                    count += 1
                    if count == 2:
                        break
            if count < 2:
                kept &= ~bit
                changed = True
                if b == 0:
                    return _NONE
    return kept


@kernel
def target_pass_alive(cells, stride, area, in_area, mark, meta, queue, labels, border, vital, target):
    """Whether the target block is pass-alive within the search area (see the module).

    ``area`` lists the area's points but the target block's stones,
    ``in_area`` marks both; ``labels`` (one a cell), ``border`` and ``vital``
    (one a region: as many as cells) and ``queue`` (one a cell) are scratch.
    """
    if _candidate_eyes(cells, stride, in_area, mark, meta, queue, target, 2) < 2:
        return False
    kept = benson_kept(cells, stride, area, in_area, mark, meta, queue, labels, border, vital, target)
    return kept & _ONE != _NONE

