"""A problem's tree of status-changing moves: the heart of ``solve-all``.

For one problem and one side moving first (``PL``), the tree grows as the
original pipeline's solve-all (tsumego.js) grows it: the root is the problem,
labelled with the target's status (PL first, the attacker ko master); a safe
node gets the attacker's moves that make it unsafe, an unsafe node the
defender's moves that make it safe again, PL the same in every node.  Levels
grow breadth first up to ``max_depth``; a position already examined in the
tree, or a move that captures the target, is not tried again; a node of fewer
than ``min_area`` empty points stays a leaf; ``max_subproblems`` stops the tree
at that many nodes, whole levels first.

Where this differs from the original, on purpose (docs/solve-all.md, "The tree
of status-changing moves", "End states", "Labels: a file reads back as
labelled", "Symmetries: one canonical orientation per problem"):

* every node is labelled by a solve of its position from scratch, so a file's
  label is what a fresh solve of that file gives; a node whose file reads back
  with another search area, or another label, is not kept
  (:attr:`Expansion.area_changed`, :attr:`Expansion.label_changed`);
* a solve over ``max_nodes`` abandons the whole tree
  (:class:`NodeBudgetExceeded`): a tree with holes would bias the data;
* each kept node gets its end state (its principal variation played out), the
  tree's line on the tree's warm solver;
* the tree is grown in the problem's canonical orientation and turned back, so
  a turned or colour-swapped copy of a problem gives the turned tree.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from pipeline.orientation import Orientation, canonical_orientation
from solver import DEFAULT_MAX_AREA, EMPTY, Problem, ProblemError, Solver, search_area

KO_MASTER = "attacker"
# Bumped whenever the rules above change which nodes a tree holds or how they are
# labelled, so that solve-all refuses to resume a folder grown by older rules.
TREE_RULES = 3


@dataclass(frozen=True)
class TreeSettings:
    """Everything a tree depends on besides its problem: the arguments of
    :func:`expand_tree`, plus the ko master and the rules version fixed here.

    solve-all records them in ``settings.json`` (:meth:`to_dict`) so that a
    rerun in the same folder never mixes trees grown differently, and puts them
    in its stats.
    """

    max_depth: int
    min_area: int
    max_nodes: int
    max_area: int
    algo: str
    end_state: bool = True
    max_subproblems: int = 0
    ko_master: str = KO_MASTER
    tree_rules: int = TREE_RULES

    def to_dict(self) -> dict:
        settings = asdict(self)
        if not self.max_subproblems:
            # no cap: written as before the cap existed, so older folders still resume
            del settings["max_subproblems"]
        return settings


class NodeBudgetExceeded(RuntimeError):
    """A solve in the tree needed more than the node budget."""

    def __init__(self, max_nodes: int, depth: int, solves: int, search_nodes: int):
        super().__init__(f"a solve at depth {depth} of the tree exceeded the node budget "
                         f"of {max_nodes} nodes")
        self.max_nodes = max_nodes
        self.depth = depth
        # the work spent on the tree before it was abandoned
        self.solves = solves
        self.search_nodes = search_nodes


class UnfinishedLine(RuntimeError):
    """A principal variation stopped short of its end (the tree is abandoned, as over budget)."""


@dataclass
class TreeNode:
    """A position of the tree; ``move`` (by ``color``) led here from the parent."""

    move: tuple[int, int] | None
    color: int
    safe: bool
    best_move: tuple[int, int] | None
    available_moves: int
    children: list[TreeNode] = field(default_factory=list)
    # the principal variation with PL moving first, as (colour, (x, y) or "pass"), and the
    # board at its end (both None when not asked for)
    principal_variation: list[tuple[int, tuple[int, int] | str]] | None = None
    end_state: np.ndarray | None = None

    def count(self) -> int:
        return 1 + sum(child.count() for child in self.children)


@dataclass
class Expansion:
    """One side's tree and what it cost."""

    problem: Problem
    to_play: int
    root: TreeNode
    solves: int = 0
    search_nodes: int = 0
    area_changed: int = 0
    label_changed: int = 0
    # whether max_subproblems stopped the tree before its depth or its moves did
    capped: bool = False


def _read_back(solver: Solver, problem: Problem, max_area: int):
    """The current position as a problem and its search area (None if it is not one)."""
    position = Problem(source=problem.source, size=problem.size, stones=solver.board.to_array(),
                       target=problem.target, to_play=None)
    try:
        return position, search_area(position, max_area)
    except ProblemError:
        return position, None


def _capturable_stones_left_out(solver: Solver, problem: Problem, area) -> bool:
    """Whether a stone in one of the tree's area and the read-back ``area`` but not in the
    other can be captured.

    Such a stone cannot be captured when it is in the target block (that
    capture ends the search) or when its block has a liberty outside the area
    (no move is ever played there; ``area.safe`` marks such stones, and both
    areas have the same empty points).  Measured on our own problems, the
    read-back area only ever lacks stones; the other way round is checked alike.
    """
    differing = set(solver.area.points).symmetric_difference(area.points)
    if not differing:
        return False
    target_block = set(solver.board.block(*problem.target))
    return any(not area.safe[y, x] and (x, y) not in target_block for x, y in differing)


class _TreeBuilder:
    def __init__(self, problem: Problem, to_play: int, min_area: int, max_nodes: int,
                 algo: str, max_area: int, end_states: bool, max_subproblems: int = 0):
        self.problem = problem
        self.max_subproblems = max_subproblems
        self.grown = 1   # nodes in the tree, the root included
        self.capped = False
        self.end_states = end_states
        self.to_play = to_play
        self.solver = Solver(problem, max_area=max_area)
        self.min_area = min_area
        self.max_nodes = max_nodes
        self.algo = algo
        self.max_area = max_area
        self.solves = 0
        self.search_nodes = 0
        self.area_changed = 0
        self.label_changed = 0

    def label(self, move, color, depth: int) -> TreeNode:
        """Solve the current position from scratch with PL to move."""
        solver = self.solver
        history, solver.history = solver.history, []
        try:
            verdict = solver.solve(self.to_play, ko_master=KO_MASTER, algo=self.algo,
                                   max_nodes=self.max_nodes)
        finally:
            solver.history = history
        self.solves += 1
        self.search_nodes += verdict.nodes
        if verdict.winner is None:
            raise NodeBudgetExceeded(self.max_nodes, depth, self.solves, self.search_nodes)
        best = verdict.move if isinstance(verdict.move, tuple) else None
        return TreeNode(move=move, color=color, safe=verdict.status == "safe", best_move=best,
                        available_moves=solver.area_size)

    def add_end_state(self, node: TreeNode, depth: int) -> None:
        """Give ``node`` (the current position) the board at the end of its principal variation,
        PL moving first, read from scratch like its label."""
        if not self.end_states:
            return
        solver = self.solver
        history, solver.history = solver.history, []
        try:
            line = solver.principal_variation(self.to_play, ko_master=KO_MASTER, max_nodes=self.max_nodes)
        finally:
            solver.history = history
        self.search_nodes += line.nodes
        if not line.complete:
            if self.max_nodes and line.nodes > self.max_nodes:
                raise NodeBudgetExceeded(self.max_nodes, depth, self.solves, self.search_nodes)
            raise UnfinishedLine(f"the principal variation at depth {depth} of the tree stopped at its "
                                 f"{line.ended} after {len(line.moves)} moves")
        if line.captured == node.safe:   # the line's winner is the label's: a fault if not
            raise RuntimeError(f"the principal variation at depth {depth} of the tree disagrees with its label")
        node.principal_variation = line.moves
        node.end_state = line.stones

    def reads_back_the_same(self, node: TreeNode, depth: int) -> bool:
        """Whether the current position, read back from its file, is ``node``'s problem (module doc)."""
        solver = self.solver
        position, area = _read_back(solver, self.problem, self.max_area)
        if area is None or {(x, y) for x, y in area.points
                            if position.stones[y, x] == EMPTY} != set(solver.moves()):
            self.area_changed += 1
            return False
        if not _capturable_stones_left_out(solver, self.problem, area):
            return True
        verdict = Solver(position, max_area=self.max_area).solve(
            self.to_play, ko_master=KO_MASTER, algo=self.algo, max_nodes=self.max_nodes)
        self.solves += 1
        self.search_nodes += verdict.nodes
        if verdict.winner is None:
            raise NodeBudgetExceeded(self.max_nodes, depth, self.solves, self.search_nodes)
        if (verdict.status == "safe") != node.safe:
            self.label_changed += 1
            return False
        # the tree's winning move need not win over the file's area: keep the file's
        node.best_move = verdict.move if isinstance(verdict.move, tuple) else None
        return True

    def expand_level(self, level, depth: int, seen: set[int]):
        """Children of every node of ``level`` (pairs of node and the moves leading to it)."""
        solver = self.solver
        problem = self.problem
        following = []
        for node, path in level:
            if self.full():
                break
            for x, y, color in path:
                solver.play(x, y, color)
            if node.available_moves >= self.min_area:
                mover = problem.attacker if node.safe else problem.defender
                for x, y in solver.moves():
                    if self.full():
                        break
                    if not solver.play(x, y, mover):
                        continue
                    position = int(solver.board.hash[0])
                    if not solver.target_captured() and position not in seen:
                        seen.add(position)
                        child = self.label((x, y), mover, depth + 1)
                        if child.safe != node.safe and self.reads_back_the_same(child, depth + 1):
                            self.add_end_state(child, depth + 1)
                            node.children.append(child)
                            self.grown += 1
                            following.append((child, path + ((x, y, mover),)))
                    solver.take_back()
            for _ in path:
                solver.take_back()
        return following

    def full(self) -> bool:
        """Whether the tree has reached ``max_subproblems`` nodes (and remember that it did)."""
        if self.max_subproblems and self.grown >= self.max_subproblems:
            self.capped = True
        return self.capped


def _turn_back(root: TreeNode, orientation: Orientation) -> None:
    """Turn a tree grown in ``orientation`` back into the problem's own, in place; children in
    row order of their moves."""
    point, color, stones = orientation.point_back, orientation.color_back, orientation.stones_back
    pending = [root]
    while pending:
        node = pending.pop()
        if node.move is not None:
            node.move = point(*node.move)
        node.color = color(node.color)
        if node.best_move is not None:
            node.best_move = point(*node.best_move)
        if node.principal_variation is not None:
            node.principal_variation = [(color(c), move if move == "pass" else point(*move))
                                        for c, move in node.principal_variation]
        if node.end_state is not None:
            node.end_state = stones(node.end_state)
        pending.extend(node.children)
    pending = [root]
    while pending:
        node = pending.pop()
        node.children.sort(key=lambda child: child.move[::-1])
        pending.extend(node.children)


def expand_tree(problem: Problem, to_play: int, max_depth: int = 20, min_area: int = 7,
                max_nodes: int = 0, algo: str = "dfs",
                max_area: int = DEFAULT_MAX_AREA, end_states: bool = True,
                max_subproblems: int = 0) -> Expansion:
    """Grow the tree of ``problem`` with ``to_play`` moving first (see the module doc)."""
    orientation = canonical_orientation(problem, to_play)
    turned, turned_to_play = orientation.problem(problem, to_play)
    builder = _TreeBuilder(turned, turned_to_play, min_area, max_nodes, algo, max_area, end_states,
                           max_subproblems)
    root = builder.label(None, EMPTY, 0)
    builder.add_end_state(root, 0)
    seen = {int(builder.solver.board.hash[0])}
    level = [(root, ())]
    for depth in range(max_depth):
        level = builder.expand_level(level, depth, seen)
        if not level or builder.full():
            break
    _turn_back(root, orientation)
    return Expansion(problem, to_play, root, builder.solves, builder.search_nodes,
                     builder.area_changed, builder.label_changed, builder.capped)
