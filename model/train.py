"""``tsumego train``: fit the network on the records of ``tsumego features``.

``tsumego train --data DIR --out DIR [--epochs N] [--minutes M] [--seed S]
[--without PLANE,...] [--resume MODEL_DIR] [--extra-train DIR ...]``

Every epoch reads each training record once, through a random window of the
target block and a random symmetry (``model.dataset``).  Adam with L2 on the
kernels; ``--without`` leaves planes out (plane names of ``features.json`` or
plane-group names such as ``tactics``), to measure what they are worth on
the same records.  The test split's loss is watched after every epoch: the learning
rate halves when it has not improved for half of ``--patience`` epochs,
and training stops when it has not improved for ``--patience`` epochs, or
when the ``--minutes`` budget is spent; the best epoch's weights are kept.

``--resume MODEL_DIR`` starts from the weights another run left in
``MODEL_DIR`` (same planes; its architecture, width and depth are kept), so
a network can be trained on in several sittings; ``model.json`` lists the
earlier runs.

``--end-state-weight W`` weighs the loss of the end-state head (who holds
each point of the window at the end of the principal variation,
:mod:`model.network`); 0 builds the network without it, and so does a run
whose training records have no end state (it says so).

``--extra-train DIR`` adds every record of another feature folder (written
with the same planes; say the records of generated problems) to the
training records, never to the test split; on a problem split, a folder
holding one of the test split's problems is refused.

The output folder holds ``model.keras``, ``model.json`` (planes, options,
seed, data folder, epochs), ``history.json`` (the Keras history, for the
report's curves), ``checkpoints/best.weights.h5`` and TensorBoard ``logs/``.
Every shard is read once before training, so a damaged one is named before
any work (:mod:`model.shards`); a run that fails or is interrupted removes
what it wrote there (:func:`fit`).
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass

from model.network import ARCHITECTURES, DEFAULT_END_STATE_WEIGHT, SHAPE_OPTIONS, NetworkOptions
from pipeline.errors import CommandError
from pipeline.paths import check_output_folder

# Residual blocks of a conv network unless --blocks says otherwise: the depth measured
# on unseen problems (model/network.py).
CONV_BLOCKS = 2

MODEL_FILE = "model.keras"
MODEL_SPEC = "model.json"
HISTORY_FILE = "history.json"
# What fit writes into the output folder.
FIT_OUTPUTS = ("checkpoints", "logs", MODEL_FILE, HISTORY_FILE)
# How often training written to a log says where it is within an epoch.
LOG_LINE_SECONDS = 60
SCHEDULES = ("plateau", "cosine")


def register(commands) -> None:
    parser = commands.add_parser("train", help="train the safety network on TFRecords")
    parser.add_argument("--data", required=True, help="folder of tsumego features (with features.json)")
    parser.add_argument("--out", required=True, help="model folder to write")
    parser.add_argument("--resume", metavar="MODEL_DIR",
                        help="start from the weights of a model folder of tsumego train (its planes "
                             "and shape are kept; the optimizer starts afresh)")
    parser.add_argument("--mixed-precision", action="store_true",
                        help="compute in float16, keep the weights in float32 (for a GPU; slower on a CPU)")
    add_training_arguments(parser)
    parser.set_defaults(run=run, on_interrupt="what this run wrote into --out was removed; rerun to train")


def add_training_arguments(parser) -> None:
    """Options shared with ``tsumego crossval``: the network's shape and the fit's limits."""
    defaults = NetworkOptions()
    parser.add_argument("--epochs", type=int, default=200, help="at most this many epochs")
    parser.add_argument("--minutes", type=float, default=0,
                        help="wall-clock budget; training stops after the batch that spends it (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--patience", type=int, default=8,
                        help="epochs without a better validation loss before stopping")
    parser.add_argument("--schedule", choices=SCHEDULES, default="plateau",
                        help="learning rate: plateau halves it when the validation loss stalls; "
                             "cosine lowers it epoch by epoch to near zero at --epochs")
    parser.add_argument("--architecture", choices=ARCHITECTURES, default=defaults.architecture,
                        help="dense: the original dcnn-eval network's; conv: 3×3 convolutions "
                             "(model/network.py)")
    parser.add_argument("--width", type=int, default=defaults.width,
                        help=f"units of a dense hidden layer (default {defaults.width})")
    parser.add_argument("--channels", type=int, default=defaults.channels,
                        help=f"planes of a conv hidden layer (default {defaults.channels})")
    parser.add_argument("--blocks", type=int,
                        help=f"residual blocks (default {defaults.blocks} dense, {CONV_BLOCKS} conv)")
    parser.add_argument("--l2", type=float, default=defaults.l2)
    parser.add_argument("--learning-rate", type=float, default=defaults.learning_rate)
    parser.add_argument("--move-weight", type=float, default=defaults.move_weight,
                        help="weight of the move head's loss (0 trains the value alone)")
    parser.add_argument("--dropout", type=float, default=defaults.dropout,
                        help="dropout rate after every hidden layer, in training (0: none)")
    parser.add_argument("--end-state-weight", type=float, default=DEFAULT_END_STATE_WEIGHT,
                        help="weight of the end-state head's loss (who holds each point at the end of "
                             f"the principal variation; default {DEFAULT_END_STATE_WEIGHT}); 0 builds "
                             "the network without that head, as do records without end states")
    parser.add_argument("--without", default="", metavar="PLANE,...",
                        help="planes to leave out: plane names or plane-group names (e.g. tactics)")
    parser.add_argument("--extra-train", action="extend", nargs="+", default=[], metavar="DIR",
                        help="also train on every record of these feature folders (same planes; "
                             "say generated problems'); repeatable; never evaluated on")


def network_options(args) -> NetworkOptions:
    blocks = args.blocks
    if blocks is None:
        blocks = CONV_BLOCKS if args.architecture == "conv" else NetworkOptions().blocks
    return NetworkOptions(architecture=args.architecture, width=args.width, channels=args.channels,
                          blocks=blocks, l2=args.l2,
                          learning_rate=args.learning_rate, move_weight=args.move_weight,
                          dropout=args.dropout, end_state_weight=args.end_state_weight)


def without_idle_end_state_head(options: NetworkOptions, data_dir: str,
                                splits: str | tuple[str, ...], extra: tuple[str, ...] = ()) -> NetworkOptions:
    """``options``, with the end-state head turned off (weight 0, and a line saying so) when
    no training record of ``splits`` of ``data_dir`` or of ``extra`` has an end state: a head
    that never learns would only cost time and bytes.  Records of schema 1 have none."""
    from dataclasses import replace

    from model.dataset import end_state_records
    from pipeline.formats.records import SPLITS

    if not options.end_state:
        return options
    if end_state_records(data_dir, splits) or any(end_state_records(folder, SPLITS) for folder in extra):
        return options
    print(f"{data_dir}: no training record has an end state (EB/EW in its subproblem); "
          "the network is built without the end-state head")
    return replace(options, end_state_weight=0.0)


@dataclass(frozen=True)
class FitLimits:
    """How long :func:`fit` may run and how it moves the learning rate: the options of
    ``add_training_arguments`` that both ``tsumego train`` and each crossval fold pass it."""

    epochs: int         # at most this many
    minutes: float      # wall-clock budget (0: none)
    patience: int       # epochs without a better validation loss before stopping
    schedule: str       # one of SCHEDULES

    @classmethod
    def from_args(cls, args) -> FitLimits:
        return cls(epochs=args.epochs, minutes=args.minutes, patience=args.patience,
                   schedule=args.schedule)


def chosen_planes(available: list[str], without: str) -> list[str]:
    """The planes to train on: ``available`` less the planes or plane groups named in ``without``."""
    from pipeline.planes import PLANE_GROUPS

    groups = {group.name: group.planes for group in PLANE_GROUPS}
    dropped = set()
    for name in filter(None, (word.strip() for word in without.split(","))):
        if name in available:
            dropped.add(name)
        elif name in groups:
            dropped.update(groups[name])
        else:
            raise ValueError(f"--without: {name!r} is neither a plane of the records nor a plane "
                             f"group ({', '.join(groups)})")
    planes = [name for name in available if name not in dropped]
    if not planes:
        raise ValueError("--without leaves no plane to train on")
    return planes


def read_model_spec(model_dir: str) -> dict:
    with open(os.path.join(model_dir, MODEL_SPEC)) as f:
        return json.load(f)


def run(args) -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import keras
    import tensorflow as tf

    from model.dataset import extra_records, make_dataset, split_records
    from model.folds import count_problems, extra_problem_overlap
    from model.network import build_model, compile_model
    from model.shards import check_shards
    from pipeline.formats.records import SPLITS, read_spec

    check_output_folder(args.out)
    try:
        spec = read_spec(args.data)
    except (OSError, ValueError, KeyError) as exc:
        raise CommandError(f"{args.data}: cannot read features.json ({exc})") from exc
    try:
        planes = chosen_planes(spec["planes"], args.without)
    except ValueError as exc:
        raise CommandError(str(exc), code=2) from exc
    options = network_options(args)
    resumed = None
    if args.resume:
        try:
            resumed = read_model_spec(args.resume)
        except (OSError, ValueError) as exc:
            raise CommandError(f"--resume {args.resume}: cannot read {MODEL_SPEC} ({exc})") from exc
        if resumed["planes"] != planes:
            raise CommandError(f"--resume {args.resume}: its network reads other planes than "
                               f"{args.data} gives with --without {args.without!r}", code=2)
        # runs from before the conv architecture were dense and have no such option
        shape = {key: resumed["options"].get(key, getattr(NetworkOptions(), key)) for key in SHAPE_OPTIONS}
        options = NetworkOptions(**{**options.to_dict(), **shape})
    keras.utils.set_random_seed(args.seed)
    tf.config.experimental.enable_op_determinism()
    extra = tuple(args.extra_train)

    def datasets(end_state: bool):
        return (make_dataset(args.data, "train", args.batch_size, augment=True, shuffle=True,
                             seed=args.seed, planes=planes, extra=extra, end_state=end_state),
                make_dataset(args.data, "test", args.batch_size, augment=False, shuffle=False,
                             planes=planes, end_state=end_state))

    try:
        train, test = datasets(options.end_state)
        # A TFRecord file's length is unknown until read: told the batches an epoch holds,
        # Keras ends the epoch there instead of running into the end of the data (and
        # warning "Your input ran out of data"), and TensorFlow checks the count.
        records = {"train": split_records(spec, "train") + sum(count for _, _, count in
                                                               extra_records(args.data, extra)),
                   "test": split_records(spec, "test")}
        # Every shard read once, so a damaged one is named here rather than met mid-epoch.
        check_shards(args.data, SPLITS, spec)
        for folder, _, _ in extra_records(args.data, extra):
            check_shards(folder, SPLITS, read_spec(folder))
        # (counted once the shards are known to be sound)
        checked = without_idle_end_state_head(options, args.data, "train", extra)
        if checked != options:
            options = checked
            train, test = datasets(options.end_state)
    except (FileNotFoundError, ValueError) as exc:
        raise CommandError(str(exc)) from exc
    train, test = (dataset.apply(tf.data.experimental.assert_cardinality(-(-records[split] // args.batch_size)))
                   for dataset, split in ((train, "train"), (test, "test")))
    if extra and spec.get("split", "problem") == "problem":
        overlap = extra_problem_overlap(extra, count_problems(args.data, ("test",)))
        if overlap:
            raise CommandError(overlap, code=2)
    if not any(True for _ in test.take(1)):
        raise CommandError(f"{args.data}: the test split is empty, and early stopping watches it "
                           "(write the features with a larger --test-fraction)")

    counts = spec.get("counts", {})
    left_out = [name for name in spec["planes"] if name not in planes]
    print(f"{args.data}: F = {len(planes)} planes"
          + (f" (left out: {', '.join(left_out)})" if left_out else "")
          + f", {counts.get('written_train', '?')} train and {counts.get('written_test', '?')} "
          f"test records ({spec.get('split', 'problem')} split)"
          + "".join(f"; {count} more training records from {folder}"
                    for folder, _, count in extra_records(args.data, extra)))
    strategy = distribution_strategy()
    mirrored = isinstance(strategy, tf.distribute.MirroredStrategy)
    print(f"training on {', '.join(strategy.extended.worker_devices) if mirrored else 'the CPU'}"
          + (" in mixed precision" if args.mixed_precision else ""))
    with precision_policy(args.mixed_precision):
        with strategy.scope():
            model = compile_model(build_model(len(planes), options), options)
        if resumed is not None:
            # Weights only: the saved optimizer state belongs to the earlier run's schedule.
            earlier = keras.saving.load_model(os.path.join(args.resume, MODEL_FILE), compile=False)
            copy_weights(earlier, model)
            print(f"resuming from {args.resume} ({resumed['epochs_run']} epochs, "
                  f"{resumed['seconds']:.0f} s before this run)")
        fitted = fit(model, train, test, args.out, FitLimits.from_args(args))
    summary = {
        "planes": planes, "F": len(planes), "left_out": left_out, "window": spec["window"],
        "options": options.to_dict(), "seed": args.seed, "batch_size": args.batch_size,
        "data": os.path.abspath(args.data), "split": spec.get("split", "problem"),
        "extra_train": [os.path.abspath(folder) for folder in extra],
        "records": {"train": counts.get("written_train"), "test": counts.get("written_test")},
        "replicas": strategy.num_replicas_in_sync, "mixed_precision": args.mixed_precision,
        **fitted,
    }
    if resumed is not None:
        # The runs before this one, oldest first, so the whole training can be told.
        summary["resumed_from"] = resumed.get("resumed_from", []) + [{
            "model": os.path.abspath(args.resume), "epochs_run": resumed["epochs_run"],
            "seconds": resumed["seconds"], "seed": resumed["seed"]}]
    with open(os.path.join(args.out, MODEL_SPEC), "w") as f:
        json.dump(summary, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"trained {summary['epochs_run']} epochs in {summary['seconds']:.0f} s (stopped by "
          f"{summary['stopped_by']}); best epoch {summary['best_epoch']}: test accuracy "
          f"{summary['test_accuracy']:.4f}"
          + (f", end-state accuracy {summary['test_end_state_accuracy']:.4f}"
             if "test_end_state_accuracy" in summary else "")
          + f", test loss {summary['test_loss']:.4f} -> "
          f"{os.path.join(args.out, MODEL_FILE)}")
    return 0


def copy_weights(earlier, model) -> None:
    """The weights of ``earlier`` into the layers of ``model`` of the same name.

    The shapes are the same (``SHAPE_OPTIONS``), but one of the two may have the
    end-state head and the other not: a head new to ``model`` starts afresh,
    one that ``model`` lacks is dropped.
    """
    names = {layer.name for layer in model.layers}
    for layer in earlier.layers:
        if layer.weights and layer.name in names:
            model.get_layer(layer.name).set_weights(layer.get_weights())


def distribution_strategy(devices: list[str] | None = None):
    """``tf.distribute.MirroredStrategy`` over ``devices``, by default every GPU TensorFlow sees.

    Each batch of ``--batch-size`` is split between the replicas and their
    gradients are summed.  Without a GPU (and no ``devices``), TensorFlow's
    default strategy: the CPU trains as it always has, without a mirror's
    per-step cost.
    """
    import tensorflow as tf

    devices = devices or [device.name for device in tf.config.list_logical_devices("GPU")]
    return tf.distribute.MirroredStrategy(devices) if devices else tf.distribute.get_strategy()


@contextlib.contextmanager
def precision_policy(mixed: bool):
    """Keras's ``mixed_float16`` policy meanwhile when ``mixed`` (float16 maths, float32 weights,
    the loss scaled); the policy is global, so it is restored afterwards."""
    import keras

    earlier = keras.mixed_precision.global_policy()
    if mixed:
        keras.mixed_precision.set_global_policy("mixed_float16")
    try:
        yield
    finally:
        keras.mixed_precision.set_global_policy(earlier)


def fit(model, train, validation, out: str, limits: FitLimits) -> dict:
    """Fit ``model`` on ``train``, watching ``validation``'s loss, into the folder ``out``.

    Writes ``model.keras`` (the best epoch's weights), ``history.json``, the
    best checkpoint and TensorBoard logs; returns the run's figures for
    ``model.json``.  A run that fails or is interrupted removes what it
    created (the folder itself when it made it); what was there before, such
    as the files of a ``--resume`` folder trained on in place, stays.
    """
    created = [path for path in (out, *(os.path.join(out, name) for name in FIT_OUTPUTS))
               if not os.path.exists(path)]
    try:
        return _fit(model, train, validation, out, limits)
    except BaseException:
        for path in created:
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.remove(path)
        raise


def _fit(model, train, validation, out: str, limits: FitLimits) -> dict:
    import keras

    os.makedirs(os.path.join(out, "checkpoints"), exist_ok=True)
    stopper = keras.callbacks.EarlyStopping(monitor="val_loss", patience=limits.patience,
                                            restore_best_weights=True, verbose=1)
    budget = wall_clock_budget(limits.minutes * 60)
    callbacks = [
        stopper, budget, learning_rate_schedule(limits, float(model.optimizer.learning_rate.numpy())),
        keras.callbacks.ModelCheckpoint(os.path.join(out, "checkpoints", "best.weights.h5"),
                                        monitor="val_loss", save_best_only=True,
                                        save_weights_only=True),
        keras.callbacks.TensorBoard(os.path.join(out, "logs")),
    ]
    on_terminal = sys.stdout.isatty()
    if not on_terminal:
        # Keras writes one line an epoch to a log, and an epoch can take many minutes.
        callbacks.append(progress_lines(LOG_LINE_SECONDS))
    started = time.monotonic()
    history = model.fit(train, validation_data=validation, epochs=limits.epochs, callbacks=callbacks,
                        shuffle=False, verbose=1 if on_terminal else 2)
    seconds = time.monotonic() - started

    model.save(os.path.join(out, MODEL_FILE))
    losses = history.history["val_loss"]
    best_epoch = min(range(len(losses)), key=losses.__getitem__)
    with open(os.path.join(out, HISTORY_FILE), "w") as f:
        json.dump({"epoch": history.epoch, "history": history.history}, f, indent=1, sort_keys=True)
        f.write("\n")
    return {
        "epochs_run": len(losses), "best_epoch": best_epoch + 1, "schedule": limits.schedule,
        "stopped_by": "patience" if stopper.stopped_epoch else ("budget" if budget.spent else "epochs"),
        "seconds": round(seconds, 1),
        "test_accuracy": history.history["val_safe_accuracy"][best_epoch],
        "test_loss": losses[best_epoch],
        # the end-state head's per-point accuracy on the points with an end state
        **({"test_end_state_accuracy": history.history["val_end_state_accuracy"][best_epoch]}
           if "val_end_state_accuracy" in history.history else {}),
    }


def learning_rate_schedule(limits: FitLimits, base: float):
    """The callback that sets the learning rate (``limits.schedule``, from ``base``).

    ``cosine`` gives epoch e (from 0) ``base · (1 + cos(π (e + ½) / epochs)) / 2``:
    a run whose length is fixed in advance ends on small steps, which
    settle the weights where a constant rate keeps them moving.
    """
    import math

    import keras

    if limits.schedule == "cosine":
        return keras.callbacks.LearningRateScheduler(
            lambda epoch: base * (1 + math.cos(math.pi * (epoch + 0.5) / limits.epochs)) / 2)
    return keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.5,
                                             patience=max(1, limits.patience // 2), min_lr=1e-5, verbose=1)


def wall_clock_budget(seconds: float):
    """A callback that stops training once ``seconds`` of wall clock have passed (0: never).

    Built here rather than at module level so importing this module (as the
    command line does) does not import Keras.
    """
    import keras

    class WallClockBudget(keras.callbacks.Callback):
        spent = False

        def on_train_begin(self, logs=None):
            self.deadline = time.monotonic() + seconds if seconds > 0 else None

        def on_train_batch_end(self, batch, logs=None):
            if self.deadline is not None and time.monotonic() >= self.deadline:
                self.spent = True
                self.model.stop_training = True

    return WallClockBudget()


def progress_lines(seconds: float, clock=time.monotonic, out=None):
    """A callback that prints the epoch, the batches done and the running loss every ``seconds``."""
    import keras

    class ProgressLines(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            self.epoch = epoch + 1
            self.epoch_started = self.last_line = clock()

        def on_train_batch_end(self, batch, logs=None):
            now = clock()
            if now - self.last_line >= seconds:
                self.last_line = now
                loss = f", loss {logs['loss']:.4f}" if logs and "loss" in logs else ""
                print(f"epoch {self.epoch}: {batch + 1} batches in {now - self.epoch_started:.0f} s{loss}",
                      file=out or sys.stdout, flush=True)

    return ProgressLines()
