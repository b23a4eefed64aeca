"""The network shipped in the repository, and the packed file a ``--model`` names.

``model/networks/conv-books/`` holds the network ``make network`` trains on the
published book problems (enclosed): its 5-bit packed file (``model-5bit.tsq``),
the training spec ``model.json``, a model card (``README.md``) and possibly the
float packed file.  No Keras model, history or bits table: what ``tsumego eval``
needs to answer, and ``tsumego report`` to score it on other records.

The path is resolved from this module's own location, so the shipped network
is found from any working directory.
"""
from __future__ import annotations

import os

from model.packed import packed_path
from model.quantize import DEFAULT_BITS
from pipeline.errors import CommandError

SHIPPED_NETWORK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "networks", "conv-books")


def shipped_packed_file(bits: int = DEFAULT_BITS) -> str | None:
    """The shipped network's b-bit file, or None if the repository has none."""
    path = packed_path(SHIPPED_NETWORK, bits)
    return path if os.path.isfile(path) else None


def packed_file(model: str | None, bits: int = DEFAULT_BITS) -> str:
    """The packed file to load for ``--model``: without one, the shipped network's b-bit file;
    a folder, its b-bit file (``tsumego quantize``'s name); anything else, the file itself
    (its loader names it if it cannot be read).  A folder without the file is a CommandError."""
    if model is None:
        path = shipped_packed_file(bits)
        if path is None:
            raise CommandError(f"{packed_path(SHIPPED_NETWORK, bits)}: no shipped network here; pass --model "
                               "(a packed .tsq file or a folder tsumego quantize wrote)", code=2)
        return path
    if os.path.isdir(model):
        path = packed_path(model, bits)
        if not os.path.isfile(path):
            raise CommandError(f"{model}: no {os.path.basename(path)} in this folder "
                               "(run tsumego quantize first)", code=2)
        return path
    return model
