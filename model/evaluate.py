"""``tsumego eval``: the packed network's verdict on problem or subproblem SGFs.

``tsumego eval [--model FILE.tsq|DIR] [--top K] [--json] [--end-state] [--picture out.png|svg [--force]] [--no-symmetries] [--max-area N] FILE.sgf...``

Without ``--model`` it uses the network shipped in the repository
(``model/networks/conv-books/model-5bit.tsq``, :mod:`model.shipped`);
``--model`` names a packed file or a model folder (its ``model-5bit.tsq``).

For each file it cuts the windows of the target block (``pipeline.planes.windows``),
evaluates them with the numpy evaluator and prints the probability that the
target is safe with PL moving first (the mean over the block's windows) and
PL's K most likely moves (each window's move head mapped back to the board and
averaged).  P(safe) is also averaged over the 8 symmetries of each window
unless ``--no-symmetries``: that scored higher on the records of problems
the network never saw (measured: RESULTS.md, "Dense network on the reference
problems" and "The shipped network, longer and with the reference problems").  A bad file gets one error line naming it; the others are still
evaluated and the exit code is 1.  A position ``tsumego solve`` refuses (an open wall, a
search area over ``--max-area``) is refused with the same line: the network was
trained on enclosed positions only.

``--end-state`` (a network with the end-state head) also prints the board at
the end as the network sees it: each point's most likely owner once the
principal variation is played out (each window's answer mapped back to the
board, averaged over the windows that reach the point), beside the board now;
with ``--json`` it is the ``end_state`` rows.

``--picture`` draws the board as the original pipeline's figures do: every stone of every
block coloured by the network's belief that its block survives when the
opponent moves first (green safe, red dead), PL's best move ringed; with
``--end-state``, what the network expects to change by the end: a square in
a colour on each point that colour holds at the end but not now, a cross on
each stone gone.  With
several files, each picture is named ``<picture stem>-<file stem>.<ext>``.  A
picture that exists already is refused before any evaluation, unless ``--force``;
missing folders on its way are created.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path

import numpy as np

from pipeline.errors import CommandError
from pipeline.formats.records import END_STATE_CLASSES, WINDOW
from pipeline.paths import check_output_file
from solver.area import DEFAULT_MAX_AREA
from solver.board import BLACK, EMPTY, WHITE

HALF = WINDOW // 2


def register(commands) -> None:
    parser = commands.add_parser("eval", help="the packed network's verdict and moves on SGF files")
    parser.add_argument("files", nargs="+", metavar="FILE.sgf")
    parser.add_argument("--model", help="packed network (.tsq, tsumego quantize) or a model folder (its "
                                        "model-5bit.tsq); default: the shipped network, "
                                        "model/networks/conv-books")
    parser.add_argument("--top", type=int, default=3, help="how many moves to print")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--picture", help="draw each board to this .png or .svg (with several files, "
                                          "one picture each, named after the file)")
    parser.add_argument("--force", action="store_true", help="let --picture overwrite existing files")
    parser.add_argument("--symmetries", action=argparse.BooleanOptionalAction, default=True,
                        help="average P(safe) over the 8 symmetries of each window (8 times the work; "
                             "right more often on problems the network never saw); default: on")
    parser.add_argument("--end-state", action="store_true",
                        help="also print (and with --picture draw) each point's most likely owner at the "
                             "end of the principal variation (a network with the end-state head)")
    parser.add_argument("--max-area", type=int, default=DEFAULT_MAX_AREA,
                        help="reject positions whose search area has more empty points, as solve does")
    parser.set_defaults(run=run)


@dataclasses.dataclass
class Verdict:
    """The network's answer for one position."""

    safe: float                               # P(target safe), PL moving first
    stone_safe: list[float]                   # per target stone, row-major
    moves: list[tuple[tuple[int, int], float]]  # ((x, y), probability), best first
    # EMPTY/BLACK/WHITE [y, x]: each point's most likely owner at the end, -1 where no
    # window reaches; None unless asked of a network with the end-state head
    end_state: np.ndarray | None = None


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
    """The board now and the end state side by side, SGF letters on the edges: ``X`` black,
    ``O`` white, ``.`` empty, ``?`` a point no window reaches; the target lower case, now."""
    glyph = END_STATE_GLYPHS
    size = sub.stones.shape[0]
    letters = "".join(chr(ord("a") + i) for i in range(size))
    tx, ty = sub.target
    lines = ["  " + "now".ljust(size + 2) + "end", "  " + letters + "  " + letters]
    for y, end in enumerate(end_state_rows(owners)):
        now = [glyph[int(v)] for v in sub.stones[y]]
        if y == ty:
            now[tx] = now[tx].lower()
        lines.append(f"{letters[y]} " + "".join(now) + "  " + end)
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
    from model.shipped import packed_file
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
    args.model = packed_file(args.model)
    try:
        net = NumpyNet.load(args.model)
    except (OSError, ValueError) as exc:
        raise CommandError(f"{args.model}: cannot load the network ({exc})") from exc
    try:
        plane_indices(plane_names(), net.planes)
    except ValueError as exc:
        raise CommandError(f"{args.model}: cannot feed the network: {exc}; "
                           "retrain it on fresh features") from exc
    if args.end_state and not net.end_state:
        raise CommandError(f"{args.model}: the network has no end-state head (trained with "
                           "--end-state-weight 0, on records without end states, or before the head)")
    failed = 0
    for path in args.files:
        try:
            sub = load_subproblem(path)
            # The network only knows enclosed positions: what solve refuses is refused here, in its words.
            search_area(sub.problem(path), args.max_area)
            verdict = evaluate_position(net, sub, args.top, args.symmetries, args.end_state)
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
                              "moves": moves,
                              **({"end_state": end_state_rows(verdict.end_state)}
                                 if args.end_state else {})}), flush=True)
        else:
            label = "" if sub.safe is None else f" (label TS[{int(sub.safe)}])"
            listed = ", ".join(f"{point} {p:.3f}" for point, p in moves) or "-"
            print(f"{path}: {color_letter(sub.to_play)} to play, P(target {sgf_point(*sub.target)} "
                  f"safe) = {verdict.safe:.3f}{label}; moves: {listed}", flush=True)
            if args.end_state:
                print("each point's most likely owner at the end of the principal variation "
                      "(X black, O white, . empty, ? out of every window):",
                      *end_state_text(sub, verdict.end_state), sep="\n", flush=True)
        if args.picture:
            picture = picture_path(args.picture, path, len(args.files))
            os.makedirs(os.path.dirname(os.path.abspath(picture)), exist_ok=True)
            draw_board(sub, stone_safety(net, sub), verdict.moves[:1], picture,
                       title=f"{Path(path).name}: {color_letter(sub.to_play)} to play",
                       end_state=verdict.end_state)
    return 1 if failed else 0


def picture_path(picture: str, sgf_path: str, files: int) -> str:
    if files == 1:
        return picture
    stem, ext = os.path.splitext(picture)
    return f"{stem}-{Path(sgf_path).stem}{ext}"


def draw_board(sub, safety: np.ndarray, moves, path: str, title: str, end_state: np.ndarray | None = None) -> None:
    """The board, each stone filled by its safety (red 0 → green 1, in percent), its colour as
    the rim; the target squared, ``moves`` ringed in blue.  With ``end_state`` (the owners of
    :func:`end_state_owners`), a square in the owner's colour on each point a colour holds at
    the end where it does not now, and a grey cross on each stone gone at the end."""
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
    if end_state is not None:
        # only the changes: where the board at the end differs from the board now
        for y, x in zip(*np.nonzero((end_state >= 0) & (end_state != sub.stones))):
            owner = int(end_state[y, x])
            if owner == EMPTY:
                ax.plot([x - 0.25, x + 0.25], [y - 0.25, y + 0.25], color="dimgrey", lw=2, zorder=5)
                ax.plot([x - 0.25, x + 0.25], [y + 0.25, y - 0.25], color="dimgrey", lw=2, zorder=5)
            else:
                colour = "black" if owner == BLACK else "white"
                ax.add_patch(plt.Rectangle((x - 0.2, y - 0.2), 0.4, 0.4, facecolor=colour,
                                           edgecolor="dimgrey", lw=1, zorder=5))
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
