"""``tsumego crossval``: accuracy on unseen problems, every problem tested once.

``tsumego crossval --data DIR --out DIR [--folds 5] [--fold K ...]
[--balance none|sqrt] [--same-problems FILE] [--symmetries] [--rescore]
[training options of tsumego train]``

The records of ``DIR`` (train and test shards pooled) are dealt into folds
of whole problems (``model.folds``).  For fold k the network trains on the
other folds but one: fold k+1 (mod K) is the validation set that early
stopping and the learning-rate schedule watch, and fold k, the test set, is
read only once, by the best epoch's network.  So no choice made during
training has seen a test problem, which a single split whose test set is
also watched by early stopping cannot say.  With ``--same-problems`` (the
groups ``tsumego same-positions`` writes) copies of one position under
different ids are dealt as one problem, so none is trained on in the fold
that tests another.

Each fold writes ``fold-K/`` (the model folder of ``tsumego train`` and
``result.json``: per-problem records and errors).  ``--fold`` runs only the
folds named, so folds can run side by side, and ``--rescore`` scores the
networks already there again (say with ``--symmetries``).  After each fold
the summary of all finished folds is written again: ``crossval.md`` and
``crossval.json``, with the accuracy pooled over every record, the mean of
the per-problem accuracies, and each fold's figures.  A record's answer is the float
network's mean P(safe) over its windows, as in the reports, and with
``--symmetries`` also over their 8 symmetries; Keras computes it
(``model.keras_net``), which equals the numpy evaluator to float32 rounding.
A network with the end-state head also gets its per-point accuracy, over
the points inside the board of every window of the records with an end
state.

With ``--extra-train DIR`` every fold also trains on all the records of
another feature folder (say generated problems'), or with ``--extra-split
train`` on its train split only (its test problems stay unseen, as in
``tsumego train``); a folder whose records (of the splits read) hold one
of ``--data``'s problems is refused, as that problem would be trained on
in the fold that tests it.

The command's options are :mod:`cli.crossval`'s; they reach :func:`crossval`
as :class:`model.train_options.CrossvalOptions`.
"""
from __future__ import annotations

import json
import os

import numpy as np

from model.folds import (assign_folds, cached_problem_counts, extra_problem_overlap,
                         problem_weights, read_together)
from model.network import options_in_use
from model.checkpoints import MODEL_SPEC
from model.train import EXTRA_SPLITS, chosen_planes, network_options, without_idle_end_state_head
from model.train_options import CrossvalOptions
from pipeline.errors import CommandError
from pipeline.markdown import markdown_table
from pipeline.paths import check_output_folder

RESULT_FILE = "result.json"
# the --extra-train records read, by --extra-split, in the summary's words
EXTRA_READ = {"both": "every record", "train": "the train split"}
SUMMARY_FILE = "crossval"   # .md and .json


def fold_path(out: str, fold: int) -> str:
    return os.path.join(out, f"fold-{fold}")


def crossval(settings: CrossvalOptions) -> int:
    """Train and score the folds ``settings`` choose, writing the summary after each; 0."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    from model.dataset import extra_records
    from model.shards import UnreadableShard, check_shards
    from pipeline.formats.records import SPLITS, read_spec

    chosen = list(settings.fold) if settings.fold else list(range(settings.folds))
    check_output_folder(settings.out)
    try:
        spec = read_spec(settings.data)
        planes = chosen_planes(spec["planes"], settings.without)
    except (OSError, ValueError, KeyError) as exc:
        raise CommandError(f"{settings.data}: {exc}") from exc
    try:
        check_shards(settings.data, SPLITS, spec)
    except UnreadableShard as exc:
        raise CommandError(str(exc)) from exc
    os.makedirs(settings.out, exist_ok=True)
    written = {name: count for name, count in spec.get("counts", {}).items() if name.startswith("written")}
    try:
        counts = cached_problem_counts(settings.data, os.path.join(settings.out, "problems.json"), written)
        together = read_together(settings.same_problems) if settings.same_problems else []
        fold_of = assign_folds(counts, settings.folds, together)
    except (OSError, ValueError) as exc:
        raise CommandError(f"{settings.data}: {exc}") from exc
    extra = tuple(settings.extra_train)
    extra_splits = EXTRA_SPLITS[settings.extra_split]
    try:
        extra_found = extra_records(settings.data, extra, extra_splits)
        for folder, _, _ in extra_found:
            check_shards(folder, extra_splits, read_spec(folder))
        overlap = None if settings.rescore else extra_problem_overlap(extra, counts, extra_splits)
    except (OSError, ValueError) as exc:
        raise CommandError(str(exc)) from exc
    if overlap:
        raise CommandError(overlap, code=2)
    # Every fold trains on some of the same records: whether they hold end states is asked once.
    options = network_options(settings) if settings.rescore else without_idle_end_state_head(
        network_options(settings), settings.data, SPLITS, extra, extra_splits)
    totals = [sum(n for p, n in counts.items() if fold_of[p] == k) for k in range(settings.folds)]
    print(f"{settings.data}: {len(counts)} problems, {sum(counts.values())} records in {settings.folds} folds "
          f"of {', '.join(map(str, totals))} records"
          + (f"; the {len(together)} groups of copies of {settings.same_problems} each in one fold"
             if together else "")
          + "".join(f"; every fold also trains on the {count} records of {folder}"
                    + (" (its train split)" if settings.extra_split == "train" else "")
                    for folder, _, count in extra_found))
    for fold in chosen:
        try:
            result = run_fold(settings, options, spec, planes, counts, fold_of, fold)
        except (OSError, ValueError) as exc:
            if not settings.rescore:
                raise
            raise CommandError(f"{fold_path(settings.out, fold)}: cannot rescore ({exc})") from exc
        turned = (f" ({result['accuracy_symmetries']:.4f} over the 8 symmetries)"
                  if "accuracy_symmetries" in result else "")
        if result.get("end_state_points"):
            turned += f", end-state accuracy {result['end_state_accuracy']:.4f}"
        print(f"fold {fold}: {result['problems']} test problems, {result['records']} records: "
              f"accuracy {result['accuracy']:.4f}{turned}, best epoch "
              f"{result['training']['best_epoch']}")
        summary = write_summary(settings.out, settings.folds)
        print(summary, end="")
    return 0


def run_fold(settings: CrossvalOptions, options, spec: dict, planes: list[str], counts: dict, fold_of: dict, fold: int) -> dict:
    """Train on the folds other than ``fold`` and ``fold + 1``, stop on ``fold + 1``, test on ``fold``
    (with ``--rescore``, test the network an earlier run left in the fold's folder)."""
    import keras

    from model.keras_net import KerasNet
    from model.predictions import predict_split
    from model.fit import MODEL_FILE
    from model.checkpoints import read_model_spec
    from pipeline.formats.records import SPLITS

    validation_fold = (fold + 1) % settings.folds
    weights = problem_weights(counts, settings.balance)

    def problems_of(keep) -> dict[str, float]:
        return {problem: weights[problem] for problem in counts if keep(fold_of[problem])}

    out = fold_path(settings.out, fold)
    test_problems = problems_of(lambda k: k == fold)
    if settings.rescore:
        with open(os.path.join(out, RESULT_FILE)) as f:
            earlier = json.load(f)
        if earlier["folds"] != settings.folds:
            # Other folds would test this network on problems it trained on.
            raise ValueError(f"its network was trained with {earlier['folds']} folds, not {settings.folds}")
        training = earlier["training"]
        model_spec = read_model_spec(out)
        model = keras.saving.load_model(os.path.join(out, MODEL_FILE), compile=False)
    else:
        model, model_spec, training = train_fold(
            settings, options, spec, planes, out, fold,
            problems_of(lambda k: k not in (fold, validation_fold)),
            problems_of(lambda k: k == validation_fold),
            sum(counts[problem] for problem in counts if fold_of[problem] not in (fold, validation_fold)),
            sum(counts[problem] for problem in counts if fold_of[problem] == validation_fold))

    # Keras rather than the numpy evaluator: the same answers, twice as fast for conv
    net = KerasNet(model, model_spec["planes"])
    predictions = predict_split(settings.data, SPLITS, {"float": net}, symmetries=settings.symmetries,
                                problems=test_problems)
    errors = predictions.errors("float")
    turned_errors = predictions.errors("float", symmetric=True) if settings.symmetries else None
    per_problem = {}
    for problem in sorted(test_problems):
        mine = predictions.problem == problem
        per_problem[problem] = {"records": int(mine.sum()), "errors": int(errors[mine].sum())}
        if settings.symmetries:
            per_problem[problem]["errors_symmetries"] = int(turned_errors[mine].sum())
    result = {
        "fold": fold, "folds": settings.folds, "validation_fold": validation_fold,
        "balance": model_spec["balance"], "options": model_spec["options"], "seed": model_spec["seed"],
        "extra_train": model_spec.get("extra_train", []),
        "extra_split": model_spec.get("extra_split", "both"),
        "planes": model_spec["planes"], "training": training,
        "problems": len(test_problems), "records": int(len(errors)),
        "accuracy": float(1 - errors.mean()) if len(errors) else float("nan"),
        "per_problem": per_problem,
    }
    if settings.symmetries:
        result["accuracy_symmetries"] = float(1 - turned_errors.mean()) if len(errors) else float("nan")
    if net.end_state:
        # the head's per-point accuracy, over the points inside the board with an end state
        points = int(predictions.end_state_points.sum())
        result["end_state_points"] = points
        result["end_state_correct"] = int(predictions.end_state_correct["float"].sum())
        result["end_state_accuracy"] = result["end_state_correct"] / points if points else float("nan")
    with open(os.path.join(out, RESULT_FILE), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")
    return result


def train_fold(settings: CrossvalOptions, options, spec: dict, planes: list[str], out: str, fold: int,
               train_problems: dict, validation_problems: dict, train_records: int,
               validation_records: int):
    """``(model, model.json's content, training figures)`` of one fold's training run
    (``train_records``, ``validation_records``: how many records the problems hold)."""
    import keras
    import tensorflow as tf

    from model.dataset import extra_records, make_dataset
    from model.network import build_model, compile_model
    from model.fit import FitLimits, fit
    from pipeline.formats.records import SPLITS

    extra_splits = EXTRA_SPLITS[settings.extra_split]
    keras.utils.set_random_seed(settings.seed)
    tf.config.experimental.enable_op_determinism()
    train = make_dataset(settings.data, SPLITS, settings.batch_size, augment=True, shuffle=True,
                         seed=settings.seed, planes=planes, problems=train_problems,
                         extra=tuple(settings.extra_train), own_records=train_records,
                         end_state=options.end_state, extra_splits=extra_splits)
    validation = make_dataset(settings.data, SPLITS, settings.batch_size, augment=False, shuffle=False,
                              planes=planes, problems=validation_problems, end_state=options.end_state)
    # Told the batches an epoch holds, Keras ends the epoch there rather than running
    # into the end of the data (as in ``tsumego train``).
    extra_found = extra_records(settings.data, tuple(settings.extra_train), extra_splits)
    train_records += sum(count for _, _, count in extra_found)
    train, validation = (dataset.apply(tf.data.experimental.assert_cardinality(-(-records // settings.batch_size)))
                         for dataset, records in ((train, train_records), (validation, validation_records)))
    model = compile_model(build_model(len(planes), options), options)
    fitted = fit(model, train, validation, out, FitLimits.of(settings))
    training = {"epochs_run": fitted["epochs_run"], "best_epoch": fitted["best_epoch"],
                "schedule": fitted["schedule"],
                "stopped_by": fitted["stopped_by"], "seconds": fitted["seconds"],
                "validation_accuracy": fitted["validation_accuracy"],
                "validation_loss": fitted["validation_loss"]}
    model_spec = {"planes": planes, "F": len(planes), "window": spec["window"],
                  "options": options.to_dict(), "seed": settings.seed, "batch_size": settings.batch_size,
                  "data": os.path.abspath(settings.data), "split": f"fold {fold} of {settings.folds}",
                  "extra_train": [os.path.abspath(folder) for folder in settings.extra_train],
                  "extra_split": settings.extra_split,
                  "balance": settings.balance, **fitted}
    with open(os.path.join(out, MODEL_SPEC), "w") as f:
        json.dump(model_spec, f, indent=2, sort_keys=True)
        f.write("\n")
    return model, model_spec, training


def pooled(results: list[dict]) -> dict:
    """Accuracy over every test record of ``results`` and the mean over their problems."""
    problems = [entry for result in results for entry in result["per_problem"].values()
                if entry["records"]]
    records = sum(entry["records"] for entry in problems)
    figures = {"folds": len(results), "problems": len(problems), "records": records}
    keys = ["errors"] + (["errors_symmetries"] if all("errors_symmetries" in entry for entry in problems)
                         else [])
    for key in keys:
        suffix = key[len("errors"):]
        figures[f"accuracy{suffix}"] = 1 - sum(entry[key] for entry in problems) / records
        figures[f"problem_mean_accuracy{suffix}"] = float(np.mean(
            [1 - entry[key] / entry["records"] for entry in problems]))
    points = sum(result.get("end_state_points", 0) for result in results)
    if points:
        # over the folds whose network has the end-state head
        figures["end_state_points"] = points
        figures["end_state_accuracy"] = sum(result.get("end_state_correct", 0) for result in results) / points
    return figures


def write_summary(out: str, folds: int) -> str:
    """Write ``crossval.md`` and ``crossval.json`` from every finished fold; return the markdown."""
    results = []
    for fold in range(folds):
        path = os.path.join(fold_path(out, fold), RESULT_FILE)
        if os.path.exists(path):
            with open(path) as f:
                results.append(json.load(f))
    total = pooled(results)
    # Folds run separately may have been given other options; the summary must not hide that.
    # (folds trained before the schedule option ran on the plateau schedule)
    settings = sorted({json.dumps({"extra_train": result.get("extra_train", []),
                                   "extra_split": result.get("extra_split", "both"),
                                   "schedule": result["training"].get("schedule", "plateau"),
                                   **{key: result[key] for key in ("balance", "options", "seed")}},
                                  sort_keys=True) for result in results})
    described = "; ".join(
        f"balance {setting['balance']}, options {options_in_use(setting['options'])}, "
        f"{setting['schedule']} learning-rate schedule, seed {setting['seed']}"
        + (f", also trained on {EXTRA_READ[setting['extra_split']]} of {', '.join(setting['extra_train'])}"
           if setting["extra_train"] else "")
        for setting in map(json.loads, settings))
    lines = [f"# Cross-validation by problem: {total['folds']} of {folds} folds done\n\n",
             ("Folds trained with different settings: " if len(settings) > 1 else "Settings: ")
             + f"{described}.  Accuracy of the float network on each fold's unseen problems; "
             "a record's answer is the mean P(safe) over its windows."
             + ("  The validation accuracy is weighted by the problems' training weights."
                if any(result["balance"] != "none" for result in results) else "")
             + "\n\n"]

    def figure(source, key):
        return f"{source[key]:.4f}" if key in source else "not run"

    # the end-state head's column only when a fold's network has one and was scored on end states
    end_state = "end_state_points" in total

    def end_state_cell(source):
        return ([f"{source['end_state_accuracy']:.4f}" if source.get("end_state_points") else "none"]
                if end_state else [])

    rows = [[result["fold"], result["problems"], result["records"], f"{result['accuracy']:.4f}",
             figure(result, "accuracy_symmetries"), *end_state_cell(result),
             f"{result['training']['best_epoch']} ({result['training']['epochs_run']})",
             f"{result['training']['validation_accuracy']:.4f}"] for result in results]
    rows.append(["all", total["problems"], total["records"], f"{total['accuracy']:.4f}",
                 figure(total, "accuracy_symmetries"), *end_state_cell(total), "", ""])
    header = ["fold", "problems", "records", "accuracy", "over 8 symmetries",
              *(["end-state accuracy"] if end_state else []), "best epoch (run)", "validation accuracy"]
    lines += [line + "\n" for line in markdown_table(header, rows, align="r" * len(header))] + ["\n"]
    lines.append(f"Mean of the per-problem accuracies: {total['problem_mean_accuracy']:.4f} "
                 f"({figure(total, 'problem_mean_accuracy_symmetries')} over the 8 symmetries).\n")
    if end_state:
        lines.append(f"End-state accuracy: the share of the {total['end_state_points']} points inside "
                     "the board, over every window of the test records with an end state, whose owner "
                     "at the end of the principal variation the end-state head gets right.\n")
    text = "".join(lines)
    with open(os.path.join(out, f"{SUMMARY_FILE}.md"), "w") as f:
        f.write(text)
    with open(os.path.join(out, f"{SUMMARY_FILE}.json"), "w") as f:
        json.dump({"pooled": total, "folds": [{k: v for k, v in r.items() if k != "per_problem"}
                                              for r in results]}, f, indent=1, sort_keys=True)
        f.write("\n")
    return text
