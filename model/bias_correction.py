"""Bias correction: the quantized network's units keep the float network's mean.

Rounding a unit's weights moves its pre-activation by ``(Wq - W)·x``.  Over
the inputs the network meets that shift does not average to zero: inputs are
non-negative (planes of 0/1, ReLU outputs), so the rounding errors of a unit
add up with the same sign.  Each bias is therefore moved by the mean shift
measured on a sample of training windows, layer by layer in evaluation order,
so that every layer is corrected for the corrected layers before it.  The
float network's biases are left alone, and no test record is looked at.

It closes most of the gap between the 5-bit and the float network's test
error (measured: RESULTS.md, "Quantization schemes and bias correction").
"""
from __future__ import annotations

import numpy as np

from model.numpy_net import linear, trace

# Windows of the training split whose mean the corrected network keeps.
SAMPLE_WINDOWS = 20_000


def corrected_biases(exact: dict, quantized: dict, meta: dict, windows: np.ndarray) -> dict:
    """``{layer/bias: float32}`` for the quantized kernels, from float tensors ``exact`` and
    dequantized ``quantized`` (kernels; biases as in ``exact``) over ``windows`` [N, 11, 11, F].

    ``meta`` gives the network's ``blocks``, ``architecture`` and whether it has the
    end-state head.  A convolution's bias is one value a plane, so its shift is
    averaged over the 121 points too.
    """
    architecture, blocks = meta.get("architecture", "dense"), int(meta["blocks"])
    end_state = bool(meta.get("end_state", False))

    def unit_means(out):
        return out.reshape(-1, out.shape[-1]).mean(axis=0)

    exact_means = {}

    def measure(name, inputs):
        out = linear(inputs, exact[f"{name}/kernel"], 0)
        exact_means[name] = unit_means(out)
        return out + exact[f"{name}/bias"]

    corrected = {}

    def correct(name, inputs):
        # the inputs already come through the corrected layers before this one
        out = linear(inputs, quantized[f"{name}/kernel"], 0)
        shift = unit_means(out) - exact_means[name]
        corrected[name] = (exact[f"{name}/bias"] - shift).astype(np.float32)
        return out + corrected[name]

    trace({}, windows, architecture, blocks, through=measure, end_state=end_state)
    trace({}, windows, architecture, blocks, through=correct, end_state=end_state)
    return {f"{name}/bias": bias for name, bias in corrected.items()}
