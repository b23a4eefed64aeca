"""Named network configurations: the recipes ``make train`` and ``make network`` train, by name.

``tsumego train --config NAME`` (and ``crossval``) takes a configuration's
settings as its defaults: an option given on the command line still wins
(:func:`cli.training.apply_config`).
The recipe of a network then lives here, in one place, rather than as
flags spread over the Makefile, and ``model.json`` records the name.

- ``dense``, ``conv``: ``make train``'s (``ARCH``): a cosine schedule over 28
  epochs on every train problem, the last epoch kept (RESULTS.md, "make train
  keeps the last epoch").
- ``conv-books``: ``make network``'s first run, the shipped network's shape
  (64 planes, 3 blocks), 11 cosine epochs after a warm-up of 1,000 batches (without
  it the value head died in the first epoch on the book data of 2026-12: RESULTS.md,
  "The book network's dead value head"); ``conv-books-longer``, its
  second run from there, 8 more epochs from a learning rate of 0.00035
  (model/networks/conv-books/README.md).
- ``conv-books-short``: the short ``make network``'s one run, from the shipped
  network's weights, 10 cosine epochs from 0.00035 (62 minutes on 2 cores
  in RESULTS.md's "make network in 150 minutes", beside 42 of data stages).
"""
from __future__ import annotations

import json
from pathlib import Path

# The recipes themselves are data (configs.json), so that make network's stage keys
# (pipeline/network_stages.py) can name the recipe a training stage runs without importing
# the model: a changed recipe trains again.
CONFIGS: dict[str, dict] = json.loads((Path(__file__).with_name("configs.json")).read_text())
