"""A group of a game that lives whatever happens around it: Benson's pass-alive test.

A framed answer holds for its frame (:mod:`pipeline.frame_check`); a group that
is *pass-alive* on the game's whole board needs no frame at all.  Benson's test
(:mod:`pipeline.planes.benson`) finds the blocks that stay alive even if their
owner never plays again: each keeps at least two *vital* regions, regions all
of whose empty points are its liberties, and the opponent's last stone in
either would be a suicide while the other is open, whatever happens outside.
Such a group is answered on the whole board, without a frame and without a
search, for either side first ("lives as it stands; no move needed"), and the
answer names the eyes that prove it.  Only the block holding the named stone
is asked about, as everywhere in the project.

Big living groups with open territory are often not pass-alive (a large
region has empty points that are not liberties of the block); those are
still framed, or refused as too open, as before.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.group_answer import ALIVE, GroupAnswer, colour_name
from pipeline.planes.benson import unconditionally_alive
from pipeline.planes.regions import enclosed_regions, label_blocks
from solver import Verdict
from solver.coordinates import go_point

ORTHOGONAL = ((0, -1), (0, 1), (-1, 0), (1, 0))


@dataclass(frozen=True)
class PassAlive:
    """The target block is pass-alive; ``eyes`` are its vital regions' empty points, each region
    in reading order, the regions in the order of their first point."""

    eyes: tuple[tuple[tuple[int, int], ...], ...]

    def eye_words(self, size: int) -> str:
        """``A1 and C1``, ``A1, A2 and C1`` (an eye of several points joined by ``+``)."""
        names = ["+".join(go_point(x, y, size) for x, y in eye) for eye in self.eyes]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def why(self, size: int, attacker: int) -> str:
        """``pass-alive on the whole board: its eyes at A9 and C9 are ...``: what proves it."""
        return (f"pass-alive on the whole board: its eyes at {self.eye_words(size)} are its own liberties, "
                f"which {colour_name(attacker)} can never fill; no frame, whatever the surroundings")

    def points(self, size: int) -> list[list[str]]:
        """The eyes in Go coordinates, for ``--json``'s ``pass_alive``."""
        return [[go_point(x, y, size) for x, y in eye] for eye in self.eyes]


def standing_answer(to_play: int, defender: int) -> GroupAnswer:
    """A pass-alive group's answer as a solve would give it, whoever plays first: the defender
    needs no move (it stands alive), the attacker has none that kills; no node searched."""
    defending = to_play == defender
    move = "pass" if defending else None
    verdict = Verdict(to_play, defender, move, defender, nodes=0, seconds=0.0)
    return GroupAnswer(verdict, ko=False, ko_unsettled=False, standing=ALIVE if defending else None, move=move,
                       line_ko_master="defender", nodes=0, seconds=0.0)


def pass_alive(stones: np.ndarray, target: tuple[int, int]) -> PassAlive | None:
    """:class:`PassAlive` where the block at ``target`` (x, y) of ``stones`` ([y, x], the whole
    board) is pass-alive, else None."""
    tx, ty = target
    color = int(stones[ty, tx])
    if color == 0:
        return None
    blocks, _, _ = label_blocks(stones)
    alive = unconditionally_alive(stones, color, blocks)
    if not alive[ty, tx]:
        return None
    block = blocks[ty, tx]
    rows, cols = stones.shape

    def neighbours(x: int, y: int):
        return [(x + dx, y + dy) for dx, dy in ORTHOGONAL if 0 <= y + dy < rows and 0 <= x + dx < cols]

    eyes = []
    regions, sizes = enclosed_regions(stones, color)
    for label in range(sizes.shape[0] - 1):
        points = [(int(x), int(y)) for y, x in zip(*np.nonzero(regions == label))]
        empty = [(x, y) for x, y in points if stones[y, x] == 0]
        bordering = {(u, v) for x, y in points for u, v in neighbours(x, y) if stones[v, u] == color}
        # Benson's vital region of the block: every empty point one of its liberties, and every
        # block around the region alive (a region beside a dying block is not kept)
        liberties = all(any(blocks[v, u] == block for u, v in neighbours(x, y)) for x, y in empty)
        if empty and liberties and all(alive[v, u] for u, v in bordering):
            eyes.append(tuple(sorted(empty, key=lambda p: (p[1], p[0]))))
    return PassAlive(tuple(eyes))
