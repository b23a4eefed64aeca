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
earlier runs.  A run that did not finish (interrupted, or killed with the
end of a working session) is gone on with instead: ``--resume`` of its folder
(``--out`` usually the same) rebuilds its network, loads the last epoch's
weights and continues its epochs, learning rate, early stopping and history
(:func:`unfinished_run`).

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
While a run trains, ``checkpoints/`` also holds ``last.weights.h5`` and
``progress.json`` (the run's spec and where it stands), rewritten whole after
every epoch and removed once ``model.json`` is written.
Every shard is read once before training, so a damaged one is named before
any work (:mod:`model.shards`); a run that fails, or is interrupted before
its first epoch ends, removes what it wrote there; one interrupted later
keeps ``checkpoints/`` and ``logs/`` to go on with (:func:`fit`).
"""
from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import sys
import threading
import time
import uuid
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
CHECKPOINTS = "checkpoints"
# In CHECKPOINTS: the best epoch's weights, the last epoch's, and the unfinished run's state.
BEST_WEIGHTS = "best.weights.h5"
LAST_WEIGHTS = "last.weights.h5"
PROGRESS_FILE = "progress.json"
# What fit writes into the output folder (with the temporary files of the atomic writes).
FIT_OUTPUTS = (CHECKPOINTS, "logs", MODEL_FILE, HISTORY_FILE,
               *(os.path.join(CHECKPOINTS, name) for name in (
                   BEST_WEIGHTS, LAST_WEIGHTS, PROGRESS_FILE, PROGRESS_FILE + ".partial",
                   "best.partial.weights.h5", "last.partial.weights.h5")))
# What a run interrupted after an epoch keeps of what it wrote.
KEPT_WHEN_INTERRUPTED = (CHECKPOINTS, "logs")
# The settings of a run that a sitting going on with it keeps, whatever its command line says.
RUN_SETTINGS = ("seed", "batch_size", "epochs", "patience", "schedule")
# How often training written to a log says where it is within an epoch.
LOG_LINE_SECONDS = 60
SCHEDULES = ("plateau", "cosine")


def register(commands) -> None:
    parser = commands.add_parser("train", help="train the safety network on TFRecords")
    parser.add_argument("--data", required=True, help="folder of tsumego features (with features.json)")
    parser.add_argument("--out", required=True, help="model folder to write")
    parser.add_argument("--resume", metavar="MODEL_DIR",
                        help="start from the weights of a model folder of tsumego train (its planes "
                             "and shape are kept; the optimizer starts afresh); of an unfinished "
                             "run's folder (interrupted), go on with that run where it stopped")
    parser.add_argument("--mixed-precision", action="store_true",
                        help="compute in float16, keep the weights in float32 (for a GPU; slower on a CPU)")
    add_training_arguments(parser)
    # (run replaces it once training starts, with what was kept and how to go on)
    parser.set_defaults(run=run, on_interrupt="nothing was written into --out; rerun to train")


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


def unfinished_run(folder: str) -> dict | None:
    """The ``checkpoints/progress.json`` of the run in ``folder`` that did not finish, or None
    when ``folder`` holds none (no such file, or the run that wrote ``model.json`` is the one
    that wrote it: a run killed after its ``model.json`` and before taking back the file).

    Raises ValueError (or OSError) when the file cannot be read.
    """
    path = os.path.join(folder, CHECKPOINTS, PROGRESS_FILE)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        progress = json.load(f)
    if not isinstance(progress, dict) or "epochs_done" not in progress or "run" not in progress:
        raise ValueError(f"{path}: not the progress of a tsumego train run")
    try:
        finished = read_model_spec(folder).get("run") == progress["run"]
    except (OSError, ValueError):
        finished = False
    return None if finished else progress


def resumable(folder: str, progress: dict | None) -> bool:
    """Whether the unfinished run ``progress`` of ``folder`` can be gone on with: an epoch
    done, and its weights there."""
    return (progress is not None and progress["epochs_done"] >= 1
            and all(os.path.exists(os.path.join(folder, CHECKPOINTS, name))
                    for name in (LAST_WEIGHTS, BEST_WEIGHTS)))


def write_json(path: str, content: dict) -> None:
    """``content`` into ``path`` whole or not at all: written beside it, then renamed over it."""
    partial = path + ".partial"
    with open(partial, "w") as f:
        json.dump(content, f, indent=2, sort_keys=True)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(partial, path)


def same_folder(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def going_on_command(data: str, out: str) -> str:
    return f"tsumego train --data {shlex.quote(data)} --out {shlex.quote(out)} --resume {shlex.quote(out)}"


def interrupted_advice(args, continued: bool) -> str:
    """What the line of an interrupted run says (``on_interrupt``): what is kept, how to go on."""
    try:
        progress = unfinished_run(args.out)
    except (OSError, ValueError):
        progress = None
    if resumable(args.out, progress):
        done = progress["epochs_done"]
        return (f"{done} epoch{'s' if done != 1 else ''} done, kept in "
                f"{os.path.join(args.out, CHECKPOINTS)}; go on with: {going_on_command(args.data, args.out)}")
    if continued:
        return (f"what this run wrote into --out was removed; {args.resume} still holds the run: "
                f"go on with: {going_on_command(args.data, args.resume)}")
    return "what this run wrote into --out was removed; rerun to train"


@contextlib.contextmanager
def terminate_as_interrupt():
    """Meanwhile, SIGTERM (a session ending, ``kill``) interrupts as Ctrl-C does, so the run
    keeps its checkpoints and says how to go on instead of dying mid-write.  Where SIGTERM is
    handled by someone else, or off the main thread, it stays as it is."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL):
        yield
        return

    def on_terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def continue_settings(args, progress: dict) -> None:
    """The settings of the unfinished run ``progress`` into ``args``, with a line naming the
    options given on the command line that it overrides (--minutes stays this sitting's)."""
    given = {"seed": args.seed, "batch_size": args.batch_size, "epochs": args.epochs,
             "patience": args.patience, "schedule": args.schedule}
    kept = {"seed": progress["seed"], "batch_size": progress["batch_size"], **progress["limits"]}
    parser = getattr(args, "parser", None)
    overridden = [f"--{name.replace('_', '-')} {given[name]}" for name in RUN_SETTINGS
                  if given[name] != kept[name]
                  and (parser is None or given[name] != parser.get_default(name))]
    for name in RUN_SETTINGS:
        setattr(args, name, kept[name])
    if not args.extra_train:
        args.extra_train = list(progress.get("extra_train", []))
    elif [os.path.abspath(folder) for folder in args.extra_train] != progress.get("extra_train", []):
        overridden.append("--extra-train (this sitting trains on the folders given)")
    if os.path.abspath(args.data) != progress.get("data"):
        print(f"--resume {args.resume}: the run was trained on {progress.get('data')}; "
              f"this sitting reads {args.data}")
    if overridden:
        print(f"--resume {args.resume}: going on with the run's settings; "
              f"left aside: {', '.join(overridden)}")


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
    resumed = None     # the model.json of a finished run to start from
    continued = None   # the progress.json of an unfinished run to go on with
    if args.resume:
        try:
            continued = unfinished_run(args.resume)
        except (OSError, ValueError) as exc:
            raise CommandError(f"--resume {args.resume}: cannot read "
                               f"{os.path.join(CHECKPOINTS, PROGRESS_FILE)} ({exc})") from exc
        finished = all(os.path.exists(os.path.join(args.resume, name))
                       for name in (MODEL_SPEC, MODEL_FILE))
        if continued is not None and not resumable(args.resume, continued):
            if continued["epochs_done"] < 1 and not finished:
                raise CommandError(f"--resume {args.resume}: its run was stopped before its first epoch "
                                   "ended, so there is nothing to go on from; train without --resume", code=2)
            if continued["epochs_done"] >= 1:
                raise CommandError(f"--resume {args.resume}: its run stopped after "
                                   f"{continued['epochs_done']} epochs, but {CHECKPOINTS}/{LAST_WEIGHTS} "
                                   f"or {BEST_WEIGHTS} is missing", code=2)
            continued = None   # killed in the first epoch of a sitting resumed from the finished run there
        if continued is None:
            try:
                resumed = read_model_spec(args.resume)
            except (OSError, ValueError) as exc:
                raise CommandError(f"--resume {args.resume}: cannot read {MODEL_SPEC} ({exc})") from exc
        earlier = continued if continued is not None else resumed
        if earlier["planes"] != planes:
            raise CommandError(f"--resume {args.resume}: its network reads other planes than "
                               f"{args.data} gives with --without {args.without!r}", code=2)
        if continued is not None:
            options = NetworkOptions(**continued["options"])
            continue_settings(args, continued)
        else:
            # runs from before the conv architecture were dense and have no such option
            shape = {key: resumed["options"].get(key, getattr(NetworkOptions(), key))
                     for key in SHAPE_OPTIONS}
            options = NetworkOptions(**{**options.to_dict(), **shape})
    if continued is None or not same_folder(args.out, args.resume):
        # A run started over an unfinished one would overwrite its checkpoints at the first epoch.
        try:
            there = unfinished_run(args.out)
        except (OSError, ValueError):
            there = None
        if resumable(args.out, there):
            raise CommandError(f"--out {args.out} holds an unfinished run ({there['epochs_done']} epochs "
                               f"done): go on with it with --resume {args.out}, or remove "
                               f"{os.path.join(args.out, CHECKPOINTS)} to train afresh", code=2)
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
            if continued is not None:
                raise CommandError(f"--resume {args.resume}: the run's network has the end-state head, "
                                   f"and no training record of {args.data} has an end state", code=2)
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
    # What model.json holds but the fit's figures, written from the start as the run's progress.
    run_spec = {
        "planes": planes, "F": len(planes), "left_out": left_out, "window": spec["window"],
        "options": options.to_dict(), "seed": args.seed, "batch_size": args.batch_size,
        "data": os.path.abspath(args.data), "split": spec.get("split", "problem"),
        "extra_train": [os.path.abspath(folder) for folder in extra],
        "records": {"train": counts.get("written_train"), "test": counts.get("written_test")},
        "replicas": strategy.num_replicas_in_sync, "mixed_precision": args.mixed_precision,
    }
    if resumed is not None:
        # The runs before this one, oldest first, so the whole training can be told.
        run_spec["resumed_from"] = resumed.get("resumed_from", []) + [{
            "model": os.path.abspath(args.resume), "epochs_run": resumed["epochs_run"],
            "seconds": resumed["seconds"], "seed": resumed["seed"]}]
    elif continued is not None and "resumed_from" in continued:
        run_spec["resumed_from"] = continued["resumed_from"]
    limits = FitLimits.from_args(args)
    if continued is not None:
        progress = {**continued, **run_spec}
    else:
        progress = {**run_spec, "run": uuid.uuid4().hex,
                    "limits": {"epochs": limits.epochs, "patience": limits.patience,
                               "schedule": limits.schedule}}
    with precision_policy(args.mixed_precision):
        with strategy.scope():
            model = compile_model(build_model(len(planes), options), options)
        if resumed is not None:
            # Weights only: the saved optimizer state belongs to the earlier run's schedule.
            earlier = keras.saving.load_model(os.path.join(args.resume, MODEL_FILE), compile=False)
            copy_weights(earlier, model)
            print(f"resuming from {args.resume} ({resumed['epochs_run']} epochs, "
                  f"{resumed['seconds']:.0f} s before this run)")
        if continued is not None:
            print(f"going on with the run in {args.resume} after its epoch {continued['epochs_done']} "
                  f"of at most {limits.epochs} ({continued['seconds']:.0f} s so far)")
        try:
            with terminate_as_interrupt():
                fitted = fit(model, train, test, args.out, limits, progress=progress,
                             weights_from=args.resume if continued is not None else None)
        except BaseException:
            args.on_interrupt = interrupted_advice(args, continued is not None)
            raise
    summary = {**run_spec, "run": progress["run"], **fitted}
    write_json(os.path.join(args.out, MODEL_SPEC), summary)
    # The run is finished: its progress gives way to model.json.
    for name in (PROGRESS_FILE, LAST_WEIGHTS):
        with contextlib.suppress(FileNotFoundError):
            os.remove(os.path.join(args.out, CHECKPOINTS, name))
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


def fit(model, train, validation, out: str, limits: FitLimits, progress: dict | None = None,
        weights_from: str | None = None) -> dict:
    """Fit ``model`` on ``train``, watching ``validation``'s loss, into the folder ``out``.

    Writes ``model.keras`` (the best epoch's weights), ``history.json``, the
    best checkpoint and TensorBoard logs; returns the run's figures for
    ``model.json``.  A run that fails or is interrupted removes what it
    created (the folder itself when it made it); what was there before, such
    as the files of a ``--resume`` folder trained on in place, stays.

    With ``progress`` (the run's spec, as ``model.json`` will hold it, and the
    state of an unfinished run when it goes on with one), the run is
    checkpointed: :func:`checkpoints` writes ``checkpoints/progress.json`` at
    the start and, after every epoch, it and the last weights, so a run
    interrupted (KeyboardInterrupt) after an epoch of this sitting keeps
    ``checkpoints/`` and ``logs/``.  ``progress`` with epochs done goes on
    with them from the checkpoints in ``weights_from`` (``out`` or another
    folder): the epochs count on, the learning rate and early stopping carry
    on where they were, and the best weights are the whole run's.
    """
    created = [path for path in (out, *(os.path.join(out, name) for name in FIT_OUTPUTS))
               if not os.path.exists(path)]
    sitting = {"epochs": 0}
    try:
        return _fit(model, train, validation, out, limits, progress, weights_from, sitting)
    except BaseException as exc:
        kept = ()
        if progress is not None and sitting["epochs"] > 0 and is_interrupt(exc):
            kept = tuple(os.path.join(out, name) for name in KEPT_WHEN_INTERRUPTED)
        for path in created:
            if (path == out and kept) or any(path == k or path.startswith(k + os.sep) for k in kept):
                continue
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.remove(path)
        raise


def is_interrupt(exc: BaseException | None) -> bool:
    """Whether ``exc`` is a KeyboardInterrupt (Ctrl-C, or SIGTERM in :func:`run`) or was
    raised while handling one."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def _fit(model, train, validation, out: str, limits: FitLimits, progress: dict | None,
         weights_from: str | None, sitting: dict) -> dict:
    import keras

    os.makedirs(os.path.join(out, CHECKPOINTS), exist_ok=True)
    base_rate = float(model.optimizer.learning_rate.numpy())
    stopper = keras.callbacks.EarlyStopping(monitor="val_loss", patience=limits.patience,
                                            restore_best_weights=True, verbose=1)
    budget = wall_clock_budget(limits.minutes * 60)
    schedule = learning_rate_schedule(limits, base_rate)
    earlier = {} if progress is None else progress.get("history", {})
    initial_epoch = 0 if progress is None else progress.get("epochs_done", 0)
    callbacks = [stopper, budget, schedule]
    if initial_epoch:
        callbacks.append(carry_on(progress, stopper, schedule,
                                  best_weights(model, os.path.join(weights_from, CHECKPOINTS))))
        if not same_folder(weights_from, out):
            # The run goes on in ``out``: its checkpoints there from the start.
            for name in (BEST_WEIGHTS, LAST_WEIGHTS):
                copy_atomically(os.path.join(weights_from, CHECKPOINTS, name),
                                os.path.join(out, CHECKPOINTS, name))
        if limits.schedule == "plateau":
            model.optimizer.learning_rate = progress["learning_rate"]
    # after the learning rate's callback, so the rate it saves is the next epoch's
    # A run going on in place keeps its progress.json as it is until an epoch is done.
    callbacks += [checkpoints(out, progress, stopper, schedule, sitting, initial_epoch,
                              write_now=not initial_epoch or not same_folder(weights_from, out)),
                  keras.callbacks.TensorBoard(os.path.join(out, "logs"))]
    on_terminal = sys.stdout.isatty()
    if not on_terminal:
        # Keras writes one line an epoch to a log, and an epoch can take many minutes.
        callbacks.append(progress_lines(LOG_LINE_SECONDS))
    started = time.monotonic()
    history = model.fit(train, validation_data=validation, epochs=limits.epochs, callbacks=callbacks,
                        shuffle=False, verbose=1 if on_terminal else 2, initial_epoch=initial_epoch)
    seconds = time.monotonic() - started

    model.save(os.path.join(out, MODEL_FILE))
    # the whole run's history: the earlier sittings' epochs, then this one's
    logs = {key: [*earlier.get(key, []), *(float(value) for value in history.history.get(key, []))]
            for key in {*earlier, *history.history}}
    losses = logs["val_loss"]
    best_epoch = min(range(len(losses)), key=losses.__getitem__)
    with open(os.path.join(out, HISTORY_FILE), "w") as f:
        json.dump({"epoch": list(range(len(losses))), "history": logs}, f, indent=1, sort_keys=True)
        f.write("\n")
    stopped_by = "patience" if stopper.stopped_epoch else ("budget" if budget.spent else "epochs")
    figures = {
        "epochs_run": len(losses), "best_epoch": best_epoch + 1, "schedule": limits.schedule,
        "stopped_by": stopped_by,
        "seconds": round(seconds + (0 if progress is None else progress.get("seconds", 0)), 1),
        "test_accuracy": logs["val_safe_accuracy"][best_epoch],
        "test_loss": losses[best_epoch],
        # the end-state head's per-point accuracy on the points with an end state
        **({"test_end_state_accuracy": logs["val_end_state_accuracy"][best_epoch]}
           if "val_end_state_accuracy" in logs else {}),
    }
    if progress is not None:
        # every sitting of the run (its first epoch, epochs, seconds), and how each ended
        figures["sittings"] = [
            *({"stopped_by": "interrupted", **entry} for entry in progress.get("sittings", [])),
            {**sitting_entry(initial_epoch, sitting["epochs"], seconds), "stopped_by": stopped_by}]
    return figures


def sitting_entry(initial_epoch: int, epochs: int, seconds: float) -> dict:
    return {"first_epoch": initial_epoch + 1, "epochs": epochs, "seconds": round(seconds, 1)}


@contextlib.contextmanager
def interrupts_deferred():
    """Meanwhile, a SIGINT or SIGTERM that Python handles (Ctrl-C's KeyboardInterrupt, or
    :func:`terminate_as_interrupt`) is held, and its handler runs once it is over.  Signals
    are handled on the main thread only, so elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = []
    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    handled = {number: handler for number, handler in handlers.items() if callable(handler)}
    for number in handled:
        signal.signal(number, lambda number, frame: held.append((number, frame)))
    try:
        yield
    finally:
        for number, handler in handled.items():
            signal.signal(number, handler)
        if held:
            number, frame = held[0]
            handled[number](number, frame)


def save_weights_atomically(model, path: str) -> None:
    """``model``'s weights into ``path`` (``*.weights.h5``), whole or not at all."""
    partial = path[:-len(".weights.h5")] + ".partial.weights.h5"
    model.save_weights(partial)
    os.replace(partial, path)


def copy_atomically(source: str, path: str) -> None:
    partial = path[:-len(".weights.h5")] + ".partial.weights.h5"
    shutil.copyfile(source, partial)
    os.replace(partial, path)


def best_weights(model, folder: str) -> list:
    """The weights of ``folder``'s best checkpoint (as ``model.get_weights`` gives them), and
    ``model`` left with its last one.

    A checkpoint holds the optimizer's variables too (Adam's moments, its step count): built
    first, the optimizer takes them up, so the run goes on as if never stopped.  (One whose
    variables differ, say with ``--mixed-precision`` given in one sitting only, starts
    afresh; Keras warns.)
    """
    if not model.optimizer.built:
        with model.distribute_strategy.scope():
            model.optimizer.build(model.trainable_variables)
    model.load_weights(os.path.join(folder, BEST_WEIGHTS))
    best = model.get_weights()
    model.load_weights(os.path.join(folder, LAST_WEIGHTS))
    return best


def carry_on(progress: dict, stopper, schedule, best: list):
    """A callback that, once the others have reset themselves at the start of training, sets
    early stopping (and the plateau schedule) where the unfinished run ``progress`` left them:
    its best loss, epoch and weights, and the epochs waited since."""
    import keras

    state = progress["callbacks"]

    class CarryOn(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            stopper.best = progress["best_val_loss"]
            stopper.best_epoch = progress["best_epoch"] - 1
            stopper.best_weights = best
            stopper.wait = state["stopper_wait"]
            if isinstance(schedule, keras.callbacks.ReduceLROnPlateau):
                schedule.best = state["plateau_best"]
                schedule.wait = state["plateau_wait"]
                schedule.cooldown_counter = state["plateau_cooldown"]

    return CarryOn()


def checkpoints(out: str, progress: dict | None, stopper, schedule, sitting: dict, initial_epoch: int,
                write_now: bool = True):
    """A callback that keeps ``checkpoints/`` of ``out`` after every epoch: the best epoch's
    weights (by the validation loss) and, for a run with ``progress``, the last epoch's and
    ``progress.json``, each written whole (beside, then renamed over the old one).

    ``progress.json`` holds the run's spec (``progress`` as given, written at once when
    ``write_now``, so a run killed in its first epoch is still recognised), the epochs done,
    the seconds spent over all sittings, the best validation loss and its epoch, the
    learning rate for the next epoch, the history so far, the sittings and the state of
    early stopping and of the plateau schedule: what :func:`carry_on` needs to go on.
    The weights are written before ``progress.json``: a run killed (SIGKILL) between the
    two goes on from weights an epoch ahead of what ``progress.json`` counts.
    """
    import keras

    folder = os.path.join(out, CHECKPOINTS)
    if progress is not None:
        progress = {"epochs_done": 0, "seconds": 0.0, "best_val_loss": None, "best_epoch": None,
                    "history": {}, "sittings": [], "callbacks": {}, **progress}
        # (copied: the caller's history stays the earlier sittings')
        progress["history"] = {key: list(values) for key, values in progress["history"].items()}
        progress["sittings"] = [*progress["sittings"], sitting_entry(initial_epoch, 0, 0)]
        if write_now:
            write_json(os.path.join(folder, PROGRESS_FILE), progress)
    earlier_seconds = 0.0 if progress is None else progress["seconds"]
    best = None if progress is None else progress["best_val_loss"]

    class Checkpoints(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            self.started = time.monotonic()

        def on_epoch_end(self, epoch, logs=None):
            # Ctrl-C or SIGTERM meanwhile waits: the epoch's files are written together.
            with interrupts_deferred():
                self.keep(epoch, logs or {})
            sitting["epochs"] += 1

        def keep(self, epoch, logs):
            nonlocal best
            loss = float(logs["val_loss"])
            if progress is not None:
                save_weights_atomically(self.model, os.path.join(folder, LAST_WEIGHTS))
            if best is None or loss < best:
                best = loss
                save_weights_atomically(self.model, os.path.join(folder, BEST_WEIGHTS))
                if progress is not None:
                    progress.update(best_val_loss=loss, best_epoch=epoch + 1)
            if progress is None:
                return
            seconds = time.monotonic() - self.started
            for key, value in logs.items():
                progress["history"].setdefault(key, []).append(float(value))
            plateau = isinstance(schedule, keras.callbacks.ReduceLROnPlateau)
            progress.update(
                epochs_done=epoch + 1, seconds=round(earlier_seconds + seconds, 1),
                learning_rate=float(keras.ops.convert_to_numpy(self.model.optimizer.learning_rate)),
                callbacks={"stopper_wait": stopper.wait,
                           **({"plateau_best": None if schedule.best is None else float(schedule.best),
                               "plateau_wait": schedule.wait,
                               "plateau_cooldown": schedule.cooldown_counter} if plateau else {})})
            progress["sittings"][-1] = sitting_entry(initial_epoch, sitting["epochs"] + 1, seconds)
            write_json(os.path.join(folder, PROGRESS_FILE), progress)

    return Checkpoints()


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
