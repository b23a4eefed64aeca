"""Feature throughput: subproblems per second on one core, per plane group, in total and end to end.

    python -m bench.features_bench [--problems ../shared/sgf-problems]
                                   [--subproblems out/solve-all/subproblems] [--repeats 5]
                                   [--workers 1 2] [--no-stage]

Reads the subproblem SGFs of ``--subproblems`` when that folder exists (the
output of ``tsumego solve-all``); otherwise derives subproblems from the
problems of ``--problems``: each root position and the positions after one
move of either side inside the search area, each with both sides to move,
written as subproblem SGFs to a temporary folder and read back (their labels
are made up, consistent but not solved: the stage needs labels, the timing
not their truth).

Prints, as the median over ``--repeats`` passes of CPU time of this process
(one thread, so per core):

- reading a file as solve-all writes it (``parse_subproblem``, which takes
  the fast reader ``read_written_subproblem``), and through sgfmill
  (``parse_with_sgfmill``, which every other file takes), once per file;
- the planes of the original dcnn-eval network cut into windows
  (``subproblem_windows`` with the groups of ``pipeline.planes.basic``; "dcnn-eval
  planes" in the output), the target being 5,000 subproblems/s/core;
- all planes cut into windows with the end states (``labelled_windows``,
  what the stage cuts), serialising the record (``example_bytes``), framing
  and deflating it as a piece of its shard (``deflated_piece``) and joining
  the piece into a shard (``ZlibPieceWriter``), these on the first 2,000
  subproblems;
- the cost of each part alone: the board analysis (``board_view``), each plane
  group (marked ``*`` when added to dcnn-eval's), and the windowing.

Then the stage end to end, ``tsumego features`` on the whole folder as a
command runs it, once with each number of ``--workers`` (1: Beam's
in-process runner; more: its multi_processing mode, a process each), and
once on one file (the start-up every run pays): wall seconds, CPU seconds of
the command and its worker processes, and the subproblems per second of each,
per CPU second being "a second a core"; the target is 2,000 a second a core.
"""
from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from pipeline.errors import CommandError
from pipeline.planes.board_view import board_view
from pipeline.planes import PLANE_GROUPS, board_planes
from pipeline.formats.subproblem import Subproblem, parse_subproblem, parse_with_sgfmill
from pipeline.planes.windows import cut_windows, labelled_windows, subproblem_windows
from solver import ProblemError, Solver, load_problem

# The planes of the original dcnn-eval network, the set the throughput target is for.
DCNN_EVAL_PLANES_MODULE = "pipeline.planes.basic"
TARGET_PER_SECOND = 5_000
# The features stage end to end: the rate it aims at, per CPU second.
STAGE_TARGET_PER_SECOND = 2_000
MOVES_PER_PROBLEM = 6
# Subproblems whose records are made and written for the two rows of records.
RECORD_SAMPLE = 2_000
REPOSITORY = Path(__file__).resolve().parents[1]


def derive_subproblems(problems: Path, folder: Path) -> None:
    """Write subproblem SGFs derived from each problem of ``problems`` into ``folder``."""
    for path in sorted(problems.rglob("*.sgf")):
        try:
            problem = load_problem(path)
            solver = Solver(problem)
        except ProblemError:
            continue
        source = str(path.relative_to(problems).with_suffix(""))
        lines = [[]] + [[(move, color)] for move in solver.moves()[:MOVES_PER_PROBLEM]
                        for color in (problem.attacker, problem.defender)]
        for line in lines:
            if not all(solver.play(*move, color) for move, color in line):
                continue
            if not solver.target_captured():
                for to_play in (problem.attacker, problem.defender):
                    sub = Subproblem(size=problem.size, stones=solver.board.to_array(), target=problem.target,
                                     to_play=to_play, available_moves=solver.area_size, source=source,
                                     safe=to_play == problem.defender)   # made up: the stage needs a label
                    (folder / sub.name()).write_text(sub.to_sgf())
            for _ in line:
                solver.take_back()


def per_second(work, items, repeats: int) -> float:
    """Items per CPU second of ``work`` over ``items``: the median of ``repeats`` passes."""
    work(items[0])  # warm-up: numba kernels load from their cache
    rates = []
    for _ in range(repeats):
        started = time.process_time()
        for item in items:
            work(item)
        rates.append(len(items) / (time.process_time() - started))
    return statistics.median(rates)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", default="../shared/sgf-problems")
    parser.add_argument("--subproblems", default="out/solve-all/subproblems")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                        help="run the stage end to end with each of these numbers of workers (default 1 2)")
    parser.add_argument("--no-stage", action="store_true", help="leave out the stage end to end")
    args = parser.parse_args(argv)
    try:
        return measure(args)
    except CommandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.code


def measure(args) -> int:
    """Print the tables for the subproblems ``args`` names; returns the exit code."""
    with tempfile.TemporaryDirectory(prefix="features-bench-") as scratch:
        folder = Path(args.subproblems)
        if folder.is_dir() and any(folder.glob("*.sgf")):
            origin = f"subproblems of {folder}"
        else:
            folder = Path(scratch)
            derive_subproblems(Path(args.problems), folder)
            origin = f"subproblems derived from {args.problems} (roots and one move, both sides to play)"
        files = sorted(folder.glob("*.sgf"))
        data = [(f.read_bytes(), str(f)) for f in files]
        planes_rate = per_subproblem(args, data, origin)
        if not args.no_stage:
            stage_end_to_end(folder, args.workers, planes_rate)
    return 0


def per_subproblem(args, data: list[tuple[bytes, str]], origin: str) -> float:
    """The first two tables: each step alone, per subproblem, in this process; returns the rate
    of all planes with their windows."""
    subs = []
    for raw, name in data:
        try:
            subs.append(parse_subproblem(raw, name))
        except ProblemError as exc:
            print(f"skipped: {exc}")
    if not subs:
        raise CommandError("no subproblems to measure")
    print(f"{len(subs)} {origin}")

    base_groups = [g for g in PLANE_GROUPS if g.module == DCNN_EVAL_PLANES_MODULE]
    base_planes = sum(len(g.planes) for g in base_groups)
    all_planes = sum(len(g.planes) for g in PLANE_GROUPS)
    rows = [("read SGF as written (parse_subproblem)", per_second(lambda d: parse_subproblem(*d), data, args.repeats)),
            ("read SGF with sgfmill (parse_with_sgfmill)",
             per_second(lambda d: parse_with_sgfmill(*d), data, args.repeats))]
    base_rate = per_second(lambda s: subproblem_windows(s, base_groups), subs, args.repeats)
    rows.append((f"dcnn-eval planes + windows ({base_planes} planes)", base_rate))
    planes_rate = per_second(labelled_windows, subs, args.repeats)
    rows.append((f"all planes + windows + end states ({all_planes} planes)", planes_rate))

    import io

    from pipeline.formats.records import example_bytes
    from pipeline.formats.tfrecord import ZlibPieceWriter, deflated_piece

    # (a sample: the records of a whole solve-all folder would take gigabytes)
    records = [(labelled_windows(s), s) for s in subs[:RECORD_SAMPLE]]
    rows.append(("serialise a record (example_bytes)", per_second(
        lambda r: example_bytes(r[0][0], 0, r[0][1], 0, int(r[1].defender_first), r[1].source, "x",
                                end_states=r[0][2]), records, args.repeats)))
    serialised = [example_bytes(r[0][0], 0, r[0][1], 0, int(r[1].defender_first), r[1].source, "x",
                                end_states=r[0][2]) for r in records]
    shard = ZlibPieceWriter(io.BytesIO())
    rows.append(("frame and deflate it (deflated_piece)", per_second(deflated_piece, serialised, args.repeats)))
    pieces = [deflated_piece(record) for record in serialised]
    rows.append(("join it into a ZLIB shard (ZlibPieceWriter)", per_second(shard.write, pieces, args.repeats)))

    print(f"\n{'per subproblem, one core':48s} {'per second':>12s} {'µs each':>9s}")
    for label, rate in rows:
        print(f"{label:48s} {rate:12,.0f} {1e6 / rate:9.1f}")
    verdict = "meets" if base_rate >= TARGET_PER_SECOND else "MISSES"
    print(f"dcnn-eval planes + windows {verdict} the target of {TARGET_PER_SECOND:,}/s/core")

    views = [board_view(s) for s in subs]
    parts = [("board analysis (board_view)", per_second(board_view, subs, args.repeats))]
    for group in PLANE_GROUPS:
        added = group.module != DCNN_EVAL_PLANES_MODULE
        label = f"  {group.name} ({len(group.planes)}){' *' if added else ''}"
        parts.append((label, per_second(lambda v, g=group: board_planes(v, [g]), views, args.repeats)))
    parts.append(("  (the registry's overhead alone)", per_second(lambda v: board_planes(v, []), views, args.repeats)))
    cuts = [(board_planes(v), *np.nonzero(v.target)) for v in views]
    parts.append((f"windowing ({all_planes} planes)", per_second(lambda c: cut_windows(*c), cuts, args.repeats)))
    heading = "cost of each part (* added to dcnn-eval's planes)"
    print(f"\n{heading:48s} {'per second':>12s} {'µs each':>9s}")
    for label, rate in parts:
        print(f"{label:48s} {rate:12,.0f} {1e6 / rate:9.1f}")
    print("each group's row includes the registry's overhead")
    return planes_rate


def run_stage(folder: Path, workers: int) -> tuple[int, float, float]:
    """``tsumego features`` on ``folder`` with ``workers`` workers, as a command: (files read,
    wall seconds, CPU seconds of the command and its worker processes)."""
    out = Path(tempfile.mkdtemp(prefix="features-bench-stage-"))
    command = [sys.executable, "-m", "cli", "features", "--subproblems", str(folder), "--out", str(out),
               "--no-progress", "--direct_num_workers", str(workers)]
    if workers > 1:
        command += ["--direct_running_mode", "multi_processing"]
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        run = subprocess.run(command, cwd=REPOSITORY, capture_output=True, text=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spec = out / "features.json"
        if not spec.exists():   # (exit code 1 only says some file was rejected)
            raise CommandError(f"the features stage failed ({run.returncode}): {run.stderr.strip()[-2000:]}")
        read = json.loads(spec.read_text())["counts"]["read"]
    finally:
        shutil.rmtree(out, ignore_errors=True)
    # The workers are the command's children, waited for: their time is in RUSAGE_CHILDREN too.
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return read, wall, cpu


def stage_end_to_end(folder: Path, workers: list[int], planes_rate: float) -> None:
    """The third table: the stage as a command, on the whole folder and on one file."""
    with tempfile.TemporaryDirectory(prefix="features-bench-one-") as one:
        first = next(iter(sorted(folder.glob("*.sgf"))))
        shutil.copy(first, Path(one) / first.name)
        _, start_wall, start_cpu = run_stage(Path(one), 1)
    rows = []
    for count in workers:
        read, wall, cpu = run_stage(folder, count)
        rows.append((f"{count} worker{'s' if count > 1 else ''}", read, wall, cpu))
    heading = f"tsumego features end to end, {rows[0][1]:,} files"
    print(f"\n{heading:48s} {'per second':>12s} {'per CPU s':>10s} {'wall s':>8s} {'CPU s':>8s}")
    for label, read, wall, cpu in rows:
        print(f"{label:48s} {read / wall:12,.0f} {read / cpu:10,.0f} {wall:8.1f} {cpu:8.1f}")
    print(f"{'start-up alone (a run on one file)':48s} {'':12s} {'':10s} {start_wall:8.1f} {start_cpu:8.1f}")
    print(f"{'all planes + windows alone, for comparison':48s} {'':12s} {planes_rate:10,.0f}")
    best = max(read / cpu for _, read, _, cpu in rows)
    verdict = "meets" if best >= STAGE_TARGET_PER_SECOND else "MISSES"
    print(f"the stage {verdict} the target of {STAGE_TARGET_PER_SECOND:,} subproblems a second a core "
          "(per CPU second: the command and its workers)")


if __name__ == "__main__":
    raise SystemExit(main())
