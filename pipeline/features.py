"""``tsumego features``: subproblem SGFs to sharded ZLIB TFRecords, as a Beam pipeline.

``tsumego features --subproblems DIR --out DIR [--split problem|random]
[--test-fraction 0.1] [--seed 0] [--train-shards 8] [--test-shards 1]
[--max-per-problem N] [--exclude-problems FILE] [--no-progress] [BEAM_OPTION...]``
reads every ``*.sgf`` of ``--subproblems``, computes each one's 11×11 windows
(``pipeline.planes.windows``) and writes to ``--out``:

- ``train-SSSSS-of-NNNNN.tfrecord.gz`` and ``test-...``: one
  ``tf.train.Example`` per subproblem (schema in ``pipeline.formats.records``);
- ``features.json``: plane names, N, F, schema version, the split settings
  and the counts (read = train + test + rejected + left out);
- ``dead-letter.jsonl``: one ``{"file", "reason"}`` per rejected file;
- ``left-out.jsonl``: one ``{"file", "problem", "reason"}`` per file left out
  by ``--max-per-problem`` or ``--exclude-problems``.

The split is by a hash of the source problem id (``GN``) by default, so no
test position shares a solve-all tree with a training position; ``--split
random`` hashes each subproblem's own name instead, as the original pipeline
split.  The same input gives byte-identical output.

Options the stage does not know go to Beam, with or without a ``--`` before
them (``--runner DataflowRunner --project P --temp_location gs://...``); the
DirectRunner is the default.

``tsumego features --show FILE.sgf`` prints the planes of one subproblem.

This module is the command alone, light to import so that ``tsumego``
starts without Beam or TensorFlow; the pipeline and how it keeps its output
byte-identical are in :mod:`pipeline.features_pipeline`, imported when the
command runs.
"""
from __future__ import annotations

import os
import sys

from pipeline.beam.options import add_stage_parser
from pipeline.batch import REJECTED
from pipeline.errors import CommandError
from pipeline.paths import check_output_folder
from pipeline.problem_list import read_problem_list


def _show(path: str) -> int:
    from pipeline.planes.text import planes_text
    from pipeline.formats.subproblem import ProblemError, load_subproblem

    try:
        sub = load_subproblem(path)
    except ProblemError as exc:
        raise CommandError(str(exc)) from exc
    print(f"{path}: " + planes_text(sub))
    return 0


def cmd_features(args) -> int:
    if args.show:
        return _show(args.show)
    if not args.subproblems or not args.out:
        args.parser.error("--subproblems DIR and --out DIR are needed (or --show FILE.sgf)")

    # Beam is loaded from here on: --show and a missing argument do without it.
    from pipeline.beam import storage
    from pipeline.features_pipeline import LostRecords, SplitSettings, read_dead_letters, run_features

    if not storage.is_remote(args.subproblems) and not os.path.isdir(args.subproblems):
        raise CommandError(f"{args.subproblems}: not a folder of subproblem SGF files")
    check_output_folder(args.out)
    if not 0 <= args.test_fraction <= 1 or args.train_shards < 1 or args.test_shards < 1:
        args.parser.error("need 0 <= --test-fraction <= 1 and at least one shard per split")
    if args.max_per_problem < 0:
        args.parser.error("--max-per-problem must not be negative (0: every record)")
    excluded = frozenset(read_problem_list(args.exclude_problems)) if args.exclude_problems else frozenset()
    settings = SplitSettings(by=args.split, test_fraction=args.test_fraction, seed=args.seed,
                             train_shards=args.train_shards, test_shards=args.test_shards,
                             max_per_problem=args.max_per_problem, excluded=excluded)
    try:
        counts = run_features(args.subproblems, args.out, settings, args.beam_options,
                              progress=not args.no_progress)
    except LostRecords as exc:
        raise CommandError(f"{exc}; the run wrote no features.json") from exc
    for dead in read_dead_letters(args.out):
        print(f"error: {dead['file']}: {dead['reason']}", file=sys.stderr)
    print(f"features: read {counts['read']}, written {counts['written_train']} train + "
          f"{counts['written_test']} test, rejected {counts['rejected']}"
          + (f", left out {counts['left_out']} ({left_out_why(args)})" if "left_out" in counts else "")
          + f" -> {args.out}")
    if counts["read"] == 0:
        raise CommandError(f"{args.subproblems}: no *.sgf files")
    if counts["rejected"] == counts["read"]:
        raise CommandError(f"{args.subproblems}: every file was rejected")
    return REJECTED if counts["rejected"] else 0   # as every command: 1 when an input was rejected


def left_out_why(args) -> str:
    """What may have left records out, in words."""
    return " and ".join(why for why, on in (("by the cap", args.max_per_problem),
                                            ("listed in " + str(args.exclude_problems), args.exclude_problems)) if on)


def register(commands) -> None:
    parser = add_stage_parser(
        commands, "features", help="subproblem SGFs to 11x11xF feature windows in sharded ZLIB TFRecords (Beam)")
    parser.add_argument("--subproblems", metavar="DIR", help="folder of subproblem SGF files")
    parser.add_argument("--out", metavar="DIR",
                        help="folder for the shards, features.json and dead-letter.jsonl "
                             "(earlier shards there are replaced)")
    parser.add_argument("--split", choices=("problem", "random"), default="problem",
                        help="hash the source problem id (default) or each subproblem (the original pipeline's split)")
    parser.add_argument("--test-fraction", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0, help="varies which problems or subproblems are test")
    parser.add_argument("--train-shards", type=int, default=8)
    parser.add_argument("--test-shards", type=int, default=1)
    parser.add_argument("--max-per-problem", type=int, default=0, metavar="N",
                        help="at most N records of one source problem, a sample fixed by the files' names "
                             "and --seed (default 0: every record); the others are listed in left-out.jsonl")
    parser.add_argument("--exclude-problems", metavar="FILE",
                        help="leave out the subproblems of the source problems FILE lists (one id a line, "
                             "as GN; # comments): copies of problems held out elsewhere; listed in "
                             "left-out.jsonl")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--show", metavar="FILE.sgf", help="print every plane of one subproblem and exit")
    parser.set_defaults(run=cmd_features,
                        on_interrupt="the folder holds no features.json; rerun to write the records")
