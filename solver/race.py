"""Capturing races read by counting: a static proof that the attacker captures the target.

Go players settle a capturing race (semeai) by counting liberties instead of
reading it out.  This module does the same for the race the solver cares
about, the target block T against the attacker's blocks beside it, and
answers only where the count is a proof under the search's rules: it says
"the attacker captures T, and here is a winning move", or nothing.

**When the count is a proof.**  T's *opponents* are the attacker's blocks
beside it that hold no wall stone (:mod:`solver.area`: a wall block has a
liberty outside the search area and is never captured).  Every liberty p of
T must be

* *outside*: p touches no opponent but at least one wall stone, so the
  attacker fills it for good (its stone joins the wall);
* *shared*: p touches an opponent;
* or T's *eye*: p touches nothing but T and the board's edge (one such point
  at most: two could be two eyes);

and p touches no other defender block (T would connect to it), no other
attacker block (T might capture it) and no empty point that is not itself a
liberty of T (T would extend into it).  So no defender move gains T a
liberty, save the capture of an opponent: a stone on a liberty only joins T,
and every move elsewhere leaves T's liberties as they are.  The attacker's
line fills T's outside liberties, then the shared ones, the eye last; the
count asks whether the defender can capture an opponent before it ends.
Each move takes at most one liberty from any block holding an opponent's
stones (a stone merging opponents leaves the merged block at most one
liberty short of each part), so with ``y`` the fewest liberties of any
opponent the defender cannot capture one in time when

    replies + own < y

where ``replies`` is the number of defender moves before the capture
(``x + e + s - 1`` with the attacker to move, ``x + e + s`` with the defender
to move) and ``own`` the attacker's fills that take a liberty of its own
without capturing T (the shared liberties but the last, all of them when
the eye is filled last).  With x outside liberties, e the eye, s shared:

* no shared liberty: ``x + e <= y`` with the attacker to move, ``x + e < y``
  with the defender to move (the side to move gains a tempo; an eye is one
  more liberty to fill);
* shared liberties, no eye: the opponent's other liberties ``y - s`` must be
  at least ``x + s - 1`` / ``x + s`` (the last shared liberty is the capture
  itself, the others cost the attacker a liberty of its own too);
* shared liberties and T's eye: ``y - s >= x + s + 1`` / ``x + s + 2`` (the
  shared liberties count for the side with the eye).

With one opponent these are exactly the races a player counts out: the rule
equals the outcome of the abstract race game, solved by brute force in
``tests/test_race.py``.  With several, each is counted as the weakest.  With
no opponent (``y`` is ``NO_OPPONENT``), T dies whenever the liberties are of
these kinds.  Every option of the real defender is one the count allows for
(some real ones are even forbidden: suicide, a repeated position, a pass
with T in atari), and the attacker's line is legal in the real position, so
the count's win is a real one.

**Why the win holds on every path** (it is stored as an exact result, as
static life is).  The line fills T's outside liberties first; those stones
join the wall, the defender's stones on T's liberties join T, and neither is
ever removed (the wall is never captured, and T's capture ends the game).
So once one of them is played, no position of the line can have occurred on
the path before, and none repeats within the line: the repetition rule
forbids nothing and no earlier pass situation comes back.  Before that, the
position itself could be a pass situation of the path when the defender is
to move: the count is then claimed only where no pass is on the path or the
position is not on it.  Where the line must start on a shared liberty (no
outside liberty: the stone joins an opponent and could be captured), the
count is claimed only with the attacker as ko master and no pass on the
path.  The line lasts at most ``2 * (x + e + s) + 1`` moves, and the count
is not claimed where that would reach the depth cap.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .board import BORDER, EMPTY, _next_stamp
from .jit import inline_kernel, kernel
from .movegen import C_CELLS, C_COUNTERS, C_HASH, C_LABELS, C_MARK, C_META, C_PATH, C_REGION_BORDER, \
    C_REGION_VITAL, C_SAFE, C_STACK, C_STRIDE, C_TARGET
from .rules import MAX_DEPTH, NO_MOVE, sign
from .table import TAGS

# What race_verdict answers when the count proves nothing.
NO_CLAIM = -3
# y when T has no opponent: the defender has nothing to capture.
NO_OPPONENT = 1 << 30
# Opponents (the attacker's blocks beside T without a wall stone) the count follows at most.
MAX_OPPONENTS = 16
# labels[] roles of the points a count has visited (valid where mark[] holds its stamp)
_TARGET, _LIBERTY, _WALL, _FAR_EMPTY, _PENDING, _OPPONENT = 1, 2, 3, 4, 5, 8
_NONE = np.uint64(0)


@dataclass(frozen=True)
class RaceCount:
    """The count of one position (:meth:`solver.Solver.race_count`).

    ``proved``: the count proves the attacker captures the target; ``move`` is then the
    attacker's winning move as (x, y) when it is to move (None when the defender is).  ``x``,
    ``e``, ``s``, ``y`` are the numbers counted (-1 where T's liberties are not of the kinds
    counted; ``y`` is ``NO_OPPONENT`` when T has no opponent).
    """

    proved: bool
    move: tuple[int, int] | None
    x: int
    e: int
    s: int
    y: int


def attacker_wins_race(x: int, e: int, s: int, y: int, attacker_to_move: bool) -> bool:
    """The counting rule: does the attacker capture T first (see the module)?

    ``x`` T's outside liberties, ``e`` its eye (0 or 1), ``s`` its shared
    liberties, ``y`` the fewest liberties of any opponent (``NO_OPPONENT``
    when T has none).
    """
    return _counts(x, e, s, y, attacker_to_move)


@inline_kernel
def _counts(x, e, s, y, attacker_to_move):
    # the attacker's fills: every liberty of T; those that also take an opponent's
    # liberty without capturing T: the shared ones but the last (all of them when
    # the eye is filled last); the defender's moves before the capture
    fills = x + e + s
    own = s if e > 0 else max(s - 1, 0)
    replies = fills - 1 if attacker_to_move else fills
    return replies + own < y


@kernel
def _flood_attacker(cells, safe, mark, labels, stack, stride, p, top, stamp, attacker):
    """The attacker's block at p into stack[top:], its stones marked with ``stamp`` and
    labelled _PENDING (the caller labels them once it knows); returns (end, walled).

    The flood stops at the first wall stone, or at a stone an earlier flood of this count
    found to be wall (walled True): the stones pushed so far are then part of the wall,
    and the rest of the block, left unmarked, is found to be wall again wherever it is
    met.  An opponent's flood is complete.
    """
    mark[p] = stamp
    labels[p] = _PENDING
    stack[top] = p
    end = top + 1
    i = top
    while i < end:
        r = stack[i]
        i += 1
        if safe[r]:
            return end, True
        for q in (r - 1, r + 1, r - stride, r + stride):
            if cells[q] != attacker:
                continue
            if mark[q] != stamp:
                mark[q] = stamp
                labels[q] = _PENDING
                stack[end] = q
                end += 1
            elif labels[q] == _WALL:
                return end, True
    return end, False


@inline_kernel
def _touches_target(cells, mark, labels, stride, p, stamp):
    """Whether the point p is beside a stone of T (marked with ``stamp``, labelled _TARGET)."""
    for q in (p - 1, p + 1, p - stride, p + stride):
        if mark[q] == stamp and labels[q] == _TARGET:
            return True
    return False


@kernel
def race_verdict(context, color, km, depth):
    """The attacker's winning move (a point) when ``color`` is the attacker and the count proves
    it captures the target; NO_MOVE when ``color`` is the defender and the count proves it loses;
    NO_CLAIM otherwise."""
    return race_count(context, color, km, depth)[0]


@kernel
def race_count(context, color, km, depth):
    """(verdict as :func:`race_verdict` gives it, x, e, s, y): the count and its numbers (see
    the module); the numbers are -1 where T's liberties are not of the kinds counted.

    Scratch: the board's mark and stack, and the static life's labels, region masks and
    vital list (``C_LABELS``: each point's role; ``C_REGION_BORDER``: the opponents each
    empty point is a liberty of, as bits; ``C_REGION_VITAL``: T's liberties, then each
    opponent's stones as a range of the stack).
    """
    cells = context[C_CELLS]
    safe = context[C_SAFE]
    mark = context[C_MARK]
    stack = context[C_STACK]
    labels = context[C_LABELS]
    beside = context[C_REGION_BORDER]
    found = context[C_REGION_VITAL]
    stride = context[C_STRIDE]
    target = context[C_TARGET]
    defender = cells[target]
    attacker = 3 - defender
    stamp = _next_stamp(mark, context[C_META])

    # T's stones: stack[:n]
    mark[target] = stamp
    labels[target] = _TARGET
    stack[0] = target
    n = 1
    i = 0
    while i < n:
        r = stack[i]
        i += 1
        for q in (r - 1, r + 1, r - stride, r + stride):
            if cells[q] == defender and mark[q] != stamp:
                mark[q] = stamp
                labels[q] = _TARGET
                stack[n] = q
                n += 1
    # T's liberties into found[:libs]; the attacker's blocks beside T, wall or opponents,
    # into stack[n:top] (the opponents' ranges at found[limit:])
    limit = found.size - 2 * MAX_OPPONENTS
    libs = 0
    opponents = 0
    top = n
    for j in range(n):
        r = stack[j]
        for q in (r - 1, r + 1, r - stride, r + stride):
            if mark[q] == stamp:
                continue
            c = cells[q]
            if c == EMPTY:
                if libs == limit:
                    return NO_CLAIM, -1, -1, -1, -1
                # the usual ways out, ruled out before any attacker block is flooded: another
                # defender block beside q (T connects by playing q), an open point beside q
                # that is no liberty of T (T extends into it)
                for u in (q - 1, q + 1, q - stride, q + stride):
                    cu = cells[u]
                    if cu == defender and (mark[u] != stamp or labels[u] != _TARGET):
                        return NO_CLAIM, -1, -1, -1, -1
                    if cu == EMPTY and not _touches_target(cells, mark, labels, stride, u, stamp):
                        return NO_CLAIM, -1, -1, -1, -1
                mark[q] = stamp
                labels[q] = _LIBERTY
                beside[q] = _NONE
                found[libs] = q
                libs += 1
            elif c == attacker:
                start = top
                top, walled = _flood_attacker(cells, safe, mark, labels, stack, stride, q, top, stamp, attacker)
                role = _WALL
                if not walled:
                    if opponents == MAX_OPPONENTS:
                        return NO_CLAIM, -1, -1, -1, -1
                    role = _OPPONENT + opponents
                    found[limit + 2 * opponents] = start
                    found[limit + 2 * opponents + 1] = top
                    opponents += 1
                for k in range(start, top):
                    labels[stack[k]] = role
    # T's liberties, by kind (the usual ways out first: an open point or a block beside one)
    x = 0
    e = 0
    s = 0
    outside_point = -1
    shared_point = -1
    eye_point = -1
    for j in range(libs):
        p = np.int64(found[j])
        walled = False
        shared = False
        open_point = False
        for q in (p - 1, p + 1, p - stride, p + stride):
            c = cells[q]
            if c == BORDER:
                continue
            if c == EMPTY:
                open_point = True      # a liberty of T too (checked as the liberties were found)
            elif c == defender:
                continue               # T's own stone (likewise)
            else:
                if mark[q] != stamp:
                    start = top
                    top, far_walled = _flood_attacker(cells, safe, mark, labels, stack, stride, q, top, stamp, attacker)
                    if not far_walled:
                        return NO_CLAIM, -1, -1, -1, -1   # a block T's move at p might capture
                    for k in range(start, top):
                        labels[stack[k]] = _WALL
                if labels[q] == _WALL:
                    walled = True
                else:
                    shared = True
        if shared:
            s += 1
            shared_point = p
        elif walled:
            x += 1
            if outside_point < 0:
                outside_point = p
        elif not open_point:
            e += 1
            eye_point = p
            if e > 1:
                return NO_CLAIM, -1, -1, -1, -1   # two eyes may live
        else:
            return NO_CLAIM, -1, -1, -1, -1   # room the attacker cannot fill for good
    # the fewest liberties of any opponent
    y = NO_OPPONENT
    for b in range(opponents):
        bit = np.uint64(1) << np.uint64(b)
        count = 0
        for k in range(np.int64(found[limit + 2 * b]), np.int64(found[limit + 2 * b + 1])):
            r = stack[k]
            for q in (r - 1, r + 1, r - stride, r + stride):
                if cells[q] != EMPTY:
                    continue
                if mark[q] != stamp:
                    mark[q] = stamp
                    labels[q] = _FAR_EMPTY
                    beside[q] = _NONE
                if beside[q] & bit == _NONE:
                    beside[q] |= bit
                    count += 1
        y = min(y, count)
    attacker_to_move = color == attacker
    if not _counts(x, e, s, y, attacker_to_move):
        return NO_CLAIM, x, e, s, y
    # the conditions under which the line's win holds on every path (see the module)
    if depth + 2 * (x + e + s) + 2 > MAX_DEPTH:
        return NO_CLAIM, x, e, s, y
    counters = context[C_COUNTERS]
    capture_now = attacker_to_move and x + e + s == 1
    if x == 0 and not capture_now and (counters[TAGS] != 0 or km * sign(attacker) <= 0):
        return NO_CLAIM, x, e, s, y
    if not attacker_to_move and counters[TAGS] != 0:
        path = context[C_PATH]
        position = context[C_HASH][0]
        for j in range(depth):
            if path[j] == position:
                return NO_CLAIM, x, e, s, y
    if not attacker_to_move:
        return NO_MOVE, x, e, s, y
    if x > 0:
        return outside_point, x, e, s, y
    if s > 0:
        return shared_point, x, e, s, y
    return eye_point, x, e, s, y
