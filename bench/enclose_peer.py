"""Enclosed problems against the reference solver: tsumego.js re-solves a random sample.

    python -m bench.enclose_peer DIR [--sample 300] [--seed 0] [--file-timeout 60]

DIR is a ``tsumego enclose`` output folder.  Each sampled problem is solved
by tsumego.js 1.1.0 with ``PL`` moving first and the attacker as ko master;
it agrees when the side to play wins (the target is unsafe for a kill,
safe for a live problem) and tsumego.js's first move is one of the problem's
root variations.  Prints one line per disagreement and a summary: sampled =
agreed + disagreed + timed out or failed.  The exit code is 1 when anything
disagrees.

When tsumego.js's first move is not one of ours, tsumego.js also solves the
position after it, the opponent moving: the line says whether tsumego.js
confirms its own move there, so a Go player knows which side to check.  When
its verdict differs, the two are followed along a line until one contradicts
itself (:mod:`bench.peer.disagreement`).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench.peer import tsumego_js
from bench.peer.disagreement import follow_disagreement
from bench.peer.sample import add_sample_arguments, compare_sample
from solver import load_problem
from solver.board import color_letter
from solver.problem import sgf_point


def enclosed_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.sgf") if "records" not in p.relative_to(folder).parts)


def verdict(path: Path, row: dict, file_timeout: float | None = None) -> str | None:
    """None when tsumego.js agrees with the file, else what differs."""
    problem = load_problem(path)
    expected = "safe" if problem.to_play == problem.defender else "unsafe"
    if row["status"] != expected:
        return (f"the side to play should win ({expected}), tsumego.js says {row['status']}; "
                + follow_disagreement(problem, path, file_timeout=file_timeout))
    letter = color_letter(problem.to_play)
    answers = {f"{letter}[{sgf_point(*m)}]" for m in problem.first_moves}
    if row["move"] not in answers:
        return (f"tsumego.js plays {row['move']}, not one of {sorted(answers)}; "
                + after_its_move(path, row["move"], expected, file_timeout))
    return None


def after_its_move(path: Path, move: str, expected: str, file_timeout: float | None) -> str:
    """What tsumego.js says of the position after its own first ``move``, the opponent to play."""
    after = tsumego_js.solve_files([path], ko_master="attacker", play=[move], file_timeout=file_timeout)[0]
    if "status" not in after:
        return f"after it, tsumego.js: {after.get('error')}"
    if after["status"] == expected:
        return f"after it tsumego.js confirms the move ({after['to_play']} fails, {after['status']})"
    return (f"after it tsumego.js contradicts its own move: {after['move']} holds for the opponent "
            f"({after['status']})")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", help="tsumego enclose output folder")
    add_sample_arguments(parser)
    args = parser.parse_args(argv)
    return compare_sample("enclose peer", enclosed_files(Path(args.dir)), args,
                          lambda path, row: verdict(path, row, args.file_timeout))


if __name__ == "__main__":
    sys.exit(main())
