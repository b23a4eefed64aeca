"""Local Beam workers forked from a warm process instead of started as fresh Pythons.

In ``--direct_running_mode multi_processing`` Beam starts each worker as a
new ``python`` process (its ``SubprocessSDKEnvironment``).  Each one then
imports Beam, numpy, numba and the stage's code (about 0.85 CPU s) and
loads numba's cached kernels on its first record (about 0.3 s) before it
does any work.  Forked, two workers take 0.94 to 0.97 of the CPU the
``features`` stage took on the own problems' 53,799 subproblems (RESULTS.md,
"Forked workers").

Here a run's workers are forked instead, from Python's *forkserver*
(``multiprocessing.get_context("forkserver")``): a process started fresh
for the run, which imports :mod:`pipeline.beam.preload` (Beam's worker, the
stage's code, its warm kernels; the stage names its module) once, then
forks a worker for each request.  A forked worker starts with all of that
done.  The forkserver is a fresh ``exec`` of Python, not a fork of the
command: the command runs Beam's gRPC servers, whose threads a fork
would copy in the middle of their work.

The runner asks for these workers through an environment of its own,
:class:`ForkedWorkers` (URN :data:`URN`), registered with Beam like its own
kinds: Beam's runner then builds a :class:`ForkedWorkerHandler` for each
worker.  The handler does what Beam's ``SubprocessSdkWorker`` does for a
subprocess worker: it starts a logging server, gives the worker the same
environment variables (where to reach the runner, the pipeline's options,
its id), waits for it, raises ``RuntimeError('Worker subprocess exited with
return code N')`` when it fails (N negative: killed by signal -N), fails the
run when it cannot be started at all (the forkserver died: a crash in its
preload, say; the runner would otherwise wait for it forever), kills it
if it is still alive when the handler gives up on it, and stops the logging
server.  :func:`forkserver_running` starts the forkserver for a run and
stops it after, so nothing of it outlives the run.  (A process has one
forkserver: one that other code started before the run would be used as it
is, without the stage's imports, and stopped with the run.)

Where Python has no forkserver (Windows), :func:`available` is false and
the runner starts subprocess workers as before.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from multiprocessing import forkserver, resource_tracker
from typing import Iterator, Sequence

import grpc
from apache_beam.portability.api import beam_fn_api_pb2_grpc, endpoints_pb2
from apache_beam.runners.portability.fn_api_runner import worker_handlers
from apache_beam.runners.portability.local_job_service import BeamFnLoggingServicer
from apache_beam.transforms import environments
from apache_beam.utils import thread_pool_executor
from google.protobuf import json_format, text_format

from pipeline.beam import worker

URN = "tsumego:env:forked_python_worker:v1"
START_METHOD = "forkserver"
# What the forkserver always imports first (the stage's module comes after it).
PRELOAD = "pipeline.beam.preload"


def available() -> bool:
    """Whether this Python can fork workers from a forkserver (Linux, macOS: yes; Windows: no)."""
    return START_METHOD in multiprocessing.get_all_start_methods()


@contextlib.contextmanager
def forkserver_running(preload: Sequence[str] = ()) -> Iterator[None]:
    """Meanwhile, the forkserver runs with :data:`PRELOAD` and ``preload`` (module names) imported.

    It starts here (its imports go on while the runner starts), with the
    resource tracker multiprocessing starts beside it, and both are stopped,
    and waited for, on the way out: their CPU time and the workers' are then
    the command's, as a subprocess worker's are, and no process of the run
    outlives it.  A worker must be over by then (the runner waits for each
    before it returns or raises).
    """
    tracker_was_running = getattr(resource_tracker._resource_tracker, "_pid", None) is not None
    multiprocessing.get_context(START_METHOD).set_forkserver_preload([PRELOAD, *preload])
    try:
        forkserver.ensure_running()
        yield
    finally:
        _stop(forkserver._forkserver)
        if not tracker_was_running:
            _stop(resource_tracker._resource_tracker)


def _stop(server) -> None:
    """Stop multiprocessing's forkserver or resource tracker: close the pipe it watches, wait for it.

    That is their ``_stop`` method, which Python's own tests use.  Where a
    Python lacks it, the process still exits, when this one does.
    """
    stop = getattr(server, "_stop", None)
    if stop is not None:
        stop()


@environments.Environment.register_urn(URN, bytes)
class ForkedWorkers(environments.Environment):
    """Beam workers that :class:`ForkedWorkerHandler` forks from the forkserver."""

    def to_runner_api_parameter(self, context):
        return URN, b""

    @staticmethod
    def from_runner_api_parameter(payload, capabilities, artifacts, resource_hints, context):
        return ForkedWorkers(capabilities, artifacts, resource_hints)

    @classmethod
    def default(cls) -> "ForkedWorkers":
        return cls(capabilities=environments.python_sdk_capabilities())


@worker_handlers.WorkerHandler.register_environment(URN, bytes)
class ForkedWorkerHandler(worker_handlers.GrpcWorkerHandler):
    """One worker of a run: forked from the forkserver, watched from a thread of its own."""

    def __init__(self, payload, state, provision_info, grpc_server):
        super().__init__(state, provision_info, grpc_server)
        self.stopping = threading.Event()
        self.failure: Exception | None = None   # why the worker could not be started

    def start_worker(self) -> None:
        self.worker_thread = threading.Thread(name="run_worker", target=self.run_worker)
        self.worker_thread.start()

    def stop_worker(self) -> None:
        self.stopping.set()
        self.worker_thread.join()

    def close(self) -> None:
        # Beam closes the channels before it stops the worker; a failure fail_run left on
        # the data channel has reached the runner already and would only fail the close.
        self.stopping.set()
        if self.data_conn._exception is self.failure:
            self.data_conn._exception = None
        super().close()

    def worker_environment(self, logging_port: int) -> dict[str, str]:
        """The environment variables a worker reads: those of Beam's subprocess workers."""
        environment = dict(
            os.environ,
            CONTROL_API_SERVICE_DESCRIPTOR=text_format.MessageToString(
                endpoints_pb2.ApiServiceDescriptor(url=self.control_address)),
            LOGGING_API_SERVICE_DESCRIPTOR=text_format.MessageToString(
                endpoints_pb2.ApiServiceDescriptor(url=f"localhost:{logging_port}")),
            PIPELINE_OPTIONS=json_format.MessageToJson(self.provision_info.provision_info.pipeline_options))
        if self.worker_id:
            environment["WORKER_ID"] = self.worker_id
        return environment

    def run_worker(self) -> None:
        """Start the worker, wait for its end; as Beam's ``SubprocessSdkWorker.run``."""
        logging_server = grpc.server(thread_pool_executor.shared_unbounded_instance(),
                                     options=[("grpc.http2.max_pings_without_data", 0),
                                              ("grpc.http2.max_ping_strikes", 0)])
        logging_port = logging_server.add_insecure_port("[::]:0")
        logging_server.start()
        beam_fn_api_pb2_grpc.add_BeamFnLoggingServicer_to_server(BeamFnLoggingServicer(), logging_server)
        process = multiprocessing.get_context(START_METHOD).Process(
            target=worker.run_forked, args=(self.worker_environment(logging_port),),
            name=f"beam-worker-{self.worker_id}")
        try:
            try:
                with worker_handlers.SUBPROCESS_LOCK:
                    process.start()
            except Exception as exc:   # no forkserver to fork from: it died (a crash in its preload)
                failure = RuntimeError("Worker could not be started: the forkserver is gone "
                                       f"({type(exc).__name__})")
                self.fail_run(failure)
                raise failure from exc
            process.join()
            if process.exitcode:
                raise RuntimeError(f"Worker subprocess exited with return code {process.exitcode}"
                                   + _signal_name(process.exitcode))
        finally:
            if process.pid is not None and process.exitcode is None:
                process.kill()
                process.join()
            logging_server.stop(0)

    def fail_run(self, failure: Exception) -> None:
        """Fail the runner's waits on this worker with ``failure`` until the runner stops it.

        A worker that never started never connects, and the runner would wait for its
        data and its answers forever.  Its data channel is marked broken as Beam's own
        reader marks it when a worker's stream fails (the runner's read raises that
        exception within a second), and its requests are aborted as Beam aborts those of
        a Docker worker that exits, again and again, for those sent after.
        """
        self.failure = failure
        self.data_conn._exception = failure
        while not self.stopping.wait(0.2):
            self.control_conn.abort(failure)


def _signal_name(exitcode: int) -> str:
    """`` (SIGKILL)`` for -9: how multiprocessing reports a worker a signal killed."""
    if exitcode >= 0:
        return ""
    try:
        return f" ({signal.Signals(-exitcode).name})"
    except ValueError:
        return ""
