"""Command-line parsing for the Beam stages: options a stage does not know go to Beam.

Beam's options are many and runner-specific, so ``solve-all`` and ``features``
keep every word they do not recognise (with or without a ``--`` before it) in
``args.beam_options`` and hand those to ``PipelineOptions``.
"""
from __future__ import annotations

import argparse


class PassThroughParser(argparse.ArgumentParser):
    """Keeps the options it does not know in ``beam_options`` instead of failing on them."""

    def parse_known_args(self, args=None, namespace=None):
        namespace, unknown = super().parse_known_args(args, namespace)
        namespace.beam_options = [word for word in unknown if word != "--"]
        return namespace, []


def pass_unknown_options_to_beam(parser: argparse.ArgumentParser) -> None:
    """Makes ``parser`` (a subcommand's) keep unknown options in ``args.beam_options``."""
    parser.__class__ = PassThroughParser
