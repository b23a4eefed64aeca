"""The figures of ``tsumego report``, computed from the networks' answers (no files, no text).

Everything here reads a :class:`model.predictions.SplitPredictions` and returns
rows or numbers: the error by size with its 95% Wilson interval, each source
problem's share right and their mean, the answers on the problems' root
positions, and how well P(safe) is calibrated.  :mod:`model.report_markdown`
writes them as text and :mod:`model.report_plots` draws them.

Why the intervals: a size with a handful of records gives an error that one
record moves by tens of points, and a bar chart draws it as tall as any other.
The Wilson interval (unlike the normal approximation) stays inside 0..1 and is
honest for small counts and for errors near 0, which is where a good network's
errors are.
"""
from __future__ import annotations

import math

import numpy as np

from model.packed import FLOAT_BITS
from model.quantize import SCHEMES

# The normal quantile of a two-sided 95% interval.
Z_95 = 1.959963984540054
# Below this many records a size's error is marked "few records" and drawn hollow: at 30
# records the 95% interval of a 10% error already spans 0.035..0.256, and one record moves
# the error by more than 3 points, more than the differences between sizes the table is read for.
MIN_RECORDS = 30
FEW_RECORDS = "few records"
# P(safe) is binned in this many bins of equal width for the reliability plot and the ECE.
CALIBRATION_BINS = 10


def wilson_interval(successes: int, count: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of the share ``successes / count`` (95% by default);
    (0, 1), no knowledge at all, when ``count`` is 0."""
    if count == 0:
        return 0.0, 1.0
    share = successes / count
    spread = z * z / count
    centre = (share + spread / 2) / (1 + spread)
    half = z * math.sqrt(share * (1 - share) / count + spread / (4 * count)) / (1 + spread)
    # at a share of 0 or 1 that bound is exactly 0 or 1, which rounding would miss by a hair
    return (0.0 if successes == 0 else centre - half), (1.0 if successes == count else centre + half)


def network_labels(predictions, bits: int) -> dict[str, str]:
    """The scored networks' names in the predictions and their labels in the tables, float first
    (the float network only when its file was there)."""
    return {name: label for name, label in (("float", "float"), ("packed", f"{bits}-bit"))
            if name in predictions.probability}


def size_rows(predictions, bits: int) -> list[dict]:
    """One row per AS value, then a total row: the count, each network's error with its 95%
    Wilson interval (the float columns only when the float network was scored), the error over
    the 8 symmetries when they were evaluated, the move head's misses, and ``few records``
    where the row has fewer than ``MIN_RECORDS``."""
    columns = network_labels(predictions, bits)
    errors = {name: predictions.errors(name) for name in columns}
    # over the 8 symmetries too, as tsumego eval answers, when they were evaluated
    turned = ({f"{column} (8 symmetries)": predictions.errors(name, symmetric=True)
               for name, column in columns.items()} if predictions.symmetric else {})
    wrong = {name: predictions.wrong_moves(name) for name in columns}
    rows = []
    groups = [(str(size), predictions.available_moves == size)
              for size in np.unique(predictions.available_moves)]
    for label, mask in groups + [("all", np.ones_like(errors["packed"]))]:
        count = int(mask.sum())
        row = {"size": label, "count": count}
        for name, column in columns.items():
            low, high = wilson_interval(int(errors[name][mask].sum()), count)
            row.update({f"error {column}": round(float(errors[name][mask].mean()), 4),
                        f"error {column} low": round(low, 4), f"error {column} high": round(high, 4)})
        rows.append({
            **row,
            **{f"error {column}": round(float(error[mask].mean()), 4) for column, error in turned.items()},
            "with move": int(predictions.has_move[mask].sum()),
            **{f"wrong moves {column}": int(wrong[name][mask].sum()) for name, column in columns.items()},
            "note": FEW_RECORDS if count < MIN_RECORDS else "",
        })
    return rows


def few_record_sizes(rows: list[dict]) -> list[str]:
    """The sizes of ``size_rows`` marked ``few records`` (not the total)."""
    return [row["size"] for row in rows if row["size"] != "all" and row["note"] == FEW_RECORDS]


def problem_rows(predictions, bits: int) -> list[dict]:
    """One row per source problem, in id order: its records, how many safe, and the share right
    of each network (and over the 8 symmetries, when they were evaluated)."""
    columns = network_labels(predictions, bits)
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


def calibration_bins(probability: np.ndarray, safe: np.ndarray, bins: int = CALIBRATION_BINS) -> list[dict]:
    """P(safe) cut into ``bins`` bins of equal width (the last one holding 1.0): for each bin with
    records, its bounds, its records, their mean P(safe), the share of them safe and that
    share's 95% Wilson interval."""
    probability = np.asarray(probability, np.float64)
    index = np.minimum((probability * bins).astype(np.int64), bins - 1)
    rows = []
    for b in range(bins):
        inside = index == b
        count = int(inside.sum())
        if not count:
            continue
        observed = int(safe[inside].sum())
        low, high = wilson_interval(observed, count)
        rows.append({"low": b / bins, "high": (b + 1) / bins, "count": count,
                     "predicted": float(probability[inside].mean()), "observed": observed / count,
                     "observed_low": low, "observed_high": high})
    return rows


def expected_calibration_error(bins: list[dict]) -> float:
    """The bins' gaps between the share safe and the mean P(safe), weighted by their records."""
    total = sum(row["count"] for row in bins)
    return sum(row["count"] * abs(row["observed"] - row["predicted"]) for row in bins) / total


def root_mask(predictions, roots: set[str]) -> np.ndarray:
    """bool [N]: the records whose subproblem file is one of ``roots`` (file names)."""
    return np.isin(predictions.subproblem, sorted(roots))


def root_accuracy(predictions, roots: set[str], name: str, symmetric: bool = False) -> dict:
    """How often the network's P(safe) is on the right side of 0.5 on the records that are a
    root position (``roots``: their file names), over both sides and for each side moving
    first: ``{"records", "right", "accuracy", "attacker_first": {...}, "defender_first": {...}}``
    (accuracy None where there is no such record)."""
    mask = root_mask(predictions, roots)
    right = ~predictions.errors(name, symmetric)

    def share(where):
        count = int(where.sum())
        hits = int(right[where].sum())
        return {"records": count, "right": hits, "accuracy": hits / count if count else None}

    return {**share(mask), "attacker_first": share(mask & (predictions.defender_first == 0)),
            "defender_first": share(mask & (predictions.defender_first == 1))}


def root_counts(predictions, roots: set[str]) -> dict:
    """The root records among the scored ones: how many, of how many problems, and how many of
    those problems have both sides' roots there."""
    mask = root_mask(predictions, roots)
    problems, sides = np.unique(predictions.problem[mask], return_counts=True)
    return {"records": int(mask.sum()), "problems": len(problems), "both_sides": int((sides >= 2).sum())}


def summary_figures(predictions, bits: int, roots: set[str] | None = None) -> dict:
    """Every figure of the summary, per network (keyed as in the predictions: ``float``,
    ``packed``): accuracy over the records (with its 95% interval) and the mean over the
    problems, calibration (bins and ECE), each over the 8 symmetries too when they were
    evaluated (``..._symmetries``), end-state accuracy and, given the root positions' file
    names, the accuracy on them; then the move head's and the roots' counts.  What
    ``summary.json`` holds."""
    symmetries = bool(predictions.symmetric)
    labels = network_labels(predictions, bits)
    networks = {}
    problems = 0
    for name, label in labels.items():
        errors = predictions.errors(name)
        mean, problems = mean_over_problems(predictions.problem, errors)
        bins = calibration_bins(predictions.probability[name], predictions.safe)
        figures = {
            "label": "float32" if name == "float" else label,
            "accuracy": float(1 - errors.mean()),
            "accuracy_interval": list(wilson_interval(int((~errors).sum()), errors.size)),
            "mean_over_problems": mean,
            "end_state_accuracy": predictions.end_state_accuracy(name),
            "expected_calibration_error": expected_calibration_error(bins),
            "calibration": bins,
        }
        if symmetries:
            turned = predictions.errors(name, symmetric=True)
            turned_bins = calibration_bins(predictions.symmetric[name], predictions.safe)
            figures.update(
                accuracy_symmetries=float(1 - turned.mean()),
                mean_over_problems_symmetries=mean_over_problems(predictions.problem, turned)[0],
                expected_calibration_error_symmetries=expected_calibration_error(turned_bins),
                calibration_symmetries=turned_bins)
        if roots is not None:
            figures["roots"] = root_accuracy(predictions, roots, name)
            if symmetries:
                figures["roots_symmetries"] = root_accuracy(predictions, roots, name, symmetric=True)
        networks[name] = figures
    moves = int(predictions.has_move.sum())
    move_network = "float" if "float" in labels else "packed"
    wrong_moves = int(predictions.wrong_moves(move_network).sum())
    return {
        "records": int(predictions.safe.size),
        "safe": int(predictions.safe.sum()),
        "problems": problems,
        "bits": bits,
        "symmetries": symmetries,
        "networks": networks,
        "move_head": {"network": move_network, "records": moves,
                      "accuracy": 1 - wrong_moves / moves if moves else None},
        "end_state": None if predictions.end_state_points is None else {
            "points": int(predictions.end_state_points.sum()),
            "records": int((predictions.end_state_points > 0).sum())},
        "roots": None if roots is None else root_counts(predictions, roots),
        "min_records": MIN_RECORDS,
        "calibration_bins": CALIBRATION_BINS,
    }
