"""A folder of labelled positions scored by the network: the page's research view.

``--data DIR`` names either a features folder (``features.json`` beside the
shards: its test split is scored, as ``tsumego report`` scores it, and its
positions are looked up in ``solve-all/subproblems`` beside it, as ``make``
lays the folders out) or a folder of subproblem files (``TS`` and ``AS``
labelled, as ``solve-all`` writes them: each is cut into its windows as the
features stage cuts it and scored).  Either way the answers go through
:func:`model.predictions.predict_records` and the table by size is
:func:`model.report_stats.size_rows`, the report's own, with its 95% intervals.

Only the files found below the folders given at start are ever opened: a
position is asked for by its file name, looked up in that list.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from model.predictions import SplitPredictions, predict_records, predict_split
from pipeline.errors import CommandError
from pipeline.formats.records import SPEC_FILE, plane_indices
from pipeline.formats.subproblem import load_subproblem
from pipeline.planes import plane_names
from pipeline.planes.windows import labelled_windows
from solver import ProblemError
from solver.coordinates import go_point
from model.serve.boards import NotThere

# A size's list shows at most this many positions, worst first: enough to read the
# mistakes of a size, and a page that stays light on a folder of thousands.
LISTED = 300


@dataclass
class Research:
    folder: Path
    predictions: SplitPredictions
    by_size: list[dict]          # model.report_stats.size_rows
    files: dict[str, Path]       # subproblem file name -> the file, below the folders given
    bits: int
    subproblems: Path            # where the subproblem files were looked for


def subproblem_records(paths: list[Path], net, say=print):
    """Records as :func:`model.dataset.whole_records` yields them, made from subproblem files as
    the features stage makes them (the network's planes only); a file that cannot be read or
    lacks ``TS`` or ``AS`` is left out, and the count of those said."""
    wanted = plane_indices(plane_names(), net.planes)
    left_out = 0
    for path in paths:
        try:
            sub = load_subproblem(path)
        except ProblemError:
            left_out += 1
            continue
        if sub.safe is None or sub.available_moves is None:
            left_out += 1
            continue
        windows, moves, end_states = labelled_windows(sub)
        yield {"planes": windows[..., wanted], "safe": int(sub.safe), "available_moves": sub.available_moves,
               "move": np.array(moves), "problem": sub.source.encode(), "subproblem": path.name.encode(),
               "defender_first": int(sub.defender_first),
               "end_state": np.zeros(0, np.uint8) if end_states is None else end_states}
    if left_out:
        say(f"{left_out} files left out: unreadable, or without TS[] and AS[] labels")


def sgf_files(folder: Path) -> dict[str, Path]:
    return {path.name: path for path in sorted(folder.rglob("*.sgf")) if path.is_file()}


def load_research(folder: str, net, bits: int) -> Research:
    """Score the positions of ``folder`` (see the module's words); CommandError if there are none."""
    from model.report_stats import size_rows

    root = Path(folder).resolve()
    if not root.is_dir():
        raise CommandError(f"--data {folder}: not a folder", code=2)
    nets = {"packed": net}
    say = lambda line: print(f"--data {folder}: {line}", file=sys.stderr, flush=True)
    if (root / SPEC_FILE).is_file():
        subproblems = root.parent / "solve-all" / "subproblems"
        files = sgf_files(subproblems) if subproblems.is_dir() else {}
        try:
            predictions = predict_split(str(root), "test", nets)
        except (OSError, ValueError) as exc:
            raise CommandError(f"--data {folder}: cannot evaluate the test split ({exc})") from exc
        if not files:
            say(f"no subproblem files in {subproblems}: positions are listed, not shown")
    else:
        subproblems = root
        files = sgf_files(root)
        predictions = predict_records(subproblem_records(list(files.values()), net, say), nets,
                                      desc="evaluating the subproblems")
    if predictions.safe.size == 0:
        raise CommandError(f"--data {folder}: no labelled positions (subproblem files with TS[] and AS[], "
                           "or a features folder with a test split)", code=2)
    return Research(root, predictions, size_rows(predictions, bits), files, bits, subproblems)


def listed_positions(research: Research, size: str) -> dict:
    """The positions of one size (``all``: every size), worst first: the farthest P(safe) from
    the label leads; at most ``LISTED``."""
    predictions = research.predictions
    if size == "all":
        chosen = np.arange(predictions.safe.size)
    elif size.isdigit():
        chosen = np.nonzero(predictions.available_moves == int(size))[0]
    else:
        raise NotThere(f"size {size!r}: not a size of the table")
    if not chosen.size:
        raise NotThere(f"size {size}: no position of that size in {research.folder}")
    probability = predictions.probability["packed"]
    miss = np.abs(probability[chosen] - predictions.safe[chosen])
    order = chosen[np.argsort(-miss, kind="stable")][:LISTED]
    return {"size": size, "count": int(chosen.size), "listed": int(order.size),
            "positions": [{"name": str(predictions.subproblem[i]), "problem": str(predictions.problem[i]),
                           "label": "safe" if predictions.safe[i] else "unsafe",
                           "p_safe": round(float(probability[i]), 4),
                           "right": bool((probability[i] >= 0.5) == (predictions.safe[i] == 1)),
                           "shown": str(predictions.subproblem[i]) in research.files}
                          for i in order]}


def position_view(research: Research, net, name: str, window: int = 0) -> dict:
    """One position as the page shows it: the board, its label, P(safe) on every block, the move
    head's choice and ``TR``, the end-state head's map (a network with that head), and the
    feature planes of window ``window`` (one per stone of the target block)."""
    from model.answer_words import question
    from model.evaluate import end_state_rows, evaluate_position, target_block
    from model.serve.boards import halo, stone_rows

    path = research.files.get(name)
    if path is None:
        if name in research.predictions.subproblem:
            raise NotThere(f"{name}: scored, but its subproblem file is not in {research.subproblems}")
        raise NotThere(f"{name}: not a position of the data folder")
    sub = load_subproblem(path)
    verdict = evaluate_position(net, sub, top=3, end_state=net.end_state)
    windows, _, _ = labelled_windows(sub)
    windows = windows[..., plane_indices(plane_names(), net.planes)]
    if not 0 <= window < len(windows):
        raise NotThere(f"window {window}: the target block has {len(windows)} stones, windows 0 to "
                          f"{len(windows) - 1}")
    ys, xs = np.nonzero(target_block(sub))
    size = sub.size
    return {
        "name": name, "problem": sub.source, "size": size, "stones": stone_rows(sub.stones),
        "to_play": "B" if sub.to_play == 1 else "W", "target": go_point(*sub.target, size),
        "question": question(sub), "label": None if sub.safe is None else ("safe" if sub.safe else "unsafe"),
        "available_moves": sub.available_moves, "p_safe": round(verdict.safe, 4),
        "halo": halo(net, sub.stones, sub.to_play),
        "moves": [{"move": go_point(*point, size), "p": round(p, 3)} for point, p in verdict.moves],
        "best_move": None if sub.best_move is None else go_point(*sub.best_move, size),
        "end_state": None if verdict.end_state is None else end_state_rows(verdict.end_state),
        "windows": len(windows), "window": window,
        "window_centre": go_point(int(xs[window]), int(ys[window]), size),
        "window_xy": [int(xs[window]), int(ys[window])],
        "planes": [{"name": plane, "cells": windows[window, :, :, k].tolist()}
                   for k, plane in enumerate(net.planes)],
    }
