"""Run packed networks over one split of the records, for the tables.

The quantization table and the reports both need, for every test record, its
label, its size (``AS``) and move target next to the predictions of several
networks (float, 5-bit, ...); the report also its file name and ``DS``, to
pick out the problems' root positions, each side moving first.  Each record
is read once and every network sees all its windows, one per stone of the
target block: a record's P(safe) is the mean over its windows, which is what
``tsumego eval`` answers for a position; the move head is read on the first
window, whose ``TR`` index the record holds.  With ``symmetries``, each record's P(safe) is also averaged
over its windows under the 8 symmetries of the square (``symmetric``).  A
network with the end-state head is also scored on every window of the records
with an end state: how many of their points inside the board it gives the
right owner at the end (``end_state_correct`` out of ``end_state_points``).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

from pipeline.formats.records import END_OFF_BOARD


@dataclass
class SplitPredictions:
    """Labels and metadata of every record, and each network's outputs."""

    safe: np.ndarray              # 0/1 label, [N]
    available_moves: np.ndarray   # AS, [N]
    move: np.ndarray              # TR index in the first window, [N] (meaningful where has_move)
    has_move: np.ndarray          # bool, [N]
    problem: np.ndarray           # source problem id (GN), str [N]
    probability: dict[str, np.ndarray]   # network name -> P(safe), mean over the windows, [N]
    best_move: dict[str, np.ndarray]     # network name -> argmax of the first window's move head, [N]
    # network name -> P(safe), mean over the windows and their 8 symmetries, [N] (when asked)
    symmetric: dict[str, np.ndarray] = field(default_factory=dict)
    # points inside the board over the record's windows, where it has an end state (else 0), [N]
    end_state_points: np.ndarray | None = None
    # network name (those with the end-state head) -> of those points, how many it gives the
    # right class at the end (its most probable one), [N]
    end_state_correct: dict[str, np.ndarray] = field(default_factory=dict)
    # the subproblem's file name (its content hash), str [N]: how the report finds the roots
    subproblem: np.ndarray | None = None
    defender_first: np.ndarray | None = None   # DS, 0/1 [N]

    def end_state_accuracy(self, name: str, mask=None) -> float | None:
        """The share of points with an end state (of the records of ``mask``) whose final owner
        the network's end-state head gets right; None without the head or such points."""
        if name not in self.end_state_correct:
            return None
        mask = slice(None) if mask is None else mask
        points = int(self.end_state_points[mask].sum())
        return int(self.end_state_correct[name][mask].sum()) / points if points else None

    def errors(self, name: str, symmetric: bool = False) -> np.ndarray:
        """bool [N]: the network's thresholded answer differs from the label."""
        probability = (self.symmetric if symmetric else self.probability)[name]
        return (probability >= 0.5) != (self.safe == 1)

    def subset(self, keep: np.ndarray) -> "SplitPredictions":
        """The records where ``keep`` (bool [N]) is true, every field cut alike."""
        def cut(value):
            if isinstance(value, dict):
                return {name: array[keep] for name, array in value.items()}
            return None if value is None else value[keep]

        return SplitPredictions(**{f.name: cut(getattr(self, f.name)) for f in fields(self)})

    def wrong_moves(self, name: str) -> np.ndarray:
        """bool [N]: there is a ``TR`` in the window and the move head's top point is not it."""
        return self.has_move & (self.best_move[name] != self.move)


def predict_split(data_dir: str, split: str | tuple[str, ...], nets: dict, batch_windows: int = 4096,
                  symmetries: bool = False, problems: dict | None = None) -> SplitPredictions:
    """Evaluate every ``NumpyNet`` of ``nets`` (all on the same planes) on ``split`` of ``data_dir``
    (only on the records of ``problems``' keys when given)."""
    from model.dataset import whole_records

    (planes,) = {tuple(net.planes) for net in nets.values()}
    records = whole_records(data_dir, split, list(planes), problems)
    name = split if isinstance(split, str) else "+".join(split)
    return predict_records(records, nets, batch_windows, symmetries, desc=f"evaluating {name}")


def predict_records(records, nets: dict, batch_windows: int = 4096, symmetries: bool = False,
                    desc: str = "evaluating") -> SplitPredictions:
    """Evaluate every ``NumpyNet`` of ``nets`` on ``records``: dicts as
    :func:`model.dataset.whole_records` yields them (``planes`` holding the networks' planes,
    in their order), from the shards or made from subproblem files."""
    from pipeline.progress import progress_bar

    labels = {key: [] for key in ("safe", "available_moves", "move", "problem", "subproblem", "defender_first")}
    probability = {name: [] for name in nets}
    symmetric = {name: [] for name in nets} if symmetries else {}
    best_move = {name: [] for name in nets}
    end_state_correct = {name: [] for name, net in nets.items() if net.end_state}
    end_state_points: list[int] = []
    pending: list[np.ndarray] = []   # windows of the records not yet evaluated
    pending_end_states: list[np.ndarray] = []   # their end-state classes (END_OFF_BOARD: none)
    counts: list[int] = []           # how many windows each of those records has
    pending_windows = 0              # their sum

    def evaluate_pending():
        windows, sizes = np.concatenate(pending), np.array(counts)
        firsts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        labels_at_end = np.concatenate(pending_end_states).reshape(len(windows), -1)
        for name, net in nets.items():
            safe, move, end_state = net.evaluate_all(windows)
            probability[name].append(np.add.reduceat(safe, firsts) / sizes)
            best_move[name].append(move[firsts].argmax(axis=1))
            if end_state is not None:
                right = (end_state.argmax(axis=-1) == labels_at_end).sum(axis=1)
                end_state_correct[name].append(np.add.reduceat(right, firsts))
            if symmetries:
                turned = net.safe_over_symmetries(windows, safe)
                symmetric[name].append(np.add.reduceat(turned, firsts) / sizes)
        pending.clear()
        pending_end_states.clear()
        counts.clear()

    for record in progress_bar(records, desc=desc, unit="record", leave=False):
        labels["safe"].append(int(record["safe"]))
        labels["available_moves"].append(int(record["available_moves"]))
        labels["move"].append(int(record["move"][0]))
        labels["problem"].append(record["problem"].decode())
        labels["subproblem"].append(record["subproblem"].decode())
        labels["defender_first"].append(int(record["defender_first"]))
        pending.append(record["planes"])
        counts.append(len(record["planes"]))
        end_states = record["end_state"]
        if not len(end_states):   # no end state: no point is scored (no class equals END_OFF_BOARD)
            end_states = np.full(record["planes"].shape[:3], END_OFF_BOARD, np.uint8)
        pending_end_states.append(end_states)
        end_state_points.append(int(np.count_nonzero(end_states != END_OFF_BOARD)))
        pending_windows += counts[-1]
        if pending_windows >= batch_windows:
            evaluate_pending()
            pending_windows = 0
    if pending:
        evaluate_pending()

    def joined(parts, dtype):
        return np.concatenate(parts) if parts else np.zeros(0, dtype)  # an empty split has no batch

    move = np.array(labels["move"], dtype=np.int64)
    return SplitPredictions(
        safe=np.array(labels["safe"], dtype=np.int64),
        available_moves=np.array(labels["available_moves"], dtype=np.int64),
        move=move,
        has_move=move >= 0,
        problem=np.array(labels["problem"], dtype=str),
        probability={name: joined(parts, np.float32) for name, parts in probability.items()},
        best_move={name: joined(parts, np.int64) for name, parts in best_move.items()},
        symmetric={name: joined(parts, np.float32) for name, parts in symmetric.items()},
        end_state_points=np.array(end_state_points, dtype=np.int64),
        end_state_correct={name: joined(parts, np.int64) for name, parts in end_state_correct.items()},
        subproblem=np.array(labels["subproblem"], dtype=str),
        defender_first=np.array(labels["defender_first"], dtype=np.int64),
    )
