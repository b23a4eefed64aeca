"""The network as the solver's guide: a prior over the search area's moves.

A :class:`Guide` wraps a packed network (:class:`model.numpy_net.NumpyNet`).  For
a :class:`solver.Solver`'s current position and a side moving first it cuts the
windows of the target block (``pipeline.planes.windows``), reads the network's
``move`` head (a softmax over the 121 points of each window: the side's winning
move) and averages the windows on the board, exactly as ``tsumego eval`` does
(:func:`model.evaluate.move_board`).  The planes say who moves first
(``attacker_first`` / ``defender_first``), so each side is one evaluation.

:meth:`Guide.fill` is what ``Solver.solve(..., guide=...)`` calls: it writes,
for Black and for White, the averaged probability of every empty point of the
search area, renormalised to sum to 1 over those points, into the solver's prior
array (``[colour, cell]``); the move ordering adds it, times the guide's
``weight``, to each move's heuristic score (:mod:`solver.movegen`).  Ordering
only: the search stays exact, so a guided verdict is the unguided one.

Evaluations are cached by (board size, target, position hash, side), so
solves of the same position (enclose's successive readings, a bench solving
a root twice) pay once.  ``evaluations``, ``seconds`` and ``hits`` count the cost.
The solver itself imports nothing from here: any object with ``fill`` (and, if it
likes, a ``weight``) will do.
"""
from __future__ import annotations

import time
from collections import OrderedDict
from types import SimpleNamespace

import numpy as np

from model.evaluate import move_board
from model.numpy_net import NumpyNet
from pipeline.formats.records import plane_indices
from pipeline.planes import PLANE_GROUPS, plane_names
from pipeline.planes.windows import subproblem_windows
from solver.board import BLACK, EMPTY, WHITE
from solver.movegen import DEFAULT_PRIOR_WEIGHT

# positions kept in the cache (each a size×size float64 board, both sides apart)
CACHE_POSITIONS = 4096
# The prior's weight in the solver's move order, by the network's architecture: of
# the weights tried, the one that took the fewest nodes: for conv, the solver's own
# default (movegen.DEFAULT_PRIOR_WEIGHT, where the measurements are given); for dense,
# on the reference problems (docs/solver.md, "Guided search").  A sharper network
# earns a larger weight: 1.5 with the dense network took DFS more nodes than no guide.
WEIGHTS = {"conv": DEFAULT_PRIOR_WEIGHT, "dense": 0.25}
# After n nodes of a solve the prior counts FADE_NODES / (FADE_NODES + n) of its weight:
# a solve the prior is right about ends while it is strong, a long one is ordered more
# and more by the search's own history counts.  300,000 was chosen on the worst guided
# losses and kept on the unseen problems of bench/draws (RESULTS.md, "The guide's prior
# fades by default"): 0.381 of the unguided DFS nodes there against 0.502 unfaded.
# A fresh draw kept it over 1,000,000, which had looked better on those problems
# (0.476 against 0.550: "A fresh draw: the fade's value and the guide ...").  At the
# weight 5 it took the fewest nodes again on that draw's heavy cases (0.525 against
# 0.561 and 0.600 for 1,000,000 and 100,000: "The guide's fade at weight 5").
FADE_NODES = 300_000


class Guide:
    """Move priors from a packed network, cached by position and side."""

    def __init__(self, net: NumpyNet, source: str = "", cache_positions: int = CACHE_POSITIONS,
                 weight: float | None = None, fade_nodes: float | None = None):
        self.net = net
        self.source = source
        self.weight = WEIGHTS[net.architecture] if weight is None else weight
        # 0: the prior keeps its weight for the whole solve; N: after n nodes it counts
        # N / (N + n) of it (solver.guide_fade_nodes); by default FADE_NODES
        self.fade_nodes = FADE_NODES if fade_nodes is None else fade_nodes
        # only the plane groups the network reads are computed, in the records' order
        self.groups = [g for g in PLANE_GROUPS if any(name in net.planes for name in g.planes)]
        self.columns = plane_indices(plane_names(self.groups), net.planes)
        self.cache: OrderedDict = OrderedDict()
        self.cache_positions = cache_positions
        self.evaluations = 0     # network evaluations (cache misses)
        self.seconds = 0.0       # spent on them: planes, windows and the forward pass
        self.hits = 0

    @classmethod
    def load(cls, path: str) -> "Guide":
        """The guide of a packed file (``.tsq``) or a model folder (its ``model-5bit.tsq``)."""
        from model.shipped import packed_file

        if path is None:
            raise ValueError("a guide needs a packed network: a .tsq file or a model folder")
        packed = packed_file(path)
        return cls(NumpyNet.load(packed), source=packed)

    @classmethod
    def from_bytes(cls, blob: bytes, source: str) -> "Guide":
        """The guide of a packed file's bytes (``source`` names it): what a Beam stage hands
        its workers, which may not see the file."""
        from model.packed import unpack

        return cls(NumpyNet(*unpack(blob, source)), source=source)

    def move_probabilities(self, stones: np.ndarray, target: tuple[int, int], to_play: int) -> np.ndarray:
        """float64 ``[y, x]``: the move head averaged over the target block's windows (as
        ``tsumego eval`` ranks moves), ``to_play`` moving first; not cached."""
        started = time.perf_counter()
        sub = SimpleNamespace(stones=stones, target=target, to_play=to_play)
        windows, _ = subproblem_windows(sub, self.groups)
        _, move_probs = self.net.evaluate(windows[..., self.columns])
        board = move_board(sub, move_probs)
        self.evaluations += 1
        self.seconds += time.perf_counter() - started
        return board

    def board_prior(self, solver, to_play: int) -> np.ndarray:
        """:meth:`move_probabilities` of the solver's current position, through the cache."""
        board = solver.board
        key = (board.size, solver.problem.target, int(board.hash[0]), int(to_play))
        cached = self.cache.get(key)
        if cached is not None:
            self.hits += 1
            self.cache.move_to_end(key)
            return cached
        probabilities = self.move_probabilities(board.to_array(), solver.problem.target, to_play)
        self.cache[key] = probabilities
        if len(self.cache) > self.cache_positions:
            self.cache.popitem(last=False)
        return probabilities

    def area_prior(self, solver, to_play: int) -> np.ndarray:
        """float64, one value per point of ``solver.area.points``: the probability of each
        empty one, renormalised to sum to 1 over them (0 on stones; all 0 if no window
        reaches an empty point of the area)."""
        board = self.board_prior(solver, to_play)
        xs, ys = np.array(solver.area.points, dtype=np.int64).reshape(-1, 2).T
        values = board[ys, xs] * (solver.board.cells[solver.area_cells] == EMPTY)
        total = values.sum()
        return values / total if total > 0 else values

    def fill(self, solver, prior: np.ndarray) -> None:
        """Write both colours' area priors into ``prior`` (``[colour, cell]``, cleared first)."""
        prior[:] = 0.0
        for color in (BLACK, WHITE):
            prior[color, solver.area_cells] = self.area_prior(solver, color)

    def stats(self) -> dict:
        """What the guide cost so far: evaluations, cache hits, seconds, ms per evaluation."""
        return {"evaluations": self.evaluations, "hits": self.hits, "seconds": round(self.seconds, 6),
                "ms_per_evaluation": round(1000 * self.seconds / self.evaluations, 3) if self.evaluations else None}
