"""The stages on a dask.distributed cluster: Beam's Dask runner, with what it lacks for them.

``--runner DaskRunner --dask_client_address tcp://HOST:PORT`` runs a stage
on Beam's own Dask runner (``apache_beam.runners.dask.dask_runner``): the
same options (``--dask_*``), the same overrides that turn Beam's ``Create``,
``GroupByKey``, ``Flatten`` and ``Reshuffle`` into primitives, the same
translation of each step into a Dask bag.  In Beam 2.77 that translation
cannot run the stages, and :class:`DaskRunner` changes it where it falls short:

- *Tagged outputs*: Beam's runner hands every output of a step (the main one
  and each ``TaggedOutput``) to every step that reads any of them, so the
  stages' dead letters would be read as work.  Here each output is its own bag.
- *Side inputs*: Beam's runner computes a side input inside the task that
  reads it, the whole graph behind it again (every solve, every file
  written).  Here a side input is a dependency of that task, computed once.
- *Every end of the graph*: Beam's runner computes the last step it visited
  only, so a step nothing reads (``features`` writes its dead letters and its
  shards in two of them) may never run.  Here every such step runs.
- *Reshuffle*: a no-op in Beam's runner, and ``Create`` puts up to 128
  elements in one partition, so a stage's 97 problems were one task on one
  worker.  Here ``Reshuffle`` cuts its input into as many partitions as
  ``--dask_npartitions`` says (default :data:`SPREAD_PER_THREAD` for each
  worker thread of the cluster when the run starts, at least
  :data:`MIN_PARTITIONS`): the solves take from milliseconds to half a
  minute, and small partitions keep the threads busy to the end.  A
  ``Create``, a ``Flatten`` and a grouping make :data:`GROUPS_PER_THREAD`.
- *Counters*: Beam's runner reports no metrics.  Here each task returns its
  counters with its outputs, and :meth:`DaskRunResult.metrics` adds those of
  the tasks whose results the run kept (committed values: a task run again on
  another worker after its worker died is counted once).
- *A lost worker*: Dask computes again the finished tasks it held, and a step
  that reads the output folder (``solve-all``'s plan) may then give other
  outputs than the steps after it read the first time.  A run in which that
  happened fails with one line (:meth:`DaskRunResult.wait_until_finish`);
  a rerun goes on from the files written.

Each task unpickles its own copy of the step's DoFn, sets it up, runs it
over its partition and tears it down.  Windows are those of Beam's runner:
every element is in the global window, all that these batch stages use.  Beam's own runner stays reachable by its
full name, ``--runner apache_beam.runners.dask.dask_runner.DaskRunner``.
"""
from __future__ import annotations

import dataclasses
import itertools
import time
import typing as t
import uuid

import dask
import dask.bag as db
from apache_beam import ParDo
from apache_beam.internal import pickler
from apache_beam.metrics.execution import MetricKey, MetricResult, MetricsContainer
from apache_beam.metrics.metric import MetricResults
from apache_beam.metrics.metricbase import MetricName
from apache_beam.pipeline import PipelineVisitor
from apache_beam.runners.common import DoFnContext, DoFnInvoker, DoFnSignature, Receiver, _OutputHandler
from apache_beam.runners.dask import dask_runner as beam_dask
from apache_beam.runners.dask.overrides import _Create, _Flatten, _GroupByKeyOnly, _Reshuffle, dask_overrides
from apache_beam.runners.runner import PipelineResult, PipelineState
from apache_beam.runners.worker import statesampler
from apache_beam.transforms.core import DoFn
from apache_beam.transforms.sideinputs import SideInputMap
from apache_beam.transforms.window import GlobalWindow
from apache_beam.utils import counters as beam_counters
from apache_beam.utils.windowed_value import WindowedValue

from pipeline.errors import CommandError

# Partitions a Reshuffle makes (unless --dask_npartitions says): this many a worker thread,
# so that a slow partition does not hold the others back, and at least MIN_PARTITIONS.
SPREAD_PER_THREAD = 16
# Partitions of a Create, a Flatten and a grouping: a few a thread, so that the steps after a
# grouping (a problem's trees replayed, a position's file written) spread evenly too.
GROUPS_PER_THREAD = 4
MIN_PARTITIONS = 8
# The tag under which a task returns its counters, beside the step's own outputs.
_COUNTERS = "__dask-runner-counters__"


def _in_global_window(value) -> WindowedValue:
    return WindowedValue(value, 0, (GlobalWindow(),))


class _Collect(Receiver):
    """Keeps a step's outputs of one tag as (tag, value) pairs."""

    def __init__(self, tag, out: list):
        self.tag = tag
        self.out = out

    def receive(self, windowed_value):
        self.out.append((self.tag, windowed_value.value))


class _Receivers(dict):
    def __init__(self, out: list):
        super().__init__()
        self.out = out

    def __missing__(self, tag):
        receiver = self[tag] = _Collect(tag, self.out)
        return receiver


@dataclasses.dataclass
class _Step:
    """What a task needs to run one step's DoFn over a partition; travels pickled."""

    label: str
    fn: DoFn
    args: list
    kwargs: dict
    window_fn: t.Any
    side_views: list   # (view class, view options) of each side input, in order


def _run_step(partition, pickled_step: bytes, *side_partitions) -> list:
    """One step's DoFn over one partition: its outputs as (tag, value) pairs (None: the main
    output), then its counters under :data:`_COUNTERS`."""
    step: _Step = pickler.loads(pickled_step)
    out: list = []
    receivers = _Receivers(out)
    handler = _OutputHandler(step.window_fn, receivers[None], receivers, None, None, False, False)
    side_inputs = [SideInputMap(view, options, [_in_global_window(v) for v in _whole(parts)])
                   for (view, options), parts in zip(step.side_views, side_partitions, strict=True)]
    invoker = DoFnInvoker.create_invoker(
        DoFnSignature(step.fn), handler, context=DoFnContext(step.label), side_inputs=side_inputs,
        input_args=step.args, input_kwargs=step.kwargs,
        bundle_finalizer_param=DoFn.BundleFinalizerParam())
    container = MetricsContainer(step.label)
    sampler = statesampler.StateSampler("dask", beam_counters.CounterFactory())
    outer = statesampler.get_current_tracker()
    statesampler.set_current_tracker(sampler)
    try:
        with sampler.scoped_state(step.label, "process", metrics_container=container):
            invoker.invoke_setup()
            invoker.invoke_start_bundle()
            for item in partition:
                invoker.invoke_process(_in_global_window(item))
            invoker.invoke_finish_bundle()
            invoker.invoke_teardown()
    finally:
        statesampler.set_current_tracker(outer)
    counted = {(key.step, key.metric.namespace, key.metric.name): value
               for key, value in container.get_cumulative().counters.items()}
    return out + [(_COUNTERS, counted)]


def _values_of(partition, tag) -> list:
    return [value for found, value in partition if found == tag]


def _counters_of(partition) -> list[dict]:
    return [_sum_counts(_values_of(partition, _COUNTERS))]


def _nothing(partition) -> list:
    return []


def _sum_counts(counts: t.Iterable[dict]) -> dict:
    total: dict = {}
    for count in counts:
        for key, value in count.items():
            total[key] = total.get(key, 0) + value
    return total


def _whole(partitions) -> list:
    return list(itertools.chain.from_iterable(partitions))


def _key(item):
    return item[0]


def _grouped(group):
    """Dask's (key, elements) as Beam's (key, values): each element is (key, windowed value)."""
    key, elements = group
    return key, [element[1].value if isinstance(element[1], WindowedValue) else element[1]
                 for element in elements]


class _Translation(PipelineVisitor):
    """Each PCollection of the pipeline as a Dask bag; the counters' bags; the bags nothing reads."""

    def __init__(self, spread: int, groups: int):
        self.spread = spread      # partitions a Reshuffle makes
        self.groups = groups      # partitions of a Create, a Flatten and a grouping at most
        self.bags: dict[int, db.Bag] = {}     # by id() of the PCollection
        self.read: set[int] = set()
        self.counters: list = []

    def bag_of(self, pcollection) -> db.Bag:
        self.read.add(id(pcollection))
        return self.bags[id(pcollection)]

    def visit_transform(self, node) -> None:
        transform = node.transform
        inputs = [self.bag_of(p) for p in node.inputs if p.producer is not None]
        if isinstance(transform, _Create):
            values = list(transform.values)
            out = db.from_sequence(values, npartitions=max(1, min(len(values), self.groups)))
        elif type(transform) is ParDo:
            tagged = self.par_do(node, inputs[0])
            self.counters.append(tagged.map_partitions(_counters_of))
            for tag, pcollection in node.outputs.items():
                self.bags[id(pcollection)] = tagged.map_partitions(_values_of, tag)
            return
        elif isinstance(transform, _GroupByKeyOnly):
            # a shuffle through the cluster's tasks (Dask's on-disk one would use one machine's disk)
            out = self.coalesced(inputs[0]).groupby(_key, shuffle="tasks").map(_grouped)
        elif isinstance(transform, _Flatten):
            out = self.coalesced(db.concat(inputs))
        elif isinstance(transform, _Reshuffle):
            out = inputs[0]
            if out.npartitions < self.spread:
                out = out.repartition(npartitions=self.spread)
        elif inputs:
            # as in Beam's runner: the window steps of a GroupByKey, other windowing
            out = inputs[0]
        else:
            raise NotImplementedError(f"the Dask runner cannot run {node.full_label} "
                                      f"({type(transform).__name__}): no input to pass on")
        for pcollection in node.outputs.values():
            self.bags[id(pcollection)] = out

    def coalesced(self, bag: db.Bag) -> db.Bag:
        """At most ``groups`` partitions, each joining every ``groups``-th one: a Flatten puts its
        inputs' partitions one after the other, and joining neighbours would put a whole input
        (often the only one with data) in one partition."""
        if bag.npartitions <= self.groups:
            return bag
        parts = bag.to_delayed(optimize_graph=False)
        return db.from_delayed([dask.delayed(_whole)(parts[i::self.groups]) for i in range(self.groups)])

    def par_do(self, node, bag: db.Bag) -> db.Bag:
        transform = node.transform
        # args with a placeholder for each side input (Beam's runner passes the side inputs' views)
        args, kwargs = transform.args, transform.kwargs
        main = next(iter(node.main_inputs.values()))
        side_views = [(type(side), side._view_options()) for side in node.side_inputs]
        step = _Step(node.full_label, transform.fn, list(args), kwargs,
                     main.windowing.windowfn if hasattr(main, "windowing") else None, side_views)
        # A side input goes whole to each task, as the list of its partitions: as delayed
        # objects, their keys stay those of the steps that make them (Dask would compute a
        # collection passed here again, under keys of its own).
        sides = [self.bag_of(side.pvalue).to_delayed(optimize_graph=False) for side in node.side_inputs]
        return bag.map_partitions(_run_step, pickler.dumps(step), *sides,
                                  token=f"{node.full_label}-{uuid.uuid4().hex}")

    def ends(self) -> list[db.Bag]:
        """The bags no step reads: computing them runs every step."""
        return [bag for key, bag in self.bags.items() if key not in self.read]


class DaskRunner(beam_dask.DaskRunner):
    """Beam's Dask runner with the translation of :mod:`this module <pipeline.beam.dask_runner>`."""

    def run_pipeline(self, pipeline, options):
        import dask.distributed as ddist

        dask_options = options.view_as(beam_dask.DaskOptions).get_all_options(drop_default=True,
                                                                              current_only=True)
        spread = dask_options.pop("npartitions", None)
        if dask_options.pop("partition_size", None) is not None:
            raise CommandError("--dask_partition_size: the stages take --dask_npartitions only", code=2)
        where = dask_options.get("address") or dask_options.get("scheduler_file") or "a local cluster"
        try:
            client = ddist.Client(**dask_options)
        except (OSError, TimeoutError) as exc:
            raise CommandError(f"cannot reach the Dask scheduler at {where}: {exc}") from exc
        threads = sum(client.nthreads().values())
        groups = GROUPS_PER_THREAD * threads or MIN_PARTITIONS
        pipeline.replace_all(dask_overrides())
        translation = _Translation(spread or max(MIN_PARTITIONS, SPREAD_PER_THREAD * threads), groups)
        pipeline.visit(translation)
        # One collection, not optimized: Dask optimizes the collections of a compute one by
        # one and renames the tasks it fuses, so a step two of them share would run twice.
        ends = [bag.map_partitions(_nothing) for bag in translation.ends()]
        run = db.concat([*translation.counters, *ends]).reduction(_sum_counts, _sum_counts)
        steps = set(run.__dask_graph__().layers)   # the names of the run's task keys
        started = client.run_on_scheduler(time.time)   # events are stamped by the scheduler's clock
        return DaskRunResult(client, client.compute(run, optimize_graph=False), where, steps, started)


class DaskRunResult(PipelineResult):
    """A run on the cluster: waits for it, gives its counters, closes the client when it ends."""

    def __init__(self, client, future, where: str, steps: set[str], started: float):
        super().__init__(PipelineState.RUNNING)
        self.client = client
        self.future = future        # the run's counters once it is over
        self.where = where
        self.steps = steps          # the names of its task keys
        self.started = started      # on the scheduler's clock
        self.counted: dict | None = None

    def wait_until_finish(self, duration=None):
        import dask.distributed as ddist

        if PipelineState.is_terminal(self._state):
            return self._state
        if duration is not None:
            try:
                ddist.wait(self.future, timeout=duration / 1000)
            except TimeoutError:
                return self._state
        try:
            self.counted = self.future.result()
            self._check_nothing_computed_twice()
            self._state = PipelineState.DONE
        except BaseException as exc:
            self._state = PipelineState.FAILED
            raise _cluster_error(exc, self.where) or exc
        finally:
            if PipelineState.is_terminal(self._state):
                self.client.close()
        return self._state

    def _check_nothing_computed_twice(self) -> None:
        """Fail the run when a lost worker held results of its tasks.

        Dask computes such results again, but a step that reads the output
        folder (``solve-all``'s plan, which finds the sides earlier tasks
        grew) then gives other outputs than the first time, and the steps
        that had read those keep them: a problem may be neither written nor
        rejected.  A rerun starts from the files written, all consistent.
        """
        for stamp, event in self.client.get_events("all"):
            if stamp < self.started or event.get("action") != "remove-worker":
                continue
            if {_name_of(key) for key in event.get("lost-computed-tasks", ())} & self.steps:
                raise CommandError(f"the Dask cluster at {self.where} lost worker {event.get('worker')}, "
                                   "which held finished tasks of this run: computed again, they may "
                                   "disagree with the output folder; rerun to go on from the files written")

    def cancel(self):
        self.client.cancel(self.future)
        self.client.close()
        self._state = PipelineState.CANCELLED
        return self._state

    def metrics(self):
        if self.counted is None:
            raise NotImplementedError("the run has not finished")
        return _Counted(self.counted)


def _cluster_error(exc: BaseException, where: str) -> CommandError | None:
    """The one line for a run the cluster could not carry out, or None for an error of a step itself."""
    import dask.distributed as ddist

    if isinstance(exc, ddist.KilledWorker):
        return CommandError(f"the Dask cluster at {where} lost the workers running a task of "
                            f"{_step_of(exc.task)} too often; rerun to go on from the files written")
    # Dask's words when the scheduler cannot unpickle the graph; the cause names the module it lacks
    if isinstance(exc, RuntimeError) and "deserialization of the task graph" in str(exc):
        return CommandError(f"the Dask scheduler at {where} cannot load the run's steps "
                            f"({exc.__cause__ or exc}): the scheduler and the workers need this "
                            "project's code and the same versions of Python, Beam and dask")
    return None


def _name_of(key) -> str:
    """A task key's name: a partition's key is (name, index); it may arrive as a list."""
    return str(key[0]) if isinstance(key, (tuple, list)) else str(key)


def _step_of(key) -> str:
    """The step a task key belongs to: a step's tasks are named ``LABEL-RUN-TOKEN`` (:meth:`_Translation.par_do`)."""
    return _name_of(key).rsplit("-", 2)[0]


class _Counted(MetricResults):
    """The counters of a finished run (committed and attempted alike)."""

    def __init__(self, counted: dict):
        super().__init__()
        self.results = [MetricResult(MetricKey(step, MetricName(namespace, name)), value, value)
                        for (step, namespace, name), value in sorted(counted.items())]

    def query(self, filter=None):
        counters = [r for r in self.results if MetricResults.matches(filter, r.key)]
        return {self.COUNTERS: counters, self.DISTRIBUTIONS: [], self.GAUGES: [],
                self.STRINGSETS: [], self.BOUNDED_TRIES: []}
