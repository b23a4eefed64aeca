"""The defender's eye space, as df-pn's first numbers read it.

Tsumego Explorer starts a fresh leaf's proof and disproof numbers from how far
the defender is from two eyes.  Here that distance is read off one flood a
node: the *interior* is the empty points reached from the target block through
empty points and defender stones (inside the search area) that touch no
attacker stone, the points an eye can be made of.  A move's child is then
given what the move leaves of it, without playing the move: an attacker stone
on p takes p and its interior neighbours (they touch it now), a defender stone
on p takes p.  Captures are not counted: an estimate for the order of the
search, never for a verdict (:func:`solver.dfpn._prepare_children`).
"""
from __future__ import annotations

from .board import BORDER, EMPTY, next_stamp, stone_beside
from .jit import inline_kernel, kernel
from .movegen import C_CELLS, C_IN_AREA, C_LABELS, C_MARK, C_META, C_STACK, C_STRIDE, C_TARGET

# labels[] of the flood's points (valid where mark[] holds its stamp; every point the flood
# marks is labelled, so that no label of an earlier flood reads as interior)
_SEEN, _INTERIOR = 12, 13


@kernel
def mark_interior(context):
    """Flood from the target (see the module); returns (stamp, interior points), the
    interior labelled ``_INTERIOR`` under that stamp for :func:`interior_taken`."""
    cells = context[C_CELLS]
    mark = context[C_MARK]
    stack = context[C_STACK]
    labels = context[C_LABELS]
    in_area = context[C_IN_AREA]
    stride = context[C_STRIDE]
    target = context[C_TARGET]
    defender = cells[target]
    attacker = 3 - defender
    stamp = next_stamp(mark, context[C_META])
    mark[target] = stamp
    labels[target] = _SEEN
    stack[0] = target
    top = 1
    interior = 0
    i = 0
    while i < top:
        r = stack[i]
        i += 1
        for q in (r - 1, r + 1, r - stride, r + stride):
            c = cells[q]
            if c == BORDER or c == attacker or mark[q] == stamp or in_area[q] == 0:
                continue
            mark[q] = stamp
            labels[q] = _SEEN
            stack[top] = q
            top += 1
            if c == EMPTY and not stone_beside(cells, q, stride, attacker):
                labels[q] = _INTERIOR
                interior += 1
    return stamp, interior


@inline_kernel
def _is_interior(mark, labels, stamp, p):
    return 1 if mark[p] == stamp and labels[p] == _INTERIOR else 0


@inline_kernel
def interior_taken(context, stamp, p, by_attacker):
    """The interior points a stone on p takes (see the module), under
    :func:`mark_interior`'s ``stamp``."""
    mark = context[C_MARK]
    labels = context[C_LABELS]
    taken = _is_interior(mark, labels, stamp, p)
    if by_attacker:
        stride = context[C_STRIDE]
        for q in (p - 1, p + 1, p - stride, p + stride):
            taken += _is_interior(mark, labels, stamp, q)
    return taken
