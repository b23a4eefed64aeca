"""Quiet by default: a stage prints its progress bar and its summary, not its libraries' logs.

Left alone, a run prints the INFO logs of every Beam worker ("Data channel
established", ...), Beam's warning that the BigQuery client is missing, and
TensorFlow's start-up lines from its native code ("oneDNN custom operations
are on", "Could not find cuda drivers").  :func:`hush` keeps the errors
of Python's logging and drops the rest.  ``TSUMEGO_VERBOSE=1`` in the
environment (or ``tsumego --verbose``, which sets it) leaves every log as
the libraries make it.

It is an environment variable so that Beam's worker processes, which inherit
the environment, follow the command line's choice (:mod:`pipeline.beam.worker`).
"""
from __future__ import annotations

import contextlib
import importlib.abc
import importlib.util
import logging
import os
import sys

VERBOSE_VARIABLE = "TSUMEGO_VERBOSE"


def verbose() -> bool:
    return os.environ.get(VERBOSE_VARIABLE, "") not in ("", "0")


def set_verbose() -> None:
    """Every log from here on, in this process and the worker processes it starts."""
    os.environ[VERBOSE_VARIABLE] = "1"


def hush() -> None:
    """Drop the libraries' logs below ERROR, unless :func:`verbose`; call before Beam or TensorFlow loads."""
    if verbose():
        return
    # TensorFlow's C++ logs after start-up, read when TensorFlow loads.  Its "errors"
    # there are not the run's ("failed call to cuInit" on a machine without a GPU, a
    # graph optimizer giving up on a step); a failure that matters raises in Python.
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    # A handler of its own on the root logger: Beam's logging.basicConfig() then
    # adds none, and a Beam worker that sets the root logger to INFO still prints errors only.
    root = logging.getLogger()
    if not any(isinstance(handler, _ErrorsOnly) for handler in root.handlers):
        root.addHandler(_ErrorsOnly())
    root.setLevel(logging.ERROR)
    for name in ("tensorflow", "absl"):
        logging.getLogger(name).setLevel(logging.ERROR)
    if "tensorflow" not in sys.modules and not any(isinstance(finder, _MutedImport) for finder in sys.meta_path):
        sys.meta_path.insert(0, _MutedImport("tensorflow"))


class _ErrorsOnly(logging.StreamHandler):
    """The root logger's handler while hushed: errors, to stderr."""

    def __init__(self):
        super().__init__()
        self.setLevel(logging.ERROR)


@contextlib.contextmanager
def stderr_muted():
    """File descriptor 2 points at /dev/null meanwhile: native code writes there directly."""
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


class _MutedImport(importlib.abc.MetaPathFinder):
    """Loads one module with stderr muted, the first time anything imports it.

    TensorFlow's native libraries log their start-up lines through Abseil
    before anything can configure it (TF_CPP_MIN_LOG_LEVEL does not reach
    them), and TensorFlow is imported in many places, workers included.  An
    error while importing is still raised as usual.
    """

    def __init__(self, name: str):
        self.name = name

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        execute = spec.loader.exec_module

        def exec_module(module):
            with stderr_muted():
                execute(module)

        spec.loader.exec_module = exec_module
        return spec
