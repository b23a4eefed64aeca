"""The principal variation: a position's fight played to its end by the solver.

From a position and the side to move, the line goes on, one move a step,
until the target is captured or both sides pass:

* the winner (by a DFS solve of the node, on the solver's warm table, which
  holds df-pn's proof where df-pn settled the position: :mod:`solver.proof_copy`)
  plays the solve's winning move; a defender that may pass passes when a pass wins
  too (where df-pn has searched: when ``PASS_CHECK_NODES`` show it), so a living group keeps
  its eye space.  A table move that the rules
  forbid on this line (a ko retake by a side not ko master) or that leads
  back to a position of the line gives way to the first move in the search's
  order that is allowed and wins here;
* the loser plays its most stubborn reply: the one whose refutation took the
  most nodes, read from the table's subtree-size byte (ties: row order).  It
  passes only when it has no move; an attacker that cannot win passes once
  the defender has.

Passes, ko-master threats and repetitions follow the search's rules
(:mod:`solver.rules`), so every position of the line is a node of the first
solve's proof and the winner never changes.  One difference: a loser's pass is
not remembered as a pass situation, since the table's exact results were
proved on paths without it (a graph-history interaction).  ``max_moves`` (six
times the area's points plus twenty), a node budget and a CPU-time limit end a
line that would run on, with ``complete`` False.  The line runs as one compiled
function on the solver's board and tables and only adds results to the tables.  Why each rule,
and what broke without it: docs/solver.md, "The principal variation".
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .board import EMPTY, color_letter
from .dfs import search
from .jit import kernel
from .movegen import (C_CELLS, C_COUNTERS, C_HASH, C_HASHES, C_MOVES, C_PATH, C_TAGS, C_TARGET,
                      generate_moves, liberties, play_move, sort_moves, undo_move)
from .problem import sgf_point
from .proof_copy import copy_proof
from .rules import MAX_DEPTH, NO_MOVE, PASS, km_after_pass, move_of, repetition_depth, sign, winner_of
from .table import (ABORT, ABORT_NODE_BUDGET, ABORT_TIME_LIMIT, MAX_NODES, NODES, TAGS, node_key, table_slot,
                    work_class)

# How a line ended (the kernel's status), and in words.
CAPTURED, BOTH_PASSED, MOVE_CAP, ABORTED, DISAGREES = 1, 2, 3, 4, 5
ENDINGS = {CAPTURED: "capture", BOTH_PASSED: "passes", MOVE_CAP: "move cap", ABORTED: "node budget",
           DISAGREES: "disagreement"}
# an ABORTED line's ending where the CPU-time limit stopped it, not the node budget
TIME_LIMIT_ENDING = "time limit"
# Where df-pn has searched (its proof copied: solver.proof_copy), a defender's pass is
# checked within this many DFS nodes, else its winning move is played: the pass's position
# is off the proof, and a DFS solve of it can take as long as the problem did (a line of 0
# moves in 10 CPU s seen).
PASS_CHECK_NODES = 20_000


@dataclass(frozen=True)
class PrincipalVariation:
    """A line from a position: ``moves`` as (colour, (x, y) or ``"pass"``), the board at its end.

    ``stones`` is the final position (size×size int8 [y, x] of EMPTY/BLACK/WHITE);
    ``captured`` says the line ends with the target captured; ``complete`` that
    it ended by a capture or two passes (not by the move cap, the node
    budget or the time limit); ``winner`` is the colour that wins with the first mover (None
    when the budget ran out before the first solve ended); ``ended`` says how
    it ended: ``"capture"``, ``"passes"``, ``"move cap"``, ``"node budget"``,
    ``"time limit"`` or ``"disagreement"`` (a solve on the line found another winner: the
    line's path changed a result; the one seen came from the loser's pass
    remembered on the line, which the line no longer does: module doc).
    """

    moves: list[tuple[int, tuple[int, int] | str]]
    stones: np.ndarray
    captured: bool
    complete: bool
    winner: int | None
    nodes: int
    ended: str

    @property
    def sgf_moves(self) -> list[str]:
        """The moves in SGF notation: ``B[cd]``, ``W[]`` for a pass."""
        return [f"{color_letter(color)}[{'' if move == 'pass' else sgf_point(*move)}]"
                for color, move in self.moves]


@kernel
def _pass_wins(context, keys, values, work, color, km, depth, max_nodes):
    """Whether ``color`` still wins by passing at the node at ``depth`` (the caller checks the abort
    flag); ``max_nodes`` > 0: False as well where that many nodes do not settle it."""
    path = context[C_PATH]
    tags = context[C_TAGS]
    counters = context[C_COUNTERS]
    position = context[C_HASH][0]
    path[depth] = position
    next_km = km_after_pass(path, depth, position, color, km)
    tag = node_key(position, 3 - color, next_km)
    for t in range(counters[TAGS]):
        if tags[t] == tag:
            return True   # the same pass situation again: the target lives, as in the search
    tags[counters[TAGS]] = tag
    counters[TAGS] += 1
    line_budget = counters[MAX_NODES]
    own_budget = max_nodes > 0 and (line_budget == 0 or counters[NODES] + max_nodes < line_budget)
    if own_budget:
        counters[MAX_NODES] = counters[NODES] + max_nodes
    response = search(context, keys, values, work, 3 - color, next_km, depth + 1)
    counters[TAGS] -= 1
    if own_budget:
        counters[MAX_NODES] = line_budget
        if counters[ABORT] == ABORT_NODE_BUDGET:
            counters[ABORT] = 0   # not settled within its own budget: the winning move is played
            return False
    return winner_of(response) == color


@kernel
def _stubborn_reply(context, keys, values, work, color, km, depth):
    """The losing side's move whose refutation took the most nodes; PASS when it has none."""
    counters = context[C_COUNTERS]
    path = context[C_PATH]
    opp = 3 - color
    n, _ = generate_moves(context, color, km, depth, NO_MOVE)
    moves = context[C_MOVES][depth]
    hashes = context[C_HASHES][depth]
    position = context[C_HASH][0]
    best = PASS
    best_size = -1
    for i in range(n):
        p = moves[i]
        if p == PASS:
            continue
        key = node_key(hashes[i], opp, km)
        slot = table_slot(keys, key)
        if slot >= 0 and keys[slot] == key:
            size = np.int64(work[slot])
        else:
            # not in the table (dropped, or never reached by the solve): solve it
            before = counters[NODES]
            path[depth] = position
            play_move(context, p, color)
            search(context, keys, values, work, opp, km, depth + 1)
            undo_move(context)
            if counters[ABORT] != 0:
                return NO_MOVE
            slot = table_slot(keys, key)
            if slot >= 0 and keys[slot] == key:
                size = np.int64(work[slot])
            else:
                size = np.int64(work_class(counters[NODES] - before))
        if size > best_size:
            best_size = size
            best = p
    return best


@kernel
def _child_position(context, move, color, depth):
    """(playable, hash after ``move``): the move played and taken back, the current position
    written at ``path[depth]`` for the repetition checks."""
    context[C_PATH][depth] = context[C_HASH][0]
    if play_move(context, move, color) < 0:
        return False, np.uint64(0)
    child = context[C_HASH][0]
    undo_move(context)
    return True, child


@kernel
def _forbidden_here(context, move, color, km, depth):
    """Whether ``move`` recreates a position of the path while ``color`` is not ko master
    (or cannot be played at all)."""
    if move < 0 or km * sign(color) > 0:
        return False
    playable, child = _child_position(context, move, color, depth)
    return not playable or repetition_depth(context[C_PATH], depth, child) <= depth


@kernel
def _on_line(path, start, depth, child):
    """Whether the position ``child`` is one of the line's so far (``path[start..depth]``)."""
    for j in range(start, depth + 1):
        if path[j] == child:
            return True
    return False


@kernel
def _recreates_line_position(context, move, color, start, depth):
    """Whether ``move`` (not a pass) recreates a position of the line so far (``path[start..depth]``)."""
    playable, child = _child_position(context, move, color, depth)
    return playable and _on_line(context[C_PATH], start, depth, child)


@kernel
def _winning_move_here(context, keys, values, work, color, km, depth, avoid_from):
    """The first move in the search's order that the rules allow on this path and that wins for
    ``color``, passing over, if ``avoid_from`` >= 0, the pass and every move that recreates a
    position of ``path[avoid_from..depth]``; NO_MOVE if none (the caller checks the abort flag)."""
    cells = context[C_CELLS]
    target = context[C_TARGET]
    path = context[C_PATH]
    position = context[C_HASH][0]
    n, _ = generate_moves(context, color, km, depth, NO_MOVE)
    sort_moves(context, depth, n)
    moves = context[C_MOVES][depth]
    children = context[C_HASHES][depth]   # each move's position, as generate_moves found it
    path[depth] = position
    for i in range(n):
        p = moves[i]
        if p == PASS:
            if avoid_from < 0 and _pass_wins(context, keys, values, work, color, km, depth, 0):
                return PASS
        elif avoid_from < 0 or not _on_line(path, avoid_from, depth, children[i]):
            path[depth] = position
            play_move(context, p, color)
            if cells[target] == EMPTY:
                undo_move(context)
                return p
            response = search(context, keys, values, work, 3 - color, km, depth + 1)
            undo_move(context)
            if winner_of(response) == color:
                return p
        if context[C_COUNTERS][ABORT] != 0:
            return NO_MOVE
    return NO_MOVE


@kernel
def follow(context, keys, values, work, line, final_cells, color, km, depth, max_moves, pass_check_nodes):
    """Walk the principal variation from the node at ``depth`` (module doc).

    Writes (colour, point or PASS) rows into ``line`` and the board at the
    end into ``final_cells``; takes back its moves.  Returns (moves, status,
    winner of the first node or 0).  ``DISAGREES``: a solve on the line finds
    that the side it expected to win loses, the line's path having changed a
    result (see ``PrincipalVariation``).
    """
    cells = context[C_CELLS]
    target = context[C_TARGET]
    path = context[C_PATH]
    tags = context[C_TAGS]
    counters = context[C_COUNTERS]
    defender = cells[target]
    attacker = 3 - defender
    tags_before = counters[TAGS]
    start = depth
    count = 0
    played = 0
    winner = 0
    result = 0
    status = MOVE_CAP
    previous_pass = False
    while count < max_moves:
        position = context[C_HASH][0]
        opp = 3 - color
        if winner == 0 or color == winner:
            # The first solve says who wins, and the line stays on that solve's proof: only
            # the winner's moves need a solve (the loser's replies are read from the table).
            result = search(context, keys, values, work, color, km, depth)
            if counters[ABORT] != 0:
                status = ABORTED
                break
            if winner == 0:
                winner = winner_of(result)
            elif winner_of(result) != winner:
                status = DISAGREES
                break
        if winner == color:
            move = move_of(result)
            if _forbidden_here(context, move, color, km, depth):
                move = _winning_move_here(context, keys, values, work, color, km, depth, -1)
                if counters[ABORT] != 0:
                    status = ABORTED
                    break
                if move == NO_MOVE:
                    status = DISAGREES
                    break
            elif move >= 0 and _recreates_line_position(context, move, color, start, depth):
                # The ko master's retake, or a move back to an earlier position: the table's
                # move may lead round a cycle; a winning move that does not comes first.
                other = _winning_move_here(context, keys, values, work, color, km, depth, start)
                if counters[ABORT] != 0:
                    status = ABORTED
                    break
                if other != NO_MOVE:
                    move = other
            if color == defender and move != PASS and liberties(context, target, 2) > 1:
                if _pass_wins(context, keys, values, work, color, km, depth, pass_check_nodes):
                    move = PASS
                if counters[ABORT] != 0:
                    status = ABORTED
                    break
        elif color == attacker and previous_pass:
            move = PASS
        else:
            move = _stubborn_reply(context, keys, values, work, color, km, depth)
            if counters[ABORT] != 0:
                status = ABORTED
                break
        path[depth] = position
        line[count, 0] = color
        line[count, 1] = move
        count += 1
        if move == PASS:
            if previous_pass and winner == defender:
                status = BOTH_PASSED
                break
            next_km = km_after_pass(path, depth, position, color, km)
            if color == winner:
                # Only the winner's pass is remembered as a pass situation (module doc).
                tags[counters[TAGS]] = node_key(position, opp, next_km)
                counters[TAGS] += 1
            km = next_km
            previous_pass = True
        else:
            play_move(context, move, color)
            played += 1
            previous_pass = False
            if cells[target] == EMPTY:
                status = CAPTURED
                break
        depth += 1
        color = opp
    for i in range(cells.size):
        final_cells[i] = cells[i]
    for _ in range(played):
        undo_move(context)
    counters[TAGS] = tags_before
    return count, status, winner


def default_max_moves(area_points: int, depth: int) -> int:
    """Six times the search area's points plus twenty, within the search's depth cap.

    Stones captured and played again make a line longer than the area: on the
    project's problems the longest lines ran to twice the empty area plus 16;
    on an enclosed book problem (maeda 10k-5k 071, defender first, three moves
    into its tree) the defender retakes a ko after each move inside its own
    area, and the line takes 102 moves on 19 points before the capture."""
    return max(0, min(6 * area_points + 20, MAX_DEPTH - depth))


def principal_variation(solver, color: int, km: int, max_nodes: int = 0, max_moves: int | None = None,
                        cpu_until: float | None = None, dfpn_proof: bool = True) -> PrincipalVariation:
    """The line from ``solver``'s current position with ``color`` to move (``km``: see
    :func:`solver.solver.ko_master_value`); :meth:`solver.Solver.principal_variation` is the API.
    ``dfpn_proof`` False: DFS reads the line alone, df-pn's table unread (to measure the copy)."""
    board = solver.board
    if solver.target_captured():
        raise ValueError("the target has been captured")
    depth = len(solver.history)
    if max_moves is None:
        max_moves = default_max_moves(solver.area_cells.size, depth)
    max_moves = max(0, min(max_moves, MAX_DEPTH - depth))
    line = np.zeros((max(max_moves, 1), 2), dtype=np.int32)
    final_cells = np.empty_like(board.cells)
    # where df-pn has searched, the line reads its proof (solver.proof_copy)
    on_proof = dfpn_proof and solver.tables["dfpn"].count > 0
    if on_proof:
        copy_proof(solver, color, km)
    table = solver.tables["dfs"]
    if depth:
        path = solver.context[C_PATH]
        path[:depth] = solver.history[:path.size]
    count, status, winner = solver.run_search(
        table, max_nodes,
        lambda: follow(solver.context, table.keys, table.values, table.work, line, final_cells,
                       color, km, depth, max_moves, PASS_CHECK_NODES if on_proof else 0), cpu_until)
    timed_out = status == ABORTED and solver.counters[ABORT] == ABORT_TIME_LIMIT
    ended = TIME_LIMIT_ENDING if timed_out else ENDINGS[status]
    moves = [(c, "pass" if p == PASS else board.xy(p)) for c, p in line[:count].tolist()]
    stones = final_cells.reshape(board.stride, board.stride)[1:-1, 1:-1].copy()
    return PrincipalVariation(moves=moves, stones=stones, captured=status == CAPTURED,
                              complete=status in (CAPTURED, BOTH_PASSED),
                              winner=int(winner) if winner else None,
                              nodes=int(solver.counters[NODES]), ended=ended)
