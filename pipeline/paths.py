"""Where a command may write: its output paths checked before any work starts.

A stage that finds out at its end (or halfway, after an hour of solving) that
``--out`` names a file, or a folder it cannot write, has wasted the run and
ends in Python's words.  The commands check their output paths first with
these functions, which raise :class:`pipeline.errors.CommandError` (code 2:
the run could not start) with one line naming the option and the path.

Missing folders on the way are not an error: the stages create them, parents
included (``--out out/solve-all`` works on a fresh clone).  Nothing is
created here, so a run refused later (say on a bad ``--data``) leaves no
empty folder behind.

Remote paths (``gs://...``) cannot be checked from here: Beam's and
TensorFlow's file systems report their own errors.
"""
from __future__ import annotations

import os

from pipeline.errors import CommandError


def is_remote(path: str) -> bool:
    """Whether ``path`` names a bucket or other remote store (``gs://...``), not a local file.

    Local paths are the ones a stage may make absolute (workers need not share
    the driver's working folder), create with ``os``, and poll for a progress bar.
    """
    return "://" in path


def _writable_place(path: str, option: str) -> None:
    """``path`` (a folder or file to be) can be created: no file on its way, and the nearest
    folder that exists is writable."""
    parent = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent):
        raise CommandError(f"{option} {path}: {parent} is a file, not a folder", code=2)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise CommandError(f"{option} {path}: cannot write in {parent} (permission denied)", code=2)


def check_output_folder(path: str, option: str = "--out") -> None:
    """``path`` is a folder, or can be made one."""
    if is_remote(path):
        return
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise CommandError(f"{option} {path}: a file, not a folder", code=2)
        if not os.access(path, os.W_OK | os.X_OK):
            raise CommandError(f"{option} {path}: cannot write in it (permission denied)", code=2)
        return
    _writable_place(path, option)


def check_output_file(path: str, option: str, overwrite: bool) -> None:
    """``path`` can be written as a file; one that exists is refused unless ``overwrite``."""
    if is_remote(path):
        return
    if os.path.isdir(path):
        raise CommandError(f"{option} {path}: a folder, not a file", code=2)
    if os.path.exists(path):
        if not overwrite:
            raise CommandError(f"{option} {path}: the file exists (--force overwrites it)", code=2)
        if not os.access(path, os.W_OK):
            raise CommandError(f"{option} {path}: cannot overwrite it (permission denied)", code=2)
        return
    _writable_place(path, option)


def check_apart(output: str, output_option: str, source: str, source_option: str, why: str) -> None:
    """Refuse an output folder inside the folder a stage reads recursively, or that folder inside
    the output: the run would read its own files back.  ``why`` says what would go wrong."""
    if is_remote(output) or is_remote(source):
        return
    out, read = os.path.realpath(output), os.path.realpath(source)
    if os.path.commonpath([out, read]) in (out, read):
        raise CommandError(f"{output_option} {output} and {source_option} {source} overlap: {why}", code=2)
