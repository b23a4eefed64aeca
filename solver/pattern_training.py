"""Fit the move order's pattern weights (:mod:`solver.patterns`) on searches of enclosed problems.

    python -m solver.pattern_training ENCLOSED_DIR --out solver/move_patterns.npz \\
        [--problems N] [--areas 8-17] [--max-nodes 300000] [--exclude JSONL...] [--workers 2]

``ENCLOSED_DIR`` is an ``enclose`` output (its ``enclose.jsonl`` and problem files).
Problems are drawn (``--seed``; all of them by default) from those enclosed with
an area in ``--areas``, only from the *training half* of the collection
(:func:`training_half`, by the problem's name), so that measurements can use the
other half, and never from the problems named in the ``--exclude`` files (the
benchmark draws).  Each is solved
by DFS with each side first, in the liberty heuristic's order, recording a
sample of the nodes it cuts (:func:`solver.movegen.record_cut`).  Labels: the
move that won a cut node wins, the moves tried before it lose, and a move not
tried gets the result its position has in the table when the solve ends, if
that result is exact (otherwise it is left out).  The weights are those of a
logistic regression of "the move wins" on the move's neighbourhood class and
its effects, fitted by Adam with a small L2 penalty; a tenth of the problems is
held out to report the log-loss and how often the top-scored move wins, against
the liberty heuristic, on the nodes where some moves win and some lose.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from numba import njit

from .movegen import R_CHILD, R_CODE, R_COLOR, R_KO_MASTER, R_LOST, R_NODE, R_OUTCOME, R_WON, RECORD_ROWS
from .patterns import (CAPTURED_LEVELS, CROSS_OFFSET, CROSS_SIZE, OWN_LIBS_LEVELS, TARGET_LIBS_LEVELS,
                       MovePatterns, code_fields, cross_index, pattern_classes)
from .problem import ProblemError, load_problem
from .solver import Solver
from .table import node_key, table_slot

RECORD_ROWS_PER_SOLVE = 6_000_000
NODE_STRIDE = 1 << 32    # node numbers of one solve stay below this


def training_half(problem: str) -> bool:
    """Whether a problem (``collection/number``) is in the half the weights may be fitted on."""
    return zlib.crc32(problem.encode()) % 2 == 0


@njit(cache=True)
def table_outcomes(keys, values, children, colors, kms):
    """For each recorded move: 1 if its position is an exact win for the mover in the
    table, 0 an exact loss, -1 unknown."""
    out = np.full(children.size, -1, np.int64)
    for i in range(children.size):
        key = node_key(np.uint64(children[i]), 3 - colors[i], kms[i])
        j = table_slot(keys, key)
        if j >= 0 and keys[j] == key:
            entry = values[j, 0]
            if entry & 1:
                out[i] = 1 if ((entry >> 1) & 3) == colors[i] else 0
    return out


def labelled_moves(solver: Solver) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(node numbers, codes, labels) of the moves a DFS solve recorded, unknown ones left out."""
    rows = solver.record[:solver.record_count[RECORD_ROWS]]
    table = solver.tables["dfs"]
    known = table_outcomes(table.keys, table.values, np.ascontiguousarray(rows[:, R_CHILD]).view(np.uint64),
                            np.ascontiguousarray(rows[:, R_COLOR]), np.ascontiguousarray(rows[:, R_KO_MASTER]))
    outcome = rows[:, R_OUTCOME]
    labels = np.where(outcome == R_WON, 1, np.where(outcome == R_LOST, 0, known))
    keep = labels >= 0
    return rows[keep, R_NODE], rows[keep, R_CODE], labels[keep]


def _solve_and_record(job):
    index, path, max_nodes = job
    try:
        problem = load_problem(path, require_to_play=True)
    except ProblemError as error:
        return index, None, str(error)
    parts = []
    for side_index, side in enumerate((problem.to_play, 3 - problem.to_play)):
        # the liberty heuristic's order, so that the data do not depend on earlier weights
        solver = Solver(problem, move_patterns=False, record_rows=RECORD_ROWS_PER_SOLVE)
        solver.solve(side, max_nodes=max_nodes)
        nodes, codes, labels = labelled_moves(solver)
        parts.append(np.stack([nodes + (2 * index + side_index) * NODE_STRIDE, codes, labels], 1))
    return index, np.concatenate(parts), None


def collect(paths: list[str], max_nodes: int, workers: int, log=print) -> np.ndarray:
    """Rows (node, code, label) over the problems' solves, node numbers unique across them."""
    jobs = [(i, path, max_nodes) for i, path in enumerate(paths)]
    parts, done = [], 0
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for index, rows, error in pool.map(_solve_and_record, jobs, chunksize=4):
            done += 1
            if error is not None:
                log(f"{paths[index]}: left out: {error}")
                continue
            parts.append(rows)
            if done % 100 == 0:
                log(f"{done}/{len(paths)} problems solved, {sum(len(p) for p in parts):,} moves labelled")
    return np.concatenate(parts) if parts else np.zeros((0, 3), dtype=np.int64)


def _features(codes: np.ndarray):
    """Each code's two weight indices in the fitted vector (neighbourhood class, then its
    effects, laid out as the move order's table lays them out: patterns.cross_index), the
    vector's size and the classes' count."""
    fields = code_fields(codes)
    classes, count = pattern_classes()
    pattern = classes[fields["pattern"]] + fields["role"] * count
    # the compiled kernel's own Python body, run on the whole array
    cross = cross_index.py_func(np.asarray(codes, dtype=np.int64)) - CROSS_OFFSET + 2 * count
    return pattern, cross, 2 * count + CROSS_SIZE, count


def heuristic_scores(codes: np.ndarray) -> np.ndarray:
    """The liberty heuristic's score of each code (solver.movegen without the patterns, whose
    formula this repeats on arrays; the same wherever the target keeps under 7 liberties, the
    code counting them up to 7 where the move generation counts up to 8)."""
    fields = code_fields(codes)
    squash = lambda x: x / (1.0 + np.abs(x))
    direction = np.where(fields["role"] == 1, 1.0, -1.0)
    return (0.5 * squash(fields["captured"]) + 0.25 * squash(direction * fields["target_libs"])
            + 0.125 * squash(fields["own_libs"] + 1.0 - 2.0))


def top_move_wins(scores, labels, starts, segment, nodes_mask) -> float:
    """How often a node's top-scored move wins (ties shared), over the nodes in the mask."""
    best = np.maximum.reduceat(scores, starts)
    top = scores >= best[segment]
    share = np.add.reduceat(top * labels, starts) / np.add.reduceat(top * 1.0, starts)
    return float(share[nodes_mask].mean()) if nodes_mask.any() else float("nan")


def fit(rows: np.ndarray, l2: float = 1e-5, iterations: int = 400) -> tuple[MovePatterns, dict]:
    """Fit the weights on rows (node, code, label); returns them and the held-out figures."""
    rows = rows[np.argsort(rows[:, 0], kind="stable")]
    fields = code_fields(rows[:, 1])
    # a move that captures the target comes first whatever its weight
    rows = rows[fields["captures_target"] == 0]
    if len(rows) == 0:
        raise ValueError("no labelled moves to fit the weights on")
    nodes, codes, labels = rows[:, 0], rows[:, 1], rows[:, 2].astype(np.float64)
    starts = np.flatnonzero(np.r_[True, nodes[1:] != nodes[:-1]])
    sizes = np.diff(np.r_[starts, len(nodes)])
    segment = np.repeat(np.arange(len(starts)), sizes)
    wins = np.add.reduceat(labels, starts)
    mixed = (wins > 0) & (wins < sizes)
    problem = nodes // (2 * NODE_STRIDE)
    held_out = (problem % 10) == 0
    held_out_nodes = held_out[starts]
    pattern, cross, size, count = _features(codes)
    weights = np.zeros(size)
    bias = 0.0
    first, second = np.zeros(size), np.zeros(size)
    train = ~held_out
    n_train = max(1, int(train.sum()))
    for step in range(1, iterations + 1):
        scores = weights[pattern] + weights[cross] + bias
        p = 1.0 / (1.0 + np.exp(-scores))
        error = (p - labels) * train
        grad = (np.bincount(pattern, error, size) + np.bincount(cross, error, size)) / n_train + l2 * weights
        bias -= 0.5 * error.sum() / n_train
        first = 0.9 * first + 0.1 * grad
        second = 0.999 * second + 0.001 * grad ** 2
        weights -= 0.05 * (first / (1 - 0.9 ** step)) / (np.sqrt(second / (1 - 0.999 ** step)) + 1e-8)
    scores = weights[pattern] + weights[cross]
    p = 1.0 / (1.0 + np.exp(-(scores + bias)))
    loss = -(labels * np.log(p + 1e-12) + (1 - labels) * np.log(1 - p + 1e-12))
    figures = {
        "moves": int(len(nodes)), "nodes": int(len(starts)), "mixed_nodes": int(mixed.sum()),
        "held_out_mixed_nodes": int((mixed & held_out_nodes).sum()),
        "log_loss_train": float(loss[train].mean()), "log_loss_held_out": float(loss[held_out].mean()),
        "top_wins_held_out": top_move_wins(scores, labels, starts, segment, mixed & held_out_nodes),
        "top_wins_heuristic_held_out": top_move_wins(heuristic_scores(codes), labels, starts, segment,
                                                     mixed & held_out_nodes),
        "top_wins_random_held_out": float((wins / sizes)[mixed & held_out_nodes].mean()),
    }
    patterns = MovePatterns(weights[:2 * count].reshape(2, count),
                            weights[2 * count:].reshape(2, CAPTURED_LEVELS, TARGET_LIBS_LEVELS, OWN_LIBS_LEVELS))
    return patterns, figures


def excluded_problems(files: list[str]) -> set[str]:
    """Problem names (``collection/number``) named in JSONL files by ``problem`` or ``file``."""
    names = set()
    for name in files:
        for line in Path(name).read_text().splitlines():
            if line.strip():
                entry = json.loads(line)
                for key in ("problem", "file"):
                    if key in entry:
                        parts = Path(entry[key]).with_suffix("").parts
                        names.add("/".join(parts[-2:]))
    return names


def enclosed_names(enclosed: Path, areas: tuple[int, int], training: bool = True) -> list[str]:
    """The problems (``collection/number``, sorted) an ``enclose`` output enclosed with an area
    in ``areas``, of the training half, or with ``training`` False of the other half."""
    entries = [json.loads(line) for line in (enclosed / "enclose.jsonl").read_text().splitlines() if line.strip()]
    return sorted(e["problem"] for e in entries
                  if e["outcome"] == "enclosed" and areas[0] <= e["area"] <= areas[1]
                  and training_half(e["problem"]) == training)


def chosen_problems(enclosed: Path, count: int, areas: tuple[int, int], exclude: set[str], seed: int) -> list[str]:
    """The files of ``count`` problems of the training half drawn with ``seed`` (all for 0)."""
    names = [name for name in enclosed_names(enclosed, areas) if name not in exclude]
    if count <= 0 or count >= len(names):
        return [str(enclosed / f"{name}.sgf") for name in names]
    rng = np.random.default_rng(seed)
    picked = sorted(rng.choice(len(names), size=count, replace=False))
    return [str(enclosed / f"{names[i]}.sgf") for i in picked]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.pattern_training", description=__doc__.split("\n\n")[0])
    parser.add_argument("enclosed", type=Path, help="an enclose output folder (enclose.jsonl and problems)")
    parser.add_argument("--out", type=Path, required=True, help="the weights file to write (.npz)")
    parser.add_argument("--problems", type=int, default=0, help="problems drawn (default 0: all)")
    parser.add_argument("--areas", default="8-17", help="empty points of the problems drawn, LOW-HIGH")
    parser.add_argument("--max-nodes", type=int, default=300_000, help="node budget of each solve")
    parser.add_argument("--exclude", nargs="*", default=[], help="JSONL files naming problems never drawn")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--l2", type=float, default=1e-5)
    args = parser.parse_args(argv)
    low, high = (int(x) for x in args.areas.split("-"))
    started = time.perf_counter()
    paths = chosen_problems(args.enclosed, args.problems, (low, high), excluded_problems(args.exclude), args.seed)
    print(f"{len(paths)} problems drawn from {args.enclosed} ({low}-{high} empty points, training half)")
    rows = collect(paths, args.max_nodes, args.workers)
    print(f"{len(rows):,} labelled moves in {time.perf_counter() - started:.0f} s")
    try:
        patterns, figures = fit(rows, args.l2, args.iterations)
    except ValueError as exc:
        print(f"error: {args.enclosed}: {exc}", file=sys.stderr)
        return 1
    patterns.save(args.out)
    figures["problems"] = len(paths)
    figures["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(figures, indent=1))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
