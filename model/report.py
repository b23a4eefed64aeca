"""``tsumego report``: what a researcher needs to judge the trained network.

``tsumego report --model DIR [--data DIR] [--split test|all] [--out reports] [--no-symmetries]
[--trees DIR]``
evaluates the float and the b-bit packed networks (``tsumego quantize``
writes both) on the test split with the numpy evaluator, also over the 8
symmetries of every window unless ``--no-symmetries``, and writes:

* ``summary.md``: overall accuracy, float and b-bit, next to the 95.6% of the
  original dcnn-eval network (and, for a network with the end-state head, its
  per-point accuracy on the records with an end state); the mean over the
  source problems; the accuracy on the problems' root positions, each side
  moving first; the expected calibration error of P(safe); file sizes; how
  training went;
* ``summary.json``: the summary's figures, for scripts: accuracy with its 95%
  interval, mean over problems, root accuracy, calibration bins and ECE, per
  network;
* ``accuracy_by_size.md/.csv/.png``: error by ``AS`` (the number of available
  moves, the original pipeline's "size"), float and b-bit side by side, each
  with its 95% Wilson interval, with the count of records (a size with fewer
  than ``MIN_RECORDS`` is marked ``few records`` and drawn hollow) and how
  often the move head's top point misses the ``TR`` move;
* ``reliability.png``: P(safe) in 10 bins against the share of safe records
  of each bin, the calibration behind the summary's ECE;
* ``bits.md/.csv/.png``: test error at b = 2..8 and float, by scheme
  (from ``bits.json`` of ``tsumego quantize``; left out when it ran with
  ``--no-table``);
* ``accuracy_by_problem.md/.csv``: each source problem's records and the
  share of them right, per network (and over the 8 symmetries), so the
  problems behind a mean can be read one by one;
* ``training.png``: loss and accuracy by epoch, train and test.

The records do not say which of them is a problem's root position (the
problem as given, one side or the other moving first).  The trees of
``solve-all`` do: their roots are those positions, and a subproblem file is
named by a hash of its position, so the root records are found by file name.
``--trees DIR`` names the ``trees/`` folder; by default it is
``solve-all/trees`` beside the records' folder (``out/tfrecords`` ->
``out/solve-all/trees``, as ``make`` lays them out), and without one the
summary says there is no root accuracy.

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

This module is the command: its options, what it reads and where it writes.
The figures are computed in :mod:`model.report_stats`, put in words and
tables in :mod:`model.report_markdown` and drawn in :mod:`model.report_plots`.
"""
from __future__ import annotations

import json
import os
import sys

import numpy as np

from model.checkpoints import read_model_spec
from model.fit import HISTORY_FILE
from model.packed import FLOAT_BITS, packed_path
from model.quantize import BITS_TABLE, DEFAULT_BITS
from model.report_markdown import SIZE_NOTES, summary_text, watched_label, write_table
from model.report_plots import plot_bits, plot_by_size, plot_reliability, plot_training
from model.report_stats import bits_rows_pivot, problem_rows, size_rows, summary_figures
from pipeline.errors import CommandError
from pipeline.formats.records import SPLITS
from pipeline.paths import check_output_folder
from pipeline.problem_list import read_problem_list

REPORT_SPLITS = ("test", "all")
SUMMARY_JSON = "summary.json"


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
    parser.add_argument("--trees", metavar="DIR",
                        help="solve-all's trees/ folder, whose roots tell which records are the problems' "
                             "root positions (default: solve-all/trees beside the records' folder, "
                             "when there is one)")
    parser.set_defaults(run=run)


def run(args) -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    from model.numpy_net import NumpyNet
    from model.predictions import predict_split
    from model.shards import UnreadableShard, check_shards
    from pipeline.formats.records import read_spec

    check_output_folder(args.out)
    if args.trees and not os.path.isdir(args.trees):
        raise CommandError(f"--trees {args.trees}: not a folder", code=2)
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
    trees = args.trees or default_trees(data)
    roots = root_names(trees) if trees else None
    os.makedirs(args.out, exist_ok=True)
    by_size = size_rows(predictions, args.bits)
    figures = summary_figures(predictions, args.bits, roots)
    sizes = {name: os.path.getsize(path) for name, path in paths.items()}
    write_table(args.out, "accuracy_by_size", by_size, title="Test error by size (AS)", notes=SIZE_NOTES)
    write_table(args.out, "accuracy_by_problem", problem_rows(predictions, args.bits),
                title="Accuracy by source problem")
    if bits_rows is not None:
        write_table(args.out, "bits", bits_rows_pivot(bits_rows),
                    title="Test error by bits a weight")
        plot_bits(bits_rows, os.path.join(args.out, "bits.png"))
    plot_by_size(by_size, args.bits, os.path.join(args.out, "accuracy_by_size.png"))
    plot_reliability({network["label"]: network["calibration"] for network in figures["networks"].values()},
                     os.path.join(args.out, "reliability.png"))
    if history is not None:
        plot_training(history, os.path.join(args.out, "training.png"), watched_label(spec))
    summary = summary_text(spec, data, figures, sizes, packed, args.split,
                           nets["packed"].header.get("scheme", ""), exclusion, trees, by_size)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(summary)
    with open(os.path.join(args.out, SUMMARY_JSON), "w") as f:
        json.dump({"data": data, "split": args.split, "trees": trees, "excluded": exclusion, **figures},
                  f, indent=1)
        f.write("\n")
    print(summary, end="")
    print(f"wrote {args.out}/: summary.md, {SUMMARY_JSON}, accuracy_by_size.md/.csv/.png, reliability.png, "
          "accuracy_by_problem.md/.csv, "
          + ("bits.md/.csv/.png, " if bits_rows is not None else
             f"no bits table (no {BITS_TABLE}: quantize ran with --no-table), " if "float" in nets else
             f"no bits table (no {BITS_TABLE}), ")
          + ("training.png" if history is not None else f"no training.png (no {HISTORY_FILE})"))
    return 0


def default_trees(data: str) -> str | None:
    """``solve-all/trees`` beside the records' folder, where ``make`` puts it, when it is there."""
    folder = os.path.join(os.path.dirname(os.path.abspath(data)), "solve-all", "trees")
    return folder if os.path.isdir(folder) else None


def root_names(trees: str) -> set[str]:
    """The file names of the subproblems every tree below ``trees`` grows from (each problem as
    given, with each side moving first); a tree file that cannot be read gets one line on
    stderr and is passed over."""
    from pipeline.formats.solution_tree import root_subproblems
    from pipeline.progress import progress_bar
    from solver.problem import ProblemError

    paths = sorted(os.path.join(folder, name) for folder, _, files in os.walk(trees)
                   for name in files if name.endswith(".sgf"))
    names = set()
    for path in progress_bar(paths, desc="reading the trees' roots", unit="tree", leave=False):
        try:
            with open(path, "rb") as f:
                names.update(root.name() for root in root_subproblems(f.read(), path))
        except (OSError, ProblemError) as exc:
            print(f"{path}: {getattr(exc, 'reason', exc)} (its roots are left out)", file=sys.stderr)
    return names
