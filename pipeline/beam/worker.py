"""The worker process of a local multi-processing run: Beam's own SDK worker, quiet unless asked.

Beam starts ``python -m apache_beam.runners.worker.sdk_worker_main`` for
each worker, which logs at INFO to its stderr (the terminal) from its first
line, before it reads any option.  :class:`pipeline.beam.running.PythonDirectRunner`
runs :func:`main` instead: it applies :func:`pipeline.quiet.hush` (which
follows ``TSUMEGO_VERBOSE``, inherited from the command line), then hands
over to Beam's worker.  A worker is forked from a warm forkserver
(:func:`run_forked`, :mod:`pipeline.beam.forked_workers`), or, where Python
has none, started as ``python -m pipeline.beam.worker``.
"""
import os
import sys

from pipeline import quiet


def main() -> None:
    quiet.hush()
    from apache_beam.runners.worker import sdk_worker_main

    sdk_worker_main.main(sys.argv)


def run_forked(environment: dict[str, str]) -> None:
    """A forked worker: the environment a subprocess worker would get (Beam's worker reads
    where to reach the runner and the pipeline's options there), then :func:`main`."""
    os.environ.clear()
    os.environ.update(environment)
    main()


if __name__ == "__main__":
    main()
