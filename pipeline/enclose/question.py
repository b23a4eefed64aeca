"""The question a book leaves unsaid: which group, and whether the side to play kills or lives.

Every block on the board is a candidate target; blocks of one colour whose
regions coincide are one candidate.  Each is framed
(:mod:`pipeline.enclose.frame`) and solved with each side moving first, the
attacker as ko master.  A candidate *fits* when the side to play wins moving
first, loses moving second (the status turns on who moves first: that is
what makes it a problem) and the book's first move wins.  The goal follows:
``kill`` when the side to play is the candidate's attacker, ``live`` when it
is its defender.  A live candidate the defender loses whoever starts is
solved again with the defender as ko master: if it then fits, the book's
answer is a ko (verdict ``ko``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import numpy as np

from pipeline.enclose.frame import DEFAULT_REACH, Frame, Point, block_of, blocks, enclose
from pipeline.enclose.living_wall import THICKNESSES, is_strong, living_frame
from solver import Problem, ProblemError, Solver, Verdict
from solver.area import SearchArea, search_area
from solver.dfpn import EYE_SPACE_COST, SIMULATION_NODES

# What a reading found, from the side to play's point of view.
FITS = "fits"                  # wins first, loses second, the book's move wins
BOOK_FAILS = "book-move-fails"  # wins first, loses second, the book's move loses
SETTLED = "settled"            # the same winner whoever moves first
UNSETTLED = "unsettled"        # a solve ran out of nodes
TOO_LARGE = "too-large"        # the search area is larger than the limit
OUT_OF_AREA = "out-of-area"    # the book's move is not in this candidate's area
KO = "ko"                      # to live, the defender needs a ko, which the attacker wins here
NO_WALL = "no-wall"            # no attacker block around the region can be a wall (the candidate is
                               # itself inside the other side's eye space)


# A guided solve first runs unguided for up to GUIDE_AFTER nodes and calls the guide only if
# that does not settle it: on Cho Chikun's elementary book about two solves in three settle
# within so few nodes, and the guide's evaluations (about 5 ms each, the time of some
# 1,300-1,900 DFS nodes) took as long as all that a guided run cost there beyond an unguided
# one.  The unguided part has a table of its own (2**PROBE_TABLE_LOG2 slots, grown as needed):
# its move hints would otherwise come before the guide's order in the guided part, which then
# left readings unsettled that the guide settles (RESULTS.md, "The guide called only where a
# solve needs it").
GUIDE_AFTER = 2_000
PROBE_TABLE_LOG2 = 12


@dataclass(frozen=True)
class Order:
    """How every solve of a reading orders its moves.

    ``guide`` (optional, e.g. :class:`model.guide.Guide`) adds its prior to each
    solve (``Solver.solve``: the same verdicts, in fewer nodes where it helps);
    ``move_patterns`` is each solver's own order (``Solver``: True, the shipped
    learned patterns; False, the liberty heuristic; or a :class:`MovePatterns`).
    ``algo`` is the search every solve runs (``dfs`` or ``dfpn``); the guide is called
    only where ``guide_after`` unguided nodes leave a solve unsettled (:func:`ordered_solve`).
    ``cpu_until`` stops every solve once the thread's CPU clock (:func:`time.thread_time`)
    reaches it (None: no time limit; :mod:`solver.time_limit`).  ``solvers``, when given,
    keeps each frame's solver, tables and all, for the next reading of the same frame.
    ``simulation_nodes`` is df-pn's simulation budget (``Solver``; 0: off), ``eye_space_cost``
    its first numbers' eye space (``Solver``; 0: off); ``zones`` turns
    on the relevance zones' table and pruning (``Solver``: the same verdicts).
    """

    guide: object = None
    move_patterns: object = True
    algo: str = "dfs"
    guide_after: int = GUIDE_AFTER
    cpu_until: float | None = None
    solvers: dict | None = field(default=None, compare=False)
    simulation_nodes: int = 0
    eye_space_cost: int = 0
    zones: bool = False

    def solver(self, problem: Problem, max_area: int, ko_master: str = "attacker") -> Solver:
        """A solver of ``problem`` (a fresh one, or the one kept for its frame and ko master)."""
        def new() -> Solver:
            return Solver(problem, max_area=max_area, move_patterns=self.move_patterns,
                          simulation_nodes=self.simulation_nodes, eye_space_cost=self.eye_space_cost,
                          zone_table=self.zones, zone_pruning=self.zones)

        if self.solvers is None:
            return new()
        key = (problem.target, problem.stones.tobytes(), max_area, ko_master)
        if key not in self.solvers:
            self.solvers[key] = new()
        return self.solvers[key]


@dataclass
class Reading:
    """One candidate target, framed and solved."""

    target: Point
    goal: str
    frame: Frame
    verdict: str = ""
    area: int = 0
    book: dict[Point, bool] = field(default_factory=dict)   # each book move: does it win?
    winning: list[Point] = field(default_factory=list)      # every winning first move
    # the opponent's answer to each failing book move
    refutation: dict[Point, Point | str | None] = field(default_factory=dict)
    nodes: int = 0
    seconds: float = 0.0
    # an unsettled reading's solve that ran out of nodes: the side to play first
    # ("to-play-first"), the other side first ("other-first"), a book move ("book-move"), or
    # another first move while listing every winning one ("other-move")
    stalled: str = ""


def candidates(stones: np.ndarray, keep: frozenset[Point]) -> list[list[tuple[Point, Frame]]]:
    """Per distinct region of each colour's blocks, its (target, frame) for each block of the
    region, largest block first (a book may sacrifice a block to save the rest)."""
    found: dict[tuple[int, frozenset], list[tuple[Point, Frame]]] = {}
    for color in (1, 2):
        for block in sorted(blocks(stones, color), key=len, reverse=True):
            target = min(block, key=lambda p: (p[1], p[0]))
            frame = enclose(stones, target, keep=keep)
            found.setdefault((color, frame.region), []).append((target, frame))
    return sorted(found.values(), key=lambda group: len(group[0][1].region))


# Verdicts from the most to the least telling: which reading of a region to report.
RANK = (FITS, KO, BOOK_FAILS, UNSETTLED, SETTLED, OUT_OF_AREA, TOO_LARGE, NO_WALL)
# Verdicts a wider frame or another target block may change (the defender died within this one,
# or needed a ko, or lived only by another move than the book's); an unsettled one is left as is,
# since a wider frame is only harder.
RETRY = (SETTLED, KO, BOOK_FAILS)
# Raised with every change that can change a reading's verdict, so that a rerun over an
# earlier run's folder redoes its records (part of enclose's settings).
READING_VERSION = 12  # 12: a guided solve calls the guide only past GUIDE_AFTER unguided nodes
MAX_TARGETS = 4     # blocks of a region tried as the target
# Frames tried, one after the other, while the defender may still lack room: (reach, margin),
# the reach in steps from the defender's stones and the lines added to the stones' box on its
# open sides.  A wall stone just beyond the printed stones takes a liberty the book leaves open.
WIDER = ((DEFAULT_REACH + 1, 0), (DEFAULT_REACH + 1, 1), (DEFAULT_REACH + 2, 1))
# The frame tried once when the first cannot be settled (at most ESCALATE_AREA points: in the
# second pass only, see read_region).
TIGHTER = (DEFAULT_REACH - 1, 0)
# Search areas larger than this are solved with a tenth of the budget: on the whole book
# collection no reading over 17 empty points had fitted within 200,000 nodes a solve (two of
# 18 and one of 20 have since), and such readings (mostly the attacker's
# surrounding stones as the target) took half the nodes.
LARGE_AREA = 20
# When nothing fits, the region whose unsettled reading has the smallest area, if at most
# ESCALATE_AREA empty points, is read again with ESCALATION times the budget (a reading that
# stalled only while listing the winning moves, of any area, before it).  On an eighth
# of the book collections, five times the budget enclosed 42 of the 110 problems whose smallest
# unsettled reading had 14 to 16 points, 3 of 25 at 17 and 6 of 70 at 18 to 20: the larger
# ones took two fifths of the added time (RESULTS.md, "enclose: wider frames and more nodes").
ESCALATE_AREA = 16
ESCALATION = 4
# The search that reads again a reading stalled only while listing the winning moves: each
# other first move is a refutation of its own, which df-pn's proof numbers find where DFS's
# order can stall on one.  On the book collections' problems read again so, df-pn enclosed 9
# of 9 (7 that DFS at the same budget left unsettled) in 17 CPU seconds against DFS's 33.
# Readings stalled in their first solve stay with DFS: df-pn read them again in twice DFS's
# time and settled few more (Cho elementary none of 23, a sample of intermediate 2 of 17;
# RESULTS.md, "enclose escalates with df-pn").
LISTING_ALGO = "dfpn"
# The search that spends a problem's time (``--seconds``) on its unsettled readings, with its
# simulation on (solver.dfpn.SIMULATION_NODES).  On 40 book readings of 17-23 points that
# enclose had left unsettled, 10 CPU seconds each, DFS settled 16 and df-pn 23 (RESULTS.md,
# "Reach at equal CPU"); the simulation then settled 23 of 40 against df-pn's 19 without it,
# in 0.91 of its CPU where both settled.  Its first numbers read the eye space too
# (solver.dfpn.EYE_SPACE_COST): 0.66 and 0.85 of the CPU on two draws of such readings.
TIME_ALGO = "dfpn"
# Its Solver options (Order's fields of the same names); bench.gotools_check's
# --algo dfpn-time-pass checks the verdicts of this very search.
TIME_OPTIONS = {"simulation_nodes": SIMULATION_NODES, "eye_space_cost": EYE_SPACE_COST}
# The time goes to the smallest unsettled region and those at most this many points larger;
# a larger one is read once these have settled.  Every round gives each region read the
# same node budget, and a search area a few points larger needs many times the nodes.
SPEND_AREA_SLACK = 3
# A round's node budget grows no further (the solve's counters are 64-bit).
MAX_ROUND_NODES = 1 << 40


def empty_points(frame: Frame, area) -> int:
    """The empty points of a search area (:func:`solver.area.search_area`) in ``frame``: a
    reading's size."""
    return sum(1 for x, y in area.points if frame.stones[y, x] == 0)


def size_up(problem: Problem, frame: Frame, max_area: int) -> tuple[str, int, SearchArea | None]:
    """(verdict, empty points, search area) of a framed problem before any solve: ``NO_WALL``
    when no attacker block around the region can be the wall (nothing measured: 0, None),
    ``TOO_LARGE`` when the area has more than ``max_area`` empty points, else ``""``."""
    try:
        area = search_area(problem, problem.size ** 2)
    except ProblemError:
        return NO_WALL, 0, None
    empty = empty_points(frame, area)
    return (TOO_LARGE if empty > max_area else ""), empty, area


def tenth(max_nodes: int) -> int:
    """A tenth of a node budget (0, no budget, stays 0)."""
    return max(1, max_nodes // 10) if max_nodes else 0


def more_telling(reading: Reading, than: Reading) -> bool:
    return RANK.index(reading.verdict) < RANK.index(than.verdict)


def read(stones: np.ndarray, to_play: int, book: tuple[Point, ...], source: str,
         max_nodes: int, max_area: int, order: Order = Order(),
         cpu_until: float | None = None, time_zones: bool = False) -> list[Reading]:
    """One reading per candidate region, the smallest regions first.

    Each region is read by :func:`read_region`.  Once a region fits (or fits
    but for a ko), the others are solved only to see whether a second one fits
    too, with a tenth of the budget: a large region around the attacker's own
    surrounding stones rarely settles, and would take most of the time.  When
    none fits and one ran out of nodes, one region is read again with more
    nodes (:func:`escalate`); when still none fits and none is a ko, the regions are read
    in the living-wall frame (:func:`read_living`).  ``order`` orders every solve's moves.
    With ``cpu_until`` (the thread's CPU clock, :func:`time.thread_time`), a problem that
    still has no fit nor ko then spends what is left of its time on its unsettled regions
    (:func:`spend_time`; ``time_zones``: with relevance zones there): everything before is
    as without it, so more time never loses a problem that fits without it.
    """
    groups = candidates(stones, frozenset(book))
    readings = []
    budget = max_nodes
    for group in groups:
        readings.append(read_region(stones, group, to_play, book, source, budget, max_area, order))
        if readings[-1].verdict in (FITS, KO):
            budget = tenth(max_nodes)
    if max_nodes and not any(reading.verdict in (FITS, KO) for reading in readings):
        escalate(stones, groups, readings, to_play, book, source, max_nodes, max_area, order)
    if not any(reading.verdict in (FITS, KO) for reading in readings):
        read_living(stones, groups, readings, to_play, book, source, max_nodes, max_area, order)
    if cpu_until is not None and not any(reading.verdict in (FITS, KO) for reading in readings):
        spend_time(stones, groups, readings, to_play, book, source, max_nodes, max_area,
                   replace(order, zones=time_zones), cpu_until)
    return readings


def spend_time(stones: np.ndarray, groups: list[list[tuple[Point, Frame]]], readings: list[Reading],
               to_play: int, book: tuple[Point, ...], source: str, max_nodes: int, max_area: int,
               order: Order, cpu_until: float) -> int | None:
    """Read the unsettled regions again by ``TIME_ALGO``, in rounds of ``ESCALATION`` times the
    last round's node budget a solve (the first: ``ESCALATION`` times ``max_nodes``), each
    round the smallest region first and none more than ``SPEND_AREA_SLACK`` points larger
    than it, until one fits (or fits but for a ko) or the thread's CPU clock reaches
    ``cpu_until``.  A region's new reading replaces its old one: settled, the region leaves
    the rounds; still open, it is reported as last read.  Rounds, not one solve without a
    budget: a frame that does not settle would take all the time, where a tighter one or
    another region settles in a fraction of it.
    Each frame keeps its solver from round to round, so a round goes on from the proofs and
    numbers of the last.  Returns the index of the region that fits, or None."""
    timed = replace(order, algo=TIME_ALGO, cpu_until=cpu_until, solvers={}, **TIME_OPTIONS)
    budget = max_nodes   # a first pass without a node budget leaves nothing unsettled
    while time.thread_time() < cpu_until:
        budget = min(budget * ESCALATION, MAX_ROUND_NODES)
        unsettled = sorted((i for i, reading in enumerate(readings) if reading.verdict == UNSETTLED),
                           key=lambda i: readings[i].area)
        if not unsettled:
            return None
        nearest = readings[unsettled[0]].area + SPEND_AREA_SLACK
        for i in [i for i in unsettled if readings[i].area <= nearest]:
            if time.thread_time() >= cpu_until:
                break
            again = read_region(stones, groups[i], to_play, book, source, budget, max_area, timed,
                                escalated=True)
            again.nodes += readings[i].nodes
            again.seconds += readings[i].seconds
            # the latest reading stands (only unsettled regions are read again): settled, if
            # only to a verdict less telling, the region leaves the rounds; still open, it is
            # reported as read with the most nodes (where its tight frame settled without a
            # fit, by the wider frame still open), not as the first pass left it
            readings[i] = again
            if again.verdict in (FITS, KO):
                return i
    return None


def read_living(stones: np.ndarray, groups: list[list[tuple[Point, Frame]]], readings: list[Reading],
                to_play: int, book: tuple[Point, ...], source: str, max_nodes: int, max_area: int,
                order: Order = Order()) -> int | None:
    """Read each region's blocks again in the living-wall frame
    (:mod:`pipeline.enclose.living_wall`: the defender's strong outside stones alive, as
    the book takes them), the regions in :func:`read`'s order, when none fits or is a ko
    after the escalation; the first reading that fits (or fits but for a ko) replaces its
    region's, and the search stops there.  Every reading's nodes and seconds count in its
    region's.  Returns the index replaced.

    A ko the plain frames found, in either pass, stands: on Cho Chikun's elementary and
    intermediate books every living-wall reading that would have replaced one (8) asked the
    other side's group killed where the ko was the side to play's life, a neighbouring
    question, not the book's.  Only a target that is not itself strong is framed so: the
    living wall is the outside of a fight, never its subject.  A frame met again (the same
    target, the same stones at another depth) is not solved twice.
    """
    keep = frozenset(book)
    for i, group in enumerate(groups):
        tried = set()
        for target, _ in group[:MAX_TARGETS]:
            if is_strong(stones, block_of(stones, target)):
                continue
            for thickness in THICKNESSES:
                frame = living_frame(stones, target, keep=keep, thickness=thickness)
                if frame is None or (target, frame.stones.tobytes()) in tried:
                    continue
                tried.add((target, frame.stones.tobytes()))
                reading = solve_reading(stones, target, frame, to_play, book, source, max_nodes, max_area,
                                        order)
                if reading.verdict in (FITS, KO):
                    reading.nodes += readings[i].nodes
                    reading.seconds += readings[i].seconds
                    readings[i] = reading
                    return i
                readings[i].nodes += reading.nodes
                readings[i].seconds += reading.seconds
    return None


def escalation_choice(readings: list[Reading]) -> int | None:
    """The index of the reading :func:`escalate` reads again, or None: a reading that stalled
    only while listing the winning moves (its status and the book's moves settled: the nearest
    to fitting), whatever its area, else the smallest unsettled one of at most
    ``ESCALATE_AREA`` points."""
    unsettled = [i for i, reading in enumerate(readings) if reading.verdict == UNSETTLED
                 and (reading.area <= ESCALATE_AREA or reading.stalled == "other-move")]
    if not unsettled:
        return None
    return min(unsettled, key=lambda i: (readings[i].stalled != "other-move", readings[i].area))


def escalate(stones: np.ndarray, groups: list[list[tuple[Point, Frame]]], readings: list[Reading],
             to_play: int, book: tuple[Point, ...], source: str, max_nodes: int, max_area: int,
             order: Order = Order()) -> int | None:
    """Read the region :func:`escalation_choice` picks again, in place of its reading, with
    ``ESCALATION`` times the budget: by ``LISTING_ALGO``'s search when the reading stalled while
    listing the winning moves, else by the order's own.  Returns the index read again."""
    i = escalation_choice(readings)
    if i is None:
        return None
    if readings[i].stalled == "other-move":
        order = replace(order, algo=LISTING_ALGO)
    again = read_region(stones, groups[i], to_play, book, source, max_nodes * ESCALATION, max_area, order,
                        escalated=True)
    again.nodes += readings[i].nodes
    again.seconds += readings[i].seconds
    readings[i] = again
    return i


def read_region(stones: np.ndarray, group: list[tuple[Point, Frame]], to_play: int, book: tuple[Point, ...],
                source: str, budget: int, max_area: int, order: Order = Order(),
                escalated: bool = False) -> Reading:
    """The most telling reading of one candidate region.

    The largest block is the target first, framed again wider (``WIDER``, in
    turn) while the defender may have lacked room (the reading is settled, a
    ko or the book's move fails), or once tighter (``TIGHTER``) when the
    search did not settle: a reading of at most ``ESCALATE_AREA`` points only
    when ``escalated``, since :func:`read` reads it again with more nodes if
    nothing fits.  When the reading could still change, the region's other
    blocks are tried.  The reading returned holds the nodes and seconds of
    every reading of the region.
    """
    best = None
    keep = frozenset(book)
    solved = []
    for target, frame in group[:MAX_TARGETS]:
        reading = solve_reading(stones, target, frame, to_play, book, source, budget, max_area, order)
        solved.append(reading)
        best = reading if best is None or more_telling(reading, best) else best
        tried = {frame.region}
        tighter = reading.verdict == UNSETTLED and (escalated or reading.area > ESCALATE_AREA)
        others = WIDER if reading.verdict in RETRY else (TIGHTER,) if tighter else ()
        for reach, margin in others:
            other = enclose(stones, target, reach=reach, keep=keep, margin=margin)
            if other.region in tried:
                continue
            tried.add(other.region)
            reading = solve_reading(stones, target, other, to_play, book, source, budget, max_area, order)
            solved.append(reading)
            if more_telling(reading, best):
                best = reading
            # a wider frame is only harder to settle, and past a fit it only adds room
            if reading.verdict not in RETRY:
                break
        if best.verdict == FITS or best.verdict not in RETRY:
            break
    best.nodes, best.seconds = sum(r.nodes for r in solved), sum(r.seconds for r in solved)
    return best


def solve_reading(stones: np.ndarray, target: Point, frame: Frame, to_play: int, book: tuple[Point, ...],
                  source: str, max_nodes: int, max_area: int, order: Order = Order()) -> Reading:
    defender = int(stones[target[1], target[0]])
    reading = Reading(target=target, goal="live" if to_play == defender else "kill", frame=frame)
    started = time.perf_counter()
    solve_candidate(reading, to_play, book, source, max_nodes, max_area, order)
    reading.seconds = time.perf_counter() - started
    return reading


def solve_candidate(reading: Reading, to_play: int, book: tuple[Point, ...], source: str,
                    max_nodes: int, max_area: int, order: Order = Order()) -> None:
    frame = reading.frame
    problem = Problem(source=source, size=frame.stones.shape[0], stones=frame.stones,
                      target=reading.target, to_play=to_play)
    verdict, reading.area, area = size_up(problem, frame, max_area)
    if verdict:
        reading.verdict = verdict
        return
    if not set(book) <= set(area.points):
        reading.verdict = OUT_OF_AREA
        return
    if reading.area > LARGE_AREA:
        max_nodes = tenth(max_nodes)
    reading.verdict = settle(order.solver(problem, max_area), reading, to_play, book, max_nodes, "attacker",
                             order)
    if reading.verdict == SETTLED and reading.goal == "live":
        # A live problem whose answer is a ko: the defender lives only as ko master.
        probe = Reading(target=reading.target, goal=reading.goal, frame=frame)
        if settle(order.solver(problem, max_area, "defender"), probe, to_play, book, max_nodes, "defender",
                  order) == FITS:
            reading.verdict = KO
            reading.book, reading.winning = probe.book, probe.winning   # as the defender's ko won
        reading.nodes += probe.nodes


def ordered_solve(solver: Solver, side: int, ko_master: str, max_nodes: int,
                  order: Order = Order()) -> Verdict:
    """``solver.solve`` by ``order``'s search, its guide called only where the first
    ``order.guide_after`` nodes, unguided and on a table of their own, leave the solve
    unsettled; the two parts together keep to ``max_nodes``."""
    guide, algo, guide_after, until = order.guide, order.algo, order.guide_after, order.cpu_until
    if guide is None or guide_after <= 0 or (max_nodes and max_nodes <= guide_after):
        return solver.solve(side, ko_master=ko_master, max_nodes=max_nodes, guide=guide, algo=algo,
                            cpu_until=until)
    # the unguided part keeps a table of its own (see GUIDE_AFTER)
    first = solver.solve(side, ko_master=ko_master, max_nodes=guide_after, algo=algo,
                         table=solver.new_table(algo, PROBE_TABLE_LOG2), cpu_until=until)
    if first.winner is not None:
        return first
    rest = max(1, max_nodes - first.nodes) if max_nodes else 0
    guided = solver.solve(side, ko_master=ko_master, max_nodes=rest, guide=guide, algo=algo, cpu_until=until)
    return replace(guided, nodes=first.nodes + guided.nodes, seconds=first.seconds + guided.seconds)


def settle(solver: Solver, reading: Reading, to_play: int, book: tuple[Point, ...], max_nodes: int,
           ko_master: str, order: Order = Order()) -> str:
    """The reading's verdict; fills in the book moves' results and every winning first move."""
    other = 3 - to_play

    def wins_after(move: Point, orders=(order,)) -> bool | None:
        """Whether to_play still wins after playing ``move`` (None: out of nodes); False if illegal.
        Each of ``orders`` in turn orders a solve, while the solves run out of nodes."""
        x, y = move
        if not solver.play(x, y, to_play):
            return False
        try:
            if solver.target_captured():
                return True
            for move_order in orders:
                verdict = ordered_solve(solver, other, ko_master, max_nodes, move_order)
                reading.nodes += verdict.nodes
                if verdict.winner is not None:
                    break
            if verdict.winner is None:
                return None
            if verdict.winner != to_play and move in book:
                reading.refutation[move] = verdict.move
            return verdict.winner == to_play
        finally:
            solver.take_back()

    for side, stage in ((to_play, "to-play-first"), (other, "other-first")):
        verdict = ordered_solve(solver, side, ko_master, max_nodes, order)
        reading.nodes += verdict.nodes
        if verdict.winner is None:
            reading.stalled = stage
            return UNSETTLED
        if (verdict.winner == to_play) != (side == to_play):
            return SETTLED
    for move in book:
        wins = wins_after(move)
        if wins is None:
            reading.stalled = "book-move"
            return UNSETTLED
        reading.book[move] = wins
    if not all(reading.book.values()):
        return BOOK_FAILS
    # A first move no book plays can take the guide's prior off its ground, where the
    # patterns' order alone settles it: such a move stalled guided is solved once more unguided.
    listing = (order, replace(order, guide=None)) if order.guide is not None else (order,)
    for move in solver.moves():
        wins = move in reading.book or wins_after(move, listing)
        if wins is None:
            reading.stalled = "other-move"
            return UNSETTLED
        if wins:
            reading.winning.append(move)
    return FITS
