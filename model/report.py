"""``tsumego report``: what a researcher needs to judge the trained network.

``tsumego report --model DIR [--data DIR] [--split test|all] [--out reports] [--no-symmetries]``
evaluates the float and the b-bit packed networks (``tsumego quantize``
writes both) on the test split with the numpy evaluator, also over the 8
symmetries of every window unless ``--no-symmetries``, and writes:

* ``summary.md``: overall accuracy, float and b-bit, next to the 95.6% of the
  original dcnn-eval network (and, for a network with the end-state head, its
  per-point accuracy on the records with an end state); file sizes; how
  training went;
* ``accuracy_by_size.md/.csv/.png``: error by ``AS`` (the number of available
  moves, the original pipeline's "size"), float and b-bit side by side, with
  the count of records and how often the move head's top point misses the
  ``TR`` move;
* ``bits.md/.csv/.png``: test error at b = 2..8 and float, by scheme
  (from ``bits.json`` of ``tsumego quantize``; left out when it ran with
  ``--no-table``);
* ``accuracy_by_problem.md/.csv``: each source problem's records and the
  share of them right, per network (and over the 8 symmetries), so the
  problems behind a mean can be read one by one;
* ``training.png``: loss and accuracy by epoch, train and test.

``--exclude-problems FILE`` leaves out of every figure the records of the
source problems FILE lists (one id a line, as the records' ``GN``, e.g.
``gop/18354``; ``#`` starts a comment): problems the network may have seen in
another form, such as the copies ``tsumego same-positions`` finds.  The summary
says how many problems and records were left out.

A folder holding the packed network alone, as the shipped one
(``model/networks/conv-books``: ``model.json`` and ``model-5bit.tsq``, see
:mod:`model.shipped`), is reported on as far as it goes: without
``model-float.tsq`` only the b-bit network is scored (its columns alone in
the tables), without ``bits.json`` there is no bits table, without
``history.json`` no ``training.png``.

``--split all`` scores every record of ``--data``, both splits, for records
of problems the network never trained on: say a network trained on
generated problems only, scored on every reference problem.  It is refused
for the folders the network was trained on.
"""
from __future__ import annotations

import csv
import json
import os
from collections import Counter

import numpy as np

from model.packed import FLOAT_BITS, packed_path
from model.quantize import BITS_TABLE, DEFAULT_BITS, SCHEMES
from model.fit import HISTORY_FILE
from model.checkpoints import read_model_spec
from pipeline.errors import CommandError
from pipeline.formats.records import SPLITS
from pipeline.markdown import markdown_table
from pipeline.paths import check_output_folder
from pipeline.problem_list import read_problem_list

# The best accuracy of the original dcnn-eval network (one residual block, F = 13,
# on its own random split), the figure every report is read against.
DCNN_EVAL_ACCURACY = 0.956
REPORT_SPLITS = ("test", "all")


def register(commands) -> None:
    parser = commands.add_parser("report", help="accuracy by size, bits table and training curves")
    parser.add_argument("--model", required=True,
                        help="model folder (trained and quantized, or a packed network with its "
                             "model.json alone, as model/networks/conv-books)")
    parser.add_argument("--data", help="records to evaluate (default: the training data)")
    parser.add_argument("--split", choices=REPORT_SPLITS, default="test",
                        help="test: the test split of --data; all: both of its splits (records the "
                             "network never trained on)")
    parser.add_argument("--out", default="reports", help="folder to write (default reports/)")
    parser.add_argument("--bits", type=int, default=DEFAULT_BITS,
                        help="the packed file to compare with float (default 5)")
    parser.add_argument("--no-symmetries", action="store_true",
                        help="skip the accuracy over the 8 symmetries (it costs 8 evaluations "
                        "more, long for a conv network)")
    parser.add_argument("--exclude-problems", metavar="FILE",
                        help="leave out the records of the source problems FILE lists (one id a "
                             "line, as the records' GN; # starts a comment)")
    parser.set_defaults(run=run)


def run(args) -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    from model.numpy_net import NumpyNet
    from model.predictions import predict_split
    from model.shards import UnreadableShard, check_shards
    from pipeline.formats.records import read_spec

    check_output_folder(args.out)
    excluded_ids = read_problem_list(args.exclude_problems) if args.exclude_problems else None
    try:
        spec = read_model_spec(args.model)
        # A folder holding the packed network alone (the shipped one) has no training history,
        # no bits table and maybe no float file: what is there is reported on.
        history = None
        if os.path.exists(os.path.join(args.model, HISTORY_FILE)):
            with open(os.path.join(args.model, HISTORY_FILE)) as f:
                history = json.load(f)
        bits_rows = None   # none when quantize ran with --no-table
        if os.path.exists(os.path.join(args.model, BITS_TABLE)):
            with open(os.path.join(args.model, BITS_TABLE)) as f:
                bits_rows = json.load(f)["rows"]
        float_path, packed = packed_path(args.model, FLOAT_BITS), packed_path(args.model, args.bits)
        paths = {"float": float_path, "packed": packed}
        if not os.path.exists(float_path):
            del paths["float"]   # the b-bit network is scored alone
        nets = {name: NumpyNet.load(path) for name, path in paths.items()}
    except (OSError, ValueError, KeyError) as exc:
        raise CommandError(f"{args.model}: {exc} (run tsumego train and tsumego quantize first)") from exc
    data = args.data or spec["data"]
    if args.split == "all" and os.path.abspath(data) in [spec["data"], *spec.get("extra_train", [])]:
        raise CommandError(f"{data}: the network was trained on its records; --split all scores only "
                           "folders it never saw", code=2)
    what = "the test split" if args.split == "test" else "the records"
    splits = ("test",) if args.split == "test" else SPLITS
    try:
        check_shards(data, splits, read_spec(data))
        predictions = predict_split(data, splits, nets, symmetries=not args.no_symmetries)
    except UnreadableShard as exc:
        raise CommandError(str(exc)) from exc
    except (OSError, ValueError) as exc:
        raise CommandError(f"{data}: cannot evaluate {what} ({exc})") from exc
    exclusion = None
    if excluded_ids is not None:
        left_out = np.isin(predictions.problem, excluded_ids)
        exclusion = {"file": args.exclude_problems, "listed": len(set(excluded_ids)),
                     "problems": len(np.unique(predictions.problem[left_out])), "records": int(left_out.sum())}
        predictions = predictions.subset(~left_out)
    if predictions.safe.size == 0:
        raise CommandError(f"{data}: {what} {'is' if args.split == 'test' else 'are'} empty"
                           + (" once the listed problems are left out" if exclusion else ""))
    os.makedirs(args.out, exist_ok=True)
    by_size = size_rows(predictions, args.bits)
    sizes = {name: os.path.getsize(path) for name, path in paths.items()}
    write_table(args.out, "accuracy_by_size", by_size, title="Test error by size (AS)")
    write_table(args.out, "accuracy_by_problem", problem_rows(predictions, args.bits),
                title="Accuracy by source problem")
    if bits_rows is not None:
        write_table(args.out, "bits", bits_rows_pivot(bits_rows),
                    title="Test error by bits a weight")
        plot_bits(bits_rows, os.path.join(args.out, "bits.png"))
    plot_by_size(by_size, args.bits, os.path.join(args.out, "accuracy_by_size.png"))
    if history is not None:
        plot_training(history, os.path.join(args.out, "training.png"), watched_label(spec))
    summary = summary_text(spec, data, predictions, args.bits, sizes, packed, args.split,
                           nets["packed"].header.get("scheme", ""), exclusion)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(summary)
    print(summary, end="")
    print(f"wrote {args.out}/: summary.md, accuracy_by_size.md/.csv/.png, accuracy_by_problem.md/.csv, "
          + ("bits.md/.csv/.png, " if bits_rows is not None else
             f"no bits table (no {BITS_TABLE}: quantize ran with --no-table), " if "float" in nets else
             f"no bits table (no {BITS_TABLE}), ")
          + ("training.png" if history is not None else f"no training.png (no {HISTORY_FILE})"))
    return 0


def size_rows(predictions, bits: int) -> list[dict]:
    """One row per AS value, then a total row; the float columns only when the float network
    was scored."""
    columns = {"float": "float", "packed": f"{bits}-bit"}
    columns = {name: label for name, label in columns.items() if name in predictions.probability}
    errors = {name: predictions.errors(name) for name in columns}
    # over the 8 symmetries too, as tsumego eval answers, when they were evaluated
    turned = ({f"{column} (8 symmetries)": predictions.errors(name, symmetric=True)
               for name, column in columns.items()} if predictions.symmetric else {})
    wrong = {name: predictions.wrong_moves(name) for name in columns}
    rows = []
    groups = [(str(size), predictions.available_moves == size)
              for size in np.unique(predictions.available_moves)]
    for label, mask in groups + [("all", np.ones_like(errors["packed"]))]:
        rows.append({
            "size": label,
            "count": int(mask.sum()),
            **{f"error {column}": round(float(errors[name][mask].mean()), 4)
               for name, column in columns.items()},
            **{f"error {column}": round(float(error[mask].mean()), 4) for column, error in turned.items()},
            "with move": int(predictions.has_move[mask].sum()),
            **{f"wrong moves {column}": int(wrong[name][mask].sum()) for name, column in columns.items()},
        })
    return rows


def problem_rows(predictions, bits: int) -> list[dict]:
    """One row per source problem, in id order: its records, how many safe, and the share right
    of each network (and over the 8 symmetries, when they were evaluated)."""
    columns = {name: label for name, label in (("float", "float"), ("packed", f"{bits}-bit"))
               if name in predictions.probability}
    errors = {label: predictions.errors(name) for name, label in columns.items()}
    if predictions.symmetric:
        errors.update({f"{label} (8 symmetries)": predictions.errors(name, symmetric=True)
                       for name, label in columns.items()})
    # the share of records "not unsafe" is the share safe
    names, counts, safe = problem_shares(predictions.problem, predictions.safe == 0)
    shares = {label: problem_shares(predictions.problem, error)[2] for label, error in errors.items()}
    return [{"problem": str(name), "records": int(counts[i]), "safe": int(round(safe[i] * counts[i])),
             **{f"accuracy {label}": round(float(share[i]), 4) for label, share in shares.items()}}
            for i, name in enumerate(names)]


def bits_rows_pivot(rows: list[dict]) -> list[dict]:
    """One row per bit width, one error column per scheme."""
    schemes = [scheme for scheme in SCHEMES if any(row["scheme"] == scheme for row in rows)]
    table = []
    for bits in sorted({row["bits"] for row in rows}):
        same = {row["scheme"]: row for row in rows if row["bits"] == bits}
        first = next(iter(same.values()))
        entry = {"bits": "float" if bits == FLOAT_BITS else str(bits)}
        for scheme in schemes:
            picked = same.get(scheme, same.get("float"))
            entry[f"error {scheme}"] = round(picked["error"], 4)
        entry.update(bytes=first["bytes"], count=first["count"])
        table.append(entry)
    return table


def write_table(folder: str, name: str, rows: list[dict], title: str) -> None:
    """``name.csv`` and ``name.md`` with the same rows."""
    headers = list(rows[0])
    with open(os.path.join(folder, f"{name}.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, headers, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    cells = [[f"{row[h]:.4f}" if isinstance(row[h], float) else row[h] for h in headers] for row in rows]
    lines = [f"# {title}", "", *markdown_table(headers, cells, align="r" * len(headers))]
    with open(os.path.join(folder, f"{name}.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def extra_training(spec: dict) -> str:
    """", also on ..." naming the --extra-train folders of a run (each once, with how many
    times it was drawn an epoch), or ""."""
    folders = Counter(spec.get("extra_train", []))
    if not folders:
        return ""
    what = "the train split of" if spec.get("extra_split") == "train" else "every record of"
    return f", also on {what} " + ", ".join(f"`{folder}`" + (f" ({times} times an epoch)" if times > 1 else "")
                                            for folder, times in folders.items())


def summary_text(spec: dict, data: str, predictions, bits: int, sizes: dict, packed: str,
                 split: str = "test", scheme: str = "", exclusion: dict | None = None) -> str:
    # no float network: a folder holding the b-bit file alone, as the shipped network's
    has_float = "float" in predictions.probability
    float_accuracy = 1 - predictions.errors("float").mean() if has_float else None
    packed_accuracy = 1 - predictions.errors("packed").mean()
    symmetries = bool(predictions.symmetric)
    if symmetries:
        float_symmetric = [f"{1 - predictions.errors('float', symmetric=True).mean():.4f}"] if has_float else []
        packed_symmetric = [f"{1 - predictions.errors('packed', symmetric=True).mean():.4f}"]
    else:
        float_symmetric = packed_symmetric = []
    # The end-state column, beside the value's, when the networks have the head and some
    # record has an end state to score it on.
    end_state = {name: predictions.end_state_accuracy(name) for name in ("float", "packed")
                 if name in predictions.probability}
    end_state_column = any(accuracy is not None for accuracy in end_state.values())

    def end_state_cell(name):
        if not end_state_column:
            return []
        return [f"{end_state[name]:.4f}" if end_state.get(name) is not None else ""]

    networks = markdown_table(
        ["network", "accuracy", *(["with the 8 symmetries"] if symmetries else []),
         *(["end-state accuracy"] if end_state_column else []), "file bytes"],
        [*([["float32", f"{float_accuracy:.4f}", *float_symmetric, *end_state_cell("float"), sizes["float"]]]
           if has_float else []),
         [f"{bits}-bit (`{os.path.basename(packed)}`{f', {scheme} ranges' if scheme else ''})",
          f"{packed_accuracy:.4f}", *packed_symmetric, *end_state_cell("packed"), sizes["packed"]],
         ["dcnn-eval (its own random split)", f"{DCNN_EVAL_ACCURACY:.4f}",
          *([""] if symmetries else []), *([""] if end_state_column else []), ""]])
    end_state_note = []
    if end_state_column:
        with_end_state = int((predictions.end_state_points > 0).sum())
        end_state_note = [
            f"End-state accuracy: the share of the {int(predictions.end_state_points.sum())} points "
            f"inside the board, over every window of the {with_end_state} records with an end state, "
            "whose owner at the end of the principal variation (empty, the target's colour, the "
            "other colour) the end-state head gets right.", ""]
    per_problem = []
    for name, label in (("float", "float"), ("packed", f"{bits}-bit")):
        if name in predictions.probability:
            mean, problems = mean_over_problems(predictions.problem, predictions.errors(name))
            per_problem.append(f"{label} {mean:.4f}")
            if symmetries:
                turned, _ = mean_over_problems(predictions.problem, predictions.errors(name, symmetric=True))
                per_problem[-1] += f" ({turned:.4f} with the 8 symmetries)"
    problems_note = [f"Mean over the {problems} source problems (each problem's share of its records "
                     f"right, averaged, so a large tree weighs as much as a small one): "
                     f"{', '.join(per_problem)}.", ""]
    moves = predictions.has_move.sum()
    move_network, move_label = ("float", "float") if has_float else ("packed", f"{bits}-bit")
    move_accuracy = 1 - predictions.wrong_moves(move_network).sum() / moves if moves else float("nan")
    options = spec["options"]
    return "\n".join([
        "# Summary",
        "",
        (f"Test split of `{data}` ({spec.get('split', 'problem')} split): " if split == "test" else
         f"Every record of `{data}` (both splits; the network trained on none of them): ")
        + (f"leaving out the {exclusion['records']} records of {exclusion['problems']} problems "
           f"listed in `{exclusion['file']}` ({exclusion['listed']} listed), " if exclusion else "")
        + f"{predictions.safe.size} records, {int(predictions.safe.sum())} safe.  A record's "
        "P(safe) is the mean over its windows, one centred on each stone of the target block, "
        "as `tsumego eval` answers; the move head is read on the first window."
        + ("  The second accuracy averages each window over the 8 symmetries of the square as "
           "well, as `tsumego eval` does unless `--no-symmetries`, at 8 times the cost." if symmetries else
           "  (Not evaluated over the 8 symmetries: `--no-symmetries`.)"),
        "",
        *networks,
        "",
        *problems_note,
        *end_state_note,
        (f"{bits}-bit minus float: {100 * (packed_accuracy - float_accuracy):+.2f} points. " if has_float
         else f"The {bits}-bit network alone: no float network (`model-float.tsq`) beside it. ")
        + f"Move head ({move_label}): top point is the `TR` move in {move_accuracy:.4f} of the "
        f"{int(moves)} records with one inside the window.",
        "",
        f"Network: F = {spec['F']} planes"
        + (f" (left out: {', '.join(spec['left_out'])})" if spec.get("left_out") else "")
        + (f", 3×3 convolutions of {options['channels']} planes"
           if options.get("architecture") == "conv" else f", dense layers of {options['width']} units")
        + f", {options['blocks']} residual block(s), L2 {options['l2']}, "
        f"move loss weight {options['move_weight']}"
        + (f", end-state loss weight {options['end_state_weight']}" if options.get("end_state_weight") else "")
        + (f", dropout {options['dropout']}" if options.get("dropout") else "") + ".  "
        f"Training: seed {spec['seed']}, {spec['epochs_run']} epochs in {spec['seconds']:.0f} s "
        f"(stopped by {spec['stopped_by']}), " + epoch_choice(spec, data, split)
        + extra_training(spec)
        + "".join(f"; before that, resumed from `{run['model']}`: seed {run['seed']}, "
                  f"{run['epochs_run']} epochs in {run['seconds']:.0f} s"
                  for run in reversed(spec.get("resumed_from", [])))
        + ".",
        "",
    ])


def problem_shares(problem: np.ndarray, errors: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The source problems in id order, their record counts, and the share of each one's
    records that are not ``errors``."""
    names, index = np.unique(problem, return_inverse=True)
    counts = np.bincount(index, minlength=len(names))
    right = np.bincount(index, weights=1.0 - errors, minlength=len(names))
    return names, counts, right / counts


def mean_over_problems(problem: np.ndarray, errors: np.ndarray) -> tuple[float, int]:
    """The accuracy of each source problem's records, averaged over the problems, and their number."""
    names, _, shares = problem_shares(problem, errors)
    return float(np.mean(shares)), len(names)


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_by_size(rows: list[dict], bits: int, path: str) -> None:
    plt = _pyplot()
    rows = [row for row in rows if row["size"] != "all"]
    sizes = np.array([int(row["size"]) for row in rows])
    fig, errors = plt.subplots(figsize=(7, 4))
    if "error float" in rows[0]:
        errors.bar(sizes - 0.2, [row["error float"] for row in rows], 0.4, label="float")
        errors.bar(sizes + 0.2, [row[f"error {bits}-bit"] for row in rows], 0.4, label=f"{bits}-bit")
    else:   # the b-bit network alone
        errors.bar(sizes, [row[f"error {bits}-bit"] for row in rows], 0.4, label=f"{bits}-bit")
    errors.set_xlabel("size (available moves, AS)")
    errors.set_ylabel("test error")
    counts = errors.twinx()
    counts.plot(sizes, [row["count"] for row in rows], "k.:", label="records")
    counts.set_ylabel("records")
    errors.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_bits(rows: list[dict], path: str) -> None:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for scheme in [scheme for scheme in SCHEMES if any(row["scheme"] == scheme for row in rows)]:
        points = [(row["bits"], row["error"]) for row in rows if row["scheme"] == scheme]
        ax.plot(*zip(*points), "o-", label=scheme)
    float_error = next(row["error"] for row in rows if row["bits"] == FLOAT_BITS)
    ax.axhline(float_error, color="k", linestyle="--", label="float32")
    ax.set_xlabel("bits a weight")
    ax.set_ylabel("test error")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def watched_label(spec: dict) -> str:
    """What the training watched epoch by epoch: ``validation`` (train problems held back)
    or ``test`` (the test split, by runs of --validation-fraction 0 and older ones)."""
    return "validation" if spec.get("validation", {}).get("problems") else "test"


def epoch_choice(spec: dict, data: str, split: str) -> str:
    """The summary's words on what chose the epoch kept, and whether the records scored
    (``split`` of the folder ``data``) took part in the choice."""
    if spec.get("keep") == "last":
        run = ("a cosine schedule run to its end" if spec.get("stopped_by") == "epochs"
               else "a cosine schedule cut short by the budget")
        return f"the last epoch ({spec['best_epoch']}) kept: {run}, no epoch chosen on any records"
    best = f"best epoch {spec['best_epoch']}"
    held = spec.get("validation", {}).get("problems") or []
    if held:
        return f"{best} (chosen on the loss of {len(held)} train problems held back)"
    if os.path.abspath(data) == spec.get("data") and split == "test":
        return f"{best} (chosen on the test split's loss: the figures above took part in the choice)"
    return f"{best} (chosen on the loss of its training folder's test split)"


def plot_training(history: dict, path: str, watched: str = "test") -> None:
    """Loss and accuracy epoch by epoch, of the training records and of the ``watched`` ones."""
    plt = _pyplot()
    curves = history["history"]
    epochs = np.arange(1, len(curves["loss"]) + 1)
    fig, (loss, accuracy) = plt.subplots(1, 2, figsize=(10, 4))
    for key, label in (("loss", "train loss"), ("val_loss", f"{watched} loss"),
                       ("safe_loss", "train safe loss"), ("val_safe_loss", f"{watched} safe loss")):
        loss.plot(epochs, curves[key], label=label)
    for key, label in (("safe_accuracy", "train safe"), ("val_safe_accuracy", f"{watched} safe"),
                       ("move_accuracy", "train move"), ("val_move_accuracy", f"{watched} move"),
                       ("end_state_accuracy", "train end state"),
                       ("val_end_state_accuracy", f"{watched} end state")):
        if key in curves:   # (the end-state curves only for a network with that head)
            accuracy.plot(epochs, curves[key], label=label)
    loss.set_xlabel("epoch")
    loss.set_ylabel("loss")
    accuracy.set_xlabel("epoch")
    accuracy.set_ylabel("accuracy")
    loss.legend()
    accuracy.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
