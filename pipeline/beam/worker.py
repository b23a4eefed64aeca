"""The worker process of a local multi-processing run: Beam's own SDK worker, quiet unless asked.

Beam starts ``python -m apache_beam.runners.worker.sdk_worker_main`` for
each worker, which logs at INFO to its stderr (the terminal) from its first
line, before it reads any option.  :class:`pipeline.beam.running.PythonDirectRunner`
starts this module instead: it applies :func:`pipeline.quiet.hush` (which
follows ``TSUMEGO_VERBOSE``, inherited from the command line), then hands
over to Beam's worker.
"""
import sys

from pipeline import quiet


def main() -> None:
    quiet.hush()
    from apache_beam.runners.worker import sdk_worker_main

    sdk_worker_main.main(sys.argv)


if __name__ == "__main__":
    main()
