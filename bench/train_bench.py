"""Training speed on this machine: where a training step's time goes.

    python -m bench.train_bench [--data DIR] [--architecture dense conv] [--batch 64 256 1024]
                                [--steps 30]

For each architecture and batch size it prints records per second of

- **input**: the tf.data pipeline alone (``model.dataset.make_dataset`` with
  augmentation, as ``train`` reads), iterated without a model;
- **step**: the model's training step alone, on one batch held in memory;
- **fit**: ``model.fit`` on the pipeline, what a training run gets;

and the time an epoch of ``--epoch-records`` records would take at the fit
rate.  With ``--data`` the records of a ``tsumego features`` folder are read;
without, synthetic records of the default planes (random 0/1 planes, one to
six windows a record) are written to a temporary folder.
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

import numpy as np

from pipeline.markdown import markdown_table
from pipeline.quiet import hush

SYNTHETIC_RECORDS = 8192


def synthetic_records(folder: str, count: int, seed: int = 0) -> str:
    """Write ``count`` random records of the default planes into ``folder`` (one train shard)."""
    import tensorflow as tf

    from pipeline.formats.records import MOVES, WINDOW, example_bytes, write_spec
    from pipeline.planes import plane_names

    planes = plane_names()
    rng = np.random.default_rng(seed)
    path = os.path.join(folder, "train-00000-of-00001.tfrecord.gz")
    with tf.io.TFRecordWriter(path, options="ZLIB") as writer:
        for i in range(count):
            windows = int(rng.integers(1, 7))
            data = (rng.random((windows, WINDOW, WINDOW, len(planes))) < 0.2).astype(np.uint8)
            moves = rng.integers(-1, MOVES, windows)
            writer.write(example_bytes(data, safe=int(rng.integers(2)), moves=moves,
                                       available_moves=int(rng.integers(4, 20)), defender_first=int(rng.integers(2)),
                                       problem=f"synthetic/{i % 50}", subproblem=f"{i:016x}.sgf"))
    write_spec(folder, planes, {"train": count, "test": 0})
    return folder


def records_per_second(batch_size: int, steps: int, run) -> float:
    """Median of three timings of ``steps`` calls of ``run`` (after one warm-up call)."""
    run()
    rates = []
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(steps):
            run()
        rates.append(steps * batch_size / (time.perf_counter() - started))
    return statistics.median(rates)


def batch_clock_class():
    import keras

    class BatchClock(keras.callbacks.Callback):
        """Seconds between the starts of successive batches, after ``warm_up`` batches (their sum
        counts any stall of the input, which a median would hide)."""

        def __init__(self, warm_up: int):
            super().__init__()
            self.warm_up, self.seconds, self.last = warm_up, [], None

        def on_train_batch_begin(self, batch, logs=None):
            now = time.perf_counter()
            if self.last is not None and batch > self.warm_up:
                self.seconds.append(now - self.last)
            self.last = now

    return BatchClock


def measure(data: str, architecture: str, batch_size: int, steps: int) -> dict:
    from model.dataset import make_dataset
    from model.network import NetworkOptions, build_model, compile_model
    from pipeline.formats.records import read_spec

    spec = read_spec(data)
    options = NetworkOptions(architecture=architecture)
    model = build_model(spec["F"], options)
    compile_model(model, options)
    dataset = make_dataset(data, "train", batch_size, seed=0).repeat()
    iterator = iter(dataset)
    input_rate = records_per_second(batch_size, steps, lambda: next(iterator))
    x, targets, weights = next(iterator)
    step_rate = records_per_second(batch_size, steps,
                                   lambda: model.train_on_batch(x, targets, sample_weight=weights))
    # Inside one fit call, timed from the callbacks, so the start of a fit (a fresh
    # iterator, the shuffle buffer filling) is left out as it is from an epoch of a real run.
    clock = batch_clock_class()(warm_up=5)
    model.fit(dataset, steps_per_epoch=clock.warm_up + 3 * steps, epochs=1, verbose=0, callbacks=[clock])
    fit_rate = batch_size * len(clock.seconds) / sum(clock.seconds)
    return {"input": input_rate, "step": step_rate, "fit": fit_rate}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", help="a tsumego features folder (default: synthetic records)")
    parser.add_argument("--architecture", nargs="+", default=["dense", "conv"], choices=("dense", "conv"))
    parser.add_argument("--batch", nargs="+", type=int, default=[64, 256, 1024])
    parser.add_argument("--steps", type=int, default=30, help="batches per timing")
    parser.add_argument("--epoch-records", type=int, default=1_000_000,
                        help="records of the epoch whose time is printed")
    args = parser.parse_args(argv)
    hush()
    with tempfile.TemporaryDirectory() as folder:
        data = args.data or synthetic_records(folder, SYNTHETIC_RECORDS)
        rows = []
        for architecture in args.architecture:
            for batch_size in args.batch:
                rate = measure(data, architecture, batch_size, args.steps)
                rows.append([architecture, batch_size, f"{rate['input']:,.0f}", f"{rate['step']:,.0f}",
                             f"{rate['fit']:,.0f}", f"{args.epoch_records / rate['fit'] / 60:.1f}"])
                print(f"{architecture} batch {batch_size}: {rate}", flush=True)
    print("\n".join(markdown_table(["network", "batch", "input records/s", "step records/s", "fit records/s",
                                    f"minutes per {args.epoch_records:,} records"], rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
