"""Named network configurations (model/configs.py): defaults an option given still overrides."""
import argparse

import pytest

from cli.training import apply_config
from model.configs import CONFIGS
from cli.main import build_parser


def parsed(*argv: str):
    args = build_parser().parse_args(list(argv))
    apply_config(args, args.parser)
    return args


def test_a_configuration_sets_the_defaults_and_a_given_option_wins():
    args = parsed("train", "--data", "d", "--out", "o", "--config", "conv-books", "--epochs", "5")
    assert (args.architecture, args.channels, args.blocks, args.schedule) == ("conv", 64, 3, "cosine")
    assert args.epochs == 5
    plain = parsed("train", "--data", "d", "--out", "o")
    assert (plain.architecture, plain.schedule, plain.epochs) == ("dense", "plateau", 200)


def test_make_trains_recipe_is_the_dense_configuration():
    args = parsed("train", "--data", "d", "--out", "o", "--config", "dense")
    assert (args.architecture, args.schedule, args.epochs, args.keep) == ("dense", "cosine", 28, "last")


@pytest.mark.parametrize("command", ["train", "crossval"])
def test_every_setting_names_an_option(command):
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    dests = {action.dest for action in commands.choices[command]._actions}
    for name, settings in CONFIGS.items():
        # crossval chooses no epoch: --keep is train's alone
        assert set(settings) - {"keep"} <= dests, name
    assert "keep" in {a.dest for a in commands.choices["train"]._actions}
