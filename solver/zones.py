"""Relevance zones in the compiled DFS: the rules of docs/relevance_zones.md over bit words.

A zone is a set of points of the universe U (the search area's points and the target
block's stones), one bit a point (``C_ZONE_BIT``), in ``uint64`` words (U reaches 129
points).  The zone of a proved node says which points decide it: every position that
agrees with it there, with the same side to move, ko master and pass state, has the same
winner.  U itself (``C_ZONE_FULL``) claims nothing.  Beside the prototype's rules
(``research/relevance_zones.py``), the compiled search's own:

- a move that meets a position of the path (a ban, a ko master's retake) gives U: zones
  say nothing of repetitions yet;
- a pass loop (the defender's win) gives the target block with two liberties: the
  earlier pass lies inside the subtree of the first node whose result is exact, so a
  position that agrees on the zone meets the same loop, move for move;
- null moves: a defender move outside its child's zone capturing nothing there; the
  defender's pass where the defender is not ko master; with the target in atari, the
  capture's zone (a defender move outside it leaves the target in atari);
- a lost node's moves the generator dropped or never searched are covered by the null
  move, by an exact loss in the table, or as self-atari (the capture that answers it);
  any other gives U, as do the race count's claims and the attacker's pass skipped
  after every board move lost.

Zones are stored beside the table's entries, which the zone table reuses
(:mod:`solver.zone_table`).  A search with zones alone takes exactly the nodes of one
without (tests/test_compiled_zones.py, which also re-solves positions changed outside a
root's zone with the plain search); with ``zone_pruning`` a lost node's moves after its
null move that lie outside the null move's zone are left unsearched
(:func:`zone_prunes`), as the generator's dropped moves are covered.
"""
from __future__ import annotations

import numpy as np

from .board import EMPTY, META_UNDO_TOP, next_stamp, collect_block
from .jit import kernel
from .life import benson_kept
from .movegen import (C_AREA, C_CELLS, C_HASH, C_PATH, C_IN_AREA, C_LABELS, C_MARK, C_META, C_MOVES,
                      C_REGION_BORDER, C_REGION_VITAL, C_SAFE, C_STACK, C_STRIDE, C_TARGET, C_UNDO,
                      C_ZONE_BIT, C_ZONE_CELL, C_ZONE_FULL, C_ZONE_MARK, C_ZONE_STATE, C_ZONE_TABLE_COUNTS,
                      C_ZONE_WORK, C_ZONES, liberties, play_move, undo_move)
from .rules import INF_DEPTH, PASS, repd_of, repetition_depth, winner_of
from .zone_table import COUNTS_SIZE, ENTRIES_LOG2, MAX_ZONES, ZT_PRUNED
from .table import node_key, table_slot

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@kernel
def zone_has(context, z, p):
    b = context[C_ZONE_BIT][p]
    return b >= 0 and (z[b >> 6] >> np.uint64(b & 63)) & _ONE != _ZERO


@kernel
def zone_add(context, z, p):
    b = context[C_ZONE_BIT][p]
    if b >= 0:
        z[b >> 6] |= _ONE << np.uint64(b & 63)


@kernel
def zone_copy(dst, src):
    for w in range(dst.size):
        dst[w] = src[w]


@kernel
def zone_union(dst, src):
    for w in range(dst.size):
        dst[w] |= src[w]


@kernel
def zone_clear(z):
    for w in range(z.size):
        z[w] = _ZERO


@kernel
def zone_fill(context, z):
    zone_copy(z, context[C_ZONE_FULL])


@kernel
def zone_is_full(context, z):
    full = context[C_ZONE_FULL]
    for w in range(z.size):
        if z[w] != full[w]:
            return False
    return True


@kernel
def zone_add_neighbours(context, z, p):
    stride = context[C_STRIDE]
    for q in (p - 1, p + 1, p - stride, p + stride):
        zone_add(context, z, q)


@kernel
def zone_add_captures(context, z):
    """The stones the last move captured, and their neighbours."""
    undo = context[C_UNDO]
    top = context[C_META][META_UNDO_TOP]
    for j in range(undo[top - 2]):
        s = undo[top - 3 - j]
        zone_add(context, z, s)
        zone_add_neighbours(context, z, s)


@kernel
def captures_in(context, z):
    """Whether the last move captured a stone of ``z``."""
    undo = context[C_UNDO]
    top = context[C_META][META_UNDO_TOP]
    for j in range(undo[top - 2]):
        if zone_has(context, z, undo[top - 3 - j]):
            return True
    return False


@kernel
def _zone_stamp(context):
    marks = context[C_ZONE_MARK]
    last = marks.size - 1
    marks[last] += 1
    return marks[last]


@kernel
def block_whole(context, z, p, wanted):
    """The block at p whole in ``z``, with ``wanted`` of its liberties in ``z`` (all it has if
    fewer; none for a permanent block: a safe wall stone, or a liberty outside U).  Marks
    its stones with the current zone stamp."""
    cells = context[C_CELLS]
    mark = context[C_MARK]
    meta = context[C_META]
    stack = context[C_STACK]
    stride = context[C_STRIDE]
    safe = context[C_SAFE]
    done = context[C_ZONE_MARK]
    stamp = done[done.size - 1]
    n = collect_block(cells, mark, stack, meta, stride, p)
    permanent = False
    for j in range(n):
        s = stack[j]
        done[s] = stamp
        zone_add(context, z, s)
        if safe[s]:
            permanent = True
    if permanent:
        return
    seen = next_stamp(mark, meta)
    inside = 0
    for j in range(n):
        s = stack[j]
        for q in (s - 1, s + 1, s - stride, s + stride):
            if cells[q] == EMPTY and mark[q] != seen:
                mark[q] = seen
                if context[C_ZONE_BIT][q] < 0:
                    return
                if zone_has(context, z, q):
                    inside += 1
    if inside >= wanted:
        return
    seen = next_stamp(mark, meta)
    for j in range(n):
        s = stack[j]
        for q in (s - 1, s + 1, s - stride, s + stride):
            if cells[q] == EMPTY and mark[q] != seen and inside < wanted:
                mark[q] = seen
                if not zone_has(context, z, q):
                    zone_add(context, z, q)
                    inside += 1


@kernel
def zone_whole_blocks(context, z, color, wanted):
    """Every ``color`` block with a stone in ``z`` whole, with ``wanted`` liberties
    (:func:`block_whole`)."""
    cells = context[C_CELLS]
    universe = context[C_ZONE_CELL]
    done = context[C_ZONE_MARK]
    stamp = _zone_stamp(context)
    for i in range(universe.size):
        p = universe[i]
        if cells[p] == color and done[p] != stamp and zone_has(context, z, p):
            block_whole(context, z, p, wanted)


@kernel
def or_zone(context, z, move, color, passed):
    """The zone of a node ``color`` wins by ``move`` (still played), ``z`` holding the
    child's zone: the move, its captures and their neighbours; the loser's blocks in the
    zone whole with a liberty; the move's own block whole with a liberty when it captured
    nothing.  A winning pass: the target block whole with two liberties (it stays legal)."""
    if zone_is_full(context, z):
        return
    target = context[C_TARGET]
    _zone_stamp(context)
    if passed:
        zone_add(context, z, target)
        block_whole(context, z, target, 2)
        return
    captured = context[C_UNDO][context[C_META][META_UNDO_TOP] - 2]
    zone_add(context, z, move)
    zone_add_captures(context, z)
    zone_whole_blocks(context, z, 3 - color, 1)
    if captured == 0:
        _zone_stamp(context)
        block_whole(context, z, move, 1)


@kernel
def pass_alive_zone(context, z):
    """The zone of a pass-alive target (:mod:`solver.life`): the blocks Benson keeps and the
    regions vital to them whose bordering blocks are all kept.  A closed set: in a position
    that agrees with it there, each of those blocks has the same two vital regions (a block
    may be larger, never with fewer), so Benson keeps them all again."""
    cells = context[C_CELLS]
    labels = context[C_LABELS]
    border = context[C_REGION_BORDER]
    vital = context[C_REGION_VITAL]
    target = context[C_TARGET]
    kept = benson_kept(cells, context[C_STRIDE], context[C_AREA], context[C_IN_AREA], context[C_MARK],
                       context[C_META], context[C_STACK], labels, border, vital, target)
    zone_clear(z)
    if kept & _ONE == _ZERO:
        zone_fill(context, z)
        return
    defender = cells[target]
    universe = context[C_ZONE_CELL]
    for i in range(universe.size):
        p = universe[i]
        k = labels[p]
        if k < 0:
            continue
        if cells[p] == defender:
            if (kept >> np.uint64(k)) & _ONE != _ZERO:
                zone_add(context, z, p)
        elif border[k] & ~kept == _ZERO and vital[k] & kept != _ZERO:
            zone_add(context, z, p)


@kernel
def _self_atari_zone(context, z):
    """The defender's move just played leaves the target one liberty: the attacker's capture
    there, as a child's zone (the target block whole and every point beside it)."""
    cells = context[C_CELLS]
    stack = context[C_STACK]
    stride = context[C_STRIDE]
    n = collect_block(cells, context[C_MARK], stack, context[C_META], stride, context[C_TARGET])
    for j in range(n):
        zone_add(context, z, stack[j])
        zone_add_neighbours(context, z, stack[j])


@kernel
def and_zone(context, keys, values, depth, color, km, n, table_covers):
    """The zone of a lost node (``color`` to move, every one of the ``n`` moves of its row
    searched and lost, or pruned by the null move), from its working zones (the children's, and the null move's): the
    loser's other moves are covered by the null move, an exact loss in DFS's table (where
    ``table_covers``) or the self-atari rule, or the zone is U; CR-1 for suicides in the
    null move's zone; the winner's blocks in the zone whole with two liberties."""
    z = context[C_ZONES][depth]
    state = context[C_ZONE_STATE][depth]
    if state[1] != 0:
        zone_fill(context, z)
        return
    work = context[C_ZONE_WORK][depth]
    null = work[1]
    cells = context[C_CELLS]
    target = context[C_TARGET]
    defender = cells[target]
    stride = context[C_STRIDE]
    moves = context[C_MOVES][depth]
    done = context[C_ZONE_MARK]
    searched = _zone_stamp(context)
    passed = False
    for i in range(n):
        if moves[i] == PASS:
            passed = True
        else:
            done[moves[i]] = searched
    if state[0] == 0 and color == defender and liberties(context, target, 2) < 2:
        # the target in atari: a defender move outside its block and the points beside it,
        # capturing nothing there, leaves it in atari, and the attacker captures
        zone_clear(null)
        _self_atari_zone(context, null)
        state[0] = 1
    if state[0] == 0:
        zone_fill(context, z)
        return
    zone_copy(z, work[0])
    zone_union(z, null)
    if zone_is_full(context, z):
        return
    area = context[C_AREA]
    for i in range(area.size):
        x = area[i]
        if cells[x] != EMPTY or done[x] == searched:
            continue
        if play_move(context, x, color) < 0:
            if zone_has(context, null, x):
                # CR-1: a suicide in the null move's zone stays one in every similar position
                zone_add_neighbours(context, z, x)
                for q in (x - 1, x + 1, x - stride, x + stride):
                    if cells[q] == color:
                        _block_and_neighbours(context, z, q)
            continue
        if not zone_has(context, null, x) and not captures_in(context, null):
            undo_move(context)     # it loses as the null move does
            continue
        zone_add(context, z, x)
        zone_add_captures(context, z)
        # a move banned as a repetition: in a position that agrees on the zone, the same
        # move (its point and captures in the zone) repeats the same position of the line
        covered = repetition_depth(context[C_PATH], depth, context[C_HASH][0]) < INF_DEPTH
        if cells[target] != EMPTY and not covered:
            i_slot = table_slot(keys, node_key(context[C_HASH][0], 3 - color, km)) if table_covers else -1
            if i_slot >= 0 and keys[i_slot] != 0:
                v = values[i_slot, 0]
                if v & 1 and (v >> 1) & 3 == 3 - color:
                    for w in range(z.size):
                        z[w] |= np.uint64(values[i_slot, 1 + w])
                    covered = True
            if not covered and color == defender and liberties(context, target, 2) < 2:
                _self_atari_zone(context, z)
                covered = True
        undo_move(context)
        if not covered:
            zone_fill(context, z)
            return
    if not passed:
        # the pass was not searched here (too few liberties, or the attacker's pass left out
        # while it is ko master): the target keeps its liberty count, so it is not allowed
        # in a similar position either, or is left out there for the same reason
        _zone_stamp(context)
        zone_add(context, z, target)
        block_whole(context, z, target, 2)
    zone_whole_blocks(context, z, 3 - color, 2)


@kernel
def _block_and_neighbours(context, z, p):
    cells = context[C_CELLS]
    stack = context[C_STACK]
    n = collect_block(cells, context[C_MARK], stack, context[C_META], context[C_STRIDE], p)
    for j in range(n):
        zone_add(context, z, stack[j])
        zone_add_neighbours(context, z, stack[j])


@kernel
def store_zone(context, values, slot, z):
    for w in range(z.size):
        values[slot, 1 + w] = np.int64(z[w])


@kernel
def load_zone(context, values, slot, z):
    for w in range(z.size):
        z[w] = np.uint64(values[slot, 1 + w])


@kernel
def child_zone_done(context, depth, move, color, km, response, captured_target, looped):
    """After the child of ``move`` (still played; PASS for a pass) returned: its zone into the
    node's, as the winner's move (:func:`or_zone`) or as one more lost child, the first that
    is a null move (a board move outside its child's zone capturing nothing in it) kept."""
    child = context[C_ZONES][depth + 1]
    won = winner_of(response) == color
    # a null move's child must rely on no position of the path above it: a move played in
    # its place leaves the same positions below, but not the same ones against the path
    inner = repd_of(response) > depth + 1
    if captured_target:
        zone_clear(child)
        zone_add(context, child, context[C_TARGET])
    if looped:
        # a pass loop (solver.rules): the pass situation met again is the defender's win,
        # whatever the position, wherever the defender may pass; the earlier pass it repeats
        # lies in the subtree of the first node its result is exact at, so any position
        # that agrees there meets the same loop, move for move
        zone_clear(child)
        _zone_stamp(context)
        zone_add(context, child, context[C_TARGET])
        block_whole(context, child, context[C_TARGET], 2)
    if won:
        z = context[C_ZONES][depth]
        zone_copy(z, child)
        or_zone(context, z, move, color, move == PASS)
        return
    work = context[C_ZONE_WORK][depth]
    zone_union(work[0], child)
    if move == PASS:
        # The defender's pass, where it is not ko master, is a null move: a defender move x
        # outside its zone that captures nothing there leaves a position that agrees with it
        # on that zone, and x records no pass situation (the defender's loops) and keeps the
        # attacker's ko threats, which the pass may have voided.  Where the defender is
        # master, an attacker's pass right after its pass would void the defender's threats,
        # and after x it would not: no null move then.
        target = context[C_TARGET]
        defender = context[C_CELLS][target]
        state = context[C_ZONE_STATE][depth]
        if (state[0] == 0 and inner and color == defender and km * (1 if defender == 1 else -1) <= 0
                and not zone_is_full(context, child)):
            zone_copy(work[1], child)
            state[0] = 1
        return
    zone_add(context, work[0], move)
    zone_add_captures(context, work[0])
    state = context[C_ZONE_STATE][depth]
    if state[0] == 0 and inner and not zone_has(context, child, move) and not captures_in(context, child):
        zone_copy(work[1], child)
        state[0] = 1


@kernel
def zone_prunes(context, depth, move, color):
    """Whether the loser's board ``move`` (not yet played, repeating no position of the path;
    a pass never) loses as the node's null move did, unsearched: a null move was found,
    ``move`` lies outside its child's zone and captures nothing there (nor the target), so
    the child of ``move`` agrees with the null move's child on that zone
    (docs/relevance_zones.md, "AND node").  :func:`and_zone` counts it covered, as it does a
    move the generator dropped."""
    if move == PASS or context[C_ZONE_STATE][depth][0] == 0:
        return False
    null = context[C_ZONE_WORK][depth][1]
    if zone_has(context, null, move):
        return False
    if play_move(context, move, color) < 0:
        return False
    pruned = not captures_in(context, null) and context[C_CELLS][context[C_TARGET]] != EMPTY
    undo_move(context)
    if pruned:
        context[C_ZONE_TABLE_COUNTS][ZT_PRUNED] += 1
    return pruned


@kernel
def node_zone_start(context, depth):
    work = context[C_ZONE_WORK][depth]
    zone_clear(work[0])
    state = context[C_ZONE_STATE][depth]
    state[0] = 0
    state[1] = 0



@kernel
def leaf_zone(context, values, slot, z, pass_alive):
    """A leaf's zone: the pass-alive target's (``pass_alive``), else U; stored with the
    table's entry at ``slot`` (none: -1)."""
    if pass_alive:
        pass_alive_zone(context, z)
    else:
        zone_fill(context, z)
    if slot >= 0:
        store_zone(context, values, slot, z)


class ZoneArrays:
    """The context's zone slots for one solver (``on``: sized for the universe; otherwise
    one-element placeholders the search never reads)."""

    def __init__(self, board, area_cells: np.ndarray, target: int, rows: int, on: bool,
                 zone_table: bool = False):
        n = collect_block(board.cells, board.mark, board.stack, board.meta, board.stride, target)
        in_area = set(area_cells.tolist())
        stones = [int(s) for s in board.stack[:n] if int(s) not in in_area]
        self.universe = np.array(list(area_cells) + stones, dtype=np.int32) if on else np.zeros(1, np.int32)
        self.words = (self.universe.size + 63) // 64 if on else 1
        # a table entry's fields beyond the result: the zone's words
        self.table_words = self.words if on else 0
        self.bit = np.full(board.cells.size if on else 1, -1, dtype=np.int32)
        self.full = np.zeros(self.words, dtype=np.uint64)
        if on:
            for b, p in enumerate(self.universe):
                self.bit[p] = b
                self.full[b >> 6] |= np.uint64(1) << np.uint64(b & 63)
        depth_rows = rows + 1 if on else 1
        self.zones = np.zeros((depth_rows, self.words), dtype=np.uint64)
        self.work = np.zeros((depth_rows, 2, self.words), dtype=np.uint64)
        self.state = np.zeros((depth_rows, 2), dtype=np.int64)
        self.mark = np.zeros(board.cells.size + 1 if on else 1, dtype=np.int64)
        kept = on and zone_table
        self.table_zones = np.zeros((MAX_ZONES if kept else 1, self.words), dtype=np.uint64)
        self.table_class = np.zeros(MAX_ZONES if kept else 1, dtype=np.int64)
        self.table_order = np.zeros(MAX_ZONES if kept else 1, dtype=np.int64)
        self.table_place = np.zeros(MAX_ZONES if kept else 1, dtype=np.int64)
        # the zones' index: (1, number) at the slot of each zone's hash, int64 [slots, 2]
        self.table_index = np.zeros((4 * MAX_ZONES if kept else 1, 2), dtype=np.int64)
        self.table_keys = np.zeros(1 << ENTRIES_LOG2 if kept else 1, dtype=np.uint64)
        self.table_values = np.zeros(self.table_keys.size, dtype=np.int64)
        self.table_counts = np.zeros(COUNTS_SIZE, dtype=np.int64)
        self.bits = np.zeros((2, self.words), dtype=np.uint64)

    def slots(self) -> dict:
        return dict(zone_bit=self.bit, zone_cell=self.universe, zone_full=self.full, zones=self.zones,
                    zone_work=self.work, zone_state=self.state, zone_mark=self.mark,
                    zone_table=self.table_zones, zone_table_class=self.table_class,
                    zone_table_index=self.table_index, zone_table_order=self.table_order,
                    zone_table_place=self.table_place,
                    zone_table_keys=self.table_keys, zone_table_values=self.table_values,
                    zone_table_counts=self.table_counts, zone_bits=self.bits)

    def cells_of(self, depth: int) -> list[int] | None:
        """The board cells of the zone at ``depth``; None where it is the whole universe."""
        z = self.zones[depth]
        if np.array_equal(z, self.full):
            return None
        return [int(p) for b, p in enumerate(self.universe) if (int(z[b >> 6]) >> (b & 63)) & 1]
