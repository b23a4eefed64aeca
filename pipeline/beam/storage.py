"""Small file operations over Beam's FileSystems, so stages run on local disks and buckets alike.

Writes are atomic: the bytes go to a temporary name beside the target, which
is then renamed over it.  An interrupted run never leaves half a file under a
real name, and two workers writing the same file (the same bytes) are harmless.
"""
from __future__ import annotations

import os
import uuid

from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from pipeline.paths import is_remote  # noqa: F401  (the stages ask storage, beside its other file operations)

TEMPORARY_MARK = ".tmp-"


def join(base: str, *parts: str) -> str:
    return FileSystems.join(base, *parts)


def exists(path: str) -> bool:
    return FileSystems.exists(path)


def read_bytes(path: str, filesystem=None) -> bytes:
    """The bytes of a file; ``filesystem``, Beam's for the path, when the caller has it at hand
    (resolving it costs more than reading a small file)."""
    with (filesystem or FileSystems).open(path, compression_type=CompressionTypes.UNCOMPRESSED) as f:
        return f.read()


def write_atomic(path: str, data: bytes) -> None:
    temporary = f"{path}{TEMPORARY_MARK}{uuid.uuid4().hex}"
    with FileSystems.create(temporary, compression_type=CompressionTypes.UNCOMPRESSED) as f:
        f.write(data)
    FileSystems.rename([temporary], [path])


def delete_if_present(paths: list[str]) -> None:
    present = [path for path in paths if FileSystems.exists(path)]
    if present:
        FileSystems.delete(present)


def files_in(folder: str, suffix: str) -> list[str]:
    """The files directly in ``folder`` whose name ends with ``suffix``, sorted (what Beam's
    match of ``folder/*suffix`` gives).  A local folder is read in one pass of its entries:
    Beam's match also stats every file and matches its name against the pattern, which cost
    more than reading a small file."""
    if is_remote(folder):
        return sorted(m.path for m in FileSystems.match([join(folder, "*" + suffix)])[0].metadata_list)
    with os.scandir(folder) as entries:
        return sorted(os.path.join(folder, entry.name) for entry in entries
                      if entry.name.endswith(suffix) and entry.is_file())


def list_files(folder: str, suffix: str) -> list[str]:
    """Every file under ``folder`` (recursively) whose name ends with ``suffix``, sorted."""
    pattern = join(folder, "**" + suffix)
    found = FileSystems.match([pattern])[0].metadata_list
    return sorted(m.path for m in found)
