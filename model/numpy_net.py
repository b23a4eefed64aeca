"""The network evaluated with numpy alone, from a packed file.

This is the deployable form: no TensorFlow import, a few float32 matrix
products a batch.  It computes exactly what ``model.network`` computes (same
layer order, ReLU, skip connections, sigmoid and softmax readouts, and the
end-state head when the file has one), so on the same weights it agrees with
Keras to float32 rounding.
"""
from __future__ import annotations

import numpy as np

from model.network import end_state_layer, layer_names
from pipeline.formats.records import END_STATE_CLASSES
from model.packed import read_packed


def linear(x: np.ndarray, kernel: np.ndarray, bias) -> np.ndarray:
    """``x @ kernel + bias`` for a dense kernel ``[in, out]`` on ``[B, in]``; for a convolution
    kernel ``[k, k, in, out]`` on ``[B, H, W, in]``, Keras's "same" convolution (zero padding)."""
    if kernel.ndim == 2:
        return x @ kernel + bias
    size, _, planes, out_planes = kernel.shape
    if size == 1:
        return x @ kernel[0, 0] + bias
    batch, height, width, _ = x.shape
    pad = size // 2
    padded = np.zeros((batch, height + 2 * pad, width + 2 * pad, planes), dtype=np.float32)
    padded[:, pad:pad + height, pad:pad + width] = x
    # Keras's cross-correlation reads input (y + dy - pad, x + dx - pad) through kernel[dy, dx]:
    # one matrix product a tap, summed.  Twice as fast as one product over a k·k-times larger
    # copy of the input (im2col), which also needed the batch cut into chunks.
    out = np.zeros((batch, height, width, out_planes), dtype=np.float32)
    for dy in range(size):
        for dx in range(size):
            out += padded[:, dy:dy + height, dx:dx + width] @ kernel[dy, dx]
    return out + bias


def trace(layers: dict[str, tuple[np.ndarray, np.ndarray]], boards: np.ndarray,
          architecture: str, blocks: int, through=None, end_state: bool = False):
    """``(inputs, safe logit [B], move logits [B, 121], end-state logits [B, 121, 3] or None)``:
    ``inputs`` holds the input of every layer of ``layer_names(blocks, architecture, end_state)``,
    in that order, for boards ``[B, 11, 11, F]``.

    ``through(name, inputs)``, when given, computes each layer's output in place
    of ``layers`` (the bias correction fixes each layer on the output of the
    corrected layers before it so, in one pass).
    """
    relu = lambda v: np.maximum(v, 0)
    inputs = []

    def apply(name, x):
        inputs.append(x)
        return through(name, x) if through else linear(x, *layers[name])

    batch = boards.shape[0]
    x = boards.astype(np.float32, copy=False)
    if architecture == "dense":
        x = x.reshape(batch, -1)
    hidden = relu(apply("align", x))
    for i in range(blocks):
        inner = relu(apply(f"block{i}_a", hidden))
        hidden = relu(apply(f"block{i}_b", inner) + hidden)
    if architecture == "dense":
        # the safe and move readouts share the last hidden layer
        safe, move = apply("safe", hidden)[:, 0], apply("move", hidden)
    else:
        value = relu(apply("value_conv", hidden)).reshape(batch, -1)
        safe = apply("safe", relu(apply("value_dense", value)))[:, 0]
        move = apply("move_conv", hidden).reshape(batch, -1)
    points = None
    if end_state:
        # dense: unit point·3 + class; conv: the 3 planes of each point, row-major
        points = apply(end_state_layer(architecture), hidden).reshape(batch, -1, END_STATE_CLASSES)
    return inputs, safe, move, points


def softmax(logits: np.ndarray, axis: int = -1) -> np.ndarray:
    exp = np.exp(logits - logits.max(axis=axis, keepdims=True))
    return exp / exp.sum(axis=axis, keepdims=True)


class SafetyEvaluator:
    """What the tables need of an evaluator: ``planes`` and ``evaluate(boards)``."""

    planes: list[str]

    # whether ``evaluate_all`` gives the end-state head's answer
    end_state: bool = False

    def evaluate(self, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``boards`` ``[B, 11, 11, F]`` → (P(safe) ``[B]``, move probabilities ``[B, 121]``)."""
        safe, move, _ = self.evaluate_all(boards)
        return safe, move

    def evaluate_all(self, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """``evaluate`` and the end-state probabilities ``[B, 121, 3]`` (empty, the target's
        colour, the other colour), or None for a network without that head."""
        raise NotImplementedError

    def safe_over_symmetries(self, boards: np.ndarray, safe: np.ndarray) -> np.ndarray:
        """P(safe) ``[B]`` averaged over the 8 symmetries of each board; ``safe`` is the
        answer for the boards as they are (symmetry 0), already computed by the caller."""
        from pipeline.symmetries import turn

        return (safe + sum(self.evaluate(turn(boards, s))[0] for s in range(1, 8))) / 8


class NumpyNet(SafetyEvaluator):
    """Forward pass over ``{layer/kernel, layer/bias}`` float32 tensors."""

    def __init__(self, header: dict, tensors: dict[str, np.ndarray]):
        self.header = header
        self.planes = list(header["planes"])
        self.window = int(header["window"])
        self.bits = int(header["bits"])
        # files written before the conv architecture have no key: they are dense
        self.architecture = header.get("architecture", "dense")
        self.blocks = int(header["blocks"])
        # files written before the end-state head have no key: they have none
        self.end_state = bool(header.get("end_state", False))
        self.layers = {name: (tensors[f"{name}/kernel"], tensors[f"{name}/bias"])
                       for name in layer_names(self.blocks, self.architecture, self.end_state)}
        first = self.layers["align"][0]
        inputs, expected = ((first.shape[0], self.window * self.window * len(self.planes))
                            if self.architecture == "dense" else (first.shape[2], len(self.planes)))
        if inputs != expected:
            raise ValueError(f"first kernel takes {inputs} inputs, the header's "
                             f"{self.window}×{self.window}×{len(self.planes)} planes give {expected}")

    @classmethod
    def load(cls, path: str) -> "NumpyNet":
        header, tensors = read_packed(path)
        return cls(header, tensors)

    def evaluate_all(self, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        boards = np.asarray(boards)
        if boards.ndim == 3:
            boards = boards[None]
        _, safe_logit, logits, points = trace(self.layers, boards, self.architecture, self.blocks,
                                              end_state=self.end_state)
        # the sigmoid through tanh: no overflow however large the logit
        safe = 0.5 * (1 + np.tanh(0.5 * safe_logit))
        end_state = None if points is None else softmax(points).astype(np.float32)
        return safe.astype(np.float32), softmax(logits, axis=1).astype(np.float32), end_state
