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


def add_stage_parser(commands, name: str, help: str) -> argparse.ArgumentParser:
    """A Beam stage's subparser: it passes the options it does not know to Beam, and takes no
    abbreviations (an abbreviation could swallow one of Beam's options)."""
    parser = commands.add_parser(
        name, allow_abbrev=False, help=help,
        description="Options it does not know, and words after '--', go to Beam "
                    "(e.g. --direct_num_workers 2 --direct_running_mode multi_processing).")
    pass_unknown_options_to_beam(parser)
    return parser
