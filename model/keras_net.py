"""The float network evaluated by Keras, behind the numpy evaluator's interface.

Cross-validation scores hundreds of thousands of records a fold with the
float network it has just trained.  For a conv network the numpy evaluator
is the slower way to do that: TensorFlow's convolutions ran about twice as
many boards a second at batch 1024 (``bench/model_bench.py``; measured:
RESULTS.md, "Conv evaluators: numpy against Keras").  The answers are the same to float32
rounding (``tests/test_model.py``).
"""
from __future__ import annotations

import numpy as np

from model.numpy_net import SafetyEvaluator
from pipeline.formats.records import END_STATE_CLASSES

# Boards a call: large enough for TensorFlow's kernels to use both cores.
BATCH = 2048


class KerasNet(SafetyEvaluator):
    """A Keras model of ``model.network`` that reads ``planes`` (in that order)."""

    def __init__(self, model, planes: list[str]):
        self.model = model
        self.planes = list(planes)
        self.end_state = "end_state" in model.output_names

    def evaluate_all(self, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        boards = np.asarray(boards, dtype=np.float32)
        if boards.ndim == 3:
            boards = boards[None]
        safe, move, end_state = [], [], []
        for start in range(0, len(boards), BATCH):
            outputs = self.model(boards[start:start + BATCH], training=False)
            safe.append(np.asarray(outputs["safe"])[:, 0])
            move.append(np.asarray(outputs["move"]))
            if self.end_state:
                end_state.append(np.asarray(outputs["end_state"]))
        points = boards.shape[1] * boards.shape[2]
        if not safe:
            return (np.zeros(0, np.float32), np.zeros((0, points), np.float32),
                    np.zeros((0, points, END_STATE_CLASSES), np.float32) if self.end_state else None)
        return (np.concatenate(safe), np.concatenate(move),
                np.concatenate(end_state) if self.end_state else None)
