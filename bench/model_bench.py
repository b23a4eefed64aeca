"""Inference speed: the numpy evaluator against Keras, boards per second.

    python -m bench.model_bench [--model out/model] [--planes F] [--architecture dense|conv]

With a trained model folder (``tsumego train`` + ``tsumego quantize``) it
times that network; without one, a network of the default shape of
``--architecture`` with seeded random weights (speed does not depend on the
weights).  For batches of 1, 64
and 1024 boards it prints the median boards per second over repeated runs of
the numpy evaluator on the packed 5-bit file, Keras ``predict`` and a direct
Keras call.  The JavaScript evaluator of the original dcnn-eval network did
125 boards a second.

On a loaded machine OpenBLAS's threads can stall mid-size products (batch 64);
``OPENBLAS_NUM_THREADS=1`` shows the single-thread figure.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from pipeline.formats.records import WINDOW
from pipeline.markdown import markdown_table

BATCHES = (1, 64, 1024)
# The speed of the original dcnn-eval network's JavaScript evaluator, printed beside ours.
DCNN_EVAL_BOARDS_PER_SECOND = 125


def boards_per_second(evaluate, boards: np.ndarray, seconds: float, repeats: int = 5) -> float:
    """Median over ``repeats`` timings, each looping ``evaluate`` for about ``seconds / repeats``."""
    evaluate(boards)  # warm-up: tracing, allocation
    rates = []
    for _ in range(repeats):
        calls, started = 0, time.perf_counter()
        while True:
            evaluate(boards)
            calls += 1
            elapsed = time.perf_counter() - started
            if elapsed >= seconds / repeats:
                break
        rates.append(calls * len(boards) / elapsed)
    return statistics.median(rates)


def load_networks(model_dir: str | None, num_planes: int, bits: int, architecture: str = "dense"):
    """``(keras model, NumpyNet, description)``: trained if ``model_dir`` has one, else random."""
    import keras

    from model.network import NetworkOptions, build_model
    from model.numpy_net import NumpyNet
    from model.packed import packed_path, unpack
    from model.quantize import model_tensors, pack
    from model.fit import MODEL_FILE
    from model.train import CONV_BLOCKS

    if model_dir and os.path.exists(os.path.join(model_dir, MODEL_FILE)):
        keras_model = keras.saving.load_model(os.path.join(model_dir, MODEL_FILE), compile=False)
        path = packed_path(model_dir, bits)
        return keras_model, NumpyNet.load(path), f"trained network {path}"
    keras.utils.set_random_seed(0)
    options = (NetworkOptions(architecture="conv", blocks=CONV_BLOCKS) if architecture == "conv"
               else NetworkOptions())
    keras_model = build_model(num_planes, options)
    shape = ({"channels": options.channels} if architecture == "conv" else {"width": options.width})
    meta = {"planes": [f"plane{i}" for i in range(num_planes)], "window": WINDOW,
            "architecture": architecture, "blocks": options.blocks, **shape}
    net = NumpyNet(*unpack(pack(model_tensors(keras_model), bits, meta)))
    described = ", ".join(f"{key} {value}" for key, value in shape.items())
    return keras_model, net, (f"random {architecture} network, F = {num_planes}, {described}, "
                              f"{options.blocks} block(s)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="out/model", help="trained model folder, if any")
    parser.add_argument("--planes", type=int, default=13,
                        help="F for the random network when there is no trained one (default: the 13 planes "
                             "of the original dcnn-eval network)")
    parser.add_argument("--architecture", choices=("dense", "conv"), default="dense",
                        help="shape of the random network when there is no trained one")
    parser.add_argument("--bits", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="timing budget per cell")
    args = parser.parse_args(argv)

    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    keras_model, net, description = load_networks(args.model, args.planes, args.bits, args.architecture)
    num_planes = len(net.planes)
    print(f"{description}: {WINDOW}×{WINDOW}×{num_planes} input, "
          f"{sum(k.size for k, _ in net.layers.values())} weights; {os.cpu_count()} cores, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")
    rows = []
    rng = np.random.default_rng(0)
    for batch in BATCHES:
        boards = (rng.random((batch, WINDOW, WINDOW, num_planes)) < 0.3).astype(np.float32)
        rates = [
            boards_per_second(net.evaluate, boards, args.seconds),
            boards_per_second(lambda x: keras_model.predict(x, batch_size=batch, verbose=0),
                              boards, args.seconds),
            boards_per_second(lambda x: keras_model(x, training=False), boards, args.seconds),
        ]
        rows.append([batch, *(f"{rate:,.0f}" for rate in rates)])
    print()
    print(*markdown_table(["batch", "numpy boards/s", "Keras predict boards/s", "Keras call boards/s"],
                          rows, align="rrrr"), sep="\n")
    print()
    print(f"(dcnn-eval's JavaScript evaluator: {DCNN_EVAL_BOARDS_PER_SECOND} boards/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
