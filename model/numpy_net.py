"""The network evaluated with numpy alone, from a packed file.

This is the deployable form: no TensorFlow import, a few float32 matrix
products a batch.  It computes exactly what ``model.network`` computes (same
layer order, ReLU, skip connections, sigmoid and softmax readouts), so on the
same weights it agrees with Keras to float32 rounding.
"""
from __future__ import annotations

import numpy as np

from model.network import layer_names
from model.quantize import read_packed


def layer_inputs(layers: list[tuple[np.ndarray, np.ndarray]], x: np.ndarray) -> list[np.ndarray]:
    """The input of every dense layer, in evaluation order, for flat boards ``x``."""
    (align, align_bias), *rest = layers
    hidden = np.maximum(x @ align + align_bias, 0)
    inputs = [x]
    blocks = rest[:-2]
    for (kernel_a, bias_a), (kernel_b, bias_b) in zip(blocks[0::2], blocks[1::2]):
        inner = np.maximum(hidden @ kernel_a + bias_a, 0)
        inputs += [hidden, inner]
        hidden = np.maximum(inner @ kernel_b + bias_b + hidden, 0)
    return inputs + [hidden, hidden]   # the safe and move readouts share the last hidden layer


class NumpyNet:
    """Forward pass over ``{layer/kernel, layer/bias}`` float32 tensors."""

    def __init__(self, header: dict, tensors: dict[str, np.ndarray]):
        self.header = header
        self.planes = list(header["planes"])
        self.window = int(header["window"])
        self.bits = int(header["bits"])
        self.layers = [(tensors[f"{name}/kernel"], tensors[f"{name}/bias"])
                       for name in layer_names(int(header["blocks"]))]
        inputs = self.layers[0][0].shape[0]
        if inputs != self.window * self.window * len(self.planes):
            raise ValueError(f"first kernel takes {inputs} inputs, the header says "
                             f"{self.window}×{self.window}×{len(self.planes)}")

    def safe_over_symmetries(self, boards: np.ndarray, safe: np.ndarray) -> np.ndarray:
        """P(safe) ``[B]`` averaged over the 8 symmetries of each board; ``safe`` is the
        answer for the boards as they are (symmetry 0), already computed by the caller."""
        from pipeline.window_symmetries import turn

        return (safe + sum(self.evaluate(turn(boards, s))[0] for s in range(1, 8))) / 8

    @classmethod
    def load(cls, path: str) -> "NumpyNet":
        header, tensors = read_packed(path)
        return cls(header, tensors)

    def evaluate(self, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``boards`` ``[B, 11, 11, F]`` → (P(safe) ``[B]``, move probabilities ``[B, 121]``)."""
        boards = np.asarray(boards)
        if boards.ndim == 3:
            boards = boards[None]
        x = boards.reshape(boards.shape[0], -1).astype(np.float32, copy=False)
        hidden = layer_inputs(self.layers, x)[-1]
        (safe_kernel, safe_bias), (move_kernel, move_bias) = self.layers[-2:]
        # the sigmoid through tanh: no overflow however large the logit
        safe = 0.5 * (1 + np.tanh(0.5 * (hidden @ safe_kernel + safe_bias)[:, 0]))
        logits = hidden @ move_kernel + move_bias
        logits -= logits.max(axis=1, keepdims=True)
        move = np.exp(logits)
        move /= move.sum(axis=1, keepdims=True)
        return safe.astype(np.float32), move.astype(np.float32)
