"""The inputs of a command that answers file by file (``solve``, ``eval``), and its totals.

Every such command takes files and folders (a folder: every ``*.sgf`` below it,
in sorted order, as ``enclose`` reads them), answers each file on one line,
prints one line naming the file and the reason for each it rejects, goes on,
and ends with one totals line on stderr::

    solve: read 40 = answered 37 + rejected 3

Its exit code means what every command's does: 0 when every input was
answered, 1 when any was rejected (:data:`REJECTED`).
"""
from __future__ import annotations

import sys
from pathlib import Path

#: the exit code of a run that rejected an input and answered the rest
REJECTED = 1


def input_files(paths: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """(files to answer, in the order given, each folder's ``*.sgf`` sorted in its place;
    inputs rejected before reading: (path, reason))."""
    files, rejected = [], []
    for path in paths:
        given = Path(path)
        if given.is_dir():
            found = sorted(str(p) for p in given.rglob("*.sgf") if p.is_file())
            if found:
                files.extend(found)
            else:
                rejected.append((path, "a folder without *.sgf files"))
        else:
            files.append(path)   # a missing file is read, and rejected, in its turn
    return files, rejected


class Tally:
    """Counts a batch's answers and rejections; prints each rejection as it comes."""

    def __init__(self, command: str):
        self.command = command
        self.answered = 0
        self.rejected = 0

    def reject(self, path: str, reason: str) -> None:
        print(f"error: {reason}" if reason.startswith(path) else f"error: {path}: {reason}",
              file=sys.stderr, flush=True)
        self.rejected += 1

    def answer(self) -> None:
        self.answered += 1

    def line(self) -> str:
        return (f"{self.command}: read {self.answered + self.rejected} = answered {self.answered} "
                f"+ rejected {self.rejected}")

    def close(self) -> int:
        """Print the totals line; the exit code."""
        print(self.line(), file=sys.stderr, flush=True)
        return REJECTED if self.rejected else 0
