"""Capturing races read by counting: a static proof that the attacker captures the target.

Go players settle a capturing race (semeai) by counting liberties instead of
reading it out.  This module does the same for the race the solver cares
about, the target block T against the attacker's blocks around it, and
answers only where the count is a proof under the search's rules: it says
"the attacker captures T, and here is a winning move", or nothing.

The *group* is T and every defender block the defender could join to it; its
*opponents* are the attacker's blocks beside it that hold no wall stone
(:mod:`solver.area`).  The count is a proof only where every liberty of the
group is *outside* (touches a wall stone and no opponent: the attacker fills
it for good), *shared* (touches an opponent) or the one *eye* (touches only the
group and the edge), none touches another attacker block, and the group's
*room* (open points reached from its outside liberties) touches nothing but
the wall.  Then the attacker needs at most ``x + e + s`` fills (outside
liberties and room, the eye, the shared ones), and the defender cannot
capture an opponent in time when

    replies + own < y

with ``y`` the fewest liberties of any opponent, ``replies`` the defender's
moves before the capture and ``own`` the attacker's fills that take a liberty
of its own.  With one opponent these are exactly the races a player counts
out (``tests/test_race.py`` checks the rule against the abstract race game
solved by brute force).

The line's first stone joins the wall and is never removed, so no later
position of the line was on the path: the win holds on every path and is
stored as exact, as static life is.  Where T has no outside liberty, a pass
situation is on the path, or the line would reach the depth cap, the count
claims only what still holds there.  Every precondition with its reason, and
the rule for T alone: docs/solver.md, "Capturing races: the count".
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .board import BORDER, EMPTY, next_stamp
from .jit import inline_kernel, kernel
from .movegen import C_CELLS, C_COUNTERS, C_HASH, C_LABELS, C_MARK, C_META, C_PATH, C_REGION_BORDER, \
    C_REGION_VITAL, C_SAFE, C_STACK, C_STRIDE, C_TARGET
from .rules import MAX_DEPTH, NO_MOVE, sign
from .table import TAGS

# What race_verdict answers when the count proves nothing.
NO_CLAIM = -3
# y when T has no opponent: the defender has nothing to capture.
NO_OPPONENT = 1 << 30
# Opponents (the attacker's blocks beside the group without a wall stone) the count follows at most.
MAX_OPPONENTS = 16
# labels[] roles of the points a count has visited (valid where mark[] holds its stamp)
(ROLE_TARGET, ROLE_GROUP, ROLE_LIBERTY, ROLE_WALL, ROLE_FAR_EMPTY, ROLE_PENDING, ROLE_ROOM,
 ROLE_OPPONENT) = 1, 2, 3, 4, 5, 6, 7, 8
_NONE = np.uint64(0)


@dataclass(frozen=True)
class RaceCount:
    """The count of one position (:meth:`solver.Solver.race_count`).

    ``proved``: the count proves the attacker captures the target; ``move`` is then the
    attacker's winning move as (x, y) when it is to move (None when the defender is).  ``x``,
    ``e``, ``s``, ``y`` are the numbers counted, ``blocks`` the defender blocks of the
    group and ``room`` the open points behind its outside liberties, counted in ``x``
    (-1 where the group's liberties are not of the kinds counted; ``y`` is
    ``NO_OPPONENT`` when the group has no opponent).
    """

    proved: bool
    move: tuple[int, int] | None
    x: int
    e: int
    s: int
    y: int
    blocks: int
    room: int


def attacker_wins_race(x: int, e: int, s: int, y: int, attacker_to_move: bool, grouped: bool = False) -> bool:
    """The counting rule: does the attacker capture T first (see the module)?

    ``x`` the group's outside liberties and room, ``e`` its eye (0 or 1), ``s`` its shared
    liberties, ``y`` the fewest liberties of any opponent (``NO_OPPONENT`` when it
    has none); ``grouped``: the group holds other defender blocks than T, or room.
    """
    return _counts(x, e, s, y, attacker_to_move, grouped)


@inline_kernel
def _counts(x, e, s, y, attacker_to_move, grouped):
    # the attacker's fills: every liberty of the group at most; those that also take an
    # opponent's liberty without capturing T: the shared ones but the last (all of them
    # when the eye is filled last, or when a liberty of a block T may still join, or one
    # T extends to in its room, could be the last); the defender's moves before the capture
    fills = x + e + s
    own = s if e > 0 or grouped else max(s - 1, 0)
    replies = fills - 1 if attacker_to_move else fills
    return replies + own < y


@kernel
def flood_attacker(cells, safe, mark, labels, stack, stride, p, top, stamp, attacker):
    """The attacker's block at p into stack[top:], its stones marked with ``stamp`` and
    labelled ROLE_PENDING (the caller labels them once it knows); returns (end, walled).

    The flood stops at the first wall stone, or at a stone an earlier flood of this count
    found to be wall (walled True): the stones pushed so far are then part of the wall,
    and the rest of the block, left unmarked, is found to be wall again wherever it is
    met.  An opponent's flood is complete.
    """
    mark[p] = stamp
    labels[p] = ROLE_PENDING
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
                labels[q] = ROLE_PENDING
                stack[end] = q
                end += 1
            elif labels[q] == ROLE_WALL:
                return end, True
    return end, False


@kernel
def _flood_far_block(cells, safe, mark, labels, stack, stride, q, top, stamp, attacker):
    """The attacker's block at q, met beyond the group's own neighbours, into stack[top:] and,
    when it holds a wall stone, labelled ROLE_WALL; returns (end, walled).  (Any other such block
    the defender might capture: the caller claims nothing.)"""
    start = top
    end, walled = flood_attacker(cells, safe, mark, labels, stack, stride, q, top, stamp, attacker)
    if walled:
        for k in range(start, end):
            labels[stack[k]] = ROLE_WALL
    return end, walled


@inline_kernel
def _note_point(mark, labels, beside, found, q, at, stamp, label):
    """The empty point q visited by this count (``stamp``) in the role ``label``, with no
    opponent beside it yet, kept at found[at]."""
    mark[q] = stamp
    labels[q] = label
    beside[q] = _NONE
    found[at] = q


@kernel
def _flood_defender(cells, mark, labels, stack, stride, p, n, stamp, label):
    """The defender's block at p appended to stack[n:], marked and labelled; returns the new end."""
    defender = cells[p]
    mark[p] = stamp
    labels[p] = label
    stack[n] = p
    end = n + 1
    i = n
    while i < end:
        r = stack[i]
        i += 1
        for q in (r - 1, r + 1, r - stride, r + stride):
            if cells[q] == defender and mark[q] != stamp:
                mark[q] = stamp
                labels[q] = label
                stack[end] = q
                end += 1
    return end


@kernel
def race_verdict(context, color, km, depth):
    """The attacker's winning move (a point) when ``color`` is the attacker and the count proves
    it captures the target; NO_MOVE when ``color`` is the defender and the count proves it loses;
    NO_CLAIM otherwise."""
    return race_count(context, color, km, depth)[0]


@inline_kernel
def _gather_group(cells, mark, labels, stack, stride, target, stamp):
    """The group: T's block, then every defender block beside a liberty of the group, into
    stack[:n] (T's stones first), marked and labelled; the defender joins them by playing
    there.  Returns (n, the group's blocks)."""
    defender = cells[target]
    n = _flood_defender(cells, mark, labels, stack, stride, target, 0, stamp, ROLE_TARGET)
    blocks = 1
    i = 0
    while i < n:
        r = stack[i]
        i += 1
        for q in (r - 1, r + 1, r - stride, r + stride):
            if cells[q] != EMPTY:
                continue
            for u in (q - 1, q + 1, q - stride, q + stride):
                if cells[u] == defender and mark[u] != stamp:
                    n = _flood_defender(cells, mark, labels, stack, stride, u, n, stamp, ROLE_GROUP)
                    blocks += 1
    return n, blocks


@inline_kernel
def _gather_liberties(cells, safe, mark, labels, beside, found, stack, stride, n, limit, stamp, attacker):
    """The liberties of the group in stack[:n] into found[:libs]; the attacker's blocks beside
    the group, wall or opponents, into stack[n:top], each labelled (the opponents' ranges at
    found[limit:]).  Returns (libs, opponents, top); libs -1 where the scratch or
    MAX_OPPONENTS cannot hold them."""
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
                    return -1, opponents, top
                _note_point(mark, labels, beside, found, q, libs, stamp, ROLE_LIBERTY)
                libs += 1
            elif c == attacker:
                start = top
                top, walled = flood_attacker(cells, safe, mark, labels, stack, stride, q, top, stamp, attacker)
                role = ROLE_WALL
                if not walled:
                    if opponents == MAX_OPPONENTS:
                        return -1, opponents, top
                    role = ROLE_OPPONENT + opponents
                    found[limit + 2 * opponents] = start
                    found[limit + 2 * opponents + 1] = top
                    opponents += 1
                for k in range(start, top):
                    labels[stack[k]] = role
    return libs, opponents, top


@inline_kernel
def _sort_liberties(cells, safe, mark, labels, found, stack, stride, libs, top, stamp, defender, attacker):
    """The group's liberties found[:libs], by kind; T's own among them (the attacker's line
    fills T's).  Returns (counted, x, e, s, T's liberties, an outside, a shared and the eye
    liberty of T (-1: none), whether an outside liberty has room behind it, top);
    ``counted`` False where a liberty is of no kind the count allows."""
    x = 0
    e = 0
    s = 0
    t_libs = 0
    outside_point = -1
    shared_point = -1
    eye_point = -1
    with_room = False
    for j in range(libs):
        p = np.int64(found[j])
        walled = False
        shared = False
        open_point = False
        room_beside = False
        of_t = False
        for q in (p - 1, p + 1, p - stride, p + stride):
            c = cells[q]
            if c == BORDER:
                continue
            if c == EMPTY:
                if mark[q] == stamp and labels[q] == ROLE_LIBERTY:
                    open_point = True      # a liberty of the group too
                else:
                    room_beside = True     # open room the group extends into
            elif c == defender:
                of_t = of_t or labels[q] == ROLE_TARGET   # a stone of the group (its closure)
            else:
                if mark[q] != stamp:
                    top, far_walled = _flood_far_block(cells, safe, mark, labels, stack, stride, q, top, stamp,
                                                       attacker)
                    if not far_walled:
                        # a block the defender's move at p might capture
                        return False, x, e, s, t_libs, outside_point, shared_point, eye_point, with_room, top
                if labels[q] == ROLE_WALL:
                    walled = True
                else:
                    shared = True
        if of_t:
            t_libs += 1
        if shared:
            if room_beside:
                # room behind a shared liberty is not counted: measured, it settled nothing
                # more (RESULTS.md, "The race count's room")
                return False, x, e, s, t_libs, outside_point, shared_point, eye_point, with_room, top
            s += 1
            if of_t:
                shared_point = p
        elif walled:
            x += 1
            with_room = with_room or room_beside
            if of_t and outside_point < 0:
                outside_point = p
        elif not open_point and not room_beside:
            e += 1
            if of_t:
                eye_point = p
            if e > 1:
                # two eyes may live
                return False, x, e, s, t_libs, outside_point, shared_point, eye_point, with_room, top
        else:
            # room the attacker cannot fill for good
            return False, x, e, s, t_libs, outside_point, shared_point, eye_point, with_room, top
    return True, x, e, s, t_libs, outside_point, shared_point, eye_point, with_room, top


@inline_kernel
def _count_room(cells, safe, mark, labels, beside, found, stack, stride, libs, limit, top, stamp, defender,
                attacker):
    """The room behind the outside liberties, into found[libs:libs + room]: every open point
    reached from them through open points, each beside a wall stone and beside no other
    stone but the wall's, so that an attacker stone there joins the wall for good and a
    defender stone there can only bring the group more of the room.  Returns the room's
    size, -1 where an open point so reached is not of that kind (or the scratch is full)."""
    # the liberties (found[:libs]) only seed the room; its points are checked as met
    end = libs
    i = 0
    while i < end:
        r = np.int64(found[i])
        in_room = i >= libs
        i += 1
        walled = False
        for q in (r - 1, r + 1, r - stride, r + stride):
            c = cells[q]
            if c == EMPTY:
                if mark[q] != stamp:
                    if end == limit:
                        return -1
                    _note_point(mark, labels, beside, found, q, end, stamp, ROLE_ROOM)
                    end += 1
            elif c == BORDER or not in_room:
                continue
            elif c == defender:
                return -1   # a block the defender could join through the room
            else:
                if mark[q] != stamp:
                    top, far_walled = _flood_far_block(cells, safe, mark, labels, stack, stride, q, top, stamp,
                                                       attacker)
                    if not far_walled:
                        return -1   # a block the defender might capture
                if labels[q] != ROLE_WALL:
                    return -1   # an opponent: the room is no outside liberty
                walled = True
        if in_room and not walled:
            return -1   # an attacker stone there could be captured
    return end - libs


@inline_kernel
def _fewest_opponent_liberties(cells, mark, labels, beside, found, stack, stride, limit, opponents, stamp):
    """The fewest liberties of any opponent (NO_OPPONENT where there is none), each opponent's
    stones a range of the stack (found[limit:]); ``beside`` keeps, as bits, the opponents
    each empty point is a liberty of, so that a point is counted once an opponent."""
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
                    labels[q] = ROLE_FAR_EMPTY
                    beside[q] = _NONE
                if beside[q] & bit == _NONE:
                    beside[q] |= bit
                    count += 1
        y = min(y, count)
    return y


@inline_kernel
def counted_claim(context, attacker_to_move, km, depth, attacker, fills, t_libs, outside_point,
                  shared_point, eye_point):
    """The verdict of a count the rule says the attacker wins, ``fills`` the group's
    liberties and room (x + e + s): NO_CLAIM unless the line's win holds on every path (see
    the module); else the attacker's first move, NO_MOVE with the defender to move."""
    if depth + 2 * fills + 2 > MAX_DEPTH:
        return NO_CLAIM
    counters = context[C_COUNTERS]
    capture_now = attacker_to_move and t_libs == 1
    if outside_point < 0 and not capture_now and (counters[TAGS] != 0 or km * sign(attacker) <= 0):
        return NO_CLAIM
    if not attacker_to_move and counters[TAGS] != 0:
        path = context[C_PATH]
        position = context[C_HASH][0]
        for j in range(depth):
            if path[j] == position:
                return NO_CLAIM
    if not attacker_to_move:
        return NO_MOVE
    if outside_point >= 0:
        return outside_point
    if shared_point >= 0:
        return shared_point
    return eye_point


@kernel
def race_count(context, color, km, depth):
    """(verdict as :func:`race_verdict` gives it, x, e, s, y, g, r): the count and its numbers
    (see the module; ``g`` the defender blocks of the group, ``r`` the open room behind its
    outside liberties, counted in x); the numbers are -1 where the liberties are not of the
    kinds counted.

    Scratch: the board's mark and stack, and the static life's labels, region masks and
    vital list (``C_LABELS``: each point's role; ``C_REGION_BORDER``: the opponents each
    empty point is a liberty of, as bits; ``C_REGION_VITAL``: the group's liberties and its
    room, then each opponent's stones as a range of the stack).
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
    stamp = next_stamp(mark, context[C_META])
    failed = (NO_CLAIM, -1, -1, -1, -1, -1, -1)

    n, blocks = _gather_group(cells, mark, labels, stack, stride, target, stamp)
    limit = found.size - 2 * MAX_OPPONENTS
    libs, opponents, top = _gather_liberties(cells, safe, mark, labels, beside, found, stack, stride, n, limit,
                                             stamp, attacker)
    if libs < 0:
        return failed
    counted, x, e, s, t_libs, outside_point, shared_point, eye_point, with_room, top = _sort_liberties(
        cells, safe, mark, labels, found, stack, stride, libs, top, stamp, defender, attacker)
    if not counted:
        return failed
    room = 0
    if with_room:
        room = _count_room(cells, safe, mark, labels, beside, found, stack, stride, libs, limit, top, stamp,
                           defender, attacker)
        if room < 0:
            return failed
        x += room
    y = _fewest_opponent_liberties(cells, mark, labels, beside, found, stack, stride, limit, opponents, stamp)
    attacker_to_move = color == attacker
    if not _counts(x, e, s, y, attacker_to_move, blocks > 1 or room > 0):
        return NO_CLAIM, x, e, s, y, blocks, room
    verdict = counted_claim(context, attacker_to_move, km, depth, attacker, x + e + s, t_libs,
                            outside_point, shared_point, eye_point)
    return verdict, x, e, s, y, blocks, room
