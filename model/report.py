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
from dataclasses import dataclass

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


@dataclass(frozen=True)
class ReportOptions:
    """``tsumego report``'s options (:mod:`cli.report`)."""

    model: str                          # the model folder (or a packed network's with its model.json)
    out: str = "reports"
    data: str | None = None             # the records (None: the training data)
    split: str = "test"                 # one of REPORT_SPLITS
    bits: int = DEFAULT_BITS            # the packed file compared with float
    no_symmetries: bool = False
    exclude_problems: str | None = None  # a problem list whose records are left out
    trees: str | None = None            # solve-all's trees/ (None: beside the records, if there)


def write_report(settings: ReportOptions) -> int:
    """Evaluate the networks of ``settings.model`` and write the report into ``settings.out``; 0."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    from model.numpy_net import NumpyNet
    from model.predictions import predict_split
    from model.shards import UnreadableShard, check_shards
    from pipeline.formats.records import read_spec

    check_output_folder(settings.out)
    if settings.trees and not os.path.isdir(settings.trees):
        raise CommandError(f"--trees {settings.trees}: not a folder", code=2)
    excluded_ids = read_problem_list(settings.exclude_problems) if settings.exclude_problems else None
    try:
        spec = read_model_spec(settings.model)
        # A folder holding the packed network alone (the shipped one) has no training history,
        # no bits table and maybe no float file: what is there is reported on.
        history = None
        if os.path.exists(os.path.join(settings.model, HISTORY_FILE)):
            with open(os.path.join(settings.model, HISTORY_FILE)) as f:
                history = json.load(f)
        bits_rows = None   # none when quantize ran with --no-table
        if os.path.exists(os.path.join(settings.model, BITS_TABLE)):
            with open(os.path.join(settings.model, BITS_TABLE)) as f:
                bits_rows = json.load(f)["rows"]
        float_path, packed = packed_path(settings.model, FLOAT_BITS), packed_path(settings.model, settings.bits)
        paths = {"float": float_path, "packed": packed}
        if not os.path.exists(float_path):
            del paths["float"]   # the b-bit network is scored alone
        nets = {name: NumpyNet.load(path) for name, path in paths.items()}
    except (OSError, ValueError, KeyError) as exc:
        raise CommandError(f"{settings.model}: {exc} (run tsumego train and tsumego quantize first)") from exc
    data = settings.data or spec["data"]
    if settings.split == "all" and os.path.abspath(data) in [spec["data"], *spec.get("extra_train", [])]:
        raise CommandError(f"{data}: the network was trained on its records; --split all scores only "
                           "folders it never saw", code=2)
    what = "the test split" if settings.split == "test" else "the records"
    splits = ("test",) if settings.split == "test" else SPLITS
    try:
        check_shards(data, splits, read_spec(data))
        predictions = predict_split(data, splits, nets, symmetries=not settings.no_symmetries)
    except UnreadableShard as exc:
        raise CommandError(str(exc)) from exc
    except (OSError, ValueError) as exc:
        raise CommandError(f"{data}: cannot evaluate {what} ({exc})") from exc
    exclusion = None
    if excluded_ids is not None:
        left_out = np.isin(predictions.problem, excluded_ids)
        exclusion = {"file": settings.exclude_problems, "listed": len(set(excluded_ids)),
                     "problems": len(np.unique(predictions.problem[left_out])), "records": int(left_out.sum())}
        predictions = predictions.subset(~left_out)
    if predictions.safe.size == 0:
        raise CommandError(f"{data}: {what} {'is' if settings.split == 'test' else 'are'} empty"
                           + (" once the listed problems are left out" if exclusion else ""))
    trees = settings.trees or default_trees(data)
    roots = root_names(trees) if trees else None
    os.makedirs(settings.out, exist_ok=True)
    by_size = size_rows(predictions, settings.bits)
    figures = summary_figures(predictions, settings.bits, roots)
    sizes = {name: os.path.getsize(path) for name, path in paths.items()}
    write_table(settings.out, "accuracy_by_size", by_size, title="Test error by size (AS)", notes=SIZE_NOTES)
    write_table(settings.out, "accuracy_by_problem", problem_rows(predictions, settings.bits),
                title="Accuracy by source problem")
    if bits_rows is not None:
        write_table(settings.out, "bits", bits_rows_pivot(bits_rows),
                    title="Test error by bits a weight")
        plot_bits(bits_rows, os.path.join(settings.out, "bits.png"))
    plot_by_size(by_size, settings.bits, os.path.join(settings.out, "accuracy_by_size.png"))
    plot_reliability({network["label"]: network["calibration"] for network in figures["networks"].values()},
                     os.path.join(settings.out, "reliability.png"))
    if history is not None:
        plot_training(history, os.path.join(settings.out, "training.png"), watched_label(spec))
    summary = summary_text(spec, data, figures, sizes, packed, settings.split,
                           nets["packed"].header.get("scheme", ""), exclusion, trees, by_size)
    with open(os.path.join(settings.out, "summary.md"), "w") as f:
        f.write(summary)
    with open(os.path.join(settings.out, SUMMARY_JSON), "w") as f:
        json.dump({"data": data, "split": settings.split, "trees": trees, "excluded": exclusion, **figures},
                  f, indent=1)
        f.write("\n")
    print(summary, end="")
    print(f"wrote {settings.out}/: summary.md, {SUMMARY_JSON}, accuracy_by_size.md/.csv/.png, reliability.png, "
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
