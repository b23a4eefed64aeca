"""``tsumego solve-all``: every problem into labelled subproblem SGFs, as a Beam pipeline.

``tsumego solve-all --problems DIR --out DIR [--max-depth 20] [--min-area 7]
[--max-nodes N] [--algo dfs|dfpn] [--no-end-state] [BEAM_OPTION...]`` expands each problem of
``--problems`` (every ``*.sgf`` below it; its id is the path relative to the
folder, without ``.sgf``) into two trees of status-changing moves, one per side
moving first (:mod:`pipeline.expand`), and writes under ``--out``:

- ``subproblems/<hash>.sgf``: one file per distinct position of all the trees
  (:mod:`pipeline.formats.subproblem`; ``GN`` is the problem id);
- ``trees/<problem-id>.sgf``: the problem's two trees (:mod:`pipeline.formats.solution_tree`);
- ``stats.md`` and ``stats.json``: safe and unsafe positions by area size
  (:mod:`pipeline.dataset_stats`), problems read = expanded + rejected;
- ``dead-letter.jsonl``: one ``{"problem", "file", "side", "reason"}`` per
  rejected problem (an unreadable file, an open wall, a solve over the node budget);
- ``settings.json``: the settings the trees were grown with
  (:class:`pipeline.expand.TreeSettings`);
- ``rejected/<problem-id>.<side>.json``: the sides over the node budget or the
  move cap, so that a rerun does not search them again (:mod:`pipeline.rejected_sides`).

Any option it does not know (``--runner``, ``--direct_num_workers 2``,
``--direct_running_mode multi_processing``, ``--project``, ...) goes to Beam
unchanged, as do the words after ``--``; the DirectRunner is the default.

An interrupted run keeps every side it finished, and a rerun in the same
folder (with the same settings) goes on from there; whatever changed in
``--problems``, the folder ends as a fresh run would leave it.

This module is the command alone, light to import so that ``tsumego``
starts without Beam; the pipeline, its steps and why they are cut that way
are in :mod:`pipeline.solve_all_pipeline`, imported when the command runs.
"""
from __future__ import annotations

import os
import sys

from pipeline.beam.options import add_stage_parser
from pipeline.batch import REJECTED
from pipeline.budgets import SOLVE_ALL_MAX_NODES
from pipeline.errors import CommandError
from pipeline.expand import TreeSettings
from pipeline.paths import check_apart, check_output_folder
from solver import ALGORITHMS, DEFAULT_MAX_AREA

DEFAULT_MAX_NODES = SOLVE_ALL_MAX_NODES   # (pipeline/budgets.py says where it was measured)


def cmd_solve_all(args) -> int:
    from pipeline.beam import storage
    from pipeline.solve_all_pipeline import Layout, record_settings, run_solve_all

    if min(args.max_depth, args.min_area, args.max_nodes, args.max_subproblems) < 0:
        args.parser.error("--max-depth, --min-area, --max-nodes and --max-subproblems must not be negative")
    if not storage.is_remote(args.problems) and not os.path.isdir(args.problems):
        raise CommandError(f"{args.problems}: not a folder of problem SGF files")
    check_output_folder(args.out)
    check_apart(args.out, "--out", args.problems, "--problems",
                "the run would read its own subproblems and trees back as problems")
    settings = TreeSettings(max_depth=args.max_depth, min_area=args.min_area, max_nodes=args.max_nodes,
                            max_area=args.max_area, algo=args.algo, end_state=not args.no_end_state,
                            max_subproblems=args.max_subproblems)
    if not storage.is_remote(args.out):
        os.makedirs(args.out, exist_ok=True)
    record_settings(Layout(args.out), settings)
    outcome = run_solve_all(args.problems, args.out, settings, args.beam_options,
                            progress=not args.no_progress)
    for row in outcome["dead"]:
        side = f" ({row['side']} first)" if row["side"] else ""
        print(f"error: {row['file']}{side}: {row['reason']}", file=sys.stderr)
    report, counters, seconds = outcome["report"], outcome["counters"], outcome["seconds"]
    problems, subs = report["problems"], report["subproblems"]

    def count(name: str):
        """A counter's value; "?" when the runner reports no counters (the rest comes from stats.json)."""
        return "?" if counters is None else counters.get(name, 0)

    print(f"solve-all: problems read {problems['read']} = expanded {problems['expanded']} "
          f"({count('problems_finished_before')} in earlier runs) + rejected {problems['rejected']} "
          f"({count('sides_rejected_before')} sides not searched again: rejected in earlier runs); "
          f"subproblems {subs['distinct']} distinct ({subs['safe']} safe, {subs['unsafe']} unsafe; "
          f"{count('subproblems_written')} written, {count('subproblems_unchanged')} "
          f"unchanged) from {subs['tree_nodes']} tree nodes ({subs['duplicates']} duplicates); "
          f"{count('solves')} solves, {count('search_nodes')} search nodes, "
          f"{count('moves_dropped_area_changed')} moves dropped as they change the area and "
          f"{count('moves_dropped_label_changed')} as the position read back has another label; "
          f"{count('sides_capped')} trees stopped at --max-subproblems; "
          f"{seconds:.1f} s, {subs['distinct'] / max(seconds, 1e-9):.1f} subproblems/s -> {args.out}")
    if problems["read"] == 0:
        raise CommandError(f"{args.problems}: no *.sgf files")
    # as every command: 1 when an input file was rejected (a side over the node budget is a
    # rejection of that side's tree, not of the file)
    return REJECTED if any(row["side"] is None for row in outcome["dead"]) else 0


def register(commands) -> None:
    parser = add_stage_parser(commands, "solve-all", help="expand every problem into labelled subproblem SGFs (Beam)")
    parser.add_argument("--problems", required=True, metavar="DIR", help="folder of problem SGF files")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="output folder (subproblems/, trees/, stats, dead letters)")
    parser.add_argument("--max-depth", type=int, default=20, help="moves from the problem (default 20)")
    parser.add_argument("--min-area", type=int, default=7,
                        help="expand only positions with at least this many empty area points (default 7)")
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES,
                        help="node budget per solve; a problem needing more is rejected (0: none)")
    parser.add_argument("--max-area", type=int, default=DEFAULT_MAX_AREA,
                        help="reject problems whose search area has more empty points")
    parser.add_argument("--algo", choices=ALGORITHMS, default="dfs", help="search that labels the nodes")
    parser.add_argument("--max-subproblems", type=int, default=0, metavar="N",
                        help="stop a side's tree at N nodes, shallow levels first (default 0: no cap)")
    parser.add_argument("--no-end-state", action="store_true",
                        help="write no end states (EB/EW: the board once the principal variation is played out)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(run=cmd_solve_all,
                        on_interrupt="rerun the same command to resume (the sides finished are kept)")
