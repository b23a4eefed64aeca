"""Depth-first proof-number search (df-pn, Nagai's MID) over the same rules.

Negamax form: at every node ``phi`` is the proof number of "the side to move
wins" and ``delta`` its disproof number; phi(n) = min delta(child) and
delta(n) = sum phi(child).  The rules (:mod:`solver.rules`) make a node's value
depend on the path that reaches it when its subtree meets a repetition, a pass
loop or the depth cap; everything else is shared between transpositions.

Each number a node reports carries a *reliance depth*, as DFS results do: the
depth + 1 of the earliest position on the path its subtree ran into (a child
that repeats an ancestor's position, a move the repetition rule forbids here,
a pass that repeats an earlier pass situation, the depth cap, and for working
numbers a child whose key is an ancestor's).  A node whose numbers rely on
nothing at or above itself (reliance > depth + 1) stores them under its plain
key, for every path to share; the others store them under the key mixed with a
signature of the exact path (and of the solve), reused only when that very path
comes back, which df-pn's re-searches do all the time.  A child whose key is
already on the stack is always such a path node: reading the ancestor's numbers
for it would make them depend on themselves, and they would creep up by one per
visit around the cycle without ever settling.

Passes are kept as DFS keeps them (:mod:`solver.dfs`): a pass child's
reliance counts like any other child's, and a pass loop relies on the earlier
pass (found on the stack), not just on its own parent.  A node reached by a
pass always has its own key, since its pass may end the ko master's threats
(:func:`solver.rules.km_after_pass`) where the same position reached by a
move would not (DFS shares the key when it cannot; df-pn took more nodes so).

Thresholds use the 1 + epsilon trick (Pawlewicz & Lew): the best child is
searched until its number exceeds the second best by a factor, not by one, so
the search does not thrash between two nearly equal children.

Kawano's simulation (``Solver(simulation_nodes=...)``, off by default): a child about
to be expanded for the first time, beside a sibling refuted on every path, is first
tried with that refutation replayed move for move (:func:`_simulate`); what the replay
proves holds on every path and is stored as exact.

Relevance zones (``Solver(relevance_zones=True)``, ``zone_pruning``, ``zone_table``;
:mod:`solver.dfpn_zones`): an exact solution keeps its zone beside its numbers, a lost
node's moves outside a null move's zone are marked lost unsearched, and a zone's stored
contents solve a node met again.  Off by default.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .jit import inline_kernel, kernel
from .board import EMPTY
from .eye_room import static_capture
from .eye_space import interior_taken, mark_interior
from .movegen import (C_CELLS, C_COUNTERS, C_CUTOFFS, C_DEPTHS, C_HASH, C_HASHES, C_MOVES, C_OPPONENT_LIBERTIES,
                      C_PATH, C_PRIOR, C_RACE, C_SCORES, C_SIBLING, C_SEARCH_OPTIONS, C_TAGS, C_TARGET,
                      C_TARGET_LIBERTIES, C_ZONES, C_LIFE_RULED_OUT, C_PATH_FILTER, CAPTURES_TARGET, LIVES,
                      generate_moves, play_move, prior_share, sort_moves, target_lives, undo_move)
from .race import NO_CLAIM
from .rules import INF_DEPTH, MAX_DEPTH, NO_MOVE, PASS, km_after_pass, pack, repetition_depth
from .table import (ABORT, NODES, SIMULATED, SIMULATIONS, TAGS, count_node, node_key,
                    node_key_after, prefetch_slot, table_claim, table_slot)
from .dfpn_zones import (capture_zone, leaf_life_zone, keep_zone, no_zone, prune_by_null, simulated_loss_zone,
                         simulated_win_zone, solved_zone, stored_zone, table_hit, table_keep)
# the layouts, also read as solver.dfpn.SCRATCH_FIELDS and VALUE_FIELDS
from .dfpn_layout import (INFINITE, LARGE, S_CYCLE, S_DELTA, S_KM, S_ON_PATH_KEY, S_PHI,  # noqa: F401
                          S_PRUNED, S_REPD, S_SOLVED, SCRATCH_FIELDS, V_DELTA, V_MOVE, V_PHI, V_REPD, VALUE_FIELDS)

# Initial numbers of a fresh child: phi 1 (the opponent's proof there) and
# delta 1 + RANK_COST * its rank in the move order (our proof through it), so
# that df-pn, like DFS, follows the move order (ko recaptures and the pass come
# last) and looks deep into the first moves before widening.  1024 took the
# fewest nodes of the costs tried from 16 to 16384 on the reference problems
# (measured: RESULTS.md, "df-pn: the rank cost of a fresh child"); on unsettled
# readings of 17-23 points 256 and 4096 settled no more (RESULTS.md, "df-pn's knobs
# at 17-23 points hold").  The default of Solver(first_numbers=...), which the search
# reads from the context (movegen.C_SEARCH_OPTIONS), so that others can be measured.
RANK_COST = np.int64(1024)
# A guided solve (movegen.C_PRIOR) discounts that rank cost by the move's prior q:
# delta = 1 + RANK_COST * rank * (1 - q)**2, so a move the network finds likely is
# expanded sooner even when the order puts it second or third.  Still only the
# numbers a fresh child starts with: proofs and disproofs are as exact as before.
# The square took 0.40 of the unguided nodes on the large reference cases where
# (1 - q) took 0.49 and (1 - q)**4 0.42, and 0.40 against 0.42 on held-out
# enclosed problems (docs/solver.md, "Guided search").  (Also adding the prior to
# the child's phi, up to 64 times q, changed nothing measurable.)
# A fresh child's phi (the opponent's proof through it) starts from what the move
# leaves the target: after a defender move the attacker has to take every liberty
# but one before it can capture, so phi = 1 + LIBERTY_COST * (liberties - 1); after
# an attacker move the defender has fewer ways out the fewer liberties remain,
# phi = 1 + LIBERTY_COST * (ESCAPE_LIBERTIES - liberties), 1 from ESCAPE_LIBERTIES
# up.  The parent's disproof number is the sum of these, so a node whose moves all
# leave the opponent little is soon given up for a sibling.  On hard reference
# problems this took 0.56 of the nodes of phi = 1 (costs 64 to 1024 alike, 4 took
# 0.93; thresholds of 3, 6 and 8 liberties no better than 4 over all; RESULTS.md,
# "df-pn: the target's liberties in a child's first numbers").
# The pass keeps phi = 1.  A guided solve trades this knowledge for the prior as the
# prior fades (movegen.prior_share: s = 1 unfaded, N / (N + n) after n nodes): a fresh
# child's phi takes (1 - s) of the liberties' cost, its delta the discount
# (1 - s * q)**2, so a short solve runs on the prior and a long one turns into the
# unguided search.  Unfaded, the prior alone took fewer nodes on the reference
# problems with PL (2,199,648) than with the liberties beside it (2,654,859); but on
# the heavy unseen cases of bench/draws the faded prior alone took 1.33 of the
# unguided nodes and this blend 0.78, the liberties kept whole beside the faded
# prior 0.85; on the reference problems 0.84 against 0.75 alone (RESULTS.md,
# "Guided df-pn turns into the unguided one as the prior fades").  On a fresh draw of
# such problems, not looked at before, the blend took 0.96 (RESULTS.md, "A fresh draw").
# At 17-23 points, 16 and 256 settled no more (RESULTS.md, "df-pn's knobs at 17-23
# points hold").  Read from the context as RANK_COST is.
LIBERTY_COST = np.int64(64)
ESCAPE_LIBERTIES = 4
# Eye space in a fresh child's delta (Solver(eye_space_cost=...), off by default, on in
# enclose's time pass; Tsumego Explorer's evaluation): the interior points a move leaves the
# defender (solver.eye_space), counted up to EYE_ROOM_POINTS: a defender move's delta (its
# own proof through the child) costs the points it leaves short of that, an attacker
# move's the points it leaves, each times EYE_SPACE_COST, so the search stays longer with
# the moves that make or take eye space.  On unsettled readings of 17-23 points 64 took
# 0.66 and 0.85 of the CPU on two draws (256: 0.64 and 0.89; 1024 settled fewer), on the
# reference problems 1.13 (the flood a node); in phi (the opponent's proof) instead, the same
# count settled fewer readings (RESULTS.md, "Eye space in df-pn's first numbers").
EYE_ROOM_POINTS = 6
EYE_SPACE_COST = 64
# A race lead (Solver(race_lead_cost=...), movegen.C_RACE[1]; off by default): where the
# defender leads the race against its weakest opponent (the attacker's blocks beside the
# target without a wall stone, movegen.fewest_opponent_liberties), by the target's
# liberties less the opponent's, the side to move one ahead, a defender move's child
# (the attacker's proof) starts that many times the cost higher, and an attacker move's
# child (the defender's proof) loses its escape cost.  Where race.py's count proves
# nothing, this still tells the search who is ahead.  On the 88 reference problems with
# PL (PL first, 1,000,000 nodes) df-pn took 1,250,878 nodes at a cost of 64 and 1,186,772
# at 256 against 1,462,657 without, 16 and 1024 less (1,343,711, 1,227,105); counting the
# opponents costs about a sixth more CPU a node on the unsettled book readings
# (RESULTS.md, "Race-aware first numbers in df-pn").  Off by default: over two draws of
# 50 unsettled readings it settled 39 against 34 at equal nodes, one more in a hundred
# at equal CPU (RESULTS.md, "How far the unsettled readings are").
RACE_LEAD_COST = 256
# Kawano's simulation (Solver(simulation_nodes=...), _simulate; off by default): the nodes one
# try may take before it gives up (64 to 4096 settled as many readings of 17-23 points:
# RESULTS.md, "df-pn's knobs at 17-23 points hold").
SIMULATION_NODES = 256
# 1 + epsilon with epsilon = 1 / EPSILON_DIVISOR (epsilon 1/2 and 1/8 took 4% and
# 1% more nodes on hard reference problems, 1 took 7% more; on 40 unsettled readings of
# 17-23 points at 5 CPU s, 1/2 and 1/16 settled as many, 1 fewer, and plain thresholds
# half as many: RESULTS.md, "df-pn's 1 + ε thresholds on unsettled readings").
EPSILON_DIVISOR = 4
_PATH_MIX = np.uint64(0x9E3779B97F4A7C15)


@inline_kernel
def _child_signature(signature, position):
    """Signature of the path extended by ``position`` (order-sensitive)."""
    return (signature ^ position) * _PATH_MIX + np.uint64(1)  # wraps modulo 2**64


@inline_kernel
def _add(a, b):
    """a + b for sums of phi: INFINITE only if a term is, LARGE at most otherwise."""
    if a >= INFINITE or b >= INFINITE:
        return INFINITE
    s = a + b
    return LARGE if s > LARGE else s


@inline_kernel
def _is_solved(values, s):
    return values[s, V_PHI] == 0 or values[s, V_DELTA] == 0


@kernel
def _slot_of(keys, key):
    """Slot holding ``key``, or -1."""
    s = table_slot(keys, key)
    return s if s >= 0 and keys[s] == key else -1


@kernel
def _stack_depth(stack, root, depth, key):
    """depth + 1 of the stack entry in root..depth holding ``key``, else INF_DEPTH."""
    for j in range(depth, root - 1, -1):
        if stack[j] == key:
            return j + 1
    return INF_DEPTH


# The path keys stored in a solve, as bits (C_PATH_FILTER: 2**20 bits, 128 KiB).  A path key
# is looked for at every visit of a node and of each child; where none was stored, each look
# probes a run of the table, at random in memory.  A clear bit says no entry was stored under
# the key in this solve, and path keys are salted by the solve, so none from another can
# match: the filter is cleared as a solve starts and saves those probes (RESULTS.md, "Path
# keys filtered").  A set bit may be another key's: then the table is probed as before.
PATH_FILTER_WORDS = 1 << 14


@inline_kernel
def _path_bit(path_filter, path_key):
    """(word, mask) of ``path_key``'s bit in the filter (the table's slot reads the low bits)."""
    bit = (path_key >> np.uint64(32)) & np.uint64(path_filter.size * 64 - 1)
    return np.int64(bit >> np.uint64(6)), np.uint64(1) << (bit & np.uint64(63))


@inline_kernel
def _may_hold(path_filter, path_key):
    """Whether the table may hold an entry under ``path_key`` (stored in this solve)."""
    word, mask = _path_bit(path_filter, path_key)
    return path_filter[word] & mask != np.uint64(0)


@kernel
def _lookup(keys, values, key, path_key, cycle, path_filter):
    """(slot, under path key) of what is known about a node on this path; slot -1 if nothing.

    A path-independent solution comes first, then what this path stored, then
    (unless the node's key is an ancestor's) the numbers shared under the key.
    """
    plain = _slot_of(keys, key)
    if plain >= 0 and _is_solved(values, plain):
        return plain, False
    own = _slot_of(keys, path_key) if _may_hold(path_filter, path_key) else -1
    if own >= 0:
        return own, True
    return (-1 if cycle < INF_DEPTH else plain), False


@inline_kernel
def _set_child(row, i, values, s, on_path_key, depth):
    """Copy table slot ``s`` into the child's scratch entry."""
    row[i, S_PHI] = values[s, V_PHI]
    row[i, S_DELTA] = values[s, V_DELTA]
    if _is_solved(values, s):
        row[i, S_SOLVED] = 1
        row[i, S_REPD] = values[s, V_REPD]
    else:
        row[i, S_REPD] = min(values[s, V_REPD], row[i, S_CYCLE])
        # an entry left under the path key after the child went back to
        # sharing its numbers says so with an INF_DEPTH reliance
        row[i, S_ON_PATH_KEY] = 1 if on_path_key and row[i, S_REPD] <= depth + 2 else 0


@kernel
def _prepare_children(context, keys, values, scratch, stack, root, n, color, km, depth, signature):
    """Fill row ``depth`` of the scratch: each child's km, cycle depth and first numbers.

    A pass that repeats a pass situation is terminal (the target lives); every
    other child gets what the table knows about it on this path, else fresh
    numbers.
    """
    moves = context[C_MOVES][depth]
    hashes = context[C_HASHES][depth]
    path = context[C_PATH]
    tags = context[C_TAGS]
    counters = context[C_COUNTERS]
    position = context[C_HASH][0]
    mover_defends = context[C_CELLS][context[C_TARGET]] == color
    target_liberties = context[C_TARGET_LIBERTIES][depth]
    opponent_liberties = context[C_OPPONENT_LIBERTIES][depth]
    race_cost = context[C_RACE][1]
    rank_cost = context[C_SEARCH_OPTIONS][5]
    liberty_cost = context[C_SEARCH_OPTIONS][6]
    eye_cost = context[C_SEARCH_OPTIONS][7]
    eye_stamp = 0                 # the interior's flood, made at the first fresh child
    interior = 0
    prior = context[C_PRIOR][color]
    share = prior_share(context)
    opp = 3 - color
    row = scratch[depth]
    path[depth] = position
    for i in range(n):
        # every move's child is looked up below: ask for their slots at once
        if moves[i] != PASS:
            prefetch_slot(keys, values, node_key_after(hashes[i], opp, km, False))
    for i in range(n):
        row[i, S_KM] = km
        row[i, S_SOLVED] = 0
        row[i, S_ON_PATH_KEY] = 0
        row[i, S_PRUNED] = 0
        looped = False
        if moves[i] == PASS:
            row[i, S_KM] = km_after_pass(path, depth, position, color, km)
            tag = node_key(position, opp, row[i, S_KM])
            for t in range(counters[TAGS]):
                looped = looped or tags[t] == tag
        child_key = node_key_after(hashes[i], opp, row[i, S_KM], moves[i] == PASS)
        cycle = _stack_depth(stack, root, depth, child_key)
        row[i, S_CYCLE] = cycle
        if looped:
            # The pass repeats a pass situation: the target lives.  That relies
            # on the earlier pass, whose child is on the stack with this key.
            row[i, S_SOLVED] = 1
            row[i, S_REPD] = cycle if cycle < INF_DEPTH else 0
            row[i, S_PHI] = INFINITE if mover_defends else 0
            row[i, S_DELTA] = 0 if mover_defends else INFINITE
            continue
        s, on_path_key = _lookup(keys, values, child_key, child_key ^ signature, cycle, context[C_PATH_FILTER])
        if s >= 0:
            _set_child(row, i, values, s, on_path_key or cycle < INF_DEPTH, depth)
        else:
            row[i, S_PHI] = 1
            if moves[i] != PASS and share < 1.0:
                libs = target_liberties[i]
                if mover_defends:
                    extra = liberty_cost * max(0, libs - 1)
                else:
                    extra = liberty_cost * max(0, ESCAPE_LIBERTIES - libs)
                if race_cost > 0:
                    # the defender's lead in the race against its weakest opponent: the
                    # moves the attacker needs to capture the target less those the
                    # defender needs to capture the opponent, the side to move one ahead
                    lead = libs - opponent_liberties[i] + (0 if mover_defends else 1)
                    if lead > 0:
                        if mover_defends:
                            extra += race_cost * lead
                        else:
                            extra = 0
                row[i, S_PHI] += np.int64((1.0 - share) * extra)
            if moves[i] != PASS and prior[moves[i]] > 0.0 and share > 0.0:
                row[i, S_DELTA] = 1 + np.int64(rank_cost * i * (1.0 - share * prior[moves[i]]) ** 2)
            else:
                row[i, S_DELTA] = 1 + rank_cost * i
            if eye_cost > 0 and moves[i] != PASS:
                if eye_stamp == 0:
                    eye_stamp, interior = mark_interior(context)
                left = interior - interior_taken(context, eye_stamp, moves[i], not mover_defends)
                if mover_defends:
                    row[i, S_DELTA] += eye_cost * max(0, EYE_ROOM_POINTS - left)
                else:
                    row[i, S_DELTA] += eye_cost * min(left, EYE_ROOM_POINTS)
            row[i, S_REPD] = cycle
            row[i, S_ON_PATH_KEY] = 1 if cycle < INF_DEPTH else 0


@kernel
def _store(keys, values, work, counters, key, path_key, phi, delta, repd, move, on_path_key, nodes, path_filter):
    """Record the node's numbers under its path key or its plain key; ``nodes``: what they cost.
    Returns the slot (-1: none), its zone unknown (:func:`solver.dfpn_zones.no_zone`)."""
    if on_path_key:
        slot = table_claim(keys, values, work, counters, path_key, nodes)
        word, mask = _path_bit(path_filter, path_key)
        path_filter[word] |= mask
    else:
        slot = table_claim(keys, values, work, counters, key, nodes)
        # a path entry left from an earlier visit must not hide the shared numbers
        stale = _slot_of(keys, path_key) if _may_hold(path_filter, path_key) else -1
        if stale >= 0:
            values[stale, V_PHI] = phi
            values[stale, V_DELTA] = delta
            values[stale, V_MOVE] = move
            values[stale, V_REPD] = INF_DEPTH
    if slot >= 0:
        values[slot, V_PHI] = phi
        values[slot, V_DELTA] = delta
        values[slot, V_MOVE] = move
        values[slot, V_REPD] = repd if on_path_key else INF_DEPTH
        no_zone(values, slot)
    return slot


@kernel
def _simulate(context, keys, values, work, color, prover, km, depth, twin_delta, limit):
    """Kawano's simulation: whether ``prover`` wins the node at ``depth`` (``color`` to move)
    by replaying the proof of the position ``twin_delta`` away (a refuted sibling's, the
    same moves played since): the prover plays the move that won there, every reply of
    the other side is answered so, and nothing else is searched.  True only for a proof
    that holds on every path: of exact table entries, captures and static life, with no
    move forbidden or allowed by a repetition and no pass situation met again; each node
    so proved is stored as exact.  False as soon as anything else is needed, or the
    search's node count passes ``limit``.
    """
    counters = context[C_COUNTERS]
    if count_node(counters) or counters[NODES] > limit or depth > MAX_DEPTH:
        return False
    first_node = counters[NODES]
    cells = context[C_CELLS]
    target = context[C_TARGET]
    path = context[C_PATH]
    position = context[C_HASH][0]
    after_pass = depth > 0 and path[depth - 1] == position
    key = node_key_after(position, color, km, after_pass)
    known = _slot_of(keys, key)
    if known >= 0 and _is_solved(values, known):
        return (values[known, V_PHI] == 0) == (color == prover)
    defender = cells[target]
    if color != defender and target_lives(context):
        return prover == defender
    path[depth] = position
    if color == prover:
        twin = _slot_of(keys, node_key_after(position ^ twin_delta, color, km, after_pass))
        if twin < 0 or values[twin, V_PHI] != 0:
            return False
        p = values[twin, V_MOVE]
        if p < 0 or cells[p] != EMPTY:
            return False
        if play_move(context, p, color) < 0:
            return False
        if cells[target] == EMPTY:
            won = True
        elif repetition_depth(path, depth, context[C_HASH][0]) != INF_DEPTH:
            won = False
        else:
            won = _simulate(context, keys, values, work, 3 - color, prover, km, depth + 1, twin_delta, limit)
        undo_move(context)
        if won:
            slot = _store(keys, values, work, counters, key, key, 0, INFINITE, INF_DEPTH, p, False,
                          counters[NODES] - first_node + 1, context[C_PATH_FILTER])
            if context[C_SEARCH_OPTIONS][3] != 0:
                simulated_win_zone(context, keys, values, slot, depth, p, color, km)
                if context[C_SEARCH_OPTIONS][3] == 2:
                    table_keep(context, depth, color, km, after_pass, color, p)
        return won
    n, earliest = generate_moves(context, color, km, depth, NO_MOVE)
    if earliest != INF_DEPTH:
        return False   # a repetition decides a move
    moves = context[C_MOVES][depth]
    scores = context[C_SCORES][depth]
    for i in range(n):
        if scores[i] >= LIVES:
            return False   # the mover captures the target or makes it pass-alive
    tags = context[C_TAGS]
    for i in range(n):
        p = moves[i]
        if p == PASS:
            if km_after_pass(path, depth, position, color, km) != km:
                return False   # the prover passed just before (never: its move came last)
            tag = node_key(position, prover, km)
            for t in range(counters[TAGS]):
                if tags[t] == tag:
                    return False   # a pass situation met again: the path decides
            tags[counters[TAGS]] = tag
            counters[TAGS] += 1
            won = _simulate(context, keys, values, work, prover, prover, km, depth + 1, twin_delta, limit)
            counters[TAGS] -= 1
        else:
            play_move(context, p, color)
            won = _simulate(context, keys, values, work, prover, prover, km, depth + 1, twin_delta, limit)
            undo_move(context)
        if not won:
            return False
    slot = _store(keys, values, work, counters, key, key, INFINITE, 0, INF_DEPTH, NO_MOVE, False,
                  counters[NODES] - first_node + 1, context[C_PATH_FILTER])
    if context[C_SEARCH_OPTIONS][3] != 0:
        simulated_loss_zone(context, keys, values, slot, depth, n, color, km)
        if context[C_SEARCH_OPTIONS][3] == 2:
            table_keep(context, depth, color, km, after_pass, prover, NO_MOVE)
    return True


@inline_kernel
def _settled(context, keys, values, work, counters, key, path_key, color, km, depth, first_visit,
             life_ruled_out):
    """(settled, phi, delta, reliance, move) of a node settled without expanding it: by
    static life, the depth cap, or on its first visit the race count; static life and the
    race stored as exact (the depth cap's loss relies on the path).  Static life is asked
    on the first visit only (the answer is the position's; a node visited before stored
    its entry unsolved) and only where the parent's generation did not rule it out."""
    if (color != context[C_CELLS][context[C_TARGET]] and first_visit and life_ruled_out == 0
            and target_lives(context)):
        # static life: the defender wins whatever the path (solver.life)
        slot = _store(keys, values, work, counters, key, path_key, INFINITE, 0, INF_DEPTH, NO_MOVE, False, 1,
                      context[C_PATH_FILTER])
        if context[C_SEARCH_OPTIONS][3] != 0:
            leaf_life_zone(context, values, slot, depth)
        return True, INFINITE, np.int64(0), INF_DEPTH, NO_MOVE
    if depth > MAX_DEPTH:
        return True, INFINITE, np.int64(0), 0, NO_MOVE
    if first_visit:
        # the race count and no room for two eyes, on a node's first visit only: a node df-pn
        # expands again had no claim then (the count on every visit took 1.29 of the time on the
        # reference problems, 1.13 so: RESULTS.md, "Capturing races read by counting")
        claim = static_capture(context, color, km, depth)
        if claim != NO_CLAIM:
            # the attacker captures the target whatever the path (solver.race, solver.eye_room)
            if claim == NO_MOVE:   # the defender to move loses
                _store(keys, values, work, counters, key, path_key, INFINITE, 0, INF_DEPTH, NO_MOVE, False, 1,
                       context[C_PATH_FILTER])
                return True, INFINITE, np.int64(0), INF_DEPTH, NO_MOVE
            _store(keys, values, work, counters, key, path_key, 0, INFINITE, INF_DEPTH, claim, False, 1,
                   context[C_PATH_FILTER])
            return True, np.int64(0), INFINITE, INF_DEPTH, claim
    return False, np.int64(1), np.int64(1), 0, NO_MOVE


@inline_kernel
def _sibling_hint(context, keys, values, position, color, km, depth):
    """The sibling hint, as in DFS (solver.dfs): the move that won the position this node
    answers to in the subtree of its first refuted sibling; NO_MOVE if none."""
    sibling = context[C_SIBLING]
    if sibling[depth] != 0:
        twin = _slot_of(keys, node_key_after(position ^ sibling[depth], color, km,
                                             depth > 0 and context[C_PATH][depth - 1] == position))
        if twin >= 0 and values[twin, V_PHI] == 0:
            return values[twin, V_MOVE]
    return NO_MOVE


@inline_kernel
def _read_children(keys, values, row, moves, hashes, n, opp, child_signature, depth, first):
    """The node's numbers from its children's (row): (phi, delta, best child, its phi, the
    second-best delta, the first child proven lost for the mover or -1).  After the first
    pass the unsolved children are read again from the table: a transposition met
    elsewhere may have moved their numbers on."""
    phi = INFINITE
    delta = np.int64(0)
    best = -1
    best_phi = INFINITE
    second = INFINITE
    refuted = -1
    if not first:
        # the unsolved children are read below: ask for their slots at once
        for i in range(n):
            if row[i, S_SOLVED] == 0 and row[i, S_ON_PATH_KEY] == 0:
                prefetch_slot(keys, values, node_key_after(hashes[i], opp, row[i, S_KM], moves[i] == PASS))
    for i in range(n):
        if not first and row[i, S_SOLVED] == 0:
            child_key = node_key_after(hashes[i], opp, row[i, S_KM], moves[i] == PASS)
            if row[i, S_ON_PATH_KEY]:
                child_key ^= child_signature
            s = _slot_of(keys, child_key)
            if s >= 0:
                _set_child(row, i, values, s, row[i, S_ON_PATH_KEY] == 1, depth)
        c_phi = row[i, S_PHI]
        c_delta = row[i, S_DELTA]
        if c_phi == 0 and refuted < 0 and row[i, S_PRUNED] != 1:
            refuted = i
        delta = _add(delta, c_phi)
        if c_delta < phi:
            second = phi
            phi = c_delta
            best = i
            best_phi = c_phi
        elif c_delta < second:
            second = c_delta
    return phi, delta, best, best_phi, second, refuted


@inline_kernel
def _simulate_best(context, keys, values, work, counters, row, moves, hashes, best, refuted, color, km, depth,
                   simulation):
    """Kawano's simulation (:func:`_simulate`) on the best child, tried only where it is met
    for the first time beside a move refuted on every path, with that refutation: 1 where
    it proves the child lost for the mover (exactly: its row says so), -1 where the search
    was stopped meanwhile, 0 otherwise."""
    p = moves[best]
    if not (simulation > 0 and refuted >= 0 and p != PASS and moves[refuted] != PASS
            and row[refuted, S_REPD] == INF_DEPTH and row[best, S_CYCLE] == INF_DEPTH
            and _slot_of(keys, node_key_after(hashes[best], 3 - color, km, False)) < 0):
        return 0
    counters[SIMULATIONS] += 1
    play_move(context, p, color)
    proved = _simulate(context, keys, values, work, 3 - color, 3 - color, km, depth + 1,
                       hashes[best] ^ hashes[refuted], counters[NODES] + simulation)
    undo_move(context)
    if counters[ABORT] != 0:
        return -1
    if not proved:
        return 0
    counters[SIMULATED] += 1
    row[best, S_PHI] = 0
    row[best, S_DELTA] = INFINITE
    row[best, S_REPD] = INF_DEPTH
    row[best, S_SOLVED] = 1
    return 1


@inline_kernel
def _node_result(context, row, moves, depths, n, phi, delta, best, earliest, cycle, color):
    """(reliance depth, move) of a node whose children's numbers are phi and delta."""
    move = NO_MOVE
    if phi == 0:
        # a win relies on what the winning move's line relies on
        repd = INF_DEPTH
        for i in range(n):
            if row[i, S_DELTA] == 0:
                repd = min(row[i, S_REPD], depths[i])
                move = moves[i]
                if move != PASS:
                    context[C_CUTOFFS][color, move] += 1.0   # the history heuristic, as in DFS
                break
    elif delta == 0:
        # a loss relies on every move's line and on the moves forbidden here
        repd = earliest
        for i in range(n):
            repd = min(repd, row[i, S_REPD], depths[i])
    else:
        # working numbers rely on every child's, passes included
        repd = min(earliest, cycle)
        for i in range(n):
            repd = min(repd, row[i, S_REPD], depths[i])
        move = moves[best] if best >= 0 else NO_MOVE
    return repd, move


@kernel
def _mid(context, keys, values, work, scratch, stack, root, signature, color, km, depth,
         th_phi, th_delta, cycle, life_ruled_out):
    """Search until phi >= th_phi or delta >= th_delta.

    ``cycle`` is depth + 1 of the ancestor with this node's key (INF_DEPTH if
    none); ``life_ruled_out`` (1: the parent's generation found the move here leaves the
    target not pass-alive, C_LIFE_RULED_OUT).  Returns (phi, delta, reliance depth, move).
    """
    counters = context[C_COUNTERS]
    stop = count_node(counters)
    first_node = counters[NODES]
    if stop:
        return np.int64(1), np.int64(1), 0, NO_MOVE
    position = context[C_HASH][0]
    opp = 3 - color
    after_pass = depth > 0 and context[C_PATH][depth - 1] == position
    key = node_key_after(position, color, km, after_pass)
    path_key = key ^ signature
    known, _ = _lookup(keys, values, key, path_key, cycle, context[C_PATH_FILTER])
    if known >= 0 and _is_solved(values, known):
        return values[known, V_PHI], values[known, V_DELTA], values[known, V_REPD], values[known, V_MOVE]
    zoned = context[C_SEARCH_OPTIONS][3]     # relevance zones (solver.dfpn_zones): 1, 2 with the table
    if zoned == 2 and known < 0 and cycle == INF_DEPTH:
        hit = table_hit(context, depth, color, km, after_pass)
        if hit >= 0:
            phi = np.int64(0) if hit & 3 == color else INFINITE
            move = (hit >> 8) - 2 if phi == 0 else NO_MOVE
            slot = _store(keys, values, work, counters, key, path_key, phi, INFINITE - phi, INF_DEPTH, move,
                          False, 1, context[C_PATH_FILTER])
            keep_zone(values, slot, context[C_ZONES][depth])
            return phi, INFINITE - phi, INF_DEPTH, move
    settled, phi, delta, repd, move = _settled(context, keys, values, work, counters, key, path_key, color, km,
                                               depth, known < 0, life_ruled_out)
    if settled:
        return phi, delta, repd, move
    hint = values[known, V_MOVE] if known >= 0 else _sibling_hint(context, keys, values, position, color, km, depth)

    n, earliest = generate_moves(context, color, km, depth, hint)
    children_checked = np.int64(context[C_LIFE_RULED_OUT][depth])
    no_check = np.int64(0)
    sort_moves(context, depth, n)
    moves = context[C_MOVES][depth]
    if n > 0 and context[C_SCORES][depth][0] >= CAPTURES_TARGET:
        # the attacker captures the target (only where the target starts in
        # atari: the defender never leaves it there), which ends the search
        slot = _store(keys, values, work, counters, key, path_key, 0, INFINITE, INF_DEPTH, moves[0], False, 1,
                      context[C_PATH_FILTER])
        if zoned:
            capture_zone(context, values, slot, depth, moves[0], color)
        return np.int64(0), INFINITE, INF_DEPTH, moves[0]
    stack[depth] = key
    child_signature = _child_signature(signature, position)
    _prepare_children(context, keys, values, scratch, stack, root, n, color, km, depth, child_signature)
    hashes = context[C_HASHES][depth]
    path = context[C_PATH]
    tags = context[C_TAGS]
    sibling = context[C_SIBLING]
    row = scratch[depth]
    hinting = context[C_SEARCH_OPTIONS][0] != 0
    simulation = context[C_SEARCH_OPTIONS][1]
    pruning = context[C_SEARCH_OPTIONS][4] != 0
    if pruning:
        prune_by_null(context, keys, values, row, n, color, km, depth, -1)

    best = -1
    first = True
    while True:
        phi, delta, best, best_phi, second, refuted = _read_children(keys, values, row, moves, hashes, n, opp,
                                                                     child_signature, depth, first)
        first = False
        if phi == 0 or delta == 0 or phi >= th_phi or delta >= th_delta:
            break
        child_th_phi = min(th_delta - delta + best_phi, INFINITE)
        child_th_delta = min(th_phi, second + second // EPSILON_DIVISOR + 1)
        p = moves[best]
        path[depth] = position
        simulated = _simulate_best(context, keys, values, work, counters, row, moves, hashes, best, refuted, color,
                                   km, depth, simulation)
        if simulated < 0:
            return np.int64(1), np.int64(1), 0, NO_MOVE
        if simulated > 0:
            continue
        if hinting:
            # the child answers to the first child proven lost for the mover, if any (never
            # the best one: a lost child's delta is INFINITE, and the search stops when all are)
            sibling[depth + 1] = sibling[depth]
            if refuted >= 0:
                refuted_hash = position if moves[refuted] == PASS else hashes[refuted]
                sibling[depth + 1] = (position if p == PASS else hashes[best]) ^ refuted_hash
        if p == PASS:
            tags[counters[TAGS]] = node_key(position, opp, row[best, S_KM])
            counters[TAGS] += 1
            r_phi, r_delta, r_repd, _ = _mid(context, keys, values, work, scratch, stack, root, child_signature,
                                             opp, row[best, S_KM], depth + 1, child_th_phi, child_th_delta,
                                             row[best, S_CYCLE], no_check)
            counters[TAGS] -= 1
        else:
            play_move(context, p, color)
            r_phi, r_delta, r_repd, _ = _mid(context, keys, values, work, scratch, stack, root, child_signature,
                                             opp, km, depth + 1, child_th_phi, child_th_delta,
                                             row[best, S_CYCLE], children_checked)
            undo_move(context)
        if counters[ABORT] != 0:
            return np.int64(1), np.int64(1), 0, NO_MOVE
        row[best, S_PHI] = r_phi
        row[best, S_DELTA] = r_delta
        row[best, S_REPD] = r_repd
        if r_phi == 0 or r_delta == 0:
            row[best, S_SOLVED] = 1
            if pruning and r_phi == 0 and r_repd > depth + 1:
                prune_by_null(context, keys, values, row, n, color, km, depth, best)
        else:
            # where the child stored its numbers (see the end of this function)
            row[best, S_ON_PATH_KEY] = 1 if r_repd <= depth + 2 else 0

    repd, move = _node_result(context, row, moves, context[C_DEPTHS][depth], n, phi, delta, best, earliest, cycle,
                              color)
    slot = _store(keys, values, work, counters, key, path_key, phi, delta, repd, move, repd <= depth + 1,
                  counters[NODES] - first_node + 1, context[C_PATH_FILTER])
    if zoned and (phi == 0 or delta == 0) and repd > depth + 1:
        solved_zone(context, keys, values, row, n, color, km, depth, phi == 0, slot)
        if zoned == 2:
            table_keep(context, depth, color, km, after_pass, color if phi == 0 else opp, move)
    return phi, delta, repd, move


@njit(cache=True, nogil=True)  # allocates its scratch: an entry point, not a kernel
def solve(context, keys, values, work, scratch, salt, color, km, depth):
    """Prove or disprove that ``color`` wins; the result packed as in DFS.

    ``salt`` differs between solves, so that path-dependent results of one
    solve (whose root may differ) are never read by another.
    """
    stack = np.zeros(MAX_DEPTH + 2, dtype=np.uint64)
    # one type signature for the recursive _mid (numba's cache mishandles several)
    no_cycle = np.int64(INF_DEPTH)
    phi, delta, repd, move = _mid(context, keys, values, work, scratch, stack, depth, salt, color, km, depth,
                                  INFINITE, INFINITE, no_cycle, np.int64(0))
    if context[C_SEARCH_OPTIONS][3] != 0:
        # the root's zone, as its entry keeps it (U where none: a race claim, an unsolved root)
        position = context[C_HASH][0]
        after_pass = depth > 0 and context[C_PATH][depth - 1] == position
        stored_zone(context, keys, values, node_key_after(position, color, km, after_pass), phi == 0,
                    context[C_ZONES][depth])
    winner = color if phi == 0 else 3 - color
    return pack(winner, repd, move if phi == 0 else NO_MOVE)
