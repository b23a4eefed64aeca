"""``tsumego enclose``: open-board problems (a book's corner, no wall, no target) into enclosed ones.

``tsumego enclose FILE_OR_DIR... --out DIR [--max-nodes N] [--max-area N] [--seconds S [--zones]]
[--guide FILE.tsq|MODEL_DIR | --no-guide] [--move-patterns FILE | --no-patterns]
[BEAM_OPTION...]`` frames each
problem (:mod:`pipeline.enclose.frame`), infers its target and goal
(:mod:`pipeline.enclose.question`), checks the book's first move with the
solver (its moves ordered by the shipped network, or the one ``--guide``
names: more problems settle within the budget, the same answers) and writes,
under ``--out``:

- ``<id>.sgf``: each enclosed problem, ``IN/<collection>/<number>.sgf`` as
  ``DIR/<collection>/<number>.sgf`` (a file given alone keeps its name);
- ``enclose.jsonl``: one line per input, its outcome and why;
- ``summary.md``: the outcomes per collection (read = enclosed + each
  rejection) and the enclosed problems' area sizes;
- ``records/<id>.json``: each problem's line, the mark that it is done: a
  rerun over the same folder skips the problems whose file and settings are
  unchanged.

Options it does not know go to Beam, as for ``solve-all``.  Light to import:
the pipeline is in :mod:`pipeline.enclose.stage`.  The guide options are the
command line's (:func:`cli.guide.add_guide_options`): it hands the stage a
loader of the network (``args.stage_guide``), since ``pipeline`` may not
import ``model``; without the command line the stage runs unguided.
"""
from __future__ import annotations

import os
import sys
from collections import Counter

from pipeline.beam.options import add_stage_parser
from pipeline.enclose import question
from pipeline.batch import REJECTED
from pipeline.budgets import ENCLOSE_MAX_NODES
from pipeline.errors import CommandError
from pipeline.paths import check_apart, check_output_folder
from pipeline.pattern_options import add_pattern_options, patterns_from_args, patterns_setting
from solver import ALGORITHMS, DEFAULT_MAX_AREA

# A solve's node budget: the table's (pipeline/budgets.py, with the runs that chose it).
DEFAULT_MAX_NODES = ENCLOSE_MAX_NODES


def record_settings(max_nodes: int = DEFAULT_MAX_NODES, max_area: int = DEFAULT_MAX_AREA,
                    guide_name: str | None = None, algo: str = "dfs", patterns: str | None = None,
                    guide_after: int = question.GUIDE_AFTER, seconds: float | None = None,
                    zones: bool = False) -> dict:
    """The settings a problem's record is kept under (its fingerprint's): a record made under
    others is redone.  A default left out keeps the records made before it was a setting."""
    # the reading's version: the records made by an earlier way of reading are checked on a
    # sample, then kept or redone (pipeline/enclose/reading_check.py)
    settings = {"max_nodes": max_nodes, "max_area": max_area, "reading": question.READING_VERSION}
    if guide_name is not None:
        settings["guide"] = guide_name   # a record made with another guide (or none) is redone
        if guide_after != question.GUIDE_AFTER:
            settings["guide_after"] = guide_after
    if algo != "dfs":
        settings["algo"] = algo
    if patterns is not None:
        settings["patterns"] = patterns
    if seconds is not None:
        settings["seconds"] = seconds   # the problem's CPU time (stage.final_at_any_effort)
    if zones:
        settings["zones"] = True        # relevance zones in the time that --seconds gives
    return settings


def cmd_enclose(args) -> int:
    from pipeline.beam import storage
    from pipeline.enclose.outcome import OUTCOMES
    from pipeline.enclose.stage import run_enclose

    if args.max_nodes < 1 or args.max_area < 1:
        args.parser.error("--max-nodes and --max-area must be positive")
    if args.guide_after < 0:
        args.parser.error("--guide-after must not be negative")
    if args.seconds is not None and args.seconds <= 0:
        args.parser.error("--seconds must be positive")
    if args.zones and args.seconds is None:
        args.parser.error("--zones works in the time --seconds gives: give --seconds too")
    for given in args.inputs:
        if not storage.is_remote(given) and not os.path.exists(given):
            raise CommandError(f"{given}: no such file or folder")
        check_apart(args.out, "--out", given, "FILE_OR_DIR",
                    "the run would read its own enclosed problems back as open-board ones")
    check_output_folder(args.out)
    if not storage.is_remote(args.out):
        os.makedirs(args.out, exist_ok=True)
    stage_guide = getattr(args, "stage_guide", None)
    guide_loader, guide_name = stage_guide(args) if stage_guide is not None else (None, None)
    move_patterns = patterns_from_args(args)
    settings = record_settings(args.max_nodes, args.max_area, guide_name, args.algo,
                               patterns_setting(args, move_patterns), args.guide_after, args.seconds,
                               args.zones)
    outcome = run_enclose(args.inputs, args.out, settings, args.beam_options, progress=not args.no_progress,
                          guide_loader=guide_loader, move_patterns=move_patterns,
                          say=lambda line: print(line, file=sys.stderr, flush=True))
    records = outcome["records"]
    for record in records:
        if record["outcome"] == "bad-input":
            print(f"error: {record['file']}: {record['reason']}", file=sys.stderr)
    counts = Counter(r["outcome"] for r in records)
    counters = outcome["counters"] or {}
    # the records the reading check read again were written before the Beam run, which
    # counts them among those done before it
    checked = outcome["reading_check"].sampled if outcome["reading_check"] is not None else 0
    before = max(counters.get("problems_done_before", 0) - checked, 0)
    print(f"enclose: read {len(records)} = "
          + " + ".join(f"{name} {counts.get(name, 0)}" for name in OUTCOMES)
          + f" ({before} done in earlier runs"
          + (f", {checked} read again to check the reading" if checked else "") + "); "
          f"{outcome['seconds']:.1f} s -> {args.out}")
    if not records:
        raise CommandError(f"{' '.join(args.inputs)}: no *.sgf files")
    return REJECTED if counts.get("bad-input") else 0   # as every command: 1 when an input was rejected


def register(commands) -> None:
    parser = add_stage_parser(
        commands, "enclose", help="turn open-board problems into enclosed ones, checked against the book (Beam)")
    parser.add_argument("inputs", nargs="+", metavar="FILE_OR_DIR",
                        help="open-board problem files or folders")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="output folder (enclosed problems, enclose.jsonl, summary.md)")
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES,
                        help=f"node budget per solve (default {DEFAULT_MAX_NODES:,})")
    parser.add_argument("--max-area", type=int, default=DEFAULT_MAX_AREA,
                        help="the largest search area, in empty points, a reading may have")
    parser.add_argument("--algo", choices=ALGORITHMS, default="dfs",
                        help="the search every solve runs (default dfs)")
    parser.add_argument("--guide-after", type=int, default=question.GUIDE_AFTER, metavar="NODES",
                        help="unguided nodes a guided solve starts with, the guide called only "
                             f"where they leave it unsettled (default {question.GUIDE_AFTER:,}; 0: "
                             "the guide from the first node)")
    parser.add_argument("--seconds", type=float, default=None, metavar="S",
                        help="CPU seconds a problem may take, its first pass included: what the node "
                             "budget leaves without a fit is read again, the smallest unsettled region "
                             "first, until one fits or the time is spent; over an earlier run's folder, "
                             "only problems still without a fit are read again (default: the node budget alone)")
    parser.add_argument("--zones", action="store_true",
                        help="with --seconds: df-pn's relevance zones (zone table and pruning) in that "
                             "time; the same answers (default: off)")
    add_pattern_options(parser)
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(run=cmd_enclose)
