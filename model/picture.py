"""``tsumego eval --picture``: the board as a Go player reads it, with the network's
belief around every stone (:func:`draw_board`), titled with the answer.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from model.answer_words import leaning, other_side_answer, proved_words, question
from model.evaluate import COLOUR_NAME, Answer, target_block
from solver.board import BLACK, EMPTY
from solver.coordinates import GO_COLUMNS


def picture_title(answer: Answer) -> list[str]:
    """The picture's title lines: the file, the question, the network's and the solver's answers
    (the solver's in ``tsumego solve``'s words, a line at each ``; ``)."""
    lines = [Path(answer.path).name, question(answer.sub),
             f"network: P(safe) = {answer.verdict.safe:.2f}, {leaning(answer)}; {other_side_answer(answer)}"]
    proof = answer.proof
    if proof is not None:
        if proof.verdict.status == "unknown":
            lines.append("solver: unknown, out of nodes")
        else:
            words = proved_words(answer).replace(": in this frame, ", "; in this frame, ").split("; ")
            lines.extend([f"solver: {words[0]}", *words[1:]])
    return lines

# Star points (hoshi) as Go boards print them, by board size: the lines they stand on;
# on 9×9 and 13×13 only the four corner ones and the centre.
STAR_LINES = {9: (2, 4, 6), 13: (3, 6, 9), 19: (3, 9, 15)}

TARGET_MARK = "#1565ff"        # blue: apart from the halos' red-to-green

FRAMED_MARK = "#8c8c8c"        # grey on either colour of stone: the frame's, not the game's

SAFETY_COLOURS = "RdYlGn"      # red dead, yellow unsure, green safe

def draw_board(sub, safety: np.ndarray, moves, path: str, title: list[str],
               end_state: np.ndarray | None = None, framed=()) -> None:
    """The board as a Go player reads it: the stones, Go coordinates on the four sides, a halo
    around every stone coloured by ``safety`` (one value a block, :func:`stone_safety`; red 0
    to green 1, the colorbar says what it is), a blue square on each stone of the target
    block, ``moves`` numbered 1, 2, ... on translucent stones of PL's colour, and ``title``
    (lines) above.  With ``end_state`` (the owners of :func:`end_state_owners`), a square
    in the owner's colour on each point a colour holds at the end where it does not now,
    and a grey cross on each stone gone at the end.  ``framed``: the points of the stones a
    frame added, which the game does not have, each marked with a grey triangle.  Only the
    part of the board around the stones is shown (:func:`view_box`)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    box = view_box(sub.stones, moves)
    width, height = box[1] - box[0] + 1, box[3] - box[2] + 1
    # An SVG keeps its words as text, which a reader can select and search.
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig, ax = plt.subplots(figsize=(0.45 * max(width, 7) + 1, 0.45 * height + 0.25 * len(title) + 1.6))
        draw_grid(ax, sub.stones.shape[0], box)
        draw_stones(ax, sub.stones, safety)
        mark_target(ax, sub)
        number_moves(ax, moves, sub.to_play)
        if end_state is not None:
            mark_end_state(ax, sub.stones, end_state)
        mark_framed(ax, framed)
        ax.set_title("\n".join(title), fontsize=8, pad=16)
        add_legend(fig, ax, moves, sub.to_play, end_state is not None, bool(framed))
        fig.savefig(path, dpi=150, bbox_inches="tight",
                    metadata={"Date": None} if path.endswith(".svg") else None)
        plt.close(fig)

def mark_framed(ax, points) -> None:
    """A grey triangle on each stone a frame added: unlike the game's stones, an assumption."""
    for x, y in points:
        ax.plot(x, y, marker="^", markersize=7, color=FRAMED_MARK, zorder=5)

def add_legend(fig, ax, moves, to_play: int, end_state: bool, framed: bool = False) -> None:
    """The halos' colorbar, saying what they are, and under it what the marks are."""
    import matplotlib

    colours = matplotlib.cm.ScalarMappable(matplotlib.colors.Normalize(0, 1), SAFETY_COLOURS)
    colorbar = fig.colorbar(colours, ax=ax, orientation="horizontal", fraction=0.05, pad=0.08, aspect=25)
    colorbar.set_label(f"halo: P(block survives if {COLOUR_NAME[to_play]} plays first)", fontsize=7)
    colorbar.ax.tick_params(labelsize=6)
    legend = "blue squares: the target group"
    if moves:
        legend += f"; 1-{len(moves)}: {COLOUR_NAME[to_play]}'s likely moves (network)"
    if end_state:
        legend += "\nsmall squares: who holds the point at the end; crosses: stones gone (network)"
    if framed:
        legend += "\ngrey triangles: stones the frame added, which the game does not have"
    colorbar.ax.text(0.5, -3.2, legend, transform=colorbar.ax.transAxes, ha="center", va="top", fontsize=7)

# How many lines the picture shows around the stones and moves: enough to see the
# shape's surroundings, as a problem book's diagram does.
VIEW_MARGIN = 2

def view_box(stones: np.ndarray, moves) -> tuple[int, int, int, int]:
    """``(x0, x1, y0, y1)``: the part of the board the picture shows, inclusive; the stones'
    and moves' bounding box and ``VIEW_MARGIN`` lines around, within the board."""
    size = stones.shape[0]
    ys, xs = np.nonzero(stones)
    xs = [*xs.tolist(), *(x for (x, _), _ in moves)]
    ys = [*ys.tolist(), *(y for (_, y), _ in moves)]
    if not xs:
        return 0, size - 1, 0, size - 1
    return (max(min(xs) - VIEW_MARGIN, 0), min(max(xs) + VIEW_MARGIN, size - 1),
            max(min(ys) - VIEW_MARGIN, 0), min(max(ys) + VIEW_MARGIN, size - 1))

def draw_grid(ax, size: int, box: tuple[int, int, int, int]) -> None:
    """The wooden board, its lines and star points, and Go coordinates on all four sides, as
    far as ``box`` (:func:`view_box`): lines cut at its sides where the board goes on."""
    x0, x1, y0, y1 = box
    ax.set_facecolor("#dcb35c")
    for i in range(size):
        ax.plot([0, size - 1], [i, i], color="k", lw=0.7, zorder=1)
        ax.plot([i, i], [0, size - 1], color="k", lw=0.7, zorder=1)
    for x, y in star_points(size):
        ax.plot(x, y, "o", color="k", markersize=3, zorder=1)
    # half a line of wood past the board's edge; the lines run on past a cut side
    ax.set_xlim(x0 - (0.7 if x0 == 0 else 0.5), x1 + (0.7 if x1 == size - 1 else 0.5))
    ax.set_ylim(y1 + (0.7 if y1 == size - 1 else 0.5), y0 - (0.7 if y0 == 0 else 0.5))   # row 0 at the top
    ax.set_xticks(range(x0, x1 + 1), list(GO_COLUMNS[x0:x1 + 1]))
    ax.set_yticks(range(y0, y1 + 1), [str(size - y) for y in range(y0, y1 + 1)])
    ax.tick_params(length=0, labelsize=7, top=True, labeltop=True, right=True, labelright=True)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_aspect("equal")

def star_points(size: int) -> list[tuple[int, int]]:
    lines = STAR_LINES.get(size, ())
    points = [(x, y) for x in lines for y in lines]
    return points if size == 19 else [(x, y) for x, y in points if (x == y) or (x + y == size - 1)]

def draw_stones(ax, stones: np.ndarray, safety: np.ndarray) -> None:
    """Black and white stones, each in a halo of its block's safety colour."""
    import matplotlib
    import matplotlib.pyplot as plt

    cmap = matplotlib.colormaps[SAFETY_COLOURS]
    for y, x in zip(*np.nonzero(stones)):
        ax.add_patch(plt.Circle((x, y), 0.5, facecolor=cmap(safety[y, x]), edgecolor="none", zorder=2))
        black = stones[y, x] == BLACK
        ax.add_patch(plt.Circle((x, y), 0.36, facecolor="black" if black else "white",
                                edgecolor="black" if black else "#333333", lw=1, zorder=3))

def mark_target(ax, sub) -> None:
    """A blue square on each stone of the target block, rimmed in white on black stones."""
    import matplotlib.pyplot as plt

    for y, x in zip(*np.nonzero(target_block(sub))):
        ax.add_patch(plt.Rectangle((x - 0.14, y - 0.14), 0.28, 0.28, facecolor=TARGET_MARK,
                                   edgecolor="white" if sub.stones[y, x] == BLACK else "none", lw=0.8, zorder=4))

def number_moves(ax, moves, to_play: int) -> None:
    """The moves, best first, as numbered translucent stones of the colour to play."""
    import matplotlib.pyplot as plt
    from matplotlib import patheffects

    black = to_play == BLACK
    # the number outlined in the other colour, legible on an end-state square too
    outline = [patheffects.withStroke(linewidth=2, foreground="black" if black else "white")]
    for number, ((x, y), _) in enumerate(moves, start=1):
        ax.add_patch(plt.Circle((x, y), 0.4, facecolor="black" if black else "white", alpha=0.55,
                                edgecolor="black", lw=1, ls="--", zorder=4))
        ax.text(x, y, str(number), ha="center", va="center", fontsize=8, fontweight="bold",
                color="white" if black else "black", path_effects=outline, zorder=7)

def mark_end_state(ax, stones: np.ndarray, end_state: np.ndarray) -> None:
    """Only the changes: where the board at the end differs from the board now."""
    import matplotlib.pyplot as plt

    for y, x in zip(*np.nonzero((end_state >= 0) & (end_state != stones))):
        owner = int(end_state[y, x])
        if owner == EMPTY:
            ax.plot([x - 0.25, x + 0.25], [y - 0.25, y + 0.25], color="dimgrey", lw=2, zorder=6)
            ax.plot([x - 0.25, x + 0.25], [y + 0.25, y - 0.25], color="dimgrey", lw=2, zorder=6)
        else:
            ax.add_patch(plt.Rectangle((x - 0.2, y - 0.2), 0.4, 0.4, facecolor="black" if owner == BLACK else "white",
                                       edgecolor="dimgrey", lw=1, zorder=6))
