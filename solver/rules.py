"""Search rules shared by DFS and df-pn: repetitions, ko masters, passes.

These follow the reference solver tsumego.js (its ``src/README.md`` on
repetitions and local passes), so that both solvers answer the same question:

* ``km`` says who is ko master: +1 Black, -1 White, 0 nobody.  The ko master
  may play a move that recreates a position already on the path; anyone else
  may not (they have no ko threat to play first).
* The repetition check looks back along the path only as far as the last local
  pass: a pass stands for a move elsewhere and resets the local history.
* A pass is allowed while the target has two or more liberties.  When the
  ko master's opponent passes right after a pass, the ko master's threats are
  spent and ``km`` drops to 0.  A second identical pass situation on the path
  (same position, side and km) means both sides are content: the target lives
  (this is how seki counts as safe).
* The depth is capped at ``MAX_DEPTH``; a side that reaches it loses, and such
  a result is never stored as path-independent.

A result carries ``repd``: the depth of the earliest position on the path that
the proof relies on (``INF_DEPTH`` if none).  Only results with
``repd > depth + 1`` hold whatever path reaches the node; those are stored as
exact, the rest only as move-ordering hints.
"""
from __future__ import annotations

from .jit import inline_kernel, kernel

INF_DEPTH = 255
MAX_DEPTH = 127
PASS = -1
NO_MOVE = -2


@inline_kernel
def sign(color):
    """+1 for Black, -1 for White: the ko-master convention."""
    return 1 if color == 1 else -1


@inline_kernel
def pack(winner, repd, move):
    """A search result in one int64: winner colour, repetition depth, move."""
    return winner | (repd << 2) | ((move + 2) << 16)


@inline_kernel
def winner_of(result):
    return result & 3


@inline_kernel
def repd_of(result):
    return (result >> 2) & 255


@inline_kernel
def move_of(result):
    return (result >> 16) - 2


@kernel
def repetition_depth(path, depth, position_hash):
    """1 + the index of ``position_hash`` on the path since the last pass, else INF_DEPTH."""
    j = depth - 1
    while j >= 0:
        if path[j] == position_hash:
            return j + 1
        if j > 0 and path[j] == path[j - 1]:
            return INF_DEPTH
        j -= 1
    return INF_DEPTH


@kernel
def pass_loop_depth(path, depth, position_hash):
    """Reliance of a pass at ``depth`` that repeats an earlier pass situation.

    The loop relies on the earlier pass: the smallest j with ``path[j]`` and
    ``path[j + 1]`` both this position (node j passed) and the same side to
    move (depth - j even); the result is j + 2, the depth + 1 of that pass's
    child, as for a repetition of the child's position.  0 (relies on
    everything) if none is found.
    """
    for j in range(depth % 2, depth - 1, 2):
        if path[j] == position_hash and path[j + 1] == position_hash:
            return j + 2
    return 0


@kernel
def km_after_pass(path, depth, position_hash, color, km):
    """Two passes in a row void the ko master's threats if the mover is not the master."""
    if depth >= 1 and path[depth - 1] == position_hash and sign(color) * km < 0:
        return 0
    return km
