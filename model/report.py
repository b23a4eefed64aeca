"""``tsumego report``: what a researcher needs to judge the trained network.

Evaluates the float and the b-bit packed networks (``tsumego quantize`` writes
both) on the test split (``all``: both splits of records never trained on)
with the numpy evaluator, also over the 8 symmetries of every window, and
writes:

* ``summary.md`` and ``summary.json``: accuracy, float and b-bit, beside the
  95.6% of the original dcnn-eval network; the mean over source problems; the
  accuracy on the problems' root positions (found through ``solve-all``'s
  trees, ``--trees``); the expected calibration error; sizes; training;
* ``accuracy_by_size.md/.csv/.png``: error by ``AS`` with 95% Wilson intervals
  and the record counts (``few records`` under ``MIN_RECORDS``);
* ``reliability.png``, ``bits.md/.csv/.png``, ``accuracy_by_problem.md/.csv``
  and ``training.png``.

``--exclude-problems FILE`` leaves the problems it lists out of every figure;
a folder holding a packed network alone (the shipped one) is reported on as
far as it goes.  The options are built in ``cli/report.py``; the figures are
computed in :mod:`model.report_stats`, written in :mod:`model.report_markdown`
and drawn in :mod:`model.report_plots`.  Every file and option: docs/model.md,
"Modules" (``tsumego report``).
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
