"""``tsumego train``: fit the network on the records of ``tsumego features``.

Every epoch reads each training record once, through a random window of the
target block and a random symmetry (:mod:`model.dataset`); Adam with L2 on the
kernels.  A share of the train split's problems (``--validation-fraction``,
:mod:`model.validation`) is held back and watched after every epoch to halve
the learning rate, stop early and choose the kept epoch; the test split is
scored once, with the weights kept.  ``--keep last`` chooses nothing: a
cosine schedule to ``--epochs``, its last weights kept (``make train``).

``--resume MODEL_DIR`` trains on from another run's weights (a shipped
network's packed file lends its dequantized weights), or goes on with an
unfinished run (:func:`model.checkpoints.unfinished_run`).  ``--extra-train
DIR`` adds another feature folder's records to training, never to the test
split; ``--without`` leaves planes out; ``--end-state-weight`` weighs the
end-state head.  The output folder holds ``model.keras``, ``model.json``,
``history.json``, ``checkpoints/`` and TensorBoard ``logs/``; every shard is
read once before training, so a damaged one is named before any work.

This module holds how a run is set up from its options
(:class:`model.train_options.TrainOptions`, which :mod:`cli.train` builds from
the command line); the fit loop is :mod:`model.fit`'s, an unfinished run's
files :mod:`model.checkpoints`'.  Every option: docs/model.md, "Modules" and
"Checkpoints: going on after an interruption".
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import uuid

from model.checkpoints import (BEST_WEIGHTS, CHECKPOINTS, LAST_WEIGHTS, MODEL_SPEC, PROGRESS_FILE,
                               continue_settings, interrupted_advice, read_model_spec, resumable,
                               same_folder, terminate_as_interrupt, unfinished_run, write_json)
from model.fit import MODEL_FILE, FitLimits, fit
from model.network import (ARCHITECTURES, DEFAULT_END_STATE_WEIGHT, SHAPE_OPTIONS, NetworkOptions,
                           layer_names)
from model.packed import FLOAT_BITS, packed_path, read_packed
from model.train_options import TrainingSettings, TrainOptions
from model.validation import DEFAULT_FRACTION, validation_problems
from pipeline.errors import CommandError
from pipeline.paths import check_output_folder

# Residual blocks of a conv network unless --blocks says otherwise: the depth measured
# on unseen problems (model/network.py).
CONV_BLOCKS = 2
# --extra-split: the splits of the --extra-train folders read
EXTRA_SPLITS = {"both": ("train", "test"), "train": ("train",)}



def network_options(settings: TrainingSettings) -> NetworkOptions:
    blocks = settings.blocks
    if blocks is None:
        blocks = CONV_BLOCKS if settings.architecture == "conv" else NetworkOptions().blocks
    return NetworkOptions(architecture=settings.architecture, width=settings.width, channels=settings.channels,
                          blocks=blocks, l2=settings.l2,
                          learning_rate=settings.learning_rate, move_weight=settings.move_weight,
                          dropout=settings.dropout, end_state_weight=settings.end_state_weight)


def without_idle_end_state_head(options: NetworkOptions, data_dir: str, splits: str | tuple[str, ...],
                                extra: tuple[str, ...] = (), extra_splits: tuple[str, ...] | None = None
                                ) -> NetworkOptions:
    """``options``, with the end-state head turned off (weight 0, and a line saying so) when
    no training record of ``splits`` of ``data_dir`` or of ``extra`` has an end state: a head
    that never learns would only cost time and bytes.  Records of schema 1 have none."""
    from dataclasses import replace

    from model.dataset import end_state_records
    from pipeline.formats.records import SPLITS

    if not options.end_state:
        return options
    if end_state_records(data_dir, splits) or any(end_state_records(folder, extra_splits or SPLITS)
                                                  for folder in extra):
        return options
    print(f"{data_dir}: no training record has an end state (EB/EW in its subproblem); "
          "the network is built without the end-state head")
    return replace(options, end_state_weight=0.0)


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


@dataclasses.dataclass
class Start:
    """Where a run starts from: the network's options, and with ``--resume`` the finished run
    lending its weights or the unfinished one going on."""

    options: NetworkOptions
    settings: TrainOptions          # the run's: an unfinished run's own, when going on with it
    resumed: dict | None = None     # the model.json of a finished run to start from
    packed: str | None = None       # the packed file it lends its weights from, when it has no Keras model
    continued: dict | None = None   # the progress.json of an unfinished run to go on with


def starting_point(settings: TrainOptions, planes: list[str], options: NetworkOptions) -> Start:
    """``--resume``: the finished run to start from, or the unfinished one to go on with (whose
    settings the start then holds), checked against the planes the data gives."""
    resumed = packed = continued = None
    if settings.resume:
        try:
            continued = unfinished_run(settings.resume)
        except (OSError, ValueError) as exc:
            raise CommandError(f"--resume {settings.resume}: cannot read "
                               f"{os.path.join(CHECKPOINTS, PROGRESS_FILE)} ({exc})") from exc
        finished = all(os.path.exists(os.path.join(settings.resume, name))
                       for name in (MODEL_SPEC, MODEL_FILE))
        if continued is not None and not resumable(settings.resume, continued):
            if continued["epochs_done"] < 1 and not finished:
                raise CommandError(f"--resume {settings.resume}: its run was stopped before its first epoch "
                                   "ended, so there is nothing to go on from; train without --resume", code=2)
            if continued["epochs_done"] >= 1:
                raise CommandError(f"--resume {settings.resume}: its run stopped after "
                                   f"{continued['epochs_done']} epochs, but {CHECKPOINTS}/{LAST_WEIGHTS} "
                                   f"or {BEST_WEIGHTS} is missing", code=2)
            continued = None   # killed in the first epoch of a sitting resumed from the finished run there
        if continued is None:
            try:
                resumed = read_model_spec(settings.resume)
            except (OSError, ValueError) as exc:
                raise CommandError(f"--resume {settings.resume}: cannot read {MODEL_SPEC} ({exc})") from exc
            packed = start_packed_file(settings.resume)
            if packed is None and not os.path.exists(os.path.join(settings.resume, MODEL_FILE)):
                raise CommandError(f"--resume {settings.resume}: neither {MODEL_FILE} nor a packed "
                                   "network file (model-*bit.tsq, model-float.tsq) to start from", code=2)
        earlier = continued if continued is not None else resumed
        if earlier["planes"] != planes:
            raise CommandError(f"--resume {settings.resume}: its network reads other planes than "
                               f"{settings.data} gives with --without {settings.without!r}", code=2)
        if continued is not None:
            options = NetworkOptions(**continued["options"])
            settings = continue_settings(settings, continued)
        else:
            # runs from before the conv architecture were dense and have no such option
            shape = {key: resumed["options"].get(key, getattr(NetworkOptions(), key))
                     for key in SHAPE_OPTIONS}
            options = NetworkOptions(**{**options.to_dict(), **shape})
    return Start(options, settings, resumed, packed, continued)


def check_run_settings(settings: TrainOptions, continued: dict | None) -> TrainOptions:
    """``settings`` with the validation fraction's default; the combinations ``--keep last``
    refuses; an unfinished run in ``--out`` that this one would overwrite."""
    if settings.validation_fraction is None:
        settings = dataclasses.replace(settings, validation_fraction=0.0 if settings.keep == "last"
                                       else DEFAULT_FRACTION)
    if settings.keep == "last" and settings.validation_fraction > 0:
        raise CommandError("--keep last trains on every train problem and chooses no epoch: "
                           "give no --validation-fraction", code=2)
    if settings.keep == "last" and settings.schedule != "cosine":
        raise CommandError("--keep last takes --schedule cosine: the plateau schedule would steer "
                           "by the test split's loss", code=2)
    if continued is None or not same_folder(settings.out, settings.resume):
        # A run started over an unfinished one would overwrite its checkpoints at the first epoch.
        try:
            there = unfinished_run(settings.out)
        except (OSError, ValueError):
            there = None
        if resumable(settings.out, there):
            raise CommandError(f"--out {settings.out} holds an unfinished run ({there['epochs_done']} epochs "
                               f"done): go on with it with --resume {settings.out}, or remove "
                               f"{os.path.join(settings.out, CHECKPOINTS)} to train afresh", code=2)
    return settings


@dataclasses.dataclass
class TrainingData:
    """The datasets of a run and what they hold."""

    train: object
    watched: object                  # the held-back problems' records, else the test split
    test: object
    records: dict                    # records of each: train, validation, test
    held_back: list                  # the train split's problems whose loss picks the epoch
    kept_counts: dict | None         # records of the problems trained on, when some are held back
    extra_found: list                # (folder, split, records) of each --extra-train folder
    own: int                         # the data folder's own training records
    options: NetworkOptions          # the network's, without the end-state head when no record has one


def training_data(settings: TrainOptions, spec: dict, planes: list[str], options: NetworkOptions,
                  continued: dict | None) -> TrainingData:
    """Every shard checked, the problems held back chosen (or the unfinished run's), and the
    datasets made with their sizes told to TensorFlow; a folder lending records of the test
    split's problems, or an empty test split, is refused."""
    import tensorflow as tf

    from model.dataset import extra_records, make_dataset, split_records
    from model.folds import extra_problem_overlap
    from model.shards import check_shards
    from pipeline.formats.records import SPLITS, count_problems, read_spec

    extra = tuple(settings.extra_train)
    extra_splits = EXTRA_SPLITS[settings.extra_split]
    distinct_extra = tuple(dict.fromkeys(extra))
    held_back: list[str] = []    # the train split's problems whose loss picks the epoch
    kept_counts: dict[str, int] | None = None   # records of the problems trained on, when some are held back

    def datasets(end_state: bool):
        """The training records, the watched ones (the held-back problems', else the test
        split) and the test split."""
        common = {"planes": planes, "end_state": end_state}
        test = make_dataset(settings.data, "test", settings.batch_size, augment=False, shuffle=False, **common)
        if not held_back:
            train = make_dataset(settings.data, "train", settings.batch_size, augment=True, shuffle=True,
                                 seed=settings.seed, extra=extra, extra_splits=extra_splits, **common)
            return train, test, test
        train = make_dataset(settings.data, "train", settings.batch_size, augment=True, shuffle=True,
                             seed=settings.seed, extra=extra, extra_splits=extra_splits,
                             problems=dict.fromkeys(kept_counts, 1.0),
                             own_records=sum(kept_counts.values()), **common)
        watched = make_dataset(settings.data, "train", settings.batch_size, augment=False, shuffle=False,
                               problems=dict.fromkeys(held_back, 1.0), **common)
        return train, watched, test

    try:
        # Every shard read once, so a damaged one is named here rather than met mid-epoch
        # (a folder named several times, once).
        check_shards(settings.data, SPLITS, spec)
        for folder in distinct_extra:
            check_shards(folder, extra_splits, read_spec(folder))
        if continued is not None:
            # the problems the run watched from its start (continue_settings took its fraction)
            held_back = list(continued.get("validation", {}).get("problems", []))
        if settings.validation_fraction > 0:
            train_counts = count_problems(settings.data, ("train",))
            if continued is None:
                held_back = validation_problems(train_counts, settings.validation_fraction)
            missing = sorted(set(held_back) - set(train_counts))
            if missing:
                raise ValueError(f"the run's validation problems {', '.join(missing[:3])} are not in "
                                 f"{settings.data}'s train split")
            kept_counts = {problem: count for problem, count in train_counts.items()
                           if problem not in held_back}
        extra_found = extra_records(settings.data, extra, extra_splits)
        own = split_records(spec, "train") if kept_counts is None else sum(kept_counts.values())
        # A TFRecord file's length is unknown until read: told the batches an epoch holds,
        # Keras ends the epoch there instead of running into the end of the data (and
        # warning "Your input ran out of data"), and TensorFlow checks the count.
        records = {"train": own + sum(count for _, _, count in extra_found),
                   "test": split_records(spec, "test"),
                   "validation": (split_records(spec, "test") if kept_counts is None
                                  else sum(train_counts[problem] for problem in held_back))}
        checked = without_idle_end_state_head(options, settings.data, "train", distinct_extra, extra_splits)
        if checked != options:
            if continued is not None:
                raise CommandError(f"--resume {settings.resume}: the run's network has the end-state head, "
                                   f"and no training record of {settings.data} has an end state", code=2)
            options = checked
        train, watched, test = datasets(options.end_state)
    except (FileNotFoundError, ValueError) as exc:
        raise CommandError(str(exc)) from exc
    train, watched, test = (
        dataset.apply(tf.data.experimental.assert_cardinality(-(-records[split] // settings.batch_size)))
        for dataset, split in ((train, "train"), (watched, "validation"), (test, "test")))
    if extra and spec.get("split", "problem") == "problem":
        # (the held-back problems too: records of theirs trained on would steer the epoch's choice)
        overlap = extra_problem_overlap(distinct_extra, {*count_problems(settings.data, ("test",)), *held_back},
                                        extra_splits)
        if overlap:
            raise CommandError(overlap, code=2)
    if not any(True for _ in test.take(1)):
        raise CommandError(f"{settings.data}: the test split is empty, and training is scored on it "
                           "(write the features with a larger --test-fraction)")
    return TrainingData(train, watched, test, records, held_back, kept_counts, extra_found, own, options)


def describe_data(settings: TrainOptions, spec: dict, planes: list[str], data: TrainingData) -> None:
    """Print the records a run trains on and what chooses its epoch."""
    held_back, kept_counts, records, extra_found = data.held_back, data.kept_counts, data.records, data.extra_found
    counts = spec.get("counts", {})
    left_out = [name for name in spec["planes"] if name not in planes]
    print(f"{settings.data}: F = {len(planes)} planes"
          + (f" (left out: {', '.join(left_out)})" if left_out else "")
          + f", {counts.get('written_train', '?')} train and {counts.get('written_test', '?')} "
          f"test records ({spec.get('split', 'problem')} split)"
          + "".join(f"; {count} more training records from {folder}"
                    + (" (its train split)" if settings.extra_split == "train" else "")
                    for folder, _, count in extra_found))
    if held_back:
        print(f"validation: {len(held_back)} of the train split's {len(held_back) + len(kept_counts)} "
              f"problems held back ({records['validation']} records), their loss picks the epoch kept; "
              "the test split is scored at the end")
    elif settings.keep == "last":
        print("validation: none; every train problem is trained on and the last epoch kept (--keep last); "
              "the test split is scored after each epoch for the curves, and chooses nothing")
    else:
        print("validation: the test split's loss picks the epoch kept (--validation-fraction 0), "
              "so the test figure took part in the choice")


def run_spec_of(settings: TrainOptions, spec: dict, planes: list[str], data: TrainingData, start: Start, strategy) -> dict:
    """What model.json holds but the fit's figures, written from the start as the run's progress."""
    counts = spec.get("counts", {})
    left_out = [name for name in spec["planes"] if name not in planes]
    extra = tuple(settings.extra_train)
    held_back, kept_counts, records = data.held_back, data.kept_counts, data.records
    resumed, packed, continued = start.resumed, start.packed, start.continued
    run_spec = {
        "planes": planes, "F": len(planes), "left_out": left_out, "window": spec["window"],
        "config": settings.config,
        "options": data.options.to_dict(), "seed": settings.seed, "batch_size": settings.batch_size,
        "data": os.path.abspath(settings.data), "split": spec.get("split", "problem"),
        "extra_train": [os.path.abspath(folder) for folder in extra], "extra_split": settings.extra_split,
        "records": {"train": counts.get("written_train") if kept_counts is None else data.own,
                    "validation": records["validation"] if held_back else 0,
                    "test": counts.get("written_test")},
        # whole problems of the train split whose loss picks the epoch (none: the test split's)
        "validation": {"fraction": settings.validation_fraction, "problems": held_back},
        "replicas": strategy.num_replicas_in_sync, "mixed_precision": settings.mixed_precision,
    }
    if resumed is not None:
        # The runs before this one, oldest first, so the whole training can be told.
        # What each earlier run trained on, beside how long, so a card can tell the lineage
        run_spec["resumed_from"] = resumed.get("resumed_from", []) + [{
            "model": os.path.abspath(settings.resume), "epochs_run": resumed["epochs_run"],
            "seconds": resumed["seconds"], "seed": resumed["seed"],
            **{key: resumed[key] for key in ("run", "config", "data", "extra_train", "records") if key in resumed}}]
        if packed is not None:
            run_spec["resumed_from"][-1]["weights"] = os.path.basename(packed)
    elif continued is not None and "resumed_from" in continued:
        run_spec["resumed_from"] = continued["resumed_from"]
    return run_spec


def fit_run(settings: TrainOptions, planes: list[str], start: Start, data: TrainingData, run_spec: dict, strategy,
            advise=None) -> tuple:
    """Build the network (with the earlier run's weights), fit it and score the test split;
    (progress, fitted figures).  Interrupted, it tells ``advise`` what is kept and how to go on."""
    import keras

    from model.network import build_model, compile_model

    resumed, packed, continued = start.resumed, start.packed, start.continued
    options = data.options
    train, watched, test, held_back = data.train, data.watched, data.test, data.held_back
    limits = FitLimits.of(settings)
    if continued is not None:
        progress = {**continued, **run_spec}
    else:
        progress = {**run_spec, "run": uuid.uuid4().hex,
                    "limits": {"epochs": limits.epochs, "patience": limits.patience,
                               "schedule": limits.schedule, "keep": limits.keep,
                               "warm_up": limits.warm_up}}
    with precision_policy(settings.mixed_precision):
        with strategy.scope():
            model = compile_model(build_model(len(planes), options), options)
        if resumed is not None:
            # Weights only: the saved optimizer state belongs to the earlier run's schedule.
            if packed is None:
                earlier = keras.saving.load_model(os.path.join(settings.resume, MODEL_FILE), compile=False)
                copy_weights(earlier, model)
            else:
                copy_packed_weights(packed, model)
            print(f"resuming from {packed or settings.resume} ({resumed['epochs_run']} epochs, "
                  f"{resumed['seconds']:.0f} s before this run)")
        if continued is not None:
            print(f"going on with the run in {settings.resume} after its epoch {continued['epochs_done']} "
                  f"of at most {limits.epochs} ({continued['seconds']:.0f} s so far)")
        try:
            with terminate_as_interrupt():
                fitted = fit(model, train, watched, settings.out, limits, progress=progress,
                             weights_from=settings.resume if continued is not None else None)
        except BaseException:
            if advise is not None:
                advise(interrupted_advice(settings, continued is not None))
            raise
        fitted.update(test_figures(model, test, fitted, bool(held_back)))
    return progress, fitted


def finish(settings: TrainOptions, run_spec: dict, progress: dict, fitted: dict, held_back: list) -> None:
    """Write model.json, drop the unfinished run's files, and print what was trained."""
    summary = {**run_spec, "run": progress["run"], **fitted}
    write_json(os.path.join(settings.out, MODEL_SPEC), summary)
    # The run is finished: its progress gives way to model.json.
    for name in (PROGRESS_FILE, LAST_WEIGHTS):
        with contextlib.suppress(FileNotFoundError):
            os.remove(os.path.join(settings.out, CHECKPOINTS, name))
    print(f"trained {summary['epochs_run']} epochs in {summary['seconds']:.0f} s (stopped by "
          f"{summary['stopped_by']}); "
          + ("kept the last epoch" if settings.keep == "last" else "best epoch") + f" {summary['best_epoch']}"
          + (f": validation accuracy {summary['validation_accuracy']:.4f}, loss "
             f"{summary['validation_loss']:.4f}; test accuracy" if held_back else ": test accuracy")
          + f" {summary['test_accuracy']:.4f}"
          + (f", end-state accuracy {summary['test_end_state_accuracy']:.4f}"
             if "test_end_state_accuracy" in summary else "")
          + f", test loss {summary['test_loss']:.4f} -> "
          f"{os.path.join(settings.out, MODEL_FILE)}")


def train(settings: TrainOptions, advise=None) -> int:
    """Train a network as ``settings`` say; 0.  Interrupted once training has started, it tells
    ``advise`` (a function of one line) what was kept and how to go on, before the interrupt
    goes on up."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import keras
    import tensorflow as tf

    from pipeline.formats.records import read_spec

    check_output_folder(settings.out)
    try:
        spec = read_spec(settings.data)
    except (OSError, ValueError, KeyError) as exc:
        raise CommandError(f"{settings.data}: cannot read features.json ({exc})") from exc
    try:
        planes = chosen_planes(spec["planes"], settings.without)
    except ValueError as exc:
        raise CommandError(str(exc), code=2) from exc
    start = starting_point(settings, planes, network_options(settings))
    settings = check_run_settings(start.settings, start.continued)
    keras.utils.set_random_seed(settings.seed)
    tf.config.experimental.enable_op_determinism()
    data = training_data(settings, spec, planes, start.options, start.continued)
    describe_data(settings, spec, planes, data)
    strategy = distribution_strategy()
    mirrored = isinstance(strategy, tf.distribute.MirroredStrategy)
    print(f"training on {', '.join(strategy.extended.worker_devices) if mirrored else 'the CPU'}"
          + (" in mixed precision" if settings.mixed_precision else ""))
    run_spec = run_spec_of(settings, spec, planes, data, start, strategy)
    progress, fitted = fit_run(settings, planes, start, data, run_spec, strategy, advise)
    finish(settings, run_spec, progress, fitted, data.held_back)
    return 0


def test_figures(model, test, fitted: dict, held_back: bool) -> dict:
    """model.json's test figures of the weights kept: those of the watched records when they
    were the test split's, else the test split scored once now (Keras's records-weighted
    figures, as the fit's validation ones)."""
    if not held_back:
        return {f"test_{name}": fitted[f"validation_{name}"]
                for name in ("accuracy", "loss", "end_state_accuracy") if f"validation_{name}" in fitted}
    scored = model.evaluate(test, verbose=0, return_dict=True)
    return {"test_accuracy": float(scored["safe_accuracy"]), "test_loss": float(scored["loss"]),
            **({"test_end_state_accuracy": float(scored["end_state_accuracy"])}
               if "end_state_accuracy" in scored else {})}


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


def start_packed_file(model_dir: str) -> str | None:
    """The packed file a run resumed from ``model_dir`` takes its weights from: None when
    the folder holds a Keras model (its float weights are used); else the float packed
    file if there is one, else the packed file of the most bits, else None."""
    if os.path.exists(os.path.join(model_dir, MODEL_FILE)):
        return None
    float_file = packed_path(model_dir, FLOAT_BITS)
    if os.path.isfile(float_file):
        return float_file
    found = []
    for name in os.listdir(model_dir):
        match = re.fullmatch(r"model-(\d+)bit\.tsq", name)
        if match:
            found.append((int(match.group(1)), os.path.join(model_dir, name)))
    return max(found)[1] if found else None


def copy_packed_weights(path: str, model) -> None:
    """The dequantized weights of a packed file into the layers of ``model`` of the
    same name (as :func:`copy_weights`: an end-state head one of them lacks is new or
    dropped).  A tensor of another shape is a CommandError."""
    try:
        header, tensors = read_packed(path)
    except (OSError, ValueError) as exc:
        raise CommandError(f"--resume: cannot read {path} ({exc})") from exc
    names = {layer.name for layer in model.layers}
    for name in layer_names(int(header["blocks"]), header.get("architecture", "dense"),
                            bool(header.get("end_state", False))):
        if name not in names:
            continue
        weights = [tensors[f"{name}/kernel"], tensors[f"{name}/bias"]]
        expected = [tuple(w.shape) for w in model.get_layer(name).get_weights()]
        if [w.shape for w in weights] != expected:
            raise CommandError(f"--resume: {path}: layer {name} has shapes "
                               f"{[w.shape for w in weights]}, the network {expected}", code=2)
        model.get_layer(name).set_weights(weights)


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
