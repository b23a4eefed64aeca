"""The packed network's answer to "is this group safe?" for one position: what ``tsumego
eval`` (:mod:`cli.eval_command`), ``tsumego serve`` and the guided solver
(:mod:`model.guide`) read.

:func:`evaluate_position` cuts the windows of the target block
(``pipeline.planes.windows``) and evaluates them with the numpy evaluator:
P(safe) with PL moving first (the mean over the block's windows, with
``symmetries`` also over the 8 symmetries of each window: that scored higher
on problems the network never saw, RESULTS.md, "Dense network on the
reference problems"), PL's most likely moves, and with the end-state head
each point's most likely owner at the end.  :func:`answer_position` adds the
answer with the other side first, why the two may not be trusted
(:func:`why_unsure`: within the network's unsure band, :func:`unsure_band_of`,
or contradicting each other) and, asked to, the exact solver's proof.  Its words are
:mod:`model.answer_words`'; its picture, :mod:`model.picture`'.
"""
from __future__ import annotations

import dataclasses
import json
import os

import numpy as np

from pipeline.budgets import EVAL_MAX_NODES
from pipeline.errors import CommandError
from pipeline.formats.records import END_STATE_CLASSES, WINDOW
from solver.area import DEFAULT_MAX_AREA
from solver.board import BLACK, EMPTY, WHITE
from solver.coordinates import GO_COLUMNS

HALF = WINDOW // 2

# The network answers "safe" at P(safe) >= 0.5, its best threshold on the records
# (RESULTS.md, "P(safe)'s threshold").  Within 0.15 of it the answer is too near a coin
# toss to take on trust: a player should read it out, or ask the solver (--solve).  The
# edges are a judgement; on the 97 own problems (sgf-problems/, shipped network, 8
# symmetries) it was right on 10 of the 18 answers inside the band, 62 of the 79 outside.
# The band of a network whose model.json has no calibration: ``tsumego card`` sets one from
# the network's held-out reliability bins (model/network_card.py), read by unsure_band_of.
UNSURE_BELOW, UNSURE_ABOVE = 0.35, 0.65

COLOUR_NAME = {BLACK: "Black", WHITE: "White"}

@dataclasses.dataclass
class Verdict:
    """The network's answer for one position."""

    safe: float                               # P(target safe), PL moving first
    stone_safe: list[float]                   # per target stone, row-major
    moves: list[tuple[tuple[int, int], float]]  # ((x, y), probability), best first
    # EMPTY/BLACK/WHITE [y, x]: each point's most likely owner at the end, -1 where no
    # window reaches; None unless asked of a network with the end-state head
    end_state: np.ndarray | None = None

@dataclasses.dataclass
class Answer:
    """Everything eval says about one file."""

    path: str
    sub: object                    # the Subproblem read from it
    verdict: Verdict               # the network's, PL moving first
    safe_other_first: float        # the network's P(safe), the other side moving first
    unsure: str | None             # why the network's answer is not to be trusted, or None
    proof: object | None = None    # the solver's pipeline.group_answer.GroupAnswer, with --solve
    group: object | None = None    # with --group, the pipeline.game_group.GameGroup framed
    check: object | None = None    # with --group --solve, the wider frame's pipeline.frame_check.FrameCheck


def unsure_band_of(spec: dict | None) -> tuple[float, float]:
    """The band of P(safe), as printed, within which the network's answer is unsure: its
    ``model.json``'s (``spec``) ``calibration.unsure_band`` (``tsumego card``) when it holds one,
    else :data:`UNSURE_BELOW`..:data:`UNSURE_ABOVE`.  ValueError for a band that is not two
    numbers with 0 <= low <= 0.5 <= high <= 1."""
    calibration = (spec or {}).get("calibration") or {}
    band = calibration.get("unsure_band") if isinstance(calibration, dict) else None
    if band is None:
        return UNSURE_BELOW, UNSURE_ABOVE
    try:
        low, high = (float(edge) for edge in band)
    except (TypeError, ValueError):
        raise ValueError(f"calibration.unsure_band {band!r} is not two numbers") from None
    if not 0 <= low <= 0.5 <= high <= 1:
        raise ValueError(f"calibration.unsure_band {band!r} does not hold 0.5 within 0..1")
    return low, high

def network_unsure_band(packed: str) -> tuple[float, float]:
    """:func:`unsure_band_of` the ``model.json`` beside the packed file ``packed`` (none there:
    the fixed band); a CommandError naming that file when it cannot be read."""
    from model.checkpoints import MODEL_SPEC

    path = os.path.join(os.path.dirname(os.path.abspath(packed)), MODEL_SPEC)
    if not os.path.isfile(path):
        return unsure_band_of(None)
    try:
        with open(path) as f:
            spec = json.load(f)
        if not isinstance(spec, dict):
            raise ValueError("not a JSON object")
        return unsure_band_of(spec)
    except (OSError, ValueError) as exc:
        raise CommandError(f"{path}: cannot read the network's unsure band ({exc})", code=2) from exc

@dataclasses.dataclass(frozen=True)
class EvalOptions:
    """What :func:`answer_position` is asked: ``tsumego eval``'s options (:mod:`cli.eval_command`)."""

    top: int = 3                   # PL's moves listed, best first
    symmetries: bool = True        # P(safe) averaged over the 8 symmetries of each window
    end_state: bool = False        # each point's owner at the end (a network with that head)
    solve: bool = False            # the exact solver's proof too
    max_nodes: int = EVAL_MAX_NODES   # its node budget (0: none)
    max_area: int = DEFAULT_MAX_AREA  # the largest search area, as solve refuses it
    # P(safe) within it (as printed, edges in) is unsure: network_unsure_band of the network's file
    unsure_band: tuple[float, float] = unsure_band_of(None)


def evaluate_position(net, sub, top: int, symmetries: bool = False, end_state: bool = False) -> Verdict:
    """Evaluate the target block of ``sub`` (any object with stones, target, to_play).

    With ``symmetries`` each stone's P(safe) is the mean over its window turned
    by the 8 symmetries of the square; the moves come from the windows as they are,
    and so does the end state (``end_state``, for a network with that head).
    """
    from pipeline.planes import plane_names
    from pipeline.formats.records import plane_indices
    from pipeline.planes.windows import subproblem_windows

    windows, _ = subproblem_windows(sub)
    # The network may have been trained on some of the planes only: pick its own, in its order.
    windows = windows[..., plane_indices(plane_names(), net.planes)]
    stone_safe, move_probs, end_state_probs = net.evaluate_all(windows)
    if symmetries:
        stone_safe = net.safe_over_symmetries(windows, stone_safe)
    return Verdict(float(stone_safe.mean()), [float(p) for p in stone_safe],
                   best_moves(sub, move_probs, top),
                   end_state_owners(sub, end_state_probs) if end_state and end_state_probs is not None else None)

def other_side_first(sub):
    """The same position with the other side to move (no labels: they hold for PL first)."""
    return dataclasses.replace(sub, to_play=3 - sub.to_play, best_move=None, safe=None)

def shown(probability: float) -> float:
    """A probability as the text prints it (two decimals): the unsure band and the answer's
    side of one half are read on it, so that the words never contradict the number."""
    return round(probability, 2)

def says_safe(probability: float) -> bool:
    """Whether the network's P(safe) answers yes (read on the shown value, as the unsure band
    and every word about it)."""
    return shown(probability) >= 0.5

def why_unsure(sub, safe: float, safe_other_first: float,
               band: tuple[float, float] | None = None) -> str | None:
    """Why the network's P(safe) with PL first is not to be trusted, in words; None when it is.

    Within ``band`` (None: :func:`unsure_band_of` a network without calibration) it is too
    near a coin toss.  And having the move never hurts in this game, so P(safe) with
    the attacker first above P(safe) with the defender first, on the other side of 0.5, is the
    network contradicting itself (the other way round is an unsettled group: whoever moves
    first wins, as in every own problem).
    """
    low, high = unsure_band_of(None) if band is None else band
    if low <= shown(safe) <= high:
        return f"P(safe) within {low:g}..{high:g}"
    tx, ty = sub.target
    defender = int(sub.stones[ty, tx])
    defender_first, attacker_first = ((safe, safe_other_first) if sub.to_play == defender
                                      else (safe_other_first, safe))
    if says_safe(attacker_first) and not says_safe(defender_first):
        return (f"it says safe with {COLOUR_NAME[3 - defender]} (the attacker) first, "
                f"P(safe) = {attacker_first:.2f}, but not with {COLOUR_NAME[defender]} (the defender) "
                f"first, P(safe) = {defender_first:.2f}")
    return None

def on_board(sub, window_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(sum [y, x, ...], windows [y, x])``: the windows' values (``[S, 11, 11, ...]``, one window
    per target stone) summed on the board, and how many windows reach each point."""
    size = sub.stones.shape[0]
    total = np.zeros((size, size) + window_values.shape[3:])
    reached = np.zeros((size, size), dtype=np.int64)
    ys, xs = np.nonzero(target_block(sub))
    for values, y, x in zip(window_values, ys, xs):
        # Window rows/cols 0..10 are board rows y-5..y+5 and cols x-5..x+5.
        top_row, left = y - HALF, x - HALF
        rows = slice(max(top_row, 0), min(top_row + WINDOW, size))
        cols = slice(max(left, 0), min(left + WINDOW, size))
        total[rows, cols] += values[rows.start - top_row:rows.stop - top_row,
                                    cols.start - left:cols.stop - left]
        reached[rows, cols] += 1
    return total, reached

def end_state_owners(sub, end_state_probs: np.ndarray) -> np.ndarray:
    """int8 ``[y, x]``: EMPTY, BLACK or WHITE, each point's most likely owner at the end (the
    windows' end-state heads ``[S, 121, 3]`` averaged), -1 where no window reaches."""
    total, reached = on_board(sub, end_state_probs.reshape(-1, WINDOW, WINDOW, END_STATE_CLASSES))
    tx, ty = sub.target
    defender = int(sub.stones[ty, tx])
    colour_of_class = np.array([EMPTY, defender, 3 - defender], dtype=np.int8)   # END_EMPTY, END_ALLY, END_ENEMY
    owners = colour_of_class[total.argmax(axis=-1)]
    owners[reached == 0] = -1
    return owners

# the end state as text; -1: a point no window reaches
END_STATE_GLYPHS = {-1: "?", EMPTY: ".", BLACK: "X", WHITE: "O"}

def end_state_rows(owners: np.ndarray) -> list[str]:
    """The end state, one string a row (``END_STATE_GLYPHS``), for ``--json``."""
    return ["".join(END_STATE_GLYPHS[int(v)] for v in row) for row in owners]

def end_state_text(sub, owners: np.ndarray) -> list[str]:
    """The board now and the end state side by side, Go coordinates on the edges (column letters
    above, row numbers from the bottom on the left): ``X`` black, ``O`` white, ``.`` empty,
    ``?`` a point no window reaches; the target lower case, now."""
    glyph = END_STATE_GLYPHS
    size = sub.stones.shape[0]
    columns = GO_COLUMNS[:size]
    tx, ty = sub.target
    lines = ["   " + "now".ljust(size + 2) + "end", "   " + columns + "  " + columns]
    for y, end in enumerate(end_state_rows(owners)):
        now = [glyph[int(v)] for v in sub.stones[y]]
        if y == ty:
            now[tx] = now[tx].lower()
        lines.append(f"{size - y:>2} " + "".join(now) + "  " + end)
    return lines

def move_board(sub, move_probs: np.ndarray) -> np.ndarray:
    """float64 ``[y, x]``: the windows' move heads (``[S, 121]``, one window per target
    stone) summed on the board and divided by the number of windows."""
    board, _ = on_board(sub, move_probs.reshape(-1, WINDOW, WINDOW))
    board /= len(move_probs)
    return board

def best_moves(sub, move_probs: np.ndarray, top: int) -> list[tuple[tuple[int, int], float]]:
    """Average the windows' move heads on the board; the ``top`` empty points."""
    size = sub.stones.shape[0]
    board = move_board(sub, move_probs)
    board[sub.stones != 0] = -1
    order = np.argsort(-board, axis=None, kind="stable")[:top]
    return [((int(i % size), int(i // size)), float(board.flat[i])) for i in order if board.flat[i] >= 0]

def target_block(sub) -> np.ndarray:
    """bool ``[y, x]``: the stones of the block holding ``sub.target``."""
    from pipeline.planes.regions import label_blocks

    blocks, _, _ = label_blocks(np.ascontiguousarray(sub.stones, dtype=np.int8))
    x, y = sub.target
    return blocks == blocks[y, x]

def stone_safety(net, sub, symmetries: bool = False) -> np.ndarray:
    """float ``[y, x]``: on every stone, the network's P(its block survives, PL moving first),
    the question the title answers for the target, asked of every block (the mean over the
    block's windows, so one value a block); NaN on empty points."""
    from pipeline.planes.regions import label_blocks

    stones = np.ascontiguousarray(sub.stones, dtype=np.int8)
    blocks, _, _ = label_blocks(stones)
    safety = np.full(stones.shape, np.nan)
    for label in range(int(blocks.max()) + 1):
        ys, xs = np.nonzero(blocks == label)
        block_sub = dataclasses.replace(sub, target=(int(xs[0]), int(ys[0])), best_move=None)
        safety[ys, xs] = evaluate_position(net, block_sub, top=0, symmetries=symmetries).safe
    return safety

def group_subproblem(group, path: str):
    """``--group``: the game record's group framed (a :class:`pipeline.game_group.GameGroup`),
    unlabelled."""
    from pipeline.formats.subproblem import Subproblem

    problem = group.problem
    return Subproblem(size=problem.size, stones=problem.stones, target=problem.target,
                      to_play=problem.to_play, source=path)

def load_network(model: str | None, end_state: bool = False):
    """The packed network ``model`` names (a file or a model folder; None: the shipped one),
    checked against the planes this code computes and, with ``end_state``, for that head."""
    from model.numpy_net import NumpyNet
    from model.shipped import packed_file
    from pipeline.planes import plane_names
    from pipeline.formats.records import plane_indices

    model = packed_file(model)
    try:
        net = NumpyNet.load(model)
    except (OSError, ValueError) as exc:
        raise CommandError(f"{model}: cannot load the network ({exc})") from exc
    try:
        plane_indices(plane_names(), net.planes)
    except ValueError as exc:
        raise CommandError(f"{model}: cannot feed the network: {exc}; "
                           "retrain it on fresh features") from exc
    if end_state and not net.end_state:
        raise CommandError(f"{model}: the network has no end-state head (trained with "
                           "--end-state-weight 0, on records without end states, or before the head)")
    return net

def answer_position(net, path: str, sub, options: EvalOptions, group=None) -> Answer:
    """The network's answer with PL first and with the other side first, and with ``options.solve``
    the solver's proof, checked against a wider frame for a group of a game (``group``, as
    ``tsumego solve --group`` checks it: :mod:`pipeline.frame_check`)."""
    verdict = evaluate_position(net, sub, options.top, options.symmetries, options.end_state)
    other = evaluate_position(net, other_side_first(sub), 0, options.symmetries).safe
    proof = prove(sub, path, options.max_nodes, options.max_area) if options.solve else None
    check = None
    if proof is not None and group is not None:
        from pipeline.frame_check import check_wider_frame
        from pipeline.group_answer import EACH

        check = check_wider_frame(group, proof, EACH, options.max_area, {}, max_nodes=options.max_nodes)
    return Answer(path, sub, verdict, other, why_unsure(sub, verdict.safe, other, options.unsure_band),
                  proof, group, check)

def prove(sub, path: str, max_nodes: int, max_area: int):
    """The exact solver's answer, PL moving first, as ``tsumego solve`` gives it
    (:class:`pipeline.group_answer.GroupAnswer`: the label's verdict, ko said as ko)."""
    from pipeline.group_answer import answer_group
    from solver import Solver

    return answer_group(Solver(sub.problem(path), max_area=max_area), sub.to_play, max_nodes=max_nodes)
