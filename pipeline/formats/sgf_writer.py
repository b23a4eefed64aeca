"""SGF text: the one writer of subproblem, solution tree and problem files.

A node is an ordered list of ``(identifier, values)``, written in that order;
a game tree is its sequence of nodes and its variations.  Values are raw
(points, numbers, colours); text values (``GN``, ``C``) go through
:func:`escape_text` first.

sgfmill's serialiser is not used because it cannot give our bytes: it sorts
each node's properties (``FF`` first, then alphabetically), wraps lines at 79
columns, and turns every whitespace character of a text value other than a
line break into a space.  Our files must keep the bytes the original pipeline
wrote: subproblem file names hash the position's text
(:meth:`pipeline.formats.subproblem.Subproblem.name`), and the files, in that
pipeline's property order (``FF GM SZ GN PL AB AW MA``, then the labels), are
shared with tsumego.js, the reference solver.  So the order the caller gives
is kept and nothing is wrapped.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from solver.problem import sgf_point

Property = tuple[str, Sequence[str]]


def escape_text(text: str) -> str:
    """A Text or SimpleText value as SGF writes it: ``\\`` and ``]`` get a backslash."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


# Every point's SGF name, indexed [y, x]: a board's stones are then named by one lookup,
# not a call a stone (which took solve-all, writing a file a position, more time than its search).
_POINT_NAMES = np.array([[sgf_point(x, y) for x in range(26)] for y in range(26)], dtype=object)


def stone_points(stones: np.ndarray, color: int) -> list[str]:
    """The points of ``color``'s stones (``stones`` indexed [y, x]), row by row: ``AB``/``AW`` values."""
    ys, xs = np.nonzero(stones == color)
    if stones.shape[0] > 26 or stones.shape[1] > 26:   # past SGF's letters: never a board of ours
        return [sgf_point(int(x), int(y)) for y, x in zip(ys, xs)]
    return _POINT_NAMES[ys, xs].tolist()


def properties_text(properties: Iterable[Property]) -> str:
    """``ID[value][value]...`` for each property, in the order given.

    A property with no values is left out: SGF has no property without one
    (a pass is ``B[]``, one empty value).
    """
    return "".join(ident + "".join(f"[{value}]" for value in values)
                   for ident, values in properties if values)


def node(properties: Iterable[Property]) -> str:
    return ";" + properties_text(properties)


def game_tree(nodes: Sequence[str], variations: Sequence[str] = (), line_per_variation: bool = False) -> str:
    """``(`` the nodes, then the variations (game trees themselves) ``)``.

    With ``line_per_variation`` each variation starts a new line, which keeps
    deep solution trees readable; problem files keep theirs on the root's line.
    """
    gap = "\n" if line_per_variation else ""
    return "(" + "".join(nodes) + "".join(gap + variation for variation in variations) + ")"


def collection(trees: Iterable[str]) -> str:
    """A file's text: the game trees, each ending its line."""
    return "".join(tree + "\n" for tree in trees)
