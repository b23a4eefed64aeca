"""The one exception a command raises when its run as a whole cannot go on.

Raised anywhere below the command line (a stage, the model's commands) and
caught once, in :func:`cli.main.main`, which prints ``error: <message>``
on stderr and exits with ``code``.  Problems with the arguments themselves
go through argparse (``parser.error``), which prints the usage line too.
A bad input *file* is not a CommandError: it is reported on its own line and
the run goes on with the others.
"""
from __future__ import annotations


class CommandError(Exception):
    """``message`` names the file or setting at fault and the reason; ``code`` is the exit code
    (1: the run failed, 2: it could not start, e.g. a missing or unreadable input folder)."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code
