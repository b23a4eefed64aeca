"""Tactical test positions, each with its expected answer.

Diagrams: ``X`` black, ``O`` white, ``.`` empty; ``x``/``o`` is the stone of
the block asked about.  Marks on empty points:

* ``e`` the owner's move the ladder reader must give (``escape_move``),
* ``a`` the attacker's atari it must give (``atari_move``),
* ``*`` every snapback point of ``color`` (exactly that set),
* ``n`` the net moves (the reader must return one of them).

Coordinates are (x, y): column, row from the top.  The comment of each case
says why the answer is what it is.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.board import BLACK, EMPTY, WHITE


@dataclass(frozen=True)
class Case:
    name: str
    kind: str              # "ladder", "snapback" or "net"
    diagram: str
    captured: bool = False  # ladder and net cases
    color: int = BLACK      # snapback cases: who throws in

    @property
    def rows(self) -> list[str]:
        return [line.replace(" ", "") for line in self.diagram.strip().splitlines()]

    @property
    def size(self) -> int:
        return len(self.rows)

    def stones(self) -> np.ndarray:
        grid = np.zeros((self.size, self.size), dtype=np.int8)
        for y, row in enumerate(self.rows):
            if len(row) != self.size:
                raise ValueError(f"{self.name}: row {y} has {len(row)} points, not {self.size}")
            for x, c in enumerate(row):
                grid[y, x] = {"X": BLACK, "x": BLACK, "O": WHITE, "o": WHITE}.get(c, EMPTY)
        return grid

    def marked(self, mark: str) -> list[tuple[int, int]]:
        return [(x, y) for y, row in enumerate(self.rows) for x, c in enumerate(row) if c == mark]

    @property
    def target(self) -> tuple[int, int]:
        (point,) = self.marked("x") + self.marked("o")
        return point


LADDERS = [
    # -- the regular ladder, owner to move, in each direction ----------------
    Case("ladder-northeast-in-atari", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . a . . . . .
        . . . . X e . . . . .
        . . . . X o X . . . .
        . . . . . X . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=True),
    # White extends up to e; Black blocks straight ahead (a) and the run
    # climbs a staircase up and to the right until the right edge leaves the
    # last extension a single liberty.
    Case("ladder-northwest-in-atari", "ladder", """
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . a . . . .
        . . . . . . . e O . . .
        . . . . . . O x O . . .
        . . . . . . . O . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
    """, captured=True),
    # Black in atari; the wall stone at (8, 7) is on the right, so the run
    # goes up and to the left.
    Case("ladder-southwest-in-atari", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . X . . . .
        . . . . . X o X . . .
        . . . . . . e X . . .
        . . . . . . a . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=True),
    Case("ladder-southeast-in-atari", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . O O . . . . . .
        . . O x e a . . . . .
        . . . O . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=True),
    # Black extends to the right, under the white stone at (4, 3); White
    # blocks straight ahead and the run goes down and to the right.
    # -- the regular ladder, attacker to move (two liberties) ---------------
    Case("ladder-starts-northeast", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . X e . . . . .
        . . . . X o a . . . .
        . . . . . X . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=True),
    # Only the atari from the right works: after the atari from above, the
    # extension to the right has three liberties.
    Case("ladder-starts-southwest", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . O . . . . .
        . . . . a x O . . . .
        . . . . . e O . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=True),
    Case("ladder-two-stone-block", "ladder", """
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . X e . . . . . . .
        . . . X o O X . . . . . .
        . . . X O X . . . . . . .
        . . . . X . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
    """, captured=True),
    # The block of two in atari (the ladder document's example shape) extends up and
    # runs up and to the right on an empty board.
    Case("ladder-no-ladder-shape", "ladder", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X o . . .
        . . . . . X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, captured=False),
    # Two liberties but no stone behind: either atari lets the stone out with
    # three liberties.
    # -- breakers: a stone of the runner on the path ------------------------
    Case("ladder-northeast-breaker", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . O .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . X e . . . . .
        . . . . X o X . . . .
        . . . . . X . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=False),
    # The run reaches (9, 3), next to the white stone at (9, 2): three liberties.
    Case("ladder-northwest-breaker", "ladder", """
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . X . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . e O . . .
        . . . . . . O x O . . .
        . . . . . . . O . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
    """, captured=False),
    Case("ladder-southwest-breaker", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . X . . . .
        . . . . . X o X . . .
        . . . . . . e X . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . O . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=False),
    Case("ladder-southeast-breaker", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . O O . . . . . .
        . . O x e . . . . . .
        . . . O . . . . . . .
        . . . . . . . . . . .
        . . . . . . . X . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=False),
    Case("ladder-breaker-off-the-path", "ladder", """
        . . . . . . . . . . .
        . . . O . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . a . . . . .
        . . . . X e . . . . .
        . . . . X o X . . . .
        . . . . . X . . . . .
        . . . . . . . . . O .
        . . . . . . . . . . .
    """, captured=True),
    # White stones behind the runner and below the path change nothing.
    Case("ladder-breaker-on-an-atari-point", "ladder", """
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . O . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . X e . . . . . . .
        . . . . X o X . . . . . .
        . . . . . X . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
    """, captured=False),
    # The white stone at (10, 4) stands where Black's atari would go: the
    # extension to (9, 4) joins it and has four liberties.
    Case("ladder-breaker-surrounded", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . X .
        . . . . . . . . . O X
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . X e . . . . .
        . . . . X o X . . . .
        . . . . . X . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=True),
    # The breaker at (9, 2) has black stones above and to the right: when the
    # run joins it at (9, 3), Black's atari stone at (8, 2) has taken its last
    # outside liberty, and the joined block has one liberty.
    # -- makers: an attacker stone on the path --------------------------------
    Case("ladder-maker-on-the-path", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . O .
        . . . . . . . . X . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . X e . . . . .
        . . . . X o X . . . .
        . . . . . X . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=True),
    # Black's stone at (8, 3) stands where the run turns: the extension to
    # (8, 4) has a single liberty, before the white breaker is reached.
    Case("ladder-maker-southwest", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . X . . . .
        . . . . . X o X . . .
        . . . . . . e X . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . X . . . . . . .
        . . O . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=True),
    # -- captures ---------------------------------------------------------------
    Case("ladder-saved-by-capturing-a-wall-stone", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . X e . . . . .
        . . . . X o X . . . .
        . . . . O X O . . . .
        . . . . . e . . . . .
        . . . . . . . . . . .
    """, captured=False),
    # Without the white stones at (4, 8) and (6, 8) this is the working
    # ladder above; with them the black stone at (5, 8) is in atari, and the
    # runner captures it, now or after the first atari of the run.
    Case("ladder-runs-into-friends", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . O . . . .
        . . . . X . . O . . .
        . . . . X o . . . . .
        . . . . . X . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=False),
    # "ladder-starts-northeast" with white stones at (6, 5) and (7, 6): after
    # the atari at (6, 7) and the extension to (5, 6), both of Black's next
    # ataris send the runner next to one of them.  The atari from above lets
    # it out at once.
    Case("ladder-capture-and-ko", "ladder", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . X e . . . . .
        . . . . X o X . . . .
        . . . . O X O . . . .
        . . . . X e X . . . .
        . . . . . X . . . . .
    """, captured=False),
    # White can take the black stone at (5, 8) by playing (5, 9) (now or
    # later in the run).  Black's retake at (5, 8) would repeat the position
    # (a ko), so Black must atari elsewhere and White connects out.
    # -- the edge ---------------------------------------------------------------
    Case("ladder-second-line-crawl", "ladder", """
        . . . . . . . . .
        . . X o . . . . .
        . . . X X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, captured=True),
    # White on the second line with two liberties: whichever way Black
    # ataris, each extension along the edge has two liberties at most and the
    # first line runs out.
    Case("ladder-second-line-friend-too-far", "ladder", """
        . . . . . . . . .
        . . X o . . . O .
        . . . X X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, captured=True),
    # The white stone at (7, 1) is never reached: the atari at (4, 1) sends
    # the runner to the first line, where it dies within two moves.
    Case("ladder-first-line-in-atari", "ladder", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X X X . .
        . . . X o e . . .
    """, captured=True),
    # The stone on the first line extends along the edge: one liberty at
    # (6, 8) after it, captured there.
    Case("ladder-into-the-corner", "ladder", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . a . . .
        . . . . X e . . .
        . . . . X o X . .
        . . . . . X . . .
        . . . . . . . . .
        . . . . . . . . .
    """, captured=True),
    # A short run: the staircase meets the right edge near the top corner.
    Case("ladder-first-line-escape", "ladder", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . O O .
        . . . . X X O . .
        . . . X o e O . .
    """, captured=False),
    # The extension along the first line at (5, 8) joins White's group of
    # four, which has liberties to spare.
]

SNAPBACKS = [
    Case("snapback-top-edge", "snapback", """
        X O * * O X .
        X O O O O X .
        X X X X X X .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """, color=BLACK),
    # White's two liberties are side by side: a black stone on either is
    # captured on the other, and White's whole group is then in atari there.
    Case("snapback-corner", "snapback", """
        * * O X . . .
        O O O X . . .
        X X X X . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """, color=BLACK),
    # The same in the corner: a stone at (1, 0) is captured at (0, 0), one at
    # (0, 0) is captured at (1, 0); either way White's four stones are left
    # with the captured point as their only liberty.
    Case("snapback-one-sided", "snapback", """
        X O * . X .
        X O O O X .
        X X X X X .
        . . . . . .
        . . . . . .
        . . . . . .
    """, color=BLACK),
    # A stone at (3, 0) joins Black's wall and cannot be captured; a stone at
    # (2, 0) is captured at (3, 0), and White is in atari at (2, 0).
    Case("snapback-side", "snapback", """
        . . . . . . .
        X X X X . . .
        O O O X . . .
        * O O X . . .
        . O X X . . .
        X X X . . . .
        . . . . . . .
    """, color=BLACK),
    # On the left edge: the throw-in at (0, 3) is captured at (0, 4), whose
    # other neighbour (0, 5) is Black's; a stone at (0, 4) would join Black.
    Case("snapback-white-throws-in", "snapback", """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . O O O O
        . . O O X X X
        . . O X X * *
    """, color=WHITE),
    # White throws in on Black's two liberties in the corner: either stone is
    # captured on the other point, and Black's five stones are left in atari.
    Case("snapback-center", "snapback", """
        . . . . . . . .
        . . X X X . . .
        . X O O O X . .
        . X O * O X . .
        . X O * O X . .
        . X O O O X . .
        . . X X X . . .
        . . . . . . . .
    """, color=BLACK),
    # The two-point eye of a white ring in the open: the same on both points.
    # -- false friends -----------------------------------------------------------
    Case("false-snapback-outside-liberty", "snapback", """
        X O . . O . .
        X O O O O X .
        X X X X X X .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """, color=BLACK),
    # As "snapback-top-edge", but White also has a liberty at (5, 0): after
    # the capture White has two liberties and the recapture fails.
    Case("false-snapback-two-stones-get-out", "snapback", """
        X O X . . O X
        X O O O O O X
        X X X X X X X
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """, color=BLACK),
    # A stone at (3, 0) joins the black stone at (2, 0); White captures both
    # at (4, 0) and has two liberties.  A stone at (4, 0) is captured at
    # (3, 0), which also captures (2, 0): two liberties again.
    Case("false-snapback-three-point-space", "snapback", """
        X O . . . O X
        X O O O O O X
        X X X X X X X
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """, color=BLACK),
    # Three liberties in a row: a black stone in the middle is not even in
    # atari, one at the end is captured but White keeps two liberties.
    Case("false-snapback-group-already-in-atari", "snapback", """
        X O . X
        X O O X
        X X X X
        . . . .
    """, color=BLACK),
    # White's group is in atari: Black just captures at (2, 0).
]

NETS = [
    Case("net-center", "net", """
        . . . . . . . . . . .
        . . . . . . . . O . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . X . n . . . . .
        . . . X o . . . . . .
        . . . . X X . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=True),
    # Black's loose move at (5, 4): a push at (5, 5) is ataried at (6, 5) and
    # the other liberty (4, 4) then has one liberty; a push at (4, 4) is
    # ataried at (4, 3) and (5, 5) has one.  (Both ladders would run into the
    # white stone at (8, 1).)
    Case("net-near-the-edge", "net", """
        . . . . . . . . .
        . . . X . n . . .
        . . . X o . . . .
        . . . . X X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, captured=True),
    # "net-center" near the top edge (where a ladder works as well: the net
    # reader answers for itself, the pass marks the ladder only).
    Case("net-two-stone-block", "net", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . X . n . . . .
        . . . X o O . . . . .
        . . . . X X X . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=True),
    # White's two stones have liberties (5, 3) and (6, 4); Black's (6, 3)
    # nets them the same way as a single stone.
    Case("net-white-nets-black", "net", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . O O . . . .
        . . . . O x . . . . .
        . . . . O . n . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=True),
    # "net-center" turned a quarter and with the colours swapped.
    Case("net-fails-weak-net-stone", "net", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . O . . . . .
        . . . X . . O . . . .
        . . . X o . . . . . .
        . . . . X X . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=False),
    # A black stone at (5, 4) has two liberties; White's push at (5, 5)
    # ataris it, and White captures it at (4, 4) after Black's next atari.
    Case("net-fails-friend-nearby", "net", """
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . X . . . . . . .
        . . . X o . O . . . .
        . . . . X X . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
    """, captured=False),
    # The push at (5, 5) reaches the white stone at (6, 5): no net holds.
    Case("net-open-position", "net", """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . X o . . .
        . . . . . X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, captured=False),
    # Only two black stones near: any loose move leaves White a push to
    # three liberties.
]
