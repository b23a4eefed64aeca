"""Run packed networks over one split of the records, for the tables.

The quantization table and the reports both need, for every test record, its
label, its size (``AS``) and move target next to the predictions of several
networks (float, 5-bit, ...).  Each record is read once, through the
evaluation view of ``model.dataset`` (the first window, no symmetry), and fed
to every network.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class SplitPredictions:
    """Labels and metadata of every record, and each network's outputs."""

    safe: np.ndarray              # 0/1 label, [N]
    available_moves: np.ndarray   # AS, [N]
    move: np.ndarray              # TR index in the window, [N] (meaningful where has_move)
    has_move: np.ndarray          # bool, [N]
    probability: dict[str, np.ndarray]   # network name -> P(safe), [N]
    best_move: dict[str, np.ndarray]     # network name -> argmax of the move head, [N]

    def errors(self, name: str) -> np.ndarray:
        """bool [N]: the network's thresholded answer differs from the label."""
        return (self.probability[name] >= 0.5) != (self.safe == 1)

    def wrong_moves(self, name: str) -> np.ndarray:
        """bool [N]: there is a ``TR`` in the window and the move head's top point is not it."""
        return self.has_move & (self.best_move[name] != self.move)


def predict_split(data_dir: str, split: str, nets: dict, batch_size: int = 1024) -> SplitPredictions:
    """Evaluate every ``NumpyNet`` of ``nets`` (all on the same planes) on ``split`` of ``data_dir``."""
    from tqdm import tqdm

    from model.dataset import make_dataset

    columns = {key: [] for key in ("safe", "available_moves", "move", "has_move")}
    probability = {name: [] for name in nets}
    best_move = {name: [] for name in nets}
    (planes,) = {tuple(net.planes) for net in nets.values()}
    dataset = make_dataset(data_dir, split, batch_size, augment=False, shuffle=False, meta=True,
                           planes=list(planes))
    for x, targets, meta in tqdm(dataset.as_numpy_iterator(), desc=f"evaluating {split}",
                                 unit="batch", leave=False):
        columns["safe"].append(targets["safe"][:, 0].astype(np.int64))
        columns["move"].append(targets["move"].astype(np.int64))
        columns["available_moves"].append(meta["available_moves"].astype(np.int64))
        columns["has_move"].append(meta["has_move"].astype(bool))
        for name, net in nets.items():
            safe, move = net.evaluate(x)
            probability[name].append(safe)
            best_move[name].append(move.argmax(axis=1))
    def joined(parts, dtype):
        return np.concatenate(parts) if parts else np.zeros(0, dtype)  # an empty split has no batch

    return SplitPredictions(
        safe=joined(columns["safe"], np.int64),
        available_moves=joined(columns["available_moves"], np.int64),
        move=joined(columns["move"], np.int64),
        has_move=joined(columns["has_move"], bool),
        probability={name: joined(parts, np.float32) for name, parts in probability.items()},
        best_move={name: joined(parts, np.int64) for name, parts in best_move.items()},
    )
