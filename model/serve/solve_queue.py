"""Solves off the threads that serve pages: worker processes fed from one queue, each solve
under a node budget and a time limit.

A request that asks for a proof puts its job on the queue and waits; each worker
process has a thread here that takes the next job, hands it over and waits for
the answer at most ``seconds`` of wall-clock time.  The answer's own solves
stop at their CPU time limit (``solve --seconds``) and say so; this is the
backstop, for what that limit does not cover: a solve past it is not waited
for, its process is killed (a compiled search cannot be interrupted from
outside any other way) and a fresh one started, and the job is answered
``timed_out``.
So a hard problem holds one worker for at most the time limit, never the
page, and requests beyond the workers wait their turn instead of being dropped.

Workers are started with ``spawn`` (a fresh interpreter: the server has threads,
which a forked child would inherit half-way), and each loads the solver's
machine code, the guide and the learned move patterns once, before its first
job: a solve's time limit counts the solve only.
"""
from __future__ import annotations

import multiprocessing
import queue
import signal
import threading
from concurrent.futures import Future

from pipeline.solve_command import LINE_GRACE_SECONDS

READY = "ready"


def wall_limit(seconds: float) -> float:
    """How long a worker is waited for on a solve whose answer is limited to ``seconds`` of CPU
    time (``solve --seconds``): twice that, for a busy machine whose CPU time lags the clock,
    and the main line's grace past it (``LINE_GRACE_SECONDS``)."""
    return 2 * seconds + LINE_GRACE_SECONDS


class SolveQueue:
    """``workers`` solver processes behind one queue; :meth:`solve` blocks until its job is answered."""

    def __init__(self, settings: dict, workers: int = 2, seconds: float = 10.0):
        self.settings = settings
        self.seconds = seconds
        self.jobs: queue.Queue = queue.Queue()
        self.context = multiprocessing.get_context("spawn")
        self.threads = [threading.Thread(target=self._feed_worker, name=f"solver-{i}", daemon=True)
                        for i in range(workers)]
        for thread in self.threads:
            thread.start()

    def solve(self, job: dict) -> dict:
        """The worker's answer to ``job`` (:func:`model.serve.boards.solve_job`), or
        ``{"timed_out": True}`` past the time limit, or ``{"error": line}``."""
        answer: Future = Future()
        self.jobs.put((job, answer))
        return answer.result()

    def close(self) -> None:
        """Stop every worker process, once the jobs queued before are answered."""
        for _ in self.threads:
            self.jobs.put(None)
        for thread in self.threads:
            thread.join()

    def _start_worker(self):
        here, there = self.context.Pipe()
        process = self.context.Process(target=work, args=(there, self.settings), daemon=True)
        process.start()
        there.close()
        ready = here.recv()   # the warm-up: no time limit, it is not the solve's
        if ready != READY:
            raise RuntimeError(f"a solver process could not start: {ready}")
        return process, here

    def _feed_worker(self) -> None:
        worker = None
        while True:
            try:   # started before the first job comes, so that it finds the worker warm
                worker = worker or self._start_worker()
            except (EOFError, OSError, RuntimeError):
                worker = None   # tried again for the job, which is then answered with the reason
            item = self.jobs.get()
            if item is None:   # closing
                if worker is not None:
                    worker[0].kill()
                    worker[0].join()
                return
            job, answer = item
            try:
                if worker is None:
                    worker = self._start_worker()
                process, connection = worker
                connection.send(job)
                if connection.poll(self.seconds):
                    answer.set_result(connection.recv())
                    continue
                process.kill()   # past the time limit: its search runs on until killed
                process.join()
                worker = None
                answer.set_result({"timed_out": True})
            except (EOFError, OSError, RuntimeError) as exc:   # the process died: the next job gets another
                if worker is not None:
                    worker[0].kill()
                worker = None
                reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                answer.set_result({"error": f"the solver stopped unexpectedly ({reason})"})


def work(connection, settings: dict) -> None:
    """A worker process: warm up, say ready, then answer jobs until the server goes."""
    from model.serve.boards import solve_job, solver_settings

    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C stops the server, which stops its workers
    try:
        solver_args = solver_settings(settings)
    except Exception as exc:   # said to the server, which names it
        connection.send(f"{type(exc).__name__}: {exc}")
        return
    connection.send(READY)
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return
        connection.send(solve_job(job, *solver_args))
