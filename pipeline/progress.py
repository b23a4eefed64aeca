"""Progress bars that also suit log files.

On a terminal a tqdm bar redraws itself in place.  Written to a file (a batch
job, a cloud runner's log), each redraw would be appended to one endless line,
so there the bar is redrawn once a minute at most: a readable trail of lines.
"""
from __future__ import annotations

import sys

LOG_INTERVAL_SECONDS = 60


def progress_bar(iterable=None, **options):
    """A tqdm bar on stderr: redrawn as usual on a terminal, once a minute in a log."""
    from tqdm import tqdm

    stream = options.setdefault("file", sys.stderr)
    if not getattr(stream, "isatty", lambda: False)():
        options.setdefault("mininterval", LOG_INTERVAL_SECONDS)
        # tqdm's monitor thread otherwise forces a redraw of a bar quiet for maxinterval (10 s)
        options.setdefault("maxinterval", LOG_INTERVAL_SECONDS)
        options.setdefault("ascii", True)
    return tqdm(iterable, **options)
