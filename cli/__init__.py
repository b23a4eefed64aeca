"""The ``tsumego`` command line: the one package that sees every layer.

It sits above the others (solver <- pipeline <- model <- cli), so that the
arrows of the imports all run down: the commands' argparse options and the
``args`` they parse stay here, and the model's functions take small frozen
option dataclasses instead (tests/test_layers.py checks both).

- :mod:`cli.main`: the parser, ``main`` (the console script) and its
  error and Ctrl-C handling;
- :mod:`cli.guide`: ``--guide``/``--no-guide`` of ``solve`` and ``enclose``,
  which load a network to order the search;
- one module per model command (``cli.train``, ``cli.eval_command``, ...):
  its options, and the options dataclass built from them.
"""
