"""The files the stages exchange: subproblem SGFs, solution trees, TFRecords.

The problem SGF itself is read by ``solver.problem`` (the solver's input);
everything written as SGF goes through :mod:`pipeline.formats.sgf_writer`.
"""
