"""``--guide FILE.tsq|MODEL_DIR`` and ``--no-guide``: the network that orders ``solve``'s
and ``enclose``'s searches.

The pipeline may not import the model, so :mod:`cli.main` adds these options
to those two commands and hands them the loader.
"""
from __future__ import annotations

import functools
import hashlib
import os

from pipeline.errors import CommandError


def guide_path(args) -> str | None:
    """The packed network ``--guide`` names: by default the shipped network's 5-bit file
    when the repository has one (:mod:`model.shipped`); None with ``--no-guide``."""
    if args.no_guide:
        return None
    if args.guide is not None:
        return args.guide
    from model.shipped import shipped_packed_file

    return shipped_packed_file()


def load_guide(path: str | None):
    """The :class:`model.guide.Guide` of a packed file or a model folder, or None."""
    if path is None:
        return None
    from model.guide import Guide   # numpy network and planes: only when asked for

    try:
        return Guide.load(path)
    except (OSError, ValueError) as exc:
        raise CommandError(f"{path}: cannot load the network to guide the search ({exc})") from exc


def stage_guide(args) -> tuple:
    """For a Beam stage's ``--guide``: (a picklable function its workers call to load the
    guide, a name for the stage's settings: the file, the hash of its bytes, the
    prior's weight and its fade), or
    (None, None) unguided.  The guide is loaded here once, so that a file that cannot
    serve stops the run with one line before it starts; the function carries the file's
    bytes (132 KB for the shipped network), since a remote worker may not see the file."""
    path = guide_path(args)
    if path is None:
        return None, None
    from model.guide import Guide
    from model.shipped import packed_file

    try:
        packed = packed_file(path)
        with open(packed, "rb") as handle:
            blob = handle.read()
        name = os.path.basename(packed)
        guide = Guide.from_bytes(blob, name)
    except (OSError, ValueError) as exc:
        raise CommandError(f"{path}: cannot load the network to guide the search ({exc})") from exc
    # the weight and the fade too: with others, other readings may settle within the budget
    return (functools.partial(Guide.from_bytes, blob, name),
            f"{name} {hashlib.sha256(blob).hexdigest()[:16]} weight {guide.weight} fade {guide.fade_nodes:g}")


def add_guide_options(parser) -> None:
    """``--guide FILE.tsq|MODEL_DIR`` and ``--no-guide``, for the commands that solve."""
    guided = parser.add_mutually_exclusive_group()
    guided.add_argument("--guide", metavar="FILE.tsq|MODEL_DIR",
                        help="order the search's moves by this packed network (a model folder: its "
                             "model-5bit.tsq): the same verdicts, usually in fewer nodes; default: the "
                             "shipped network, if the repository has it")
    guided.add_argument("--no-guide", action="store_true", help="search unguided")
