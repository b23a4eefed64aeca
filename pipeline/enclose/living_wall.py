"""The living wall: a frame in which the defender's strong outside stones live, as the book means.

A book's diagram shows a fight inside the defender's own outside stones: a
group of the defender's, cut off inside the attacker's stones, which are in
turn inside a long wall of the defender's that runs out into the open board
(Cho Chikun's elementary 0096 is one).  The book takes that wall as alive.
The plain frame (:mod:`pipeline.enclose.frame`) cannot: its region spreads from
the target through every defender stone it reaches, so it takes the wall in
and closes everything with the attacker's stones, and the reading becomes
another, larger question (can the whole wall live?), which takes millions of
nodes and rarely has the book's answer.

This frame keeps the defender's *strong* blocks (``STRONG_LIBERTIES``
liberties or more on the book's board, other than the target's) out of the
region, as if they were walls, and then makes them alive on the board: the
empty points around them outside the region are filled with the defender's
stones, some steps deep (``THICKNESSES``), two single-point eyes are left in that
fill, and the attacker's stones close the whole.  The solver sees a group
with two eyes, which static life (:mod:`solver.life`) knows cannot be
captured: the target that joins it lives, and every attacker move against it
is a move lost.  Nothing is assumed that the board does not show: the
enclosed problem is an ordinary problem file.
"""
from __future__ import annotations

from collections import deque

import numpy as np

from pipeline.enclose.frame import (DEFAULT_REACH, EIGHT, ORTHOGONAL, WALL, Frame, Point, block_of, blocks,
                                    liberties, on_board, region_of)
from solver.board import EMPTY

STRONG_LIBERTIES = 4   # a defender block with this many liberties on the book's board is its outside
# The living wall's depths around the strong blocks, in orthogonal steps, tried in turn: the
# thin wall first, nearest the book's board, then a thicker one where the thin one leaves no room
# for the eyes or reads another question.  Of the problems the plain frames left unfitted in
# Cho Chikun's three books (589 of 2,309), one depth alone enclosed 19 (3), 25 (4), 30 (5) or 29
# (6), and 3 then 5, 34 (RESULTS.md section 112, before its two fixes); 3 alone keeps elementary
# 0096, which 5 reads as another question.
THICKNESSES = (3, 5)


def is_strong(stones: np.ndarray, block: set[Point]) -> bool:
    """Whether a block has ``STRONG_LIBERTIES`` liberties or more: the outside of a fight."""
    return len(liberties(stones, block)) >= STRONG_LIBERTIES


def strong_blocks(stones: np.ndarray, target: Point) -> list[set[Point]]:
    """The defender's strong blocks (:func:`is_strong`) other than the target's."""
    defender = int(stones[target[1], target[0]])
    own = block_of(stones, target)
    return [block for block in blocks(stones, defender) if not block & own and is_strong(stones, block)]


def _layers(stones: np.ndarray, sources: set[Point], blocked: set[Point], depth: int) -> dict[Point, int]:
    """Empty points within ``depth`` orthogonal steps of ``sources``, never through a stone or a
    ``blocked`` point, with their distance."""
    size = stones.shape[0]
    found: dict[Point, int] = {}
    queue = deque((point, 0) for point in sources)
    while queue:
        (x, y), steps = queue.popleft()
        if steps == depth:
            continue
        for dx, dy in ORTHOGONAL:
            u, v = x + dx, y + dy
            if (on_board(size, u, v) and (u, v) not in found and (u, v) not in blocked
                    and stones[v, u] == EMPTY):
                found[(u, v)] = steps + 1
                queue.append(((u, v), steps + 1))
    return found


def _eyes(stones: np.ndarray, fill: dict[Point, int], defender: int) -> list[Point] | None:
    """Two points of the fill, not neighbours, each with only defender stones (or the edge)
    around it: the living wall's eyes, the deepest and farthest apart first; None if none."""
    size = stones.shape[0]

    def enclosed(point: Point) -> bool:
        x, y = point
        return all(not on_board(size, x + dx, y + dy) or stones[y + dy, x + dx] == defender
                   for dx, dy in ORTHOGONAL)

    candidates = sorted((p for p in fill if enclosed(p)), key=lambda p: (-fill[p], p[1], p[0]))
    for i, first in enumerate(candidates):
        others = [p for p in candidates[i + 1:] if abs(p[0] - first[0]) + abs(p[1] - first[1]) > 1]
        if others:
            second = max(others, key=lambda p: (abs(p[0] - first[0]) + abs(p[1] - first[1]), fill[p]))
            return [first, second]
    return None


def _own_eyes(stones: np.ndarray, block: set[Point]) -> int:
    """Empty points whose every neighbour on the board is a stone of ``block``."""
    size = stones.shape[0]
    return sum(1 for x, y in liberties(stones, block)
               if all(not on_board(size, x + dx, y + dy) or (x + dx, y + dy) in block for dx, dy in ORTHOGONAL))


def _touching(stones: np.ndarray, point: Point, color: int) -> bool:
    """Whether a stone of ``color`` is an orthogonal neighbour of ``point``."""
    x, y = point
    size = stones.shape[0]
    return any(on_board(size, x + dx, y + dy) and stones[y + dy, x + dx] == color for dx, dy in ORTHOGONAL)


def living_frame(stones: np.ndarray, target: Point, reach: int = DEFAULT_REACH,
                 keep: frozenset[Point] = frozenset(), margin: int = 0,
                 thickness: int = THICKNESSES[0]) -> Frame | None:
    """The target's region with the defender's strong blocks kept out of it and made alive, or
    None when the defender has no strong block or the board has no room for the living wall.

    The region is the plain frame's (:func:`pipeline.enclose.frame.region_of`) with the strong
    blocks standing as walls (``WALL``), joined by the regions of the defender's other blocks
    beside the strong ones or the region (through the eight steps, as the search area spreads).
    The fill never takes a liberty of a stone outside the strong blocks: a liberty of a strong
    block beside another stone stays empty and joins the region, as the search reaches it
    through the wall.
    """
    size = stones.shape[0]
    defender = int(stones[target[1], target[0]])
    attacker = 3 - defender
    strong = set().union(*strong_blocks(stones, target))
    if not strong:
        return None
    walled = stones.copy()
    for x, y in strong:
        walled[y, x] = WALL
    others = stones.copy()          # the stones the fill must leave their liberties
    for x, y in strong:
        others[y, x] = EMPTY
    region = region_of(walled, target, reach, keep, margin)
    beside_others = {(x, y) for y in range(size) for x in range(size)
                     if stones[y, x] == EMPTY and (_touching(others, (x, y), attacker)
                                                   or _touching(others, (x, y), defender))}
    while True:
        fill = _layers(stones, strong, region | beside_others, thickness)
        # the strong blocks' liberties that the fill leaves (beside another stone) are the
        # fight's: the search area reaches them through the living wall
        shared = {(x + dx, y + dy) for x, y in strong for dx, dy in ORTHOGONAL
                  if on_board(size, x + dx, y + dy) and stones[y + dy, x + dx] == EMPTY
                  and (x + dx, y + dy) not in fill}
        region |= shared
        inside = region | strong | set(fill)
        joining = {(x + dx, y + dy) for x, y in inside for dx, dy in EIGHT
                   if on_board(size, x + dx, y + dy) and (x + dx, y + dy) not in inside
                   and stones[y + dy, x + dx] == defender}
        if not joining:
            break
        for point in joining:
            region |= region_of(walled, point, reach, keep, margin)
    if not set(keep) <= region:
        return None
    framed = stones.copy()
    for x, y in fill:
        framed[y, x] = defender
    eyes = _eyes(framed, fill, defender)
    if eyes is None:
        return None
    for x, y in eyes:
        framed[y, x] = EMPTY
    ring = {(x + dx, y + dy) for x, y in inside for dx, dy in EIGHT
            if on_board(size, x + dx, y + dy) and (x + dx, y + dy) not in inside
            and framed[y + dy, x + dx] == EMPTY}
    for x, y in ring:
        framed[y, x] = attacker
    # a closing stone boxed in by the wall and the edge would stand without a liberty: the
    # wall's own stone there instead, where it touches nothing of the region
    for block in blocks(framed, attacker):
        if (block <= ring and not liberties(framed, block)
                and not any((x + dx, y + dy) in region for x, y in block for dx, dy in ORTHOGONAL)):
            for x, y in block:
                framed[y, x] = defender
    for block in blocks(framed, defender):
        if not liberties(framed, block):
            for x, y in block:
                framed[y, x] = EMPTY
    if any(not liberties(framed, block) for color in (defender, attacker) for block in blocks(framed, color)):
        return None   # an illegal position: never written
    # every block of the living wall (the strong stones and the fill) has two eyes of its own
    seen: set[Point] = set()
    for point in sorted(strong | set(fill)):
        if point in seen or framed[point[1], point[0]] != defender:
            continue
        block = block_of(framed, point)
        seen |= block
        if not block & region and _own_eyes(framed, block) < 2:
            return None
    added = sorted((set(fill) - set(eyes)) | ring, key=lambda p: (p[1], p[0]))
    return Frame(stones=framed, target=target, region=frozenset(region), wall=tuple(added))
