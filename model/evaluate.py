"""``tsumego eval``: the packed network's verdict on problem or subproblem SGFs.

``tsumego eval --model FILE.tsq [--top K] [--json] [--picture out.png|svg [--force]] [--symmetries] [--max-area N] FILE.sgf...``

For each file it cuts the windows of the target block (``pipeline.planes.windows``),
evaluates them with the numpy evaluator and prints the probability that the
target is safe with PL moving first (the mean over the block's windows) and
PL's K most likely moves (each window's move head mapped back to the board and
averaged); ``--symmetries`` also averages P(safe) over the 8 symmetries of
each window, which scored higher on the reference problems' records (measured:
RESULTS.md, "Dense network on the reference problems").  A bad file gets one error line naming it; the others are still
evaluated and the exit code is 1.  A position ``tsumego solve`` refuses (an open wall, a
search area over ``--max-area``) is refused with the same line: the network was
trained on enclosed positions only.

``--picture`` draws the board as the original pipeline's figures do: every stone of every
block coloured by the network's belief that its block survives when the
opponent moves first (green safe, red dead), PL's best move ringed.  With
several files, each picture is named ``<picture stem>-<file stem>.<ext>``.  A
picture that exists already is refused before any evaluation, unless ``--force``;
missing folders on its way are created.
"""
from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path

import numpy as np

from pipeline.errors import CommandError
from pipeline.formats.records import WINDOW
from pipeline.paths import check_output_file
from solver.area import DEFAULT_MAX_AREA

HALF = WINDOW // 2


def register(commands) -> None:
    parser = commands.add_parser("eval", help="the packed network's verdict and moves on SGF files")
    parser.add_argument("files", nargs="+", metavar="FILE.sgf")
    parser.add_argument("--model", required=True, help="packed network (tsumego quantize)")
    parser.add_argument("--top", type=int, default=3, help="how many moves to print")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--picture", help="draw each board to this .png or .svg (with several files, "
                                          "one picture each, named after the file)")
    parser.add_argument("--force", action="store_true", help="let --picture overwrite existing files")
    parser.add_argument("--symmetries", action="store_true",
                        help="average P(safe) over the 8 symmetries of each window (8 times the work)")
    parser.add_argument("--max-area", type=int, default=DEFAULT_MAX_AREA,
                        help="reject positions whose search area has more empty points, as solve does")
    parser.set_defaults(run=run)


@dataclasses.dataclass
class Verdict:
    """The network's answer for one position."""

    safe: float                               # P(target safe), PL moving first
    stone_safe: list[float]                   # per target stone, row-major
    moves: list[tuple[tuple[int, int], float]]  # ((x, y), probability), best first


def evaluate_position(net, sub, top: int, symmetries: bool = False) -> Verdict:
    """Evaluate the target block of ``sub`` (any object with stones, target, to_play).

    With ``symmetries`` each stone's P(safe) is the mean over its window turned
    by the 8 symmetries of the square; the moves come from the windows as they are.
    """
    from pipeline.planes import plane_names
    from pipeline.formats.records import plane_indices
    from pipeline.planes.windows import subproblem_windows

    windows, _ = subproblem_windows(sub)
    # The network may have been trained on some of the planes only: pick its own, in its order.
    windows = windows[..., plane_indices(plane_names(), net.planes)]
    stone_safe, move_probs = net.evaluate(windows)
    if symmetries:
        stone_safe = net.safe_over_symmetries(windows, stone_safe)
    return Verdict(float(stone_safe.mean()), [float(p) for p in stone_safe],
                   best_moves(sub, move_probs, top))


def best_moves(sub, move_probs: np.ndarray, top: int) -> list[tuple[tuple[int, int], float]]:
    """Average the windows' move heads on the board; the ``top`` empty points."""
    size = sub.stones.shape[0]
    board = np.zeros((size, size))
    ys, xs = np.nonzero(target_block(sub))
    for probs, y, x in zip(move_probs.reshape(-1, WINDOW, WINDOW), ys, xs):
        # Window rows/cols 0..10 are board rows y-5..y+5 and cols x-5..x+5.
        top_row, left = y - HALF, x - HALF
        rows = slice(max(top_row, 0), min(top_row + WINDOW, size))
        cols = slice(max(left, 0), min(left + WINDOW, size))
        board[rows, cols] += probs[rows.start - top_row:rows.stop - top_row,
                                   cols.start - left:cols.stop - left]
    board /= len(ys)
    board[sub.stones != 0] = -1
    order = np.argsort(-board, axis=None, kind="stable")[:top]
    return [((int(i % size), int(i // size)), float(board.flat[i])) for i in order if board.flat[i] >= 0]


def target_block(sub) -> np.ndarray:
    """bool ``[y, x]``: the stones of the block holding ``sub.target``."""
    from pipeline.planes.regions import label_blocks

    blocks, _, _ = label_blocks(np.ascontiguousarray(sub.stones, dtype=np.int8))
    x, y = sub.target
    return blocks == blocks[y, x]


def stone_safety(net, sub) -> np.ndarray:
    """float ``[y, x]``: every stone's P(its block survives, the opponent first); NaN on empty points."""
    from pipeline.planes.regions import label_blocks

    stones = np.ascontiguousarray(sub.stones, dtype=np.int8)
    blocks, _, _ = label_blocks(stones)
    safety = np.full(stones.shape, np.nan)
    for label in range(int(blocks.max()) + 1):
        ys, xs = np.nonzero(blocks == label)
        colour = int(stones[ys[0], xs[0]])
        block_sub = dataclasses.replace(sub, target=(int(xs[0]), int(ys[0])), to_play=3 - colour,
                                        best_move=None)
        safety[ys, xs] = evaluate_position(net, block_sub, top=0).stone_safe
    return safety


def run(args) -> int:
    from model.numpy_net import NumpyNet
    from pipeline.planes import plane_names
    from pipeline.formats.records import plane_indices
    from pipeline.formats.subproblem import load_subproblem
    from solver import ProblemError, search_area
    from solver.board import color_letter
    from solver.problem import sgf_point

    if args.picture and os.path.splitext(args.picture)[1].lower() not in (".png", ".svg"):
        args.parser.error(f"--picture {args.picture}: the name must end in .png or .svg")
    if args.picture:
        for path in args.files:
            check_output_file(picture_path(args.picture, path, len(args.files)), "--picture", args.force)
    try:
        net = NumpyNet.load(args.model)
    except (OSError, ValueError) as exc:
        raise CommandError(f"{args.model}: cannot load the network ({exc})") from exc
    try:
        plane_indices(plane_names(), net.planes)
    except ValueError as exc:
        raise CommandError(f"{args.model}: cannot feed the network: {exc}; "
                           "retrain it on fresh features") from exc
    failed = 0
    for path in args.files:
        try:
            sub = load_subproblem(path)
            # The network only knows enclosed positions: what solve refuses is refused here, in its words.
            search_area(sub.problem(path), args.max_area)
            verdict = evaluate_position(net, sub, args.top, args.symmetries)
        except (ProblemError, ValueError) as exc:
            print(f"error: {exc}" if str(exc).startswith(path) else f"error: {path}: {exc}",
                  file=sys.stderr)
            failed += 1
            continue
        moves = [(sgf_point(*point), round(p, 4)) for point, p in verdict.moves]
        if args.json:
            print(json.dumps({"file": path, "to_play": color_letter(sub.to_play),
                              "target": sgf_point(*sub.target), "safe": round(verdict.safe, 4),
                              "label": None if sub.safe is None else int(sub.safe),
                              "moves": moves}), flush=True)
        else:
            label = "" if sub.safe is None else f" (label TS[{int(sub.safe)}])"
            listed = ", ".join(f"{point} {p:.3f}" for point, p in moves) or "-"
            print(f"{path}: {color_letter(sub.to_play)} to play, P(target {sgf_point(*sub.target)} "
                  f"safe) = {verdict.safe:.3f}{label}; moves: {listed}", flush=True)
        if args.picture:
            picture = picture_path(args.picture, path, len(args.files))
            os.makedirs(os.path.dirname(os.path.abspath(picture)), exist_ok=True)
            draw_board(sub, stone_safety(net, sub), verdict.moves[:1], picture,
                       title=f"{Path(path).name}: {color_letter(sub.to_play)} to play")
    return 1 if failed else 0


def picture_path(picture: str, sgf_path: str, files: int) -> str:
    if files == 1:
        return picture
    stem, ext = os.path.splitext(picture)
    return f"{stem}-{Path(sgf_path).stem}{ext}"


def draw_board(sub, safety: np.ndarray, moves, path: str, title: str) -> None:
    """The board, each stone filled by its safety (red 0 → green 1, in percent), its colour as
    the rim; the target squared, ``moves`` ringed in blue."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from solver.board import BLACK

    size = sub.stones.shape[0]
    colours = matplotlib.colormaps["RdYlGn"]
    fig, ax = plt.subplots(figsize=(0.4 * size + 1, 0.4 * size + 1))
    ax.set_facecolor("#dcb35c")
    for i in range(size):
        ax.plot([0, size - 1], [i, i], color="k", lw=0.6, zorder=1)
        ax.plot([i, i], [0, size - 1], color="k", lw=0.6, zorder=1)
    for y, x in zip(*np.nonzero(sub.stones)):
        rim = "black" if sub.stones[y, x] == BLACK else "white"
        ax.add_patch(plt.Circle((x, y), 0.45, facecolor=colours(safety[y, x]), edgecolor=rim,
                                lw=3, zorder=2))
        ax.text(x, y, f"{100 * safety[y, x]:.0f}", ha="center", va="center", fontsize=6, zorder=3)
    tx, ty = sub.target
    ax.add_patch(plt.Rectangle((tx - 0.15, ty - 0.15), 0.3, 0.3, fill=False, lw=1.5, zorder=4))
    for (x, y), _ in moves:
        ax.add_patch(plt.Circle((x, y), 0.4, fill=False, edgecolor="blue", lw=2, ls="--", zorder=4))
    ax.set_xlim(-0.7, size - 0.3)
    ax.set_ylim(size - 0.3, -0.7)
    ax.set_xticks(range(size), [chr(ord("a") + i) for i in range(size)])
    ax.set_yticks(range(size), [chr(ord("a") + i) for i in range(size)])
    ax.tick_params(length=0, labelsize=7)
    ax.set_aspect("equal")
    ax.set_title(title, fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120, metadata={"Date": None} if path.endswith(".svg") else None)
    plt.close(fig)
