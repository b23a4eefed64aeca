"""Running a stage's pipeline to its end: where it runs, its progress bar, its counters.

Both Beam stages run alike.  The pipeline takes the options the command line
passed through (:mod:`pipeline.beam.options`).  A progress bar is drawn only
when the workers run on this machine over local folders: Beam's counters are
read only when a run ends, so the bar (a :class:`pipeline.progress.PolledBar`)
polls what the workers leave on disk.  When the run is over, the stage reads
its counters, all in one namespace.
"""
from __future__ import annotations

import contextlib
from typing import Iterable, Sequence

import apache_beam as beam
from apache_beam.metrics.metric import MetricsFilter
from apache_beam.options.pipeline_options import PipelineOptions, StandardOptions

from pipeline.beam import storage
from pipeline.progress import PolledBar

# The runner names that mean the DirectRunner (None: no --runner, Beam's default).
DIRECT_RUNNERS = (None, "DirectRunner", "direct")


def new_pipeline(beam_options: Sequence[str]) -> beam.Pipeline:
    return beam.Pipeline(options=PipelineOptions(list(beam_options)))


def runs_locally(pipeline: beam.Pipeline, *paths: str) -> bool:
    """Whether ``pipeline`` runs on this machine and ``paths`` are local: only then can a bar poll them."""
    runner = pipeline.options.view_as(StandardOptions).runner
    return runner in DIRECT_RUNNERS and not any(storage.is_remote(path) for path in paths)


def run_to_end(pipeline: beam.Pipeline, bar: PolledBar | None = None):
    """Run ``pipeline`` and wait for it to finish, drawing ``bar`` meanwhile; returns Beam's result."""
    with bar if bar is not None else contextlib.nullcontext():
        result = pipeline.run()
        result.wait_until_finish()
    return result


def counters(result, namespace: str, names: Iterable[str] = ()) -> dict[str, int]:
    """The committed counts of the run's counters in ``namespace``, summed over steps.

    ``names`` come first and are there even when nothing incremented them.
    """
    counts = dict.fromkeys(names, 0)
    for found in result.metrics().query(MetricsFilter().with_namespace(namespace))["counters"]:
        name = found.key.metric.name
        counts[name] = counts.get(name, 0) + found.committed
    return counts
