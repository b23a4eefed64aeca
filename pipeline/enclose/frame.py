"""The frame: the region of an open-board problem and the attacker's wall that closes it.

A book prints a corner of the board; the solver needs an enclosed problem
whose search area (:mod:`solver.area`) is every non-attacker point the target
reaches through orthogonal and diagonal steps.  So the frame chooses that
region and turns every empty point just outside it into an attacker stone.

The region spreads from the target block over the defender's stones and the
empty points *close to them*: every liberty of a defender stone, and the
points at most ``reach`` orthogonal steps from one that lie inside the
problem's box.  Attacker stones stop it.  The box is the bounding box of the
printed stones, pushed out to a board edge that lies within ``NEAR_EDGE``
lines of it (the edge the problem leans on; the same rule as lizgoban's
frame, whose problem region is the stones' box snapped to the near edges).
Two more kinds of points join the region, since a wall stone on them would
change the problem: the liberties of an attacker block the defender may
capture (:func:`weak_liberties`) and the holes beside the region that lead
nowhere else (:func:`holes`).
Unlike lizgoban's and KataGo's frames, which fill the far board for a network
to read, this wall hugs the stones: a wide margin leaves 18 to 40 empty points
where a book problem's eye space holds 6 to 15, and the exact search cannot
settle those.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from solver.board import EMPTY

NEAR_EDGE = 2       # an edge this close to the stones' box belongs to the problem
WEAK = 2            # an attacker block with this many liberties or fewer may be captured
DEFAULT_REACH = 2   # empty points this many steps from a defender stone are the group's space
# A point that stands as a wall, whatever stone is on it, in the stones the region is drawn on
# (the living wall's strong blocks, pipeline.enclose.living_wall): it stops the region and the
# distances as an attacker stone does, but joins no attacker block, so a weak attacker block
# beside it keeps its own liberties in the region.
WALL = 3

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
EIGHT = ORTHOGONAL + ((1, 1), (1, -1), (-1, 1), (-1, -1))

Point = tuple[int, int]


@dataclass(frozen=True)
class Frame:
    """A framed position: ``stones`` [y, x] with the wall placed, the region it closes, the wall's points."""

    stones: np.ndarray
    target: Point
    region: frozenset[Point]
    wall: tuple[Point, ...]


def on_board(size: int, x: int, y: int) -> bool:
    return 0 <= x < size and 0 <= y < size


def block_of(stones: np.ndarray, point: Point) -> set[Point]:
    """The block (orthogonally connected stones of one colour) holding ``point``."""
    size = stones.shape[0]
    color = stones[point[1], point[0]]
    found, queue = {point}, [point]
    while queue:
        x, y = queue.pop()
        for dx, dy in ORTHOGONAL:
            u, v = x + dx, y + dy
            if on_board(size, u, v) and (u, v) not in found and stones[v, u] == color:
                found.add((u, v))
                queue.append((u, v))
    return found


def blocks(stones: np.ndarray, color: int) -> list[set[Point]]:
    """Every block of ``color``, in row-major order of their first stone."""
    seen: set[Point] = set()
    found = []
    for y, x in zip(*np.nonzero(stones == color)):
        point = (int(x), int(y))
        if point not in seen:
            block = block_of(stones, point)
            seen |= block
            found.append(block)
    return found


def liberties(stones: np.ndarray, block: set[Point]) -> set[Point]:
    size = stones.shape[0]
    return {(x + dx, y + dy) for x, y in block for dx, dy in ORTHOGONAL
            if on_board(size, x + dx, y + dy) and stones[y + dy, x + dx] == EMPTY}


def problem_box(stones: np.ndarray, margin: int = 0) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1), inclusive: the stones' bounding box, reaching any edge within NEAR_EDGE
    lines, and ``margin`` lines wider on its open sides."""
    size = stones.shape[0]
    ys, xs = np.nonzero(stones)
    x0, x1, y0, y1 = int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max())
    last = size - 1
    return (0 if x0 <= NEAR_EDGE else max(0, x0 - margin), 0 if y0 <= NEAR_EDGE else max(0, y0 - margin),
            last if last - x1 <= NEAR_EDGE else min(last, x1 + margin),
            last if last - y1 <= NEAR_EDGE else min(last, y1 + margin))


def distances(stones: np.ndarray, color: int, limit: int) -> np.ndarray:
    """Orthogonal steps from each point to the nearest ``color`` stone, never through the other
    colour's stones (space behind a wall is not the group's); limit+1 beyond."""
    size = stones.shape[0]
    far = np.full((size, size), limit + 1, dtype=np.int64)
    queue = deque()
    for y, x in zip(*np.nonzero(stones == color)):
        far[y, x] = 0
        queue.append((int(x), int(y)))
    while queue:
        x, y = queue.popleft()
        if far[y, x] >= limit:
            continue
        for dx, dy in ORTHOGONAL:
            u, v = x + dx, y + dy
            if (on_board(size, u, v) and stones[v, u] != 3 - color and stones[v, u] != WALL
                    and far[v, u] > far[y, x] + 1):
                far[v, u] = far[y, x] + 1
                queue.append((u, v))
    return far


def region_of(stones: np.ndarray, target: Point, reach: int = DEFAULT_REACH,
              keep: frozenset[Point] = frozenset(), margin: int = 0) -> set[Point]:
    """The target's region: defender stones and near empty points reached through the eight steps.

    Points in ``keep`` (the book's first moves) are admitted wherever they lie:
    the frame must never cover the answer.  Then, until nothing changes, the
    holes beside the region and the liberties of weak attacker blocks join it.
    """
    size = stones.shape[0]
    defender = int(stones[target[1], target[0]])
    attacker = 3 - defender
    x0, y0, x1, y1 = problem_box(stones, margin)
    far = distances(stones, defender, reach)

    def admitted(x: int, y: int) -> bool:
        color = stones[y, x]
        if color == attacker or color == WALL:
            return False
        if color == defender or far[y, x] <= 1:
            return True
        return x0 <= x <= x1 and y0 <= y <= y1 and far[y, x] <= reach

    keep = set(keep)
    while True:
        region = flood(size, target, lambda x, y: admitted(x, y) or (x, y) in keep)
        grown = (holes(stones, region) | weak_liberties(stones, region, attacker)) - keep
        if not grown:
            return region
        keep |= grown


def flood(size: int, start: Point, admitted) -> set[Point]:
    """Every point reached from ``start`` through the eight steps over admitted points."""
    region, queue = {start}, [start]
    while queue:
        x, y = queue.pop()
        for dx, dy in EIGHT:
            u, v = x + dx, y + dy
            if on_board(size, u, v) and (u, v) not in region and admitted(u, v):
                region.add((u, v))
                queue.append((u, v))
    return region


def holes(stones: np.ndarray, region: set[Point]) -> set[Point]:
    """Empty points beside the region that lead nowhere else: every orthogonal neighbour is a
    stone, the edge or the region.  A wall stone there would stand inside the eye space."""
    size = stones.shape[0]
    found = set()
    for x, y in region:
        for dx, dy in EIGHT:
            u, v = x + dx, y + dy
            if (on_board(size, u, v) and (u, v) not in region and stones[v, u] == EMPTY
                    and all(not on_board(size, u + a, v + b) or stones[v + b, u + a] != EMPTY
                            or (u + a, v + b) in region for a, b in ORTHOGONAL)):
                found.add((u, v))
    return found


def weak_liberties(stones: np.ndarray, region: set[Point], attacker: int) -> set[Point]:
    """The liberties of every attacker block touching the region with at most WEAK liberties,
    or at most one outside the region: the defender may capture those, so their liberties
    are part of the problem (a wall stone there would connect them to the wall)."""
    size = stones.shape[0]
    found: set[Point] = set()
    seen: set[Point] = set()
    for x, y in region:
        for dx, dy in ORTHOGONAL:
            u, v = x + dx, y + dy
            if on_board(size, u, v) and (u, v) not in seen and stones[v, u] == attacker:
                block = block_of(stones, (u, v))
                seen |= block
                free = liberties(stones, block)
                if len(free) <= WEAK or len(free - region) <= 1:
                    found |= free
    return found


def enclose(stones: np.ndarray, target: Point, reach: int = DEFAULT_REACH,
            keep: frozenset[Point] = frozenset(), margin: int = 0) -> Frame:
    """The target's region closed by a wall of attacker stones on every empty point around it.

    Outside the wall no move is ever searched, so a stone there matters only
    through the liberties it takes: a defender block outside that the wall
    leaves without a liberty is taken off, as the attacker would have done.
    """
    size = stones.shape[0]
    attacker = 3 - int(stones[target[1], target[0]])
    region = region_of(stones, target, reach, keep, margin)
    wall = sorted({(x + dx, y + dy) for x, y in region for dx, dy in EIGHT
                   if on_board(size, x + dx, y + dy) and (x + dx, y + dy) not in region
                   and stones[y + dy, x + dx] == EMPTY}, key=lambda p: (p[1], p[0]))
    framed = stones.copy()
    for x, y in wall:
        framed[y, x] = attacker
    for block in blocks(framed, 3 - attacker):
        if not liberties(framed, block):
            for x, y in block:
                framed[y, x] = EMPTY
    return Frame(stones=framed, target=target, region=frozenset(region), wall=tuple(wall))
