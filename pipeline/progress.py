"""Progress bars that also suit log files.

On a terminal a tqdm bar redraws itself in place.  Written to a file (a batch
job, a cloud runner's log), each redraw would be appended to one endless line,
so there the bar is redrawn once a minute at most: a readable trail of lines.
"""
from __future__ import annotations

import os
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


class PolledBar:
    """A bar kept up to date by a thread that polls ``count()``: work done by other processes.

    Beam's counters are read only when a run ends, so a local run's progress
    is taken from what its workers leave on disk.
    """

    POLL_SECONDS = 2.0

    def __init__(self, count, total: int, **options):
        import threading

        self.count = count
        self.bar = progress_bar(total=total, **options)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self):
        while not self.stopped.wait(self.POLL_SECONDS):
            self._catch_up()

    def _catch_up(self):
        done = max(0, min(self.bar.total, self.count()))
        # update() honours the bar's redraw interval (once a minute in a log); refresh() would not
        if done > self.bar.n:
            self.bar.update(done - self.bar.n)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopped.set()
        self.thread.join()
        if exc[0] is None:
            self._catch_up()
        self.bar.close()


class WorkerTally:
    """One worker's running count, rewritten every ``every`` steps to its own file in ``folder``.

    ``tally_of(folder)`` sums the files: the count a PolledBar shows.
    """

    def __init__(self, folder: str, every: int = 500):
        import uuid

        self.path = os.path.join(folder, uuid.uuid4().hex)
        self.every = every
        self.count = 0

    def add(self, steps: int = 1) -> None:
        before = self.count
        self.count += steps
        if self.count // self.every != before // self.every:
            self.flush()

    def flush(self) -> None:
        if self.count:
            temporary = self.path + ".tmp"
            with open(temporary, "w") as f:
                f.write(str(self.count))
            os.replace(temporary, self.path)   # the poller never reads a half-written file


def tally_of(folder: str) -> int:
    total = 0
    for entry in os.scandir(folder):
        if not entry.name.endswith(".tmp"):
            try:
                with open(entry.path) as f:
                    total += int(f.read() or 0)
            except (OSError, ValueError):   # replaced while read: the next poll counts it
                pass
    return total
