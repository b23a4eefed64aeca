"""What a problem's record in ``records/<id>.json`` is kept under, and when it stands.

A record holds, beside the problem's answer, ``fingerprint`` (the input file's bytes and
the run's settings, :func:`fingerprint`), ``first_pass`` (the same without ``seconds`` and
``zones``, the settings of the node-budget pass) and ``reading``, the reading version it was made under
(``question.READING_VERSION``, one of the settings; absent from records made before it
was kept).  A record re-stamped after a reading check
(:mod:`pipeline.enclose.reading_check`) also holds ``read_by``, the version that read it.
None of them reaches the reports (:data:`BOOKKEEPING`).
"""
from __future__ import annotations

import hashlib
import json

from pipeline.enclose.question import FITS, KO

# A record's fields that say what it was made under, not what it answers: left out of the reports.
BOOKKEEPING = ("fingerprint", "first_pass", "reading", "read_by")


def fingerprint(data: bytes, settings: dict) -> str:
    """What a record was computed from: the file's bytes and the settings."""
    text = json.dumps(settings, sort_keys=True).encode()
    return hashlib.sha256(text + b"\0" + data).hexdigest()


def stands(record: dict, data: bytes, settings: dict) -> bool:
    """Whether a problem's record holds for ``data`` under ``settings``: made from these bytes
    under these settings, or final at any effort (:func:`final_at_any_effort`)."""
    return (record.get("fingerprint") == fingerprint(data, settings)
            or final_at_any_effort(record, data, settings))


def first_pass_settings(settings: dict) -> dict:
    """The settings of a run's node-budget pass: all but ``seconds``, the time spent after it,
    and ``zones``, how that time is spent."""
    return {name: value for name, value in settings.items() if name not in ("seconds", "zones")}


def final_at_any_effort(record: dict, data: bytes, settings: dict) -> bool:
    """Whether a record made at another effort (``seconds``, or none) stands at this one: its
    node-budget pass ran under these settings and a reading fits or is a ko, which more time
    never reads again (:func:`pipeline.enclose.question.read`).  So a run with more time over
    an earlier run's folder reads only the problems still open."""
    return (record.get("first_pass") == fingerprint(data, first_pass_settings(settings))
            and any(r["verdict"] in (FITS, KO) for r in record.get("readings", [])))
