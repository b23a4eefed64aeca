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
  network's weights, as many cosine epochs from 0.00035 as fit its hour on 2
  cores (pipeline/network_stages.py).
"""
from __future__ import annotations

CONFIGS: dict[str, dict] = {
    "dense": {"architecture": "dense", "schedule": "cosine", "epochs": 28, "keep": "last"},
    "conv": {"architecture": "conv", "schedule": "cosine", "epochs": 28, "keep": "last"},
    "conv-books": {"architecture": "conv", "channels": 64, "blocks": 3, "schedule": "cosine", "epochs": 11,
                   "warm_up": 1000},
    "conv-books-longer": {"schedule": "cosine", "epochs": 8, "learning_rate": 0.00035},
    "conv-books-short": {"schedule": "cosine", "epochs": 6, "learning_rate": 0.00035},
}
