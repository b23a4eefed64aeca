"""The text of ``tsumego report``: its tables as Markdown and CSV, and ``summary.md``.

The figures come computed from :mod:`model.report_stats`; this module only
words and lays them out, so the summary's Markdown and ``summary.json`` tell
the same numbers.
"""
from __future__ import annotations

import csv
import os
from collections import Counter

from model.report_stats import CALIBRATION_BINS, FEW_RECORDS, MIN_RECORDS, few_record_sizes
from pipeline.markdown import markdown_table

# The best accuracy of the original dcnn-eval network (one residual block, F = 13,
# on its own random split), the figure every report is read against.
DCNN_EVAL_ACCURACY = 0.956

# Under the error-by-size table: how to read its intervals and marks.
SIZE_NOTES = [
    "`low` and `high`: the 95% Wilson interval of the error.  "
    f"`{FEW_RECORDS}`: fewer than {MIN_RECORDS} records, an error too uncertain to compare with "
    "the others' (drawn hollow in `accuracy_by_size.png`).",
]


def write_table(folder: str, name: str, rows: list[dict], title: str, notes: list[str] = ()) -> None:
    """``name.csv`` and ``name.md`` with the same rows; ``notes``, paragraphs under the
    Markdown table."""
    headers = list(rows[0])
    with open(os.path.join(folder, f"{name}.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, headers, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    cells = [[f"{row[h]:.4f}" if isinstance(row[h], float) else row[h] for h in headers] for row in rows]
    lines = [f"# {title}", "", *markdown_table(headers, cells, align="r" * len(headers))]
    for note in notes:
        lines += ["", note]
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


def _share(part: dict) -> str:
    """``0.9200 (46 of 50)``, or ``none`` without records."""
    if not part["records"]:
        return "none"
    return f"{part['accuracy']:.4f} ({part['right']} of {part['records']})"


def roots_and_calibration(figures: dict, trees: str | None) -> list[str]:
    """The summary's lines on the root positions and the calibration of P(safe)."""
    networks = figures["networks"]
    symmetries = figures["symmetries"]
    roots = figures["roots"]
    with_roots = bool(roots and roots["records"])
    if with_roots:
        roots_words = (
            f"Roots: {roots['records']} of the records are a problem as given, one side or the other "
            f"moving first (the positions the trees in `{trees}` grow from, found among the records "
            f"by file name), from {roots['problems']} of the {figures['problems']} problems, "
            f"{roots['both_sides']} of them with both sides.  A root is right when its P(safe) is on "
            "the right side of 0.5.")
    elif trees is None:
        roots_words = ("No root accuracy: the records do not say which of them is a problem's root "
                       "position, and no trees folder was given (`--trees`, solve-all's `trees/`) "
                       "or found beside the records.")
    else:
        roots_words = (f"No root accuracy: none of the records is the root of a tree in `{trees}` "
                       "(the records' problems were not grown there, or their roots were left out).")
    header = ["network"]
    if with_roots:
        header += ["roots right", "attacker first", "defender first"]
    header += ["ECE"]
    if symmetries:
        header += [*(["roots right, 8 symmetries"] if with_roots else []), "ECE, 8 symmetries"]
    rows = []
    for name, network in networks.items():
        row = [network["label"]]
        if with_roots:
            row += [_share(network["roots"]), _share(network["roots"]["attacker_first"]),
                    _share(network["roots"]["defender_first"])]
        row += [f"{network['expected_calibration_error']:.4f}"]
        if symmetries:
            row += [*([_share(network["roots_symmetries"])] if with_roots else []),
                    f"{network['expected_calibration_error_symmetries']:.4f}"]
        rows.append(row)
    return [
        roots_words + f"  ECE, the expected calibration error: P(safe) cut into {CALIBRATION_BINS} "
        "bins of equal width, the gap between each bin's share of safe records and its mean "
        "P(safe), weighted by its records (0 for a network whose P(safe) is the chance of being "
        "safe; `reliability.png` draws the bins).",
        "",
        *markdown_table(header, rows),
        "",
    ]


def few_records_note(rows: list[dict]) -> list[str]:
    """The summary's line naming the sizes of the error-by-size ``rows`` with few records, or nothing."""
    few = few_record_sizes(rows)
    if not few:
        return []
    counts = {row["size"]: row["count"] for row in rows}
    return [f"Sizes with fewer than {MIN_RECORDS} records, whose error is too uncertain to read "
            f"(`{FEW_RECORDS}` in `accuracy_by_size.md`, hollow in its plot): "
            + ", ".join(f"{size} ({counts[size]} records)" for size in few) + ".", ""]


def summary_text(spec: dict, data: str, figures: dict, sizes: dict, packed: str, split: str = "test",
                 scheme: str = "", exclusion: dict | None = None, trees: str | None = None,
                 by_size: list[dict] = ()) -> str:
    """``summary.md``: the figures of :func:`model.report_stats.summary_figures` in words (and
    the sizes of the error-by-size rows ``by_size`` with few records)."""
    networks = figures["networks"]
    bits = figures["bits"]
    # no float network: a folder holding the b-bit file alone, as the shipped network's
    has_float = "float" in networks
    packed_accuracy = networks["packed"]["accuracy"]
    float_accuracy = networks["float"]["accuracy"] if has_float else None
    symmetries = figures["symmetries"]
    # The end-state column, beside the value's, when the networks have the head and some
    # record has an end state to score it on.
    end_state_column = any(network["end_state_accuracy"] is not None for network in networks.values())

    def symmetric_cell(name):
        return [f"{networks[name]['accuracy_symmetries']:.4f}"] if symmetries else []

    def end_state_cell(name):
        if not end_state_column:
            return []
        accuracy = networks[name]["end_state_accuracy"]
        return [f"{accuracy:.4f}" if accuracy is not None else ""]

    table = markdown_table(
        ["network", "accuracy", *(["with the 8 symmetries"] if symmetries else []),
         *(["end-state accuracy"] if end_state_column else []), "file bytes"],
        [*([["float32", f"{float_accuracy:.4f}", *symmetric_cell("float"), *end_state_cell("float"),
             sizes["float"]]] if has_float else []),
         [f"{bits}-bit (`{os.path.basename(packed)}`{f', {scheme} ranges' if scheme else ''})",
          f"{packed_accuracy:.4f}", *symmetric_cell("packed"), *end_state_cell("packed"), sizes["packed"]],
         ["dcnn-eval (its own random split)", f"{DCNN_EVAL_ACCURACY:.4f}",
          *([""] if symmetries else []), *([""] if end_state_column else []), ""]])
    end_state_note = []
    if end_state_column:
        end_state_note = [
            f"End-state accuracy: the share of the {figures['end_state']['points']} points "
            f"inside the board, over every window of the {figures['end_state']['records']} records with "
            "an end state, whose owner at the end of the principal variation (empty, the target's "
            "colour, the other colour) the end-state head gets right.", ""]
    per_problem = []
    for name, network in networks.items():
        label = "float" if name == "float" else f"{bits}-bit"
        per_problem.append(f"{label} {network['mean_over_problems']:.4f}")
        if symmetries:
            per_problem[-1] += f" ({network['mean_over_problems_symmetries']:.4f} with the 8 symmetries)"
    problems_note = [f"Mean over the {figures['problems']} source problems (each problem's share of its "
                     f"records right, averaged, so a large tree weighs as much as a small one): "
                     f"{', '.join(per_problem)}.", ""]
    move_head = figures["move_head"]
    move_label = "float" if move_head["network"] == "float" else f"{bits}-bit"
    move_accuracy = move_head["accuracy"] if move_head["accuracy"] is not None else float("nan")
    options = spec["options"]
    return "\n".join([
        "# Summary",
        "",
        (f"Test split of `{data}` ({spec.get('split', 'problem')} split): " if split == "test" else
         f"Every record of `{data}` (both splits; the network trained on none of them): ")
        + (f"leaving out the {exclusion['records']} records of {exclusion['problems']} problems "
           f"listed in `{exclusion['file']}` ({exclusion['listed']} listed), " if exclusion else "")
        + f"{figures['records']} records, {figures['safe']} safe.  A record's "
        "P(safe) is the mean over its windows, one centred on each stone of the target block, "
        "as `tsumego eval` answers; the move head is read on the first window."
        + ("  The second accuracy averages each window over the 8 symmetries of the square as "
           "well, as `tsumego eval` does unless `--no-symmetries`, at 8 times the cost." if symmetries else
           "  (Not evaluated over the 8 symmetries: `--no-symmetries`.)"),
        "",
        *table,
        "",
        *problems_note,
        *end_state_note,
        (f"{bits}-bit minus float: {100 * (packed_accuracy - float_accuracy):+.2f} points. " if has_float
         else f"The {bits}-bit network alone: no float network (`model-float.tsq`) beside it. ")
        + f"Move head ({move_label}): top point is the `TR` move in {move_accuracy:.4f} of the "
        f"{move_head['records']} records with one inside the window.",
        "",
        *roots_and_calibration(figures, trees),
        *few_records_note(list(by_size)),
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
