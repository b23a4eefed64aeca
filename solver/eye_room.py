"""No room for two eyes: a static proof that the attacker captures the target.

Tsumego Explorer recognises a group with too little eye space as dead without
reading it out.  This module does so where it is a proof under the search's
rules.  Let *R* be the points reached from the target block T through anything
but the attacker's wall (:mod:`solver.area`: blocks that hold a stone with a
liberty outside the area, never capturable): empty points, defender stones and
any other attacker stone.  The rule claims a win for the attacker, whoever is to
move, when

* R stays inside the search area and holds no attacker stone (every attacker
  stone beside R is wall, so the defender can never capture anything), and
* at most one point of R outside T touches no wall stone.

Why (the *interior* I: R's points outside T beside no wall stone).  An eye of the
defender is an empty point or region bordered by defender stones only, so it
lies in I; with |I| <= 1 there is never room for two, and the target can live
neither by Benson's life nor in seki (there is no attacker stone to share
liberties with).  The attacker's line: while T has two liberties or more, at
least one of them touches the wall (only one point is interior): fill it, the
stone joins the wall for good; with one liberty left, take T.  Each fill is a
legal move (it joins a block with a liberty outside the area) that makes a
position never seen before on the path (a stone that joined the wall is never
removed), R only shrinks and T only grows, so I never grows: the defender's
moves, passes and captures of its own stones change none of it.  The line ends
within twice R's points less T's plies, checked against the depth cap.  Where
the defender is to move, the claim is made only where the count's own guards
allow it (:func:`solver.race.counted_claim`: no pass situation on the path repeats the
position, the attacker ko master where T's last liberty is interior), so the
win holds on every path and is stored as exact, as the race count's is.

``tests/test_eye_room.py`` re-solves every position the rule claims by plain
search, each side to move.
"""
from __future__ import annotations

from .board import BORDER, EMPTY, next_stamp, stone_beside
from .jit import kernel
from .movegen import (C_CELLS, C_COUNTERS, C_IN_AREA, C_LABELS, C_MARK, C_META, C_RACE, C_SAFE, C_STACK, C_STRIDE,
                      C_TARGET)
from .race import ROLE_TARGET, ROLE_WALL, NO_CLAIM, counted_claim, flood_attacker, race_verdict
from .table import EYE_ROOM_PROOFS, RACE_PROOFS

# labels[] roles of R's points outside T and of T's liberties once counted (valid where
# mark[] holds the rule's stamp; apart from solver.race's roles, whose floods this reuses)
_REACHED, _COUNTED = 9, 10


@kernel
def no_room_verdict(context, color, km, depth):
    """The attacker's winning move (a point) when ``color`` is the attacker and the rule proves
    it captures the target; NO_MOVE when ``color`` is the defender and it proves the defender
    loses; NO_CLAIM otherwise (see the module)."""
    cells = context[C_CELLS]
    safe = context[C_SAFE]
    mark = context[C_MARK]
    stack = context[C_STACK]
    labels = context[C_LABELS]
    in_area = context[C_IN_AREA]
    stride = context[C_STRIDE]
    target = context[C_TARGET]
    defender = cells[target]
    attacker = 3 - defender
    stamp = next_stamp(mark, context[C_META])
    # T's block into stack[:t_end]; R's other points from the top of the stack down, into
    # stack[low:]; each counted as it is found, so that the second interior point ends it
    mark[target] = stamp
    labels[target] = ROLE_TARGET
    stack[0] = target
    t_end = 1
    size = stack.size
    low = size
    interior = 0
    i = 0
    j = size
    while i < t_end or j > low:
        if i < t_end:        # T's stones first: a defender stone beside one is T's
            r = stack[i]
            i += 1
        else:
            j -= 1
            r = stack[j]
        for q in (r - 1, r + 1, r - stride, r + stride):
            c = cells[q]
            if c == BORDER or c == attacker or mark[q] == stamp:
                continue
            if in_area[q] == 0:
                return NO_CLAIM          # R reaches beyond the area
            mark[q] = stamp
            if c == defender and j == size:
                labels[q] = ROLE_TARGET
                stack[t_end] = q
                t_end += 1
                continue
            labels[q] = _REACHED
            low -= 1
            stack[low] = q
            if not stone_beside(cells, q, stride, attacker):
                interior += 1
                if interior > 1:
                    return NO_CLAIM
    # every attacker block beside T or R must be wall (its stones go after T's in the stack)
    top = t_end
    for k in range(t_end + size - low):
        r = stack[k] if k < t_end else stack[low + k - t_end]
        for q in (r - 1, r + 1, r - stride, r + stride):
            if cells[q] == attacker and not (mark[q] == stamp and labels[q] == ROLE_WALL):
                start = top
                top, walled = flood_attacker(cells, safe, mark, labels, stack, stride, q, top, stamp, attacker)
                if not walled:
                    return NO_CLAIM
                for m in range(start, top):
                    labels[stack[m]] = ROLE_WALL
    # T's liberties: one beside the wall (filled for good) and the interior one
    t_libs = 0
    outside_point = -1
    eye_point = -1
    for k in range(t_end):
        r = stack[k]
        for q in (r - 1, r + 1, r - stride, r + stride):
            if cells[q] != EMPTY or labels[q] == _COUNTED:
                continue
            labels[q] = _COUNTED          # counted once
            t_libs += 1
            if stone_beside(cells, q, stride, attacker):
                outside_point = q
            else:
                eye_point = q
    return counted_claim(context, color == attacker, km, depth, attacker, size - low, t_libs,
                         outside_point, -1, eye_point)


@kernel
def static_capture(context, color, km, depth):
    """The static proofs that the attacker captures the target, each where the solver's
    switches (``C_RACE``) turn it on: the race count (:mod:`solver.race`), then this module's
    rule with the defender to move.  As :func:`no_room_verdict` answers; a proof is counted
    (``RACE_PROOFS``, ``EYE_ROOM_PROOFS``)."""
    switches = context[C_RACE]
    counters = context[C_COUNTERS]
    if switches[0] != 0:
        claim = race_verdict(context, color, km, depth)
        if claim != NO_CLAIM:
            counters[RACE_PROOFS] += 1
            return claim
    # asked where the defender is to move only: asked at every node as well, it took 1.07 of
    # df-pn's CPU on the reference problems against 1.05 (RESULTS.md, "No room for two eyes")
    if switches[2] != 0 and color == context[C_CELLS][context[C_TARGET]]:
        claim = no_room_verdict(context, color, km, depth)
        if claim != NO_CLAIM:
            counters[EYE_ROOM_PROOFS] += 1
            return claim
    return NO_CLAIM
