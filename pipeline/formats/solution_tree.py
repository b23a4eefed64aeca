"""Solution tree files: a problem's trees of status-changing moves, as SGF.

``trees/<problem-id>.sgf`` is an SGF collection of two game trees, the
attacker moving first, then the defender.  Each root is the problem written as
a subproblem (the :mod:`pipeline.formats.subproblem` properties, PL being the side that
moves first in that tree) and each node below it is one status-changing move
with the labels of the position it leads to (PL and DS stay the root's)::

    (;FF[4]GM[1]SZ[9]GN[gop/123]PL[W]AB[..]AW[..]MA[cc]TS[1]DS[0]AS[9]TR[bb]
    (;W[ab]TS[0]AS[8]TR[ba];B[ba]TS[1]AS[7])
    (;W[bc]TS[0]AS[8]))

Replaying the moves (:func:`subproblems_of`) gives back every node as a
:class:`~pipeline.formats.subproblem.Subproblem`, so the subproblem files can always be
rebuilt from the trees, and a rerun of ``solve-all`` needs nothing else from
finished problems.
"""
from __future__ import annotations

from typing import Iterator

from sgfmill import sgf_grammar

from pipeline.expand import Expansion, TreeNode
from pipeline.formats.sgf_writer import collection, game_tree, node
from pipeline.formats.subproblem import Subproblem, parse_subproblem
from solver.board import Board, color_letter, color_of_letter
from solver.problem import ProblemError, parse_sgf_point, sgf_point, shown


def _move_node(move: TreeNode) -> str:
    """A move and the labels of the position it leads to (``PL`` and ``DS`` stay the root's)."""
    return node([(color_letter(move.color), [sgf_point(*move.move)]),
                 ("TS", [str(int(move.safe))]), ("AS", [str(move.available_moves)]),
                 ("TR", [] if move.best_move is None else [sgf_point(*move.best_move)])])


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
                      source=problem_id).root_node()
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
            yield Subproblem(size=start.size, stones=board.to_array(), target=start.target,
                             to_play=start.to_play, safe=safe == "1",
                             available_moves=int(area),
                             best_move=_point(properties, "TR", board, source) if "TR" in properties else None,
                             source=start.source)
        for child in tree.children:
            yield from _walk(child, board, start, source)
    finally:
        for _ in range(played):
            board.take_back()


def _games(data: bytes, source: str):
    """(root subproblem, the coarse tree below it) for every game of the collection."""
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
        yield parse_subproblem(sgf_grammar.serialise_game_tree(root_only), source), below


def root_positions(data: bytes, source: str = "<tree>") -> list[str]:
    """The position (and who moves first) each tree of ``data`` was grown from."""
    return [root.position_text() for root, _ in _games(data, source)]


def subproblems_of(data: bytes, source: str = "<tree>") -> Iterator[Subproblem]:
    """Every node of every tree in ``data``, roots first; raises ProblemError naming ``source``."""
    for root, below in _games(data, source):
        yield root
        board = Board(root.size)
        for y, x in zip(*root.stones.nonzero()):
            board.place(int(x), int(y), int(root.stones[y, x]))
        yield from _walk(below, board, root, source)
