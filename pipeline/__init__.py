"""From problems to training records, and the ``tsumego`` command line.

Layers, each importing only those before it (and the small shared modules
``errors``, ``markdown``, ``progress``, ``symmetries``): ``formats/`` (the
files the stages exchange), ``planes/`` (feature planes on a board),
``beam/`` (what the Beam stages share), the stages (``solve_all``,
``features``, ``validate``, ``generate``, ``corpus_stats``), and last
``cli``, which alone may import :mod:`model`.
"""
