"""Solution tree files: a problem's trees of status-changing moves, as SGF.

``trees/<problem-id>.sgf`` is an SGF collection of two game trees, the
attacker moving first, then the defender.  Each root is the problem written as
a subproblem (the :mod:`pipeline.formats.subproblem` properties, PL being the side that
moves first in that tree) and each node below it is one status-changing move
with the labels of the position it leads to (PL and DS stay the root's)::

    (;FF[4]GM[1]SZ[9]GN[gop/123]PL[W]AB[..]AW[..]MA[cc]TS[1]DS[0]AS[9]TR[bb]
    (;W[ab]TS[0]AS[8]TR[ba];B[ba]TS[1]AS[7])
    (;W[bc]TS[0]AS[8]))

A tree grown with end states gives each node, the root too, ``PV``: its
principal variation with PL moving first, colours alternating, ``[]`` a pass
(``PV[bb][ab][][]``).  The node's end state (``EB``/``EW`` of its subproblem
file) is the board once that line is played out from the node's position; the
line is kept rather than the board because it is short, and it shows how the
end was reached.

Replaying the moves (:func:`subproblems_of`) gives back every node as a
:class:`~pipeline.formats.subproblem.Subproblem`, so the subproblem files can always be
rebuilt from the trees, and a rerun of ``solve-all`` needs nothing else from
finished problems.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Iterator

import numpy as np
from sgfmill import sgf_grammar

from pipeline.expand import Expansion, TreeNode
from pipeline.formats.sgf_writer import collection, game_tree, node, properties_text
from pipeline.formats.subproblem import Subproblem, parse_subproblem
from solver.board import EMPTY, Board, color_letter, color_of_letter
from solver.problem import ProblemError, parse_sgf_point, sgf_point, shown


def _move_node(move: TreeNode) -> str:
    """A move and the labels of the position it leads to (``PL`` and ``DS`` stay the root's)."""
    labels = [(color_letter(move.color), [sgf_point(*move.move)]),
              ("TS", [str(int(move.safe))]), ("AS", [str(move.available_moves)]),
              ("TR", [] if move.best_move is None else [sgf_point(*move.best_move)])]
    return node(labels + _line(move))


def _line(position: TreeNode) -> list:
    """``PV``: the position's principal variation, when the tree has one (module doc)."""
    if position.principal_variation is None:
        return []
    return [("PV", ["" if move == "pass" else sgf_point(*move) for _, move in position.principal_variation])]


def _game_tree(first: str, position: TreeNode) -> str:
    """The game tree from ``first``, the node of ``position``: one child continues the sequence,
    several branch, each on its own line."""
    nodes = [first]
    while len(position.children) == 1:
        position = position.children[0]
        nodes.append(_move_node(position))
    return game_tree(nodes, [_game_tree(_move_node(child), child) for child in position.children],
                     line_per_variation=True)


def tree_text(expansion: Expansion, problem_id: str) -> str:
    """One side's tree as an SGF game tree (its root is the problem as a subproblem)."""
    root = expansion.root
    problem = expansion.problem
    head = Subproblem(size=problem.size, stones=problem.stones, target=problem.target,
                      to_play=expansion.to_play, safe=root.safe,
                      available_moves=root.available_moves, best_move=root.best_move,
                      source=problem_id).root_node() + properties_text(_line(root))
    return collection([_game_tree(head, root)])


def _value(properties: dict, name: str, source: str) -> str:
    try:
        return properties[name][0].decode()
    except (KeyError, IndexError, UnicodeDecodeError):
        raise ProblemError(source, f"a tree node has no readable {name}[]") from None


def _point(properties: dict, name: str, board: Board, source: str) -> tuple[int, int]:
    """The point of a node's ``name`` property, which must be on the board."""
    raw = _value(properties, name, source)
    if len(raw) != 2 or not all("a" <= c <= "s" for c in raw):
        raise ProblemError(source, f"a tree node's {name}[{shown(raw.encode())}] is not a point")
    x, y = parse_sgf_point(raw)
    if not (0 <= x < board.size and 0 <= y < board.size):
        raise ProblemError(source, f"a tree node's {name}[{raw}] is off the board")
    return x, y


def _walk(tree: sgf_grammar.Coarse_game_tree, board: Board, start: Subproblem,
          source: str) -> Iterator[Subproblem]:
    """The subproblems of a coarse game tree's moves, in preorder."""
    played = 0
    try:
        for properties in tree.sequence:
            letter = "B" if "B" in properties else "W"
            x, y = _point(properties, letter, board, source)
            if board.play(x, y, color_of_letter(letter)) < 0:
                raise ProblemError(source, f"the tree move {letter}[{sgf_point(x, y)}] cannot be played")
            played += 1
            area = _value(properties, "AS", source)
            if not (area.isascii() and area.isdigit()) or len(area) > 3:   # a count of board points
                raise ProblemError(source, f"a tree node's AS[{shown(area.encode())}] is not a count")
            safe = _value(properties, "TS", source)
            if safe not in ("0", "1"):
                raise ProblemError(source, f"a tree node's TS[{shown(safe.encode())}] must be 0 or 1")
            stones = board.to_array()
            yield Subproblem(size=start.size, stones=stones, target=start.target,
                             to_play=start.to_play, safe=safe == "1",
                             available_moves=int(area),
                             best_move=_point(properties, "TR", board, source) if "TR" in properties else None,
                             source=start.source,
                             end_state=_end_state(properties, board, stones, start, safe == "1", source))
        for child in tree.children:
            yield from _walk(child, board, start, source)
    finally:
        for _ in range(played):
            board.take_back()


def _end_state(properties: dict, board: Board, stones: np.ndarray, start: Subproblem, safe: bool | None,
               source: str) -> np.ndarray | None:
    """The board once the node's ``PV`` is played out from the current position (``stones``), PL
    first (None without ``PV``); the line must be legal and end as ``TS`` says."""
    if "PV" not in properties:
        return None
    color = start.to_play
    played = 0
    try:
        for raw in properties["PV"]:
            if raw:
                # (read here rather than by _point: a line has several values, and this runs per node)
                if len(raw) != 2 or not all(97 <= c <= 115 for c in raw):   # two letters a to s
                    raise ProblemError(source, f"a tree node's PV[{shown(raw)}] is not a point")
                x, y = raw[0] - 97, raw[1] - 97
                if x >= board.size or y >= board.size:
                    raise ProblemError(source, f"a tree node's PV[{raw.decode()}] is off the board")
                if board.play(x, y, color) < 0:
                    raise ProblemError(source, f"the principal variation's {color_letter(color)}[{sgf_point(x, y)}] "
                                               "cannot be played")
                played += 1
            color = 3 - color
        # (a living group's line is often two passes: its end is the position itself)
        end_state = board.to_array() if played else stones
    finally:
        for _ in range(played):
            board.take_back()
    x, y = start.target
    if safe is not None and end_state[y, x] != (start.defender if safe else EMPTY):
        raise ProblemError(source, f"a tree node's principal variation {'captures' if safe else 'does not capture'} "
                                   f"the target, but TS[{int(safe)}]")
    return end_state


def _games(data: bytes, source: str):
    """(root subproblem, the root's properties, the coarse tree below it) for every game of the collection."""
    try:
        games = sgf_grammar.parse_sgf_collection(data)
    except ValueError as exc:
        raise ProblemError(source, f"not a valid SGF collection ({exc})") from None
    for game in games:
        root_only = sgf_grammar.Coarse_game_tree()
        root_only.sequence = game.sequence[:1]
        root_only.children = []
        below = sgf_grammar.Coarse_game_tree()
        below.sequence = game.sequence[1:]
        below.children = game.children
        yield parse_subproblem(sgf_grammar.serialise_game_tree(root_only), source), game.sequence[0], below


def root_subproblems(data: bytes, source: str = "<tree>") -> list[Subproblem]:
    """The subproblem each tree of ``data`` was grown from: the problem with that tree's side
    moving first (its ``name()`` is its subproblem file's); raises ProblemError naming ``source``."""
    return [root for root, _, _ in _games(data, source)]


def root_positions(data: bytes, source: str = "<tree>") -> list[str]:
    """The position (and who moves first) each tree of ``data`` was grown from."""
    return [root.position_text() for root in root_subproblems(data, source)]


def subproblems_of(data: bytes, source: str = "<tree>") -> Iterator[Subproblem]:
    """Every node of every tree in ``data``, roots first; raises ProblemError naming ``source``."""
    for root, properties, below in _games(data, source):
        board = Board(root.size)
        for y, x in zip(*root.stones.nonzero()):
            board.place(int(x), int(y), int(root.stones[y, x]))
        yield replace(root, end_state=_end_state(properties, board, root.stones, root, root.safe, source))
        yield from _walk(below, board, root, source)
