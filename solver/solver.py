"""The solver's Python face: a problem, its search area, and solve().

:class:`Solver` holds one problem's board and transposition tables; moves can be
played on it and the position solved again, reusing every path-independent
result found so far (this is how ``solve-all`` walks a problem's tree).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from . import dfpn, dfs
from .area import DEFAULT_MAX_AREA, search_area
from .board import BLACK, EMPTY, color_letter
from .eye_room import no_room_verdict
from .movegen import COUNTED_LIBERTIES, DEFAULT_GENERATION_CACHE_MB, DEFAULT_PRIOR_WEIGHT, MAX_PRIOR_WEIGHT, \
    RECORD_FIELDS, SearchContext, generation_cache
from .patterns import PATTERN_SCALE, MovePatterns, default_table
from .principal_variation import PrincipalVariation, principal_variation
from .problem import Problem, sgf_point
from .race import NO_CLAIM, RaceCount, race_count
from .rules import MAX_DEPTH, PASS, move_of, repd_of, winner_of
from .table import (ABORT, ABORT_NODE_BUDGET, ABORT_TABLE_FULL, ABORT_TIME_LIMIT, COUNTERS_SIZE, EYE_ROOM_PROOFS,
                    MAX_NODES, NODES, RACE_PROOFS, TABLE_CAPPED, TABLE_COUNT, TAGS, DEFAULT_MAX_TABLE_MB, Table)
from .time_limit import cpu_limit
from .zones import ZoneArrays

ALGORITHMS = ("dfs", "dfpn")
KO_MASTERS = ("attacker", "defender", "none")


@dataclass(frozen=True)
class Verdict:
    """The answer for one side to move.

    ``winner`` is the colour that wins with ``to_play`` moving first (None when
    the node budget or the time limit ran out); ``move`` is to_play's winning move as (x, y),
    ``"pass"`` when tenuki suffices, or None when to_play cannot win.
    """

    to_play: int
    winner: int | None
    move: tuple[int, int] | str | None
    defender: int
    nodes: int
    seconds: float

    @property
    def status(self) -> str:
        if self.winner is None:
            return "unknown"
        return "safe" if self.winner == self.defender else "unsafe"

    @property
    def sgf_move(self) -> str | None:
        """The move in SGF notation, ``B[]`` for a pass."""
        if self.move is None:
            return None
        letter = color_letter(self.to_play)
        return f"{letter}[]" if self.move == "pass" else f"{letter}[{sgf_point(*self.move)}]"


def ko_master_value(ko_master: str, defender: int) -> int:
    """km as the search uses it: +1 Black is ko master, -1 White, 0 nobody."""
    if ko_master not in KO_MASTERS:
        raise ValueError(f"ko master must be one of {KO_MASTERS}, not {ko_master!r}")
    if ko_master == "none":
        return 0
    color = defender if ko_master == "defender" else 3 - defender
    return 1 if color == BLACK else -1


def guide_weight(guide) -> float:
    """The weight of ``guide``'s prior in the move order: its ``weight``, else
    ``movegen.DEFAULT_PRIOR_WEIGHT``; at most ``movegen.MAX_PRIOR_WEIGHT``, so the
    prior never outranks a hint."""
    weight = float(getattr(guide, "weight", DEFAULT_PRIOR_WEIGHT))
    if not 0.0 <= weight <= MAX_PRIOR_WEIGHT:
        raise ValueError(f"a guide's weight must be within 0 .. {MAX_PRIOR_WEIGHT}, not {weight}")
    return weight


def guide_fade_nodes(guide) -> float:
    """The nodes over which ``guide``'s weight fades: its ``fade_nodes``, 0 (no fading) if
    it has none.  After n nodes of a solve the prior counts ``fade / (fade + n)`` of its
    weight."""
    fade = float(getattr(guide, "fade_nodes", 0.0) or 0.0)
    if fade < 0.0:
        raise ValueError(f"a guide's fade_nodes must not be negative, not {fade}")
    return fade


def pattern_table(move_patterns) -> np.ndarray | None:
    """The weight table a solver's move order reads: the shipped one for True, none (the
    liberty heuristic) for False or None, else the given :class:`MovePatterns` or file."""
    if move_patterns is True:
        return default_table()
    if move_patterns is None or move_patterns is False:
        return None
    if not isinstance(move_patterns, MovePatterns):
        move_patterns = MovePatterns.load(move_patterns)
    return move_patterns.table()


class Solver:
    """One problem's board, search area and tables.

    ``move_patterns`` orders the moves by learned weights (:mod:`solver.patterns`): True
    (the shipped ones), False (the liberty heuristic), a :class:`MovePatterns` or a file.
    The order changes, the verdict never does.  ``record_rows`` > 0 makes DFS record a
    sample of the nodes it cuts into ``record`` (:func:`solver.movegen.record_cut`;
    ``record_count`` says how many rows are filled), from which the weights are fitted.
    ``race`` lets both searches end a node whose capturing race the liberty count settles
    (:mod:`solver.race`); off, they read the race out.  ``eye_room`` names the searches
    that end a defender's node whose target has no room for two eyes (:mod:`solver.eye_room`;
    DFS gains nothing from asking: RESULTS.md, "No room for two eyes").  ``race_lead_cost`` > 0 makes df-pn
    start a fresh child's proof number higher by that much per liberty the defender leads
    the race against its weakest opponent (:data:`solver.dfpn.RACE_LEAD_COST`; 0: not
    counted).  ``sibling_hints`` lets both searches try first, below a refuted sibling, the
    move that won the same line in that sibling's subtree (:mod:`solver.dfs`; df-pn at a
    node's first visit).  ``simulation_nodes`` > 0 lets df-pn prove a refuted move's open
    siblings by replaying its refutation, up to that many nodes a sibling
    (:func:`solver.dfpn._simulate`; 0: off).  ``reuse_exact`` False: DFS never reuses a
    stored result, only orders by it, so every node is read on its own path (the judge of
    graph-history interaction: slow, for small positions).  ``relevance_zones``: DFS computes
    each proved node's relevance zone (:mod:`solver.zones`; :meth:`root_zone`), the nodes
    unchanged; ``zone_table``: and proves a position that repeats a stored zone's contents
    at once (:mod:`solver.zone_table`); ``zone_pruning``: and leaves unsearched a lost
    node's moves outside its null move's zone (:func:`solver.zones.zone_prunes`).
    ``first_numbers``: the rank and liberty costs of df-pn's fresh children
    (:data:`solver.dfpn.RANK_COST`, :data:`solver.dfpn.LIBERTY_COST`), for measuring others;
    ``eye_space_cost`` > 0 adds the eye space a move leaves to them (:data:`solver.dfpn.EYE_SPACE_COST`;
    0, the default: not counted).
    ``generation_cache_mb``: the memory that keeps the moves a node's position allows for
    its next visit (:func:`solver.movegen.generate_moves`; 0: generated at each visit), the
    nodes unchanged.  The verdict is the same either way.
    """

    def __init__(self, problem: Problem, max_area: int = DEFAULT_MAX_AREA, table_log2: int = 14,
                 max_table_mb: float = DEFAULT_MAX_TABLE_MB, move_patterns=True, record_rows: int = 0,
                 race: bool = True, eye_room: tuple[str, ...] = ("dfpn",), race_lead_cost: int = 0,
                 sibling_hints: bool = True,
                 simulation_nodes: int = 0, reuse_exact: bool = True, relevance_zones: bool = False,
                 zone_table: bool = False, zone_pruning: bool = False,
                 first_numbers: tuple[int, int] = (dfpn.RANK_COST, dfpn.LIBERTY_COST), eye_space_cost: int = 0,
                 generation_cache_mb: float = DEFAULT_GENERATION_CACHE_MB):
        self.problem = problem
        if set(eye_room) - set(ALGORITHMS):
            raise ValueError(f"eye_room names searches of {ALGORITHMS}, not {eye_room!r}")
        self.eye_room = tuple(eye_room)
        self.area = search_area(problem, max_area)
        self.board = problem.board()
        for x, y in zip(*np.nonzero(self.area.safe.T)):
            self.board.safe[self.board.point(int(x), int(y))] = 1
        self.target = self.board.point(*problem.target)
        self.defender = problem.defender
        self.history: list[int] = []
        if max_table_mb < 0:
            raise ValueError(f"max_table_mb must not be negative, not {max_table_mb}")
        self.max_table_bytes = int(max_table_mb * 2**20) if max_table_mb > 0 else None
        # the area's points as flat board indices, in the order of area.points
        points = np.array([self.board.point(x, y) for x, y in self.area.points], dtype=np.int32)
        relevance_zones = relevance_zones or zone_table or zone_pruning
        self.zone_state = ZoneArrays(self.board, points, self.target, MAX_DEPTH + 2, relevance_zones, zone_table)
        self.tables = {algo: self.new_table(algo, table_log2) for algo in ("dfs", "dfpn")}
        self.solves = 0
        self.counters = np.zeros(COUNTERS_SIZE, dtype=np.int64)
        self.area_cells = points
        rows = MAX_DEPTH + 2
        width = points.size + 1
        b = self.board
        self.dfpn_scratch = np.zeros((rows, width, dfpn.SCRATCH_FIELDS), dtype=np.int64)
        # the static life check (solver.life) tells the area's inside from its outside
        in_area = np.zeros(b.cells.size, dtype=np.uint8)
        in_area[points] = 1
        in_area[[b.point(x, y) for x, y in b.block(*problem.target)]] = 1
        # the move prior of a guided solve (movegen.C_PRIOR): [colour, cell], zero when unguided
        self.prior = np.zeros((3, b.cells.size), dtype=np.float64)
        # the prior's weight and the nodes over which it fades (movegen.C_PRIOR_WEIGHT)
        self.prior_weight = np.zeros(2, dtype=np.float64)
        # the searches' count of each move's wins, by colour (movegen.C_CUTOFFS), from zero each solve
        self.cutoffs = np.zeros((3, b.cells.size), dtype=np.float64)
        table = pattern_table(move_patterns)
        self.pattern_scale = np.array([PATTERN_SCALE if table is not None else 0.0])
        self.record = np.zeros((max(1, record_rows), RECORD_FIELDS), dtype=np.int64)
        self.record_count = np.zeros(2, dtype=np.int64)
        # each depth's hash difference to the refuted sibling's subtree (movegen.C_SIBLING)
        self.sibling = np.zeros(rows + 1, dtype=np.uint64)
        # every slot by name (movegen.CONTEXT_SLOTS); a slot left out or misnamed is a TypeError here
        self.context = SearchContext(
            cells=b.cells, safe=b.safe, mark=b.mark, stack=b.stack, undo=b.undo, meta=b.meta, hash=b.hash,
            zobrist=b.zobrist, stride=b.stride,
            area=points,
            target=self.target,
            path=np.zeros(rows + 1, dtype=np.uint64),
            tags=np.zeros(rows + 1, dtype=np.uint64),
            counters=self.counters,
            moves=np.zeros((rows, width), dtype=np.int32),
            scores=np.zeros((rows, width), dtype=np.float64),
            depths=np.zeros((rows, width), dtype=np.int32),
            hashes=np.zeros((rows, width), dtype=np.uint64),
            in_area=in_area,
            labels=np.zeros(b.cells.size, dtype=np.int32),
            region_border=np.zeros(b.cells.size, dtype=np.uint64),
            region_vital=np.zeros(b.cells.size, dtype=np.uint64),
            prior=self.prior,
            prior_weight=self.prior_weight,
            target_liberties=np.zeros((rows, width), dtype=np.int32),
            cutoffs=self.cutoffs,
            pattern_table=table if table is not None else np.zeros(1, dtype=np.float64),
            pattern_scale=self.pattern_scale,
            move_codes=np.zeros((rows, width), dtype=np.int32),
            record=self.record,
            record_count=self.record_count,
            race=np.array([1 if race else 0, race_lead_cost, 0], dtype=np.int64),
            opponent_liberties=np.full((rows, width), COUNTED_LIBERTIES, dtype=np.int32),
            sibling=self.sibling,
            search_options=np.array([1 if sibling_hints else 0, simulation_nodes, 1 if reuse_exact else 0,
                                     2 if zone_table else 1 if relevance_zones else 0,
                                     1 if zone_pruning else 0, first_numbers[0], first_numbers[1],
                                     eye_space_cost],
                                    dtype=np.int64),
            **self.zone_state.slots(),
            **generation_cache(width, generation_cache_mb),
            liberty_mark=np.zeros(b.cells.size + 1, dtype=np.int64),
            life_ruled_out=np.zeros(rows, dtype=np.int64),
            path_filter=np.zeros(dfpn.PATH_FILTER_WORDS, dtype=np.uint64),
        )

    @property
    def race_proofs(self) -> int:
        """Nodes of the last solve that the race count settled (:mod:`solver.race`)."""
        return int(self.counters[RACE_PROOFS])

    @property
    def eye_room_proofs(self) -> int:
        """Nodes of the last solve that the no-room rule settled (:mod:`solver.eye_room`)."""
        return int(self.counters[EYE_ROOM_PROOFS])

    @property
    def area_size(self) -> int:
        """Empty points of the search area in the current position."""
        return int(np.count_nonzero(self.board.cells[self.area_cells] == EMPTY))

    def moves(self) -> list[tuple[int, int]]:
        """Empty points of the search area, row by row."""
        points = self.area.points
        return [points[i] for i in np.flatnonzero(self.board.cells[self.area_cells] == EMPTY)]

    def play(self, x: int, y: int, color: int) -> bool:
        """Play a move by the rules (repetition is left to the search); False if illegal."""
        before = int(self.board.hash[0])
        if self.board.play(x, y, color) < 0:
            return False
        self.history.append(before)
        return True

    def take_back(self) -> None:
        self.board.take_back()
        self.history.pop()

    def target_captured(self) -> bool:
        return self.board.cells[self.target] == EMPTY

    def solve(self, to_play: int, ko_master: str = "attacker", algo: str = "dfs",
              max_nodes: int = 0, guide=None, table: Table | None = None,
              cpu_until: float | None = None) -> Verdict:
        """Solve the current position with ``to_play`` moving first.

        ``guide`` (e.g. :class:`model.guide.Guide`), when given, orders the moves: its
        ``fill(solver, prior)`` writes into ``prior`` (float64 ``[3, cells]``, zeros) each
        colour's probabilities of the area's moves in this position, which the move
        ordering adds to the heuristic, times the guide's weight (:func:`guide_weight`),
        for the whole search (fading with the nodes searched if the guide has
        ``fade_nodes``, :func:`guide_fade_nodes`).
        The order changes, the verdict never does; the time to fill counts in ``seconds``.
        ``table`` (from :meth:`new_table`), when given, is read and written instead of the
        solver's own table for ``algo``, which the solve then leaves as it was.
        ``cpu_until`` stops the search (winner None, as when ``max_nodes`` run out) once
        the calling thread's CPU clock (:func:`time.thread_time`) reaches it
        (:mod:`solver.time_limit`); None: no time limit.
        """
        if algo not in ALGORITHMS:
            raise ValueError(f"algorithm must be one of {ALGORITHMS}, not {algo!r}")
        self.context.race[2] = 1 if algo in self.eye_room else 0
        if self.target_captured():
            raise ValueError("the target has been captured")
        km = ko_master_value(ko_master, self.defender)
        depth = len(self.history)
        path = self.context.path
        path[:depth] = self.history[:path.size]
        table = self.tables[algo] if table is None else table
        self.sibling[:] = 0
        started = time.perf_counter()
        try:
            if guide is not None:
                weight = guide_weight(guide)
                guide.fill(self, self.prior)
                # a guide with nothing to say leaves the solve unguided, df-pn's own
                # first numbers included (dfpn.LIBERTY_COST)
                self.prior_weight[0] = weight if self.prior.any() else 0.0
                self.prior_weight[1] = guide_fade_nodes(guide)
            if algo == "dfs":
                result = self.run_search(table, max_nodes, lambda: dfs.search(
                    self.context, table.keys, table.values, table.work, to_play, km, depth), cpu_until)
                if repd_of(result) <= depth + 1:
                    # the root's result relied on the path above it: its zone claims nothing
                    self.zone_state.zones[min(depth, self.zone_state.zones.shape[0] - 1)] = self.zone_state.full
            else:
                # the same product numpy's uint64 would give, wrapped without its overflow warning
                salt = np.uint64(0x5851F42D4C957F2D * (self.solves + 1) % 2**64)
                self.context.path_filter[:] = 0   # the path keys are this solve's (salted): none stored yet
                result = self.run_search(table, max_nodes, lambda: dfpn.solve(
                    self.context, table.keys, table.values, table.work, self.dfpn_scratch, salt, to_play, km,
                    depth), cpu_until)
        finally:
            # the prior belongs to this solve's root: no later search (or line) may read it
            self.prior[:] = 0.0
            self.prior_weight[:] = 0.0
        seconds = time.perf_counter() - started
        self.solves += 1
        nodes = int(self.counters[NODES])
        if self.counters[ABORT] in (ABORT_NODE_BUDGET, ABORT_TIME_LIMIT):
            return Verdict(to_play, None, None, self.defender, nodes, seconds)
        winner = int(winner_of(result))
        move = None
        if winner == to_play:
            p = int(move_of(result))
            move = "pass" if p == PASS else self.board.xy(p)
        return Verdict(to_play, winner, move, self.defender, nodes, seconds)

    def root_zone(self) -> list[tuple[int, int]] | None:
        """The relevance zone of the last solve's root (``relevance_zones=True``; DFS or df-pn): the
        points where every position that agrees with it has the same winner, the same side
        and ko master to move (:mod:`solver.zones`); None where it is the whole universe."""
        cells = self.zone_state.cells_of(len(self.history))
        return None if cells is None else sorted(self.board.xy(p) for p in cells)

    def new_table(self, algo: str = "dfs", log2_size: int = 12) -> Table:
        """An empty table for ``solve(..., algo=algo, table=...)``, of 2**log2_size slots to start
        with (it grows as the search needs, up to the solver's ``max_table_mb``)."""
        fields = (dfpn.VALUE_FIELDS if algo == "dfpn" else 1) + self.zone_state.table_words
        return Table(log2_size, fields, max_bytes=self.max_table_bytes)

    def run_search(self, table: Table, max_nodes: int, search, cpu_until: float | None = None):
        """Run ``search()``, a compiled search over ``table`` (read when called), with a node
        budget and a CPU-time limit (``cpu_until``, :mod:`solver.time_limit`) for all of it; a
        search stopped by a full table is run again after the table grows.  Returns the
        search's result; ``counters`` says how it ended.  The counters and the history
        counts (``cutoffs``) start from zero."""
        self.counters[:] = 0
        self.cutoffs[:] = 0.0
        self.counters[MAX_NODES] = max_nodes
        while True:
            self.counters[ABORT] = 0
            self.counters[TAGS] = 0
            self.counters[TABLE_COUNT] = table.count
            self.counters[TABLE_CAPPED] = table.capped
            with cpu_limit(self.counters, cpu_until):
                result = search()
            table.count = int(self.counters[TABLE_COUNT])
            if self.counters[ABORT] != ABORT_TABLE_FULL:
                return result
            table.grow()

    def _static_frame(self, ko_master: str) -> tuple[int, int]:
        """(km, depth) for asking a static proof of the current position outside a solve: the
        moves played on this solver as the path, no pass situation on it."""
        depth = len(self.history)
        self.context.path[:depth] = self.history
        self.counters[TAGS] = 0
        return ko_master_value(ko_master, self.defender), depth

    def race_count(self, to_play: int, ko_master: str = "attacker") -> RaceCount:
        """The liberty count of the target's capturing race in the current position with
        ``to_play`` moving (:mod:`solver.race`), the moves played on this solver as the path."""
        verdict, x, e, s, y, blocks, room = race_count(self.context, to_play, *self._static_frame(ko_master))
        move = self.board.xy(int(verdict)) if verdict >= 0 else None
        return RaceCount(verdict != NO_CLAIM, move, int(x), int(e), int(s), int(y), int(blocks), int(room))

    def no_room(self, to_play: int, ko_master: str = "attacker") -> tuple[bool, tuple[int, int] | None]:
        """Whether the no-room rule proves the attacker captures the target in the current
        position with ``to_play`` moving (:mod:`solver.eye_room`), and the attacker's winning
        move as (x, y) when it is to move; the moves played on this solver as the path."""
        verdict = no_room_verdict(self.context, to_play, *self._static_frame(ko_master))
        return verdict != NO_CLAIM, (self.board.xy(int(verdict)) if verdict >= 0 else None)

    def principal_variation(self, color: int, ko_master: str = "attacker", max_nodes: int = 0,
                            max_moves: int | None = None, cpu_until: float | None = None,
                            dfpn_proof: bool = True) -> PrincipalVariation:
        """The line from the current position with ``color`` to move, played to its end: the
        winner's solve moves against the loser's most stubborn replies, until the target is
        captured or both sides pass (:mod:`solver.principal_variation`).  ``max_nodes``
        budgets the whole line (0: none), ``cpu_until`` stops it as it stops a solve,
        ``max_moves`` caps its length (default six times the search area's points plus
        twenty); where df-pn settled the position, the line reads its proof
        (:mod:`solver.proof_copy`; ``dfpn_proof`` False: not); the board is left as it was."""
        return principal_variation(self, color, ko_master_value(ko_master, self.defender), max_nodes=max_nodes,
                                   max_moves=max_moves, cpu_until=cpu_until, dfpn_proof=dfpn_proof)


def solve_problem(problem: Problem, to_play: int | None = None, **options) -> Verdict:
    """Solve one problem for ``to_play`` (default: its PL)."""
    max_area = options.pop("max_area", DEFAULT_MAX_AREA)
    solver = Solver(problem, max_area=max_area)
    return solver.solve(to_play if to_play is not None else problem.to_play, **options)
