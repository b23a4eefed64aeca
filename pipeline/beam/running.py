"""Running a stage's pipeline to its end: which runner, its progress bar, its counters.

The Beam stages run alike.  The pipeline takes the options the command line
passed through (:mod:`pipeline.beam.options`).  Without ``--runner`` (or with
``--runner DirectRunner``) it runs on Beam's Python direct runner, chosen
outright (:class:`PythonDirectRunner`), whose multi-processing workers
are forked from a warm process (:mod:`pipeline.beam.forked_workers`);
``--runner DaskRunner`` is Beam's Dask runner with what it lacks for the
stages (:mod:`pipeline.beam.dask_runner`); any other runner is Beam's.  A
progress bar is drawn only when the workers run on this machine over local
folders: Beam's counters are read only when a run ends, so the bar (a
:class:`pipeline.progress.PolledBar`) polls what the workers leave on disk.
When the run is over, the stage reads its counters, all in one namespace.
"""
from __future__ import annotations

import contextlib
import shlex
import sys
from typing import Iterable, Sequence

import apache_beam as beam
from apache_beam.metrics.metric import MetricsFilter
from apache_beam.options.pipeline_options import DirectOptions, PipelineOptions, StandardOptions
from apache_beam.runners.runner import PipelineRunner

from pipeline.beam import storage, worker
from pipeline.errors import CommandError
from pipeline.progress import PolledBar

# The runner names that mean the local direct runner (None: no --runner).
DIRECT_RUNNERS = (None, "DirectRunner", "direct")
# The names that mean the Dask runner: Beam knows none of them (its class needs its full name).
DASK_RUNNERS = ("DaskRunner", "dask")


class PythonDirectRunner(PipelineRunner):
    """Beam's Python direct runner (its ``FnApiRunner``), built as Beam's ``DirectRunner`` builds it.

    Beam's ``DirectRunner`` first tries the Prism runner, a binary it
    downloads on first use, and falls back to this one when that fails: a run
    would not run on the same runner offline and online.  This one always
    runs here, with the ``--direct_num_workers`` and ``--direct_running_mode``
    options.  In ``multi_processing`` mode each worker runs
    :mod:`pipeline.beam.worker`, forked from a forkserver that has imported
    ``preload`` (a module of :mod:`pipeline.beam.preload`: the stage's code
    and kernels) for the run (:mod:`pipeline.beam.forked_workers`), or, where
    Python has no forkserver, started as a new Python process.
    """

    def __init__(self, preload: str | None = None):
        super().__init__()
        self.preload = preload

    def run_pipeline(self, pipeline, options):
        from apache_beam.portability.api import beam_provision_api_pb2
        from apache_beam.runners.portability.fn_api_runner import fn_runner
        from apache_beam.runners.portability.portable_runner import JobServiceHandle
        from apache_beam.transforms.environments import SubprocessSDKEnvironment

        from pipeline.beam import forked_workers   # (registers its workers with Beam)

        # The workers read the pipeline's options from the provision info, as under Beam's DirectRunner.
        provision_info = fn_runner.ExtendedProvisionInfo(beam_provision_api_pb2.ProvisionInfo(
            pipeline_options=JobServiceHandle.encode_pipeline_options(options.get_all_options())))
        direct = options.view_as(DirectOptions)
        if direct.direct_running_mode != "multi_processing":
            return fn_runner.FnApiRunner(provision_info=provision_info).run_pipeline(pipeline, options)
        if forked_workers.available():
            workers = forked_workers.ForkedWorkers.default()
            started = forked_workers.forkserver_running([self.preload] if self.preload else [])
        else:
            workers = SubprocessSDKEnvironment.from_command_string(
                f"{shlex.quote(sys.executable)} -m {worker.__name__}")
            started = contextlib.nullcontext()
        runner = fn_runner.FnApiRunner(default_environment=workers, provision_info=provision_info)
        # The FnApiRunner replaces the environment by Beam's own worker command when it
        # sees this mode; without it, it keeps ours (and the --direct_num_workers).
        direct.direct_running_mode = None
        try:
            with started:
                return runner.run_pipeline(pipeline, options)   # returns once the run is over
        finally:
            direct.direct_running_mode = "multi_processing"


def new_pipeline(beam_options: Sequence[str], preload: str | None = None) -> beam.Pipeline:
    """The stage's pipeline on the runner its options name; ``preload`` is the module of
    :mod:`pipeline.beam.preload` that readies a local worker for the stage."""
    options = PipelineOptions(list(beam_options))
    if options.view_as(StandardOptions).runner in DIRECT_RUNNERS:
        return beam.Pipeline(runner=PythonDirectRunner(preload), options=options)
    if options.view_as(StandardOptions).runner in DASK_RUNNERS:
        return beam.Pipeline(runner=dask_runner(), options=options)
    return beam.Pipeline(options=options)


def dask_runner() -> PipelineRunner:
    """The Dask runner (:mod:`pipeline.beam.dask_runner`), or a clear error without dask installed."""
    try:
        from pipeline.beam.dask_runner import DaskRunner
    except ImportError as exc:
        raise CommandError(f"the Dask runner needs dask.distributed ({exc}): "
                           "pip install -e '.[dask]'", code=2) from exc
    return DaskRunner()


def runner_name(pipeline: beam.Pipeline) -> str:
    return pipeline.options.view_as(StandardOptions).runner or "DirectRunner"


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


def counters(result, namespace: str, names: Iterable[str] = (), runner: str = "this") -> dict[str, int] | None:
    """The run's counters in ``namespace``, summed over steps; None when the runner reports none.

    A counter's committed value is taken, or its attempted value where the
    runner reports no committed one (the Flink and Spark runners).  ``names``
    come first and are there even when nothing incremented them.  A runner
    without metrics gets a warning, and the stage goes on without its counters.
    """
    try:
        found = result.metrics().query(MetricsFilter().with_namespace(namespace))["counters"]
    except NotImplementedError:
        print(f"warning: the {runner} runner reports no metrics; the {namespace} counters are left out",
              file=sys.stderr)
        return None
    counts = dict.fromkeys(names, 0)
    for counter in found:
        name = counter.key.metric.name
        value = counter.committed if counter.committed is not None else counter.attempted
        counts[name] = counts.get(name, 0) + (value or 0)
    return counts
