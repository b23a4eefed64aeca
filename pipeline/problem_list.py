"""Lists of source problem ids (one a line, as the records' and subproblems' ``GN``).

``tsumego features --exclude-problems`` leaves the listed problems out of the
records it writes, and ``tsumego report --exclude-problems`` out of its
figures: held-out problems that reappear, as copies, in another collection
(``tsumego same-positions`` finds them).
"""
from __future__ import annotations

from pipeline.errors import CommandError


def read_problem_list(path: str) -> list[str]:
    """The problem ids of a list file: one a line, blank lines and ``#`` comments skipped."""
    try:
        with open(path) as f:
            lines = [line.split("#", 1)[0].strip() for line in f]
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"{path}: cannot read the problem list ({exc})", code=2) from exc
    return [line for line in lines if line]
