"""Relevance zones from proofs (RZS), a plain-Python prototype: what zone pruning saves, and
whether the zone rules are sound, before any port into the compiled searches.

The game (``NR``, the prototype's rule subset; see docs/relevance_zones.md for why it
matches ``Solver.solve(..., ko_master="none")`` on positions without repetition):

* moves are the empty points of the solver's search area (``solver.area``), captures
  first, no suicide; wall stones the solver marks safe are never captured;
* a move that recreates a position already on the path from the search's root (passes
  included, which never reset it) is illegal for both sides: nobody is ko master;
* the defender may pass while the target has two or more liberties; the attacker never
  passes (its pass is answered by the defender's, which is the defender's win, or is
  dominated by its best board move: docs/relevance_zones.md);
* a side with no legal move (and no pass) loses; the target captured is the attacker's
  win; the target pass-alive by Benson on the search area (as ``solver.life``) is the
  defender's.

A result that relied on a repetition ban against a position above the node is
path-dependent: it is not stored in the table, and its zone is the whole area.  A ban met
inside a node's own subtree gives the node the whole area as its zone too (the zone rules
below say nothing about repetitions), so a ko anywhere turns zones off above it.

Zones are int bitmasks over the universe U (the area's points and the target block's).
The rules, and why each makes a zone sound, are in docs/relevance_zones.md:
``_or_zone`` (the winner's move), ``_and_zone`` (the loser's replies, with the null move
that pruned the rest), ``_capture_zone`` and ``_benson_zone`` (leaves).

Search modes: ``plain`` (the oracle: DFS and a position table), ``zones`` (zones
computed, never used: the same nodes as plain), ``prune`` (zones prune the loser's moves
outside a proved null move's zone, and the table stores zones); ``zone_table``: a proved
zone's contents prove any position that repeats them (RZT).  ``path_safe``: a stored
result keeps the positions its subtree met and is reused only on a path clear of them,
the judge free of graph-history interaction.  ``check_zones`` is the soundness checker:
positions that agree with a proved node on its zone are re-solved by ``plain``.

Measurement: ``python -m research.relevance_zones [--folders ...] [--max-nodes N] [--path-safe]``.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from solver import Solver, load_problem
from solver.board import BLACK, BORDER, EMPTY, WHITE
from solver.problem import ProblemError

PASS = -1
INF = 1 << 30


class NodeBudget(Exception):
    """The search ran past its node or time budget."""


@dataclass
class Stats:
    nodes: int = 0
    bans: int = 0          # moves left out because they repeat a path position
    pruned: int = 0        # loser's moves a null move's zone pruned
    hits: int = 0          # table hits
    zone_hits: int = 0     # zone table hits: a stored zone's contents met again
    virtual: int = 0       # the attacker's virtual passes searched (pruning)
    recorded: list = field(default_factory=list)   # proved nodes for the checker


class Game:
    """One problem's board over the padded cells of :class:`solver.board.Board`."""

    def __init__(self, problem, max_area: int = 40):
        solver = Solver(problem, max_area=max_area)
        board = solver.board
        self.problem = problem
        self.stride = board.stride
        self.cells = [int(c) for c in board.cells]
        self.safe = {p for p in range(len(self.cells)) if board.safe[p]}
        self.target = board.point(*problem.target)
        self.defender = problem.defender
        self.attacker = 3 - self.defender
        self.area = [board.point(x, y) for x, y in solver.area.points]
        target_block = [board.point(x, y) for x, y in board.block(*problem.target)]
        self.universe = self.area + [p for p in target_block if p not in set(self.area)]
        self.index = {p: i for i, p in enumerate(self.universe)}
        self.in_universe = [False] * len(self.cells)
        for p in self.universe:
            self.in_universe[p] = True
        self.full = (1 << len(self.universe)) - 1
        rng = random.Random(20240601)
        self.zobrist = {p: (0, rng.getrandbits(64), rng.getrandbits(64)) for p in self.universe}
        self.hash = 0
        for p in self.universe:
            self.hash ^= self.zobrist[p][self.cells[p]] if self.cells[p] in (BLACK, WHITE) else 0
        self.board = board

    # -- board -----------------------------------------------------------------
    def neighbours(self, p):
        s = self.stride
        return (p - 1, p + 1, p - s, p + s)

    def block(self, p):
        """(stones, liberties, permanent): permanent when the block holds a safe stone or
        has a liberty outside U (no move is ever played there)."""
        cells = self.cells
        color = cells[p]
        stones = [p]
        seen = {p}
        libs = set()
        permanent = p in self.safe
        i = 0
        while i < len(stones):
            s = stones[i]
            i += 1
            for q in self.neighbours(s):
                c = cells[q]
                if c == color and q not in seen:
                    seen.add(q)
                    stones.append(q)
                    permanent = permanent or q in self.safe
                elif c == EMPTY:
                    libs.add(q)
                    permanent = permanent or not self.in_universe[q]
        return stones, libs, permanent

    def play(self, p, color):
        """Place ``color`` at p by the rules: the captured stones, or None (board unchanged)
        for a suicide."""
        cells = self.cells
        cells[p] = color
        opp = 3 - color
        captured = []
        for q in self.neighbours(p):
            if cells[q] == opp:
                stones, libs, permanent = self.block(q)
                if not libs and not permanent:
                    for s in stones:
                        cells[s] = EMPTY
                        self.hash ^= self.zobrist[s][opp]
                    captured.extend(stones)
        if not captured:
            _, libs, permanent = self.block(p)
            if not libs and not permanent:
                cells[p] = EMPTY
                return None
        self.hash ^= self.zobrist[p][color]
        return captured

    def undo(self, p, captured):
        color = self.cells[p]
        self.cells[p] = EMPTY
        self.hash ^= self.zobrist[p][color]
        for s in captured:
            self.cells[s] = 3 - color
            self.hash ^= self.zobrist[s][3 - color]

    def mask(self, points):
        m = 0
        for p in points:
            i = self.index.get(p)
            if i is not None:
                m |= 1 << i
        return m

    def points(self, mask):
        return [self.universe[i] for i in range(len(self.universe)) if mask >> i & 1]

    def contents(self, mask):
        return tuple(self.cells[p] for p in self.points(mask))

    def snapshot(self):
        return tuple(self.cells[p] for p in self.universe)

    def colour_masks(self):
        """(black, white): the universe's stones of each colour as bitmasks."""
        black = white = 0
        for i, p in enumerate(self.universe):
            c = self.cells[p]
            if c == BLACK:
                black |= 1 << i
            elif c == WHITE:
                white |= 1 << i
        return black, white

    def restore(self, snapshot):
        self.hash = 0
        for p, c in zip(self.universe, snapshot):
            self.cells[p] = c
            if c in (BLACK, WHITE):
                self.hash ^= self.zobrist[p][c]

    def target_liberties(self):
        return self.block(self.target)[1]

    # -- Benson on the search area (as solver.life) ------------------------------
    def benson_zone(self):
        """The zone of a pass-alive target (its kept blocks and their vital regions,
        flooded from the target), or 0 when the target is not pass-alive."""
        cells, d = self.cells, self.defender
        block_of, blocks = {}, []
        region_of, regions = {}, []
        for p in self.universe:
            if cells[p] == d and p not in block_of:
                stones, _, _ = self.block(p)
                for s in stones:
                    block_of[s] = len(blocks)
                blocks.append(stones)
            elif cells[p] != d and p not in region_of:
                points, enclosed, k = [p], True, 0
                region_of[p] = len(regions)
                while k < len(points):
                    s = points[k]
                    k += 1
                    for q in self.neighbours(s):
                        c = cells[q]
                        if c == BORDER or q in region_of:
                            continue
                        if not self.in_universe[q]:
                            enclosed = False
                        elif c != d:
                            region_of[q] = len(regions)
                            points.append(q)
                regions.append((points, enclosed))
        if self.target not in block_of:
            return 0
        # borders[r]: blocks touching region r; vital[b]: regions vital to block b
        borders = [set() for _ in regions]
        vital = [set() for _ in blocks]
        for r, (points, enclosed) in enumerate(regions):
            empties = [s for s in points if cells[s] == EMPTY]
            touching = {}
            for s in points:
                for q in self.neighbours(s):
                    if q in block_of:
                        touching.setdefault(block_of[q], set())
                        if cells[s] == EMPTY:
                            touching[block_of[q]].add(s)
            borders[r] = set(touching)
            if enclosed:
                for b, libs in touching.items():
                    if len(libs) == len(empties):
                        vital[b].add(r)
        alive = set(range(len(blocks)))
        kept = set(range(len(regions)))
        changed = True
        while changed:
            changed = False
            for b in list(alive):
                if len(vital[b] & kept) < 2:
                    alive.discard(b)
                    changed = True
            kept = {r for r in kept if borders[r] <= alive}
        root = block_of[self.target]
        if root not in alive:
            return 0
        zone, todo, done = 0, [root], {root}
        while todo:
            b = todo.pop()
            zone |= self.mask(blocks[b])
            for r in vital[b] & kept:
                zone |= self.mask(regions[r][0])
                for other in borders[r] - done:
                    done.add(other)
                    todo.append(other)
        return zone

    # -- zone rules ----------------------------------------------------------------
    def _whole_blocks(self, zone, color, liberties_wanted):
        """Every ``color`` block with a stone in ``zone`` whole, and up to
        ``liberties_wanted`` of its liberties in the zone (none for a permanent block)."""
        done = set()
        for p in self.points(zone):
            if self.cells[p] != color or p in done:
                continue
            stones, libs, permanent = self.block(p)
            done.update(stones)
            zone |= self.mask(stones)
            if permanent:
                continue
            inside = [q for q in sorted(libs) if self.mask([q]) & zone]
            for q in sorted(libs):
                if len(inside) >= liberties_wanted:
                    break
                if q not in inside:
                    inside.append(q)
                    zone |= self.mask([q])
        return zone

    def _neighbour_points(self, points):
        return self.mask(q for p in points for q in self.neighbours(p))

    def or_zone(self, move, captured, child_zone, winner):
        """The zone of a node ``winner`` wins by ``move`` (already played, capturing
        ``captured``), from the child's zone: the move, the captured stones and their
        neighbours; then, in the child position, every loser block with a stone in the zone
        whole with a liberty in it (so no z-similar position loses it to the move), and the
        move's own block whole with a liberty when it captured nothing (so it is legal)."""
        if child_zone == self.full:
            return self.full
        if move == PASS:
            stones, libs, _ = self.block(self.target)
            return child_zone | self._whole_blocks(self.mask(stones), self.defender, 2)
        zone = child_zone | self.mask([move]) | self.mask(captured) | self._neighbour_points(captured)
        zone = self._whole_blocks(zone, 3 - winner, 1)
        if not captured:
            zone |= self._whole_blocks(self.mask([move]), winner, 1)
        return zone

    def and_zone(self, loser, children, null_zone):
        """The zone of a node the side to move (``loser``) loses: every searched child's zone
        and move, each capture's stones and their neighbours; CR-1 (an illegal loser move
        inside the null move's zone stays illegal); the winner's blocks with a stone in the
        zone whole, with two liberties in it (one if it has one), so that no loser move
        outside the zone, nor any single one inside, captures what it did not capture here.
        Without a proved null move every loser move of a similar position must have been
        searched here: the whole universe."""
        if null_zone is None:
            return self.full
        winner = 3 - loser
        zone = null_zone
        for move, child_zone, captured in children:
            zone |= child_zone
            if move != PASS:
                zone |= self.mask([move]) | self.mask(captured) | self._neighbour_points(captured)
        if zone == self.full:
            return zone
        for x in self.points(null_zone):
            if self.cells[x] != EMPTY:
                continue
            captured = self.play(x, loser)
            if captured is not None:
                self.undo(x, captured)
                continue
            # a suicide: its neighbours, and the loser's blocks beside it with theirs
            zone |= self._neighbour_points([x])
            for q in self.neighbours(x):
                if self.cells[q] == loser:
                    stones, _, _ = self.block(q)
                    zone |= self.mask(stones) | self._neighbour_points(stones)
        return self._whole_blocks(zone, winner, 2)

    # -- search ------------------------------------------------------------------------
    def ordered_moves(self, color):
        """The target's liberties first, then the other empty points, in the area's order;
        the defender's pass, where allowed, second (after one board move has been tried)."""
        libs = self.target_liberties()
        empties = [p for p in self.area if self.cells[p] == EMPTY]
        moves = [p for p in empties if p in libs] + [p for p in empties if p not in libs]
        if color == self.defender and len(libs) >= 2:
            moves.insert(min(1, len(moves)), PASS)
        return moves


class Search:
    """DFS over the NR rules in one of the modes ``plain``, ``zones``, ``prune``."""

    def __init__(self, game: Game, mode: str = "plain", max_nodes: int = 0, seconds: float = 0.0,
                 record: bool = False, virtual_pass: bool = False, path_safe: bool = False,
                 zone_table: bool = False):
        if mode not in ("plain", "zones", "prune"):
            raise ValueError(f"mode must be plain, zones or prune, not {mode!r}")
        self.game = game
        self.mode = mode
        self.max_nodes = max_nodes
        self.deadline = time.perf_counter() + seconds if seconds > 0 else 0.0
        self.record = record
        self.virtual_pass = virtual_pass and mode == "prune"
        self.table = {}
        self.stats = Stats()
        self.on_path = {}
        # path_safe: each stored result keeps the positions its subtree met, and is reused
        # only on a path that holds none of them (the judge free of graph-history interaction)
        self.path_safe = path_safe
        self.frames: list[set] = []
        # zone_table (pruning only): a proved node's zone and its contents, keyed by side to
        # move then zone, prove any position that agrees with them (RZT, a dict per zone in
        # place of its radix tree).  Not path-safe: only proofs that met no ban are stored.
        self.zone_table = zone_table and mode == "prune"
        self.zones_stored: dict = {BLACK: {}, WHITE: {}}

    def solve(self, color):
        """(winner, zone) with ``color`` to move from the game's current position."""
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        g = self.game
        self.on_path = {g.hash: 0}
        try:
            winner, zone, _ = self._search(color, 0)
        finally:
            sys.setrecursionlimit(old)
        return winner, zone

    def _search(self, color, depth, virtual=False):
        """(winner, zone, repd) of the node; ``virtual``: the defender to move after the
        attacker's virtual pass, where the defender may not pass back."""
        if not self.path_safe:
            return self._node(color, depth, virtual)
        self.frames.append(set())
        try:
            return self._node(color, depth, virtual)
        finally:
            met = self.frames.pop()
            if self.frames:
                self.frames[-1] |= met

    def _clear_of_path(self, met) -> bool:
        """Whether no position a stored subtree met lies on the path above this node: its
        result then holds here as it did where it was found."""
        here = self.game.hash
        return not any(h in met for h in self.on_path if h != here)

    def _node(self, color, depth, virtual):
        g, st = self.game, self.stats
        st.nodes += 1
        if self.max_nodes and st.nodes > self.max_nodes:
            raise NodeBudget
        if self.deadline and st.nodes % 256 == 0 and time.perf_counter() > self.deadline:
            raise NodeBudget
        key = (g.hash, color)
        hit = None if virtual else self.table.get(key)
        if hit is not None and self.path_safe:
            hit = hit if self._clear_of_path(hit[2]) else None
            if hit is not None:
                self.frames[-1] |= hit[2]
        if hit is not None:
            st.hits += 1
            return hit[0], hit[1], INF
        if self.zone_table and not virtual:
            found = self._zone_hit(color)
            if found is not None:
                return found
        zones = self.mode != "plain"
        alive = g.benson_zone()
        if alive:
            result = (g.defender, alive if zones else 0, INF)
            self.table[key] = result[:2] + ((frozenset(),) if self.path_safe else ())
            return result
        opp = 3 - color
        children, null_zone, bans, mindepth = [], None, [], INF
        for m in g.ordered_moves(color):
            if m == PASS and virtual:
                continue
            if (m != PASS and null_zone is None and children and color == g.attacker
                    and self.virtual_pass):
                null_zone, mindepth = self._virtual_pass(color, depth, mindepth)
            if m == PASS:
                captured = []
            else:
                captured = g.play(m, color)
                if captured is None:
                    continue
                if self.path_safe:
                    self.frames[-1].add(g.hash)
                if null_zone is not None and self.mode == "prune" and not g.mask([m]) & null_zone \
                        and not g.mask(captured) & null_zone:
                    st.pruned += 1       # p+m is null_zone-similar to the null move's child
                    g.undo(m, captured)
                    continue
                if g.hash in self.on_path:
                    st.bans += 1
                    bans.append((m, captured, self.on_path[g.hash]))
                    g.undo(m, captured)
                    continue
            if g.cells[g.target] == EMPTY:
                winner, zone, repd = g.attacker, g.mask([g.target]), INF
            else:
                here = g.hash
                fresh = here not in self.on_path
                if fresh:
                    self.on_path[here] = depth + 1
                try:
                    winner, zone, repd = self._search(opp, depth + 1)
                finally:
                    if fresh:
                        del self.on_path[here]
            if winner == color:
                zone = g.or_zone(m, captured, zone, color) if zones else 0
                if m != PASS:
                    g.undo(m, captured)
                return self._store(key, color, zone, repd, depth, virtual)
            mindepth = min(mindepth, repd)
            children.append((m, zone, captured))
            if zones and null_zone is None and (m == PASS or (not g.mask([m]) & zone
                                                              and not g.mask(captured) & zone)):
                null_zone = zone
            if m != PASS:
                g.undo(m, captured)
        # a banned move outside the null move's zone that leaves it as it is loses as the
        # null move does: neither the zone nor (pruning) the table entry relies on its ban
        banned = False
        for m, captured, at in bans:
            excused = null_zone is not None and not g.mask([m]) & null_zone \
                and not g.mask(captured) & null_zone
            banned = banned or not excused
            if not (excused and self.mode == "prune"):
                mindepth = min(mindepth, at)
        zone = 0
        if zones:
            zone = g.full if banned else g.and_zone(color, children, null_zone)
        return self._store(key, opp, zone, mindepth, depth, virtual)

    def _virtual_pass(self, color, depth, mindepth):
        """The attacker may not pass, but the position with the defender to move, proved a
        defender win with zone z, is a null move all the same: an attacker move outside z
        that leaves z as it is gives a position z-similar to it.  Searched (pruning only)
        once the attacker's first move has lost without a null move of its own.  Returns
        (the null zone or None, mindepth)."""
        g = self.game
        here = g.hash
        fresh = here not in self.on_path
        if fresh:
            self.on_path[here] = depth + 1
        try:
            winner, zone, repd = self._search(3 - color, depth + 1, virtual=True)
        finally:
            if fresh:
                del self.on_path[here]
        self.stats.virtual += 1
        if winner == color:
            return None, mindepth
        return zone, min(mindepth, repd)

    def _zone_hit(self, color):
        """(winner, zone, INF) of a stored zone whose contents this position repeats, or None."""
        black, white = self.game.colour_masks()
        for zone, contents in self.zones_stored[color].items():
            winner = contents.get((black & zone, white & zone))
            if winner is not None:
                self.stats.zone_hits += 1
                return winner, zone, INF
        return None

    def _store(self, key, winner, zone, repd, depth, virtual=False):
        """Store a path-independent result (a virtual node's only when the defender, who was
        denied the pass, won it anyway); a path-dependent one gets the whole universe."""
        g = self.game
        if virtual and winner != g.defender:
            return winner, zone, repd
        if repd < depth:
            zone = g.full if self.mode != "plain" else 0
        else:
            self.table[key] = (winner, zone) + ((frozenset(self.frames[-1]),) if self.path_safe else ())
            if self.zone_table and zone != g.full:
                black, white = g.colour_masks()
                self.zones_stored[key[1]].setdefault(zone, {})[(black & zone, white & zone)] = winner
            if self.record and zone != g.full:
                self.stats.recorded.append((g.snapshot(), key[1], winner, zone))
        return winner, zone, repd


# -- the soundness checker ---------------------------------------------------------------
def _legal_position(game: Game) -> bool:
    """Every block in U has a liberty (or is permanent), and the target stands."""
    if game.cells[game.target] == EMPTY:
        return False
    seen = set()
    for p in game.universe:
        if game.cells[p] in (BLACK, WHITE) and p not in seen:
            stones, libs, permanent = game.block(p)
            seen.update(stones)
            if not libs and not permanent:
                return False
    return True


def check_zones(game: Game, recorded, samples: int = 20, variants: int = 5, change: float = 0.3,
                max_nodes: int = 5_000, rng: random.Random | None = None) -> dict:
    """Re-solve, with the plain search, random positions that agree with proved nodes on their
    zones and differ outside (stones added, removed or recoloured at random in U outside the
    zone, the target's point kept, every block left a liberty).  Returns the counts:
    nodes sampled, variants solved, skipped (over ``max_nodes``), and the mismatches found."""
    rng = rng or random.Random(1)
    start = game.snapshot()
    picked = rng.sample(recorded, min(samples, len(recorded)))
    counts = {"nodes": len(picked), "variants": 0, "skipped": 0, "mismatches": []}
    for snapshot, color, winner, zone in picked:
        outside = [i for i, p in enumerate(game.universe)
                   if not zone >> i & 1 and p != game.target]
        for _ in range(variants):
            for _attempt in range(50):
                cells = list(snapshot)
                for i in outside:
                    if rng.random() < change:
                        cells[i] = rng.choice((EMPTY, BLACK, WHITE))
                game.restore(tuple(cells))
                if cells != list(snapshot) and _legal_position(game):
                    break
            else:
                continue
            try:
                got, _ = Search(game, "plain", max_nodes=max_nodes).solve(color)
            except NodeBudget:
                counts["skipped"] += 1
                continue
            counts["variants"] += 1
            if got != winner:
                counts["mismatches"].append((snapshot, tuple(cells), color, winner, zone))
    game.restore(start)
    return counts


# -- measurement ------------------------------------------------------------------------
def stored_results_contradicted(game: Game, search: Search) -> int:
    """How many of ``search``'s recorded results (``record=True``) a path-safe plain search
    started afresh at their position contradicts: graph-history interaction, where the
    table reused a result on a path it does not hold for."""
    wrong = 0
    for snapshot, color, winner, _ in search.stats.recorded:
        game.restore(snapshot)
        wrong += Search(game, "plain", path_safe=True).solve(color)[0] != winner
    return wrong


def solver_verdict(problem, color, max_nodes=2_000_000):
    """The project's DFS with nobody ko master: the winner (None over the budget)."""
    return Solver(problem).solve(color, ko_master="none", algo="dfs", max_nodes=max_nodes).winner


def measure(problem, color, seconds: float, check: bool = False, rng=None, path_safe: bool = False,
            max_nodes: int = 0, modes=None) -> dict:
    """One problem, one side first: plain and pruned searches (each bounded by ``seconds``),
    the project's verdict, and with ``check`` the soundness checker on the pruned proof."""
    row = {"source": problem.source, "color": color}
    game = Game(problem)
    row["area"] = sum(game.cells[p] == EMPTY for p in game.area)
    start = game.snapshot()
    for mode in ("plain",) + (modes or MODES):
        game.restore(start)
        search = Search(game, mode[:5], seconds=seconds, max_nodes=max_nodes, record=check and mode != "plain",
                        virtual_pass=mode == "prune-vp", path_safe=path_safe, zone_table=mode == "prune-zt")
        began = time.perf_counter()
        try:
            winner, zone = search.solve(color)
        except NodeBudget:
            winner, zone = None, 0
        row[mode] = {"winner": winner, "nodes": search.stats.nodes, "bans": search.stats.bans,
                     "pruned": search.stats.pruned, "zone_hits": search.stats.zone_hits, "seconds": time.perf_counter() - began,
                     "zone": bin(zone).count("1")}
        if check and mode != "plain" and winner is not None:
            game.restore(start)
            row["check" + mode[5:]] = check_zones(game, search.stats.recorded, rng=rng)
    game.restore(start)
    row["solver"] = solver_verdict(problem, color)
    return row


# the searches measured against plain: pruning, with the virtual pass, with the zone table
MODES = ("prune", "prune-vp", "prune-zt")


BUCKETS = ("6-8", "9-11", "12-16", "17+", "all")


def _bucket(area):
    return "6-8" if area <= 8 else "9-11" if area <= 11 else "12-16" if area <= 16 else "17+"


def settled_table(rows, modes) -> None:
    """Cases settled by each search, and each search's nodes against the pruned one where
    both settle (geometric mean), by area bucket."""
    others = [m for m in modes if m != "prune"] if "prune" in modes else []
    print("\n| area | cases | settled: " + " | ".join(("plain",) + tuple(modes)) + " |"
          + "".join(f" {m} / prune nodes, both settled |" for m in others))
    print("|---|---|" + "---|" * (1 + len(modes) + len(others)))
    for bucket in BUCKETS:
        sel = [r for r in rows if bucket == "all" or _bucket(r["area"]) == bucket]
        if not sel:
            continue
        cells = [str(sum(r[m]["winner"] is not None for r in sel)) for m in ("plain",) + tuple(modes)]
        for mode in others:
            ratios = [r[mode]["nodes"] / r["prune"]["nodes"] for r in sel
                      if r[mode]["winner"] is not None and r["prune"]["winner"] is not None]
            cells.append(f"{math.exp(sum(math.log(x) for x in ratios) / len(ratios)):.3f} ({len(ratios)})"
                         if ratios else "-")
        print(f"| {bucket} | {len(sel)} | " + " | ".join(cells) + " |")


def report(rows, modes=MODES) -> None:
    """The table: verdict agreement, checker counts and node ratios by area bucket."""
    done = [r for r in rows if all(r[m]["winner"] is not None for m in ("plain",) + modes)]
    skipped = [r for r in rows if r not in done]
    print(f"\n{len(rows)} cases (problem x side), {len(done)} finished by every search, "
          f"{len(skipped)} skipped (a search over its budget)")
    for mode in modes:
        agree = sum(r["plain"]["winner"] == r[mode]["winner"] for r in done)
        print(f"{mode} verdict == plain verdict: {agree}/{len(done)}")
    for key in ("check", "check-vp", "check-zt"):
        checks = [r[key] for r in rows if key in r]
        print(f"checker ({key}): {sum(c['nodes'] for c in checks)} proved nodes, "
              f"{sum(c['variants'] for c in checks)} variants re-solved, "
              f"{sum(c['skipped'] for c in checks)} over budget, "
              f"{sum(len(c['mismatches']) for c in checks)} mismatches")
    same = [r for r in done if r["solver"] is not None]
    print(f"plain verdict == Solver(ko_master='none'): {sum(r['plain']['winner'] == r['solver'] for r in same)}"
          f"/{len(same)}; of the cases without a repetition ban met: "
          f"{sum(r['plain']['winner'] == r['solver'] for r in same if r['plain']['bans'] == 0)}"
          f"/{sum(r['plain']['bans'] == 0 for r in same)}")
    for r in same:
        if r["plain"]["winner"] != r["solver"]:
            print(f"  differs: {r['source']} color {r['color']}: plain {r['plain']['winner']} "
                  f"solver {r['solver']} (bans met: {r['plain']['bans']})")
    print("\n| area | cases | median plain nodes | "
          + " | ".join(f"{m}/plain geo-mean | median | min | max" for m in modes) + " |")
    print("|---|---|---|" + "---|---|---|---|" * len(modes))
    for bucket in BUCKETS:
        sel = [r for r in done if bucket == "all" or _bucket(r["area"]) == bucket]
        if not sel:
            continue
        cells = []
        for mode in modes:
            ratios = [r[mode]["nodes"] / r["plain"]["nodes"] for r in sel]
            geo = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
            cells.append(f"{geo:.3f} | {statistics.median(ratios):.3f} | {min(ratios):.3f} | {max(ratios):.3f}")
        print(f"| {bucket} | {len(sel)} | {statistics.median(r['plain']['nodes'] for r in sel):.0f} | "
              + " | ".join(cells) + " |")
    settled_table(rows, modes)
    for r in skipped:
        print(f"  skipped: {r['source']} color {r['color']} area {r['area']}: "
              + ", ".join(f"{m} {r[m]['winner']} ({r[m]['nodes']} nodes)" for m in ("plain",) + modes))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folders", nargs="+", default=["sgf-problems"])
    parser.add_argument("--min-area", type=int, default=6)
    parser.add_argument("--max-area", type=int, default=14)
    parser.add_argument("--seconds", type=float, default=10.0, help="each search's budget")
    parser.add_argument("--max-nodes", type=int, default=0, help="each search's node budget (0: none)")
    parser.add_argument("--check", action="store_true", help="run the soundness checker too")
    parser.add_argument("--pl-only", action="store_true", help="only problems with PL")
    parser.add_argument("--sample", type=int, default=0, help="N problems drawn in the area range (0: all)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--side-to-play", action="store_true", help="only the side to play first (PL)")
    parser.add_argument("--modes", default=",".join(MODES), help=f"the searches beside plain (default: {','.join(MODES)})")
    parser.add_argument("--path-safe", action="store_true",
                        help="reuse a stored result only on a path clear of the positions its subtree met")
    args = parser.parse_args(argv)
    modes = tuple(m for m in args.modes.split(",") if m)
    rng = random.Random(args.seed)
    rows = []
    for problem, area in problems_in_range(args):
        colors = (problem.to_play,) if args.side_to_play else (problem.attacker, problem.defender)
        for color in colors:
            row = measure(problem, color, args.seconds, check=args.check, rng=rng, path_safe=args.path_safe,
                          max_nodes=args.max_nodes, modes=modes)
            rows.append(row)
            check = row.get("check")
            print(f"{row['source']} {'BW'[color - 1]} area {area}: "
                  + " / ".join(f"{m} {row[m]['winner']} {row[m]['nodes']}" for m in ("plain",) + modes)
                  + f" solver {row['solver']}"
                  + (f" check {check['variants']} variants {len(check['mismatches'])} mismatches"
                     if check else ""), flush=True)
    report(rows, modes)


def problems_in_range(args):
    """(problem, area) of the folders' problems whose empty area is in range; with
    ``--sample N``, N of them drawn with ``--seed``."""
    found = []
    for folder in args.folders:
        for path in sorted(Path(folder).rglob("*.sgf")):
            try:
                problem = load_problem(path, require_to_play=args.pl_only or args.side_to_play)
                game = Game(problem)
            except ProblemError:
                continue
            area = sum(game.cells[p] == EMPTY for p in game.area)
            if args.min_area <= area <= args.max_area:
                found.append((problem, area))
    if args.sample and len(found) > args.sample:
        found = random.Random(args.seed).sample(found, args.sample)
    return found


if __name__ == "__main__":
    main()
