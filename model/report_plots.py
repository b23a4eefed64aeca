"""The figures of ``tsumego report`` (matplotlib, drawn off screen): error by size, the bits
table, calibration and the training curves.

Each function takes rows already computed (:mod:`model.report_stats`, ``history.json``,
``bits.json``) and writes one PNG.
"""
from __future__ import annotations

import numpy as np

from model.packed import FLOAT_BITS
from model.quantize import SCHEMES
from model.report_stats import FEW_RECORDS, MIN_RECORDS

FEW_COLOUR = "0.6"   # grey: the bars and intervals of sizes with few records


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_by_size(rows: list[dict], bits: int, path: str) -> None:
    """The error of each size as bars with their 95% Wilson intervals, float and b-bit side by
    side (the b-bit network alone when there is no float column), and the records of each size
    on a second axis.  A size with fewer than ``MIN_RECORDS`` records is drawn hollow and grey:
    its error is too uncertain to stand beside the others'."""
    plt = _pyplot()
    from matplotlib.patches import Patch

    rows = [row for row in rows if row["size"] != "all"]
    sizes = np.array([int(row["size"]) for row in rows])
    few = np.array([row["note"] == FEW_RECORDS for row in rows])
    columns = ["float", f"{bits}-bit"] if "error float" in rows[0] else [f"{bits}-bit"]
    offsets = [-0.2, 0.2] if len(columns) == 2 else [0.0]
    fig, errors = plt.subplots(figsize=(7, 4))
    for index, (column, offset) in enumerate(zip(columns, offsets)):
        colour = f"C{index}"
        error = np.array([row[f"error {column}"] for row in rows])
        spread = np.array([[row[f"error {column}"] - row[f"error {column} low"] for row in rows],
                           [row[f"error {column} high"] - row[f"error {column}"] for row in rows]])
        for part, style in ((~few, dict(color=colour, label=column)),
                            (few, dict(facecolor="none", edgecolor=FEW_COLOUR, hatch="//"))):
            if part.any():
                errors.bar(sizes[part] + offset, error[part], 0.4, **style)
                errors.errorbar(sizes[part] + offset, error[part], yerr=spread[:, part], fmt="none",
                                ecolor="k" if style.get("color") else FEW_COLOUR, capsize=3, linewidth=1)
    errors.set_xlabel("size (available moves, AS)")
    errors.set_ylabel("test error (95% Wilson interval)")
    errors.set_ylim(0, min(1.0, max(row[f"error {column} high"] for row in rows for column in columns) * 1.1
                           or 1.0))
    counts = errors.twinx()
    counts.plot(sizes, [row["count"] for row in rows], "k.:", label="records")
    counts.set_ylabel("records")
    handles, _ = errors.get_legend_handles_labels()
    if few.any():
        handles.append(Patch(facecolor="none", edgecolor=FEW_COLOUR, hatch="//",
                             label=f"fewer than {MIN_RECORDS} records"))
    errors.legend(handles=handles, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_reliability(bins: dict[str, list[dict]], path: str) -> None:
    """A reliability diagram: for each network (label -> its calibration bins), the share of
    safe records of each bin of P(safe) against the bin's mean P(safe), with its 95% Wilson
    interval, beside the diagonal of a calibrated network; below, the records of each bin
    (the networks' bars side by side inside it)."""
    plt = _pyplot()
    fig, (reliability, counts) = plt.subplots(2, 1, figsize=(6, 6), sharex=True,
                                              gridspec_kw={"height_ratios": [3, 1]})
    reliability.plot([0, 1], [0, 1], "k--", linewidth=1, label="calibrated")
    width = 0.1 / max(1, len(bins))
    for index, (label, rows) in enumerate(bins.items()):
        predicted = np.array([row["predicted"] for row in rows])
        observed = np.array([row["observed"] for row in rows])
        spread = np.array([observed - [row["observed_low"] for row in rows],
                           [row["observed_high"] for row in rows] - observed])
        reliability.errorbar(predicted, observed, yerr=spread, fmt="o-", capsize=3, label=label,
                             color=f"C{index}")
        lows = np.array([row["low"] for row in rows])
        counts.bar(lows + width * (index + 0.5), [row["count"] for row in rows], width,
                   color=f"C{index}", label=label)
    reliability.set_ylabel("share safe (95% Wilson interval)")
    reliability.set_xlim(0, 1)
    reliability.set_ylim(0, 1)
    reliability.legend(loc="upper left")
    counts.set_xlabel("P(safe)")
    counts.set_ylabel("records")
    counts.set_xticks(np.linspace(0, 1, 11))
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
