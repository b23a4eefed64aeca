"""Move generation and ordering for both searches.

``context`` is the search state a search runs on (a :class:`SearchContext`, its slots
named in :data:`CONTEXT_SLOTS`, built by :class:`solver.solver.Solver`).
:func:`generate_moves` tries every point of the search area, keeps the legal ones,
drops those the rules forbid (repetition by a side that is not ko master; a defender
move that leaves the target in atari, which loses at once; with the attacker as ko
master, a defender move that fills an eye of the target, which its pass dominates,
and the attacker's pass while no pass situation is on the path, which never wins
where no move does), and scores the rest so that the likely best move comes first.  A defender move after
which the target is pass-alive (:mod:`solver.life`) wins on every path: it is
returned alone.  Results go into per-depth rows of preallocated buffers, so nothing
is allocated per node.  What a position allows, and what each move does there, is
kept in a small cache keyed by the node (position, mover, ko master): df-pn enters
many of its nodes again, and there only the path's and the solve's
parts (repetitions, the guide, the history counts, the hint, the pass) are worked
out anew.

The score of an ordinary move is its learned pattern weight (:mod:`solver.patterns`)
when the solver has a pattern table, else the liberty heuristic; DFS can record the
moves of the nodes it cuts (:func:`record_cut`), from which the weights are fitted
(:mod:`solver.pattern_training`).
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from .jit import inline_kernel, kernel
from .board import BORDER, EMPTY, META_STAMP, collect_block, count_liberties, play, undo
from .life import target_pass_alive
from .patterns import learned_weight, move_code, neighbourhood
from .rules import INF_DEPTH, PASS, repetition_depth, sign
from .table import NODES, TAGS, node_key

# The search state: one array (or number) per named slot, in this order.  The searches
# take it as one tuple, whose slots numba reads at a constant index as cheaply as a
# local; a NamedTuple (SearchContext), so that Python builds and reads it by name.  Each
# slot's index is C_ and its name in capitals (C_MOVES == CONTEXT_SLOTS.index("moves")),
# defined below from this list alone.  A row per depth is [MAX_DEPTH + 2, area points + 1],
# an entry a generated move.
CONTEXT_SLOTS = (
    # the board (solver.board) and its Zobrist hash
    "cells", "safe", "mark", "stack", "undo", "meta", "hash", "zobrist", "stride",
    "area",             # the search area's points, int32 board indices
    "target",           # a stone of the target block
    "path",             # the position hash at each depth of the path, uint64
    "tags",             # the pass situations met on the path, uint64 (solver.rules)
    "counters",         # nodes, abort reason, table fill and the other counts (solver.table)
    "moves",            # a row per depth: the generated moves
    "scores",           # a row per depth beside moves: each move's score in the order
    "depths",           # a row per depth beside moves: the repetition depth each move meets
    "hashes",           # a row per depth beside moves: the child position's hash
    # the scratch of solver.life; in_area marks the area's points and the target block's stones
    "in_area", "labels", "region_border", "region_vital",
    # the move prior of a guided solve, float64 [colour, cell], zero when unguided
    "prior",
    # the prior's weight in the move order and the nodes over which it fades (0: it does
    # not), float64 [2]
    "prior_weight",
    # a row per depth beside moves: the target's liberties after each move (counted up to
    # COUNTED_LIBERTIES, 0 where the move captures it), which df-pn's first numbers read
    "target_liberties",
    # how often each move has won a node for that colour in this solve, float64
    # [colour, cell] (the history heuristic)
    "cutoffs",
    # the learned weights (solver.patterns, TABLE_SIZE float64) and their scale, float64 [1]
    # (0: the liberty heuristic orders instead)
    "pattern_table", "pattern_scale",
    # a row per depth beside moves: each move's code (solver.patterns; its neighbourhood
    # left 0 where neither the patterns nor a record read it)
    "move_codes",
    # where DFS records the moves of the nodes it cuts (record_cut; a single row: it
    # records nothing), and the rows and cuts so far (RECORD_ROWS, RECORD_CUTS)
    "record", "record_count",
    # int64 [3]: [0] 1 where the searches end a node whose capturing race the count settles
    # (solver.race), 0 where not; [1] the cost df-pn gives the defender's race lead in a
    # fresh child's first numbers (0: none, and the opponents' liberties are not counted);
    # [2] 1 where they end a node whose target has no room for two eyes (solver.eye_room)
    "race",
    # a row per depth beside moves: the fewest liberties of the attacker's blocks beside the
    # target without a wall stone after each move, counted only where race[1] is set and
    # only up to one more than the target's (all a lead needs); COUNTED_LIBERTIES where not
    "opponent_liberties",
    # uint64, a cell per depth: the hash difference between the node's position and the one
    # it answers to in the subtree of a sibling already refuted (0: none)
    "sibling",
    # int64 [8], the searches' switches and df-pn's costs: [0] 1 where they take a move from that position
    # (sibling hints, solver.dfs); [1] df-pn's simulation budget (solver.dfpn._simulate;
    # 0: off); [2] 0 where DFS reuses no stored result (Solver(reuse_exact=False), the
    # judge of graph-history interaction); [3] 1 where DFS computes relevance zones, 2
    # where it keeps a zone table besides; [4] 1 where DFS prunes a lost node's moves
    # outside its null move's zone (solver.zones.zone_prunes); [5] and [6] the rank and
    # liberty costs of df-pn's first numbers (solver.dfpn.RANK_COST, LIBERTY_COST); [7] its
    # eye space cost (solver.dfpn.EYE_SPACE_COST; 0: off)
    "search_options",
    # relevance zones (solver.zones), computed where search_options[3] is 1 (elsewhere
    # one-element placeholders): each cell's bit in the universe (-1 outside), int32; the
    # universe's cells, int32; the whole universe as a zone, uint64 [words]; each depth's
    # result zone, uint64 [depth, words]; each depth's working zones, uint64 [depth, 2,
    # words] (the lost children's and the null move's); each depth's flags, int64 [depth, 2]
    # (a null move found; the zone is U); a stamp a cell, int64 [cells + 1] (the last: the
    # counter)
    "zone_bit", "zone_cell", "zone_full", "zones", "zone_work", "zone_state", "zone_mark",
    # the zone table (solver.zone_table), where search_options[3] is 2
    "zone_table", "zone_table_class", "zone_table_index", "zone_table_order", "zone_table_place",
    "zone_table_keys", "zone_table_values", "zone_table_counts", "zone_bits",
    # the generation cache (generate_moves): a node's key at each entry (0: none; a single
    # entry: no cache, the position generated at each visit); each entry's move count and
    # whether a pass is allowed, int64 [entries, 2]; its moves' G_ fields, int32 [entries,
    # area points + 1, G_FIELDS]; their child positions, uint64, and scores before the
    # path's and the solve's parts, float64 [entries, area points + 1]
    "generated_keys", "generated_head", "generated_fields", "generated_hashes", "generated_scores",
    # the target's liberties as a generation found them: a stamp a cell, int64 [cells + 1]
    # (the last: the counter; mark_target_liberties)
    "liberty_mark",
    # int64, a cell per depth: 1 where the row at that depth is the defender's and none of
    # its board moves leaves the target pass-alive (the generation played each and asked),
    # so the searches need not ask again in the children those moves lead to
    "life_ruled_out",
    # df-pn's path keys stored in this solve, as bits of a filter (uint64 words, a power of two):
    # a clear bit means no entry under that path key, and the table is not probed for it
    "path_filter",
)
SearchContext = namedtuple("SearchContext", CONTEXT_SLOTS)
# C_CELLS = 0, C_SAFE = 1, ...: made from the names, so that a slot added, removed or moved
# moves its constant with it (tests/test_search_context.py)
globals().update({f"C_{slot.upper()}": index for index, slot in enumerate(CONTEXT_SLOTS)})

# A generation cache entry: C_GENERATED_HEAD's fields, and each move's in C_GENERATED_FIELDS
G_COUNT, G_PASS = 0, 1
G_MOVE, G_TARGET_LIBERTIES, G_OPPONENT_LIBERTIES, G_CODE, G_LIVES = 0, 1, 2, 3, 4
G_FIELDS = 5
# The cache's default size: an entry holds up to area points + 1 moves of 36 bytes.
DEFAULT_GENERATION_CACHE_MB = 1


def generation_cache(width: int, megabytes: float) -> dict:
    """The generation cache's slots for rows of ``width`` moves, in at most ``megabytes``
    (a power of two of entries; 0: a single entry, which caches nothing)."""
    entry_bytes = width * (4 * G_FIELDS + 8 + 8) + 16
    entries = 1
    while entries * 2 * entry_bytes <= megabytes * 2**20:
        entries *= 2
    # zeros: the pages of entries never used are never touched
    return dict(generated_keys=np.zeros(entries, dtype=np.uint64),
                generated_head=np.zeros((entries, 2), dtype=np.int64),
                generated_fields=np.zeros((entries, width, G_FIELDS), dtype=np.int32),
                generated_hashes=np.zeros((entries, width), dtype=np.uint64),
                generated_scores=np.zeros((entries, width), dtype=np.float64))

# liberties counted at most for C_TARGET_LIBERTIES and C_OPPONENT_LIBERTIES
COUNTED_LIBERTIES = 8

# The record of a cut node's moves: one row a move, int64
# (node number, code, 1 for the move that won / 0 for one tried before it that lost /
#  2 for one not tried, the mover, the ko master, the child position's hash as int64)
(R_NODE, R_CODE, R_OUTCOME, R_COLOR, R_KO_MASTER, R_CHILD) = range(6)
RECORD_FIELDS = 6
R_WON, R_LOST, R_UNTRIED = 1, 0, 2
# C_RECORD_COUNT: rows written, nodes cut so far
RECORD_ROWS, RECORD_CUTS = 0, 1
# One cut node in RECORD_EVERY is recorded, chosen by a multiplicative hash of its
# number, so that the rows spread over the whole search.
RECORD_EVERY = 8

# Score tiers; the heuristic part of a score stays within (-1, 1).
CAPTURES_TARGET = 100.0
KNOWN_WIN = 16.0     # HINT + 4: the two tiers kept their order when HINT rose from 6
LIVES = 20.0          # the move makes the target pass-alive
HINT = 12.0           # over the heuristic part, the prior and the cutoffs together (< 10.9)
REPEATS = 50.0
# A guided solve adds weight * prior[colour, p] (the guide's probability that p is
# the mover's winning move, summing to at most 1 over the moves) to a move that
# repeats no position.  The weight is the guide's (its ``weight``, else
# DEFAULT_PRIOR_WEIGHT), at most MAX_PRIOR_WEIGHT: with the heuristic part within
# 0.875, a likely move may then outrank the liberty heuristics and the history
# counts but never a hint (over 11.1), a known win or a capture, and moves that
# need a ko threat keep their order.  (HINT and KNOWN_WIN were 6 and 10, which
# capped the weight at 2; raised together, they left the unguided node counts
# measured as they were: the pinned ones, and the reference problems' DFS and
# df-pn totals.)  How sharp a guide is sets its best weight: of the weights tried
# with the move patterns, 5 took the fewest nodes with the shipped (conv)
# network (model.guide.WEIGHTS), on the reference problems with PL (of 1 to 8)
# and on unseen book problems (bench/draws' draw 3, of 2, 3 and 5);
# 0.16-0.35 with the dense network of `make all`, for which 1.5 took DFS more
# nodes than no guide (docs/solver.md, "Guided search").  Zero when unguided:
# the order, and so the node counts, are then exactly the unguided ones.
DEFAULT_PRIOR_WEIGHT = 5.0
MAX_PRIOR_WEIGHT = 8.0
# The history heuristic: a move that has won nodes elsewhere in the tree (a vital
# point, the move that takes the eye) likely wins this one, so both searches count
# each node's winning move (C_CUTOFFS: DFS where a move wins, df-pn where a node is
# proven) and the order adds CUTOFF_WEIGHT * squash(count / CUTOFF_SCALE), under 2,
# to a move that repeats no position.  On the 176 cases of the reference problems
# with PL it took DFS 0.65 of the nodes and df-pn 0.88; for DFS, weights 1 to 8 and
# scales 3 to 20 took 0.65-0.75, counting a win by the size of its subtree no fewer
# (RESULTS.md, "The history heuristic").  The counts are the solve's own:
# each solve starts from zero (kept across an enclose reading's solves they
# enclosed no more), so a node count does not depend on the solves before it.
CUTOFF_WEIGHT = 2.0
CUTOFF_SCALE = 8.0


@inline_kernel
def _squash(x):
    return x / (1.0 + abs(x))


@kernel
def play_move(context, p, color):
    return play(context[C_CELLS], context[C_SAFE], context[C_MARK], context[C_STACK],
                context[C_UNDO], context[C_META], context[C_HASH], context[C_ZOBRIST],
                context[C_STRIDE], p, color)


@kernel
def undo_move(context):
    undo(context[C_CELLS], context[C_UNDO], context[C_META], context[C_HASH], context[C_ZOBRIST])


@kernel
def liberties(context, p, cap):
    return count_liberties(context[C_CELLS], context[C_SAFE], context[C_MARK], context[C_STACK],
                           context[C_META], context[C_STRIDE], p, cap)


@kernel
def target_lives(context):
    """Whether the target is pass-alive (:mod:`solver.life`): a defender win on every path."""
    return target_pass_alive(context[C_CELLS], context[C_STRIDE], context[C_AREA], context[C_IN_AREA],
                             context[C_MARK], context[C_META], context[C_STACK], context[C_LABELS],
                             context[C_REGION_BORDER], context[C_REGION_VITAL], context[C_TARGET])


@kernel
def fewest_opponent_liberties(context, cap):
    """The fewest liberties, counted up to ``cap``, of the attacker's blocks beside the target
    block that hold no wall stone: the race's opponents (solver.race counts them beside the
    whole group); ``cap`` where there is none."""
    cells = context[C_CELLS]
    mark = context[C_MARK]
    stack = context[C_STACK]
    meta = context[C_META]
    stride = context[C_STRIDE]
    target = context[C_TARGET]
    beside = context[C_REGION_VITAL]   # scratch: the attacker's stones beside the target
    attacker = 3 - cells[target]
    n = collect_block(cells, mark, stack, meta, stride, target)
    stamp = meta[META_STAMP]
    k = 0
    for j in range(n):
        r = stack[j]
        for q in (r - 1, r + 1, r - stride, r + stride):
            if cells[q] == attacker and mark[q] != stamp:
                mark[q] = stamp
                beside[k] = q
                k += 1
    fewest = cap
    for j in range(k):
        q = np.int64(beside[j])
        if mark[q] > stamp:
            continue   # its block was counted from another stone (each count takes a later stamp)
        # a block holding a wall stone counts as ``cap`` (board.count_liberties)
        fewest = min(fewest, liberties(context, q, cap))
        if fewest <= 1:
            break
    return fewest


@inline_kernel
def prior_share(context):
    """The share of the guide's prior that counts now: 0 unguided, 1 unfaded, and
    N / (N + n) after n nodes of a solve that fades it over N (C_PRIOR_WEIGHT[1])."""
    if context[C_PRIOR_WEIGHT][0] <= 0.0:
        return 0.0
    fade = context[C_PRIOR_WEIGHT][1]
    if fade <= 0.0:
        return 1.0
    # The prior is the root's: the longer the search runs, the less it is trusted
    # and the more the search's own counts order the moves (the guide's default,
    # model.guide.FADE_NODES: RESULTS.md, "The guide's prior fades by default").
    return fade / (fade + context[C_COUNTERS][NODES])


@kernel
def fills_target_eye(context, p, stride):
    """Whether every neighbour of the empty point p on the board is a stone of the target
    block: the defender's move there would only take a liberty of its own group."""
    cells = context[C_CELLS]
    target = context[C_TARGET]
    defender = cells[target]
    for q in (p - 1, p + 1, p - stride, p + stride):
        if cells[q] != BORDER and cells[q] != defender:
            return False
    collect_block(cells, context[C_MARK], context[C_STACK], context[C_META], stride, target)
    stamp = context[C_META][META_STAMP]
    mark = context[C_MARK]
    for q in (p - 1, p + 1, p - stride, p + stride):
        if cells[q] == defender and mark[q] != stamp:
            return False
    return True


@kernel
def mark_target_liberties(context):
    """Stamp the target block's liberties in C_LIBERTY_MARK with a fresh stamp (kept in its
    last cell); returns their count, or COUNTED_LIBERTIES + 1 for a block that holds a safe
    stone (board.count_liberties counts it as full, and so does every count derived here)."""
    cells = context[C_CELLS]
    safe = context[C_SAFE]
    stack = context[C_STACK]
    stride = context[C_STRIDE]
    stamps = context[C_LIBERTY_MARK]
    last = stamps.size - 1
    stamps[last] += 1
    liberty = stamps[last]
    n = collect_block(cells, context[C_MARK], stack, context[C_META], stride, context[C_TARGET])
    libs = 0
    for j in range(n):
        s = stack[j]
        if safe[s]:
            return COUNTED_LIBERTIES + 1
        for q in (s - 1, s + 1, s - stride, s + stride):
            if cells[q] == EMPTY and stamps[q] != liberty:
                stamps[q] = liberty
                libs += 1
    return libs


@kernel
def generate_moves(context, color, km, depth, hint):
    """Fill row ``depth`` of the move buffers; returns (count, earliest repetition).

    The pass, when allowed, is appended last.  ``hint`` is a move remembered
    from an earlier visit of this node (or -2), tried first among equals.
    The first defender move found after which the target is pass-alive, and
    that repeats no position, ends the generation: it is the only move
    returned (count 1).  One that repeats a position comes first instead.

    The moves a position allows, and what each one does there, are read from the
    generation cache where an earlier visit of the same node left them
    (:func:`_generate`); only what the path and the solve's counts decide is
    worked out again (:func:`_order`), so the rows are the same either way.
    """
    keys = context[C_GENERATED_KEYS]
    if keys.size > 1:
        key = node_key(context[C_HASH][0], color, km)
        entry = np.int64(key & np.uint64(keys.size - 1))
        if keys[entry] != key:
            complete = _generate(context, color, km, depth, entry)
            keys[entry] = key if complete else np.uint64(0)
    else:
        entry = np.int64(0)
        _generate(context, color, km, depth, entry)
    return _order(context, color, km, depth, hint, entry)


@kernel
def _generate(context, color, km, depth, entry):
    """Write into the cache's ``entry`` the moves the position allows ``color`` (with ``km``
    ko master), in the area's order, and what each does: its child position, the target's
    and the opponents' liberties after it, its code, its score before the path's and the
    solve's parts, whether the target is then pass-alive; and whether a pass is allowed
    (the target keeps two liberties).  All of it is the position's alone.  Returns
    whether the list is complete: it stops at a move after which the target is
    pass-alive that repeats no position on this path, the only move the node needs."""
    cells = context[C_CELLS]
    area = context[C_AREA]
    target = context[C_TARGET]
    path = context[C_PATH]
    fields = context[C_GENERATED_FIELDS][entry]
    hashes = context[C_GENERATED_HASHES][entry]
    scores = context[C_GENERATED_SCORES][entry]
    head = context[C_GENERATED_HEAD][entry]
    count_opponents = context[C_RACE][1] != 0
    defender = cells[target]
    direction = 1.0 if color == defender else -1.0
    stride = context[C_STRIDE]
    # The defender never fills an eye of the target block while the attacker is ko
    # master: its pass (always allowed then, the target keeping two liberties after
    # the fill) leaves the attacker the same position less a stone that only took a
    # liberty of the target, whose capture ends the search; any line the attacker wins
    # after the fill it wins after the pass, move for move (the defender's moves stay
    # legal with the liberty back, and the pass only resets the defender's repetition
    # history, may void the attacker's ko threats and records a pass situation, each
    # in the defender's favour).  With the defender or nobody as ko master the pass's
    # reset also frees the attacker's retakes, so the fill is searched as any move.
    # Measured: RESULTS.md, "The defender does not fill the target's eye".
    prune_fills = color == defender and km * sign(3 - defender) > 0
    pattern_table = context[C_PATTERN_TABLE]
    pattern_scale = context[C_PATTERN_SCALE][0]
    # a move's neighbourhood (eight reads of the board) is read only where its code is
    # used: to score it, or to record it; otherwise the codes hold the effects alone
    read_neighbourhoods = pattern_scale > 0.0 or context[C_RECORD].shape[0] > 1
    # The target's liberties after a move that captures nothing follow from those before
    # it: an attacker stone takes one if it stands on one, a defender stone not beside the
    # target takes none.  Only the other moves count them again.
    libs_before = mark_target_liberties(context)
    stamps = context[C_LIBERTY_MARK]
    liberty = stamps[stamps.size - 1]
    n = 0
    for i in range(area.size):
        p = area[i]
        if cells[p] != EMPTY:
            continue
        if prune_fills and fills_target_eye(context, p, stride):
            continue
        pattern = neighbourhood(cells, p, stride, color) if read_neighbourhoods else 0
        captured = play_move(context, p, color)
        if captured < 0:
            continue
        lives = False
        target_libs = 0
        opponent_libs = COUNTED_LIBERTIES
        captures_target = cells[target] == EMPTY
        if captures_target:
            score = CAPTURES_TARGET
            code = move_code(pattern, color == defender, captured, 0, 1, True)
        else:
            on_liberty = stamps[p] == liberty
            if captured == 0 and (color != defender or not on_liberty):
                target_libs = min(libs_before - (1 if on_liberty else 0), COUNTED_LIBERTIES)
            else:
                target_libs = liberties(context, target, COUNTED_LIBERTIES)
            if color == defender and target_libs < 2:
                undo_move(context)
                continue
            if count_opponents:
                opponent_libs = fewest_opponent_liberties(context, min(COUNTED_LIBERTIES, target_libs + 1))
            # a defender stone on a liberty of the target joins it: its block's liberties are the target's
            own_libs = min(target_libs, 4) if color == defender and on_liberty else liberties(context, p, 4)
            code = move_code(pattern, color == defender, captured, target_libs, own_libs, False)
            if pattern_scale > 0.0:
                score = pattern_scale * _squash(learned_weight(pattern_table, code))
            else:
                score = (0.5 * _squash(captured)
                         + 0.25 * _squash(direction * target_libs)
                         + 0.125 * _squash(own_libs - 2.0))
            lives = color == defender and target_lives(context)
        child = context[C_HASH][0]
        undo_move(context)
        fields[n, G_MOVE] = p
        fields[n, G_TARGET_LIBERTIES] = target_libs
        fields[n, G_OPPONENT_LIBERTIES] = opponent_libs
        fields[n, G_CODE] = code
        fields[n, G_LIVES] = 1 if lives else 0
        hashes[n] = child
        scores[n] = score
        n += 1
        if lives and repetition_depth(path, depth, child) == INF_DEPTH:
            head[G_COUNT] = n
            return False
    head[G_COUNT] = n
    head[G_PASS] = 1 if libs_before > 1 else 0
    return True


@kernel
def _order(context, color, km, depth, hint, entry):
    """Fill row ``depth`` from the cache's ``entry`` (:func:`_generate`): drop the moves that
    repeat a position the mover may not repeat, score the rest with the path's, the guide's,
    the history's and the hint's parts, and add the pass where the rules allow it;
    returns (count, earliest repetition)."""
    path = context[C_PATH]
    fields = context[C_GENERATED_FIELDS][entry]
    hashes = context[C_GENERATED_HASHES][entry]
    base_scores = context[C_GENERATED_SCORES][entry]
    head = context[C_GENERATED_HEAD][entry]
    moves = context[C_MOVES][depth]
    scores = context[C_SCORES][depth]
    depths = context[C_DEPTHS][depth]
    row_hashes = context[C_HASHES][depth]
    target_liberties = context[C_TARGET_LIBERTIES][depth]
    opponent_liberties = context[C_OPPONENT_LIBERTIES][depth]
    codes = context[C_MOVE_CODES][depth]
    prior = context[C_PRIOR][color]
    weight = context[C_PRIOR_WEIGHT][0] * prior_share(context)
    cutoffs = context[C_CUTOFFS][color]
    defender = context[C_CELLS][context[C_TARGET]]
    is_master = km * sign(color) > 0
    # every defender move in the cache was asked whether it makes the target pass-alive
    context[C_LIFE_RULED_OUT][depth] = 1 if color == defender else 0
    n = 0
    earliest = INF_DEPTH
    for i in range(head[G_COUNT]):
        p = fields[i, G_MOVE]
        child = hashes[i]
        d = repetition_depth(path, depth, child)
        earliest = min(earliest, d)
        if d <= depth and not is_master:
            continue
        lives = fields[i, G_LIVES] != 0
        if lives:
            context[C_LIFE_RULED_OUT][depth] = 0
        if lives and d == INF_DEPTH:
            # the move wins on every path: it is the only one the search needs
            moves[0] = p
            scores[0] = LIVES
            depths[0] = d
            row_hashes[0] = child
            target_liberties[0] = fields[i, G_TARGET_LIBERTIES]
            opponent_liberties[0] = fields[i, G_OPPONENT_LIBERTIES]
            codes[0] = fields[i, G_CODE]
            return 1, earliest
        score = base_scores[i]
        if lives:
            score += LIVES
        # Moves that need a ko threat come last, the earliest repetition last
        # of all: the search relies on it.
        if d < INF_DEPTH:
            score -= REPEATS + 8.0 / d
        else:
            score += weight * prior[p] + CUTOFF_WEIGHT * _squash(cutoffs[p] / CUTOFF_SCALE)
        if p == hint:
            score += HINT
        moves[n] = p
        scores[n] = score
        depths[n] = d
        row_hashes[n] = child
        target_liberties[n] = fields[i, G_TARGET_LIBERTIES]
        opponent_liberties[n] = fields[i, G_OPPONENT_LIBERTIES]
        codes[n] = fields[i, G_CODE]
        n += 1
    # The attacker's pass is left out while it is ko master and no pass situation is on
    # the path (no tag, C_TAGS): it never wins where no board move does.  If it wins,
    # the defender's pass back loses, and that leaves the attacker the same position
    # worse off (its ko threats voided, the defender's repetition history reset, two
    # pass situations recorded); so a winning board move there, played here instead,
    # wins here, move for move: every defender reply here is one there, and a pass
    # situation met twice here (the defender's win) is met twice there too, as none
    # was recorded before.  With an earlier pass situation on the path, a repetition of
    # it under the attacker's ko mastery is a defender win here that the voided
    # mastery there does not repeat, and the pass is searched (solver.dfs skips it still
    # where every board move lost relying on nothing of the path).  Only the depth cap,
    # two moves nearer there, is outside this; a result that reaches it is never stored
    # as exact.
    # Measured: RESULTS.md, "The attacker's pass while it is ko master".
    pass_dominated = color != defender and is_master and context[C_COUNTERS][TAGS] == 0
    if not pass_dominated and head[G_PASS] != 0:
        moves[n] = PASS
        scores[n] = -1e9
        depths[n] = INF_DEPTH
        row_hashes[n] = context[C_HASH][0]
        target_liberties[n] = 2   # at least: the pass's entry is not read
        opponent_liberties[n] = COUNTED_LIBERTIES
        codes[n] = -1
        n += 1
    return n, earliest


@kernel
def sort_moves(context, depth, n):
    """Insertion sort of row ``depth`` by descending score (stable)."""
    moves = context[C_MOVES][depth]
    scores = context[C_SCORES][depth]
    depths = context[C_DEPTHS][depth]
    hashes = context[C_HASHES][depth]
    libs = context[C_TARGET_LIBERTIES][depth]
    opponent_libs = context[C_OPPONENT_LIBERTIES][depth]
    codes = context[C_MOVE_CODES][depth]
    for i in range(1, n):
        m, s, d, h, b, c = moves[i], scores[i], depths[i], hashes[i], libs[i], codes[i]
        o = opponent_libs[i]
        j = i - 1
        while j >= 0 and scores[j] < s:
            moves[j + 1], scores[j + 1], depths[j + 1], hashes[j + 1] = moves[j], scores[j], depths[j], hashes[j]
            libs[j + 1] = libs[j]
            opponent_libs[j + 1] = opponent_libs[j]
            codes[j + 1] = codes[j]
            j -= 1
        moves[j + 1], scores[j + 1], depths[j + 1], hashes[j + 1], libs[j + 1] = m, s, d, h, b
        opponent_libs[j + 1] = o
        codes[j + 1] = c


@kernel
def remove_move(context, depth, n, i):
    """Drop entry i of row ``depth``; returns the new count."""
    moves = context[C_MOVES][depth]
    scores = context[C_SCORES][depth]
    depths = context[C_DEPTHS][depth]
    hashes = context[C_HASHES][depth]
    libs = context[C_TARGET_LIBERTIES][depth]
    opponent_libs = context[C_OPPONENT_LIBERTIES][depth]
    codes = context[C_MOVE_CODES][depth]
    for j in range(i, n - 1):
        moves[j], scores[j], depths[j], hashes[j] = moves[j + 1], scores[j + 1], depths[j + 1], hashes[j + 1]
        libs[j] = libs[j + 1]
        opponent_libs[j] = opponent_libs[j + 1]
        codes[j] = codes[j + 1]
    return n - 1


@kernel
def record_cut(context, depth, n, won, color, km):
    """Record a sample of the nodes DFS cuts: row ``depth``'s n moves (passes left out),
    where move ``won`` won and the moves before it lost.  Does nothing when the record
    has a single row or is full."""
    record = context[C_RECORD]
    count = context[C_RECORD_COUNT]
    count[RECORD_CUTS] += 1
    if record.shape[0] <= 1 or count[RECORD_ROWS] + n > record.shape[0]:
        return
    if ((count[RECORD_CUTS] * 2654435761) >> 7) % RECORD_EVERY != 0:
        return
    moves = context[C_MOVES][depth]
    codes = context[C_MOVE_CODES][depth]
    hashes = context[C_HASHES][depth]
    for j in range(n):
        if moves[j] == PASS:
            continue
        k = count[RECORD_ROWS]
        record[k, R_NODE] = count[RECORD_CUTS]
        record[k, R_CODE] = codes[j]
        record[k, R_OUTCOME] = R_WON if j == won else (R_LOST if j < won else R_UNTRIED)
        record[k, R_COLOR] = color
        record[k, R_KO_MASTER] = km
        record[k, R_CHILD] = hashes[j]
        count[RECORD_ROWS] = k + 1
