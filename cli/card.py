"""``tsumego card``'s options (the card and the calibration: :mod:`model.network_card`)."""
from __future__ import annotations


def register(commands) -> None:
    parser = commands.add_parser(
        "card", help="write a network's lineage and held-out calibration into its card (README.md), "
                     "and eval's unsure band into its model.json")
    parser.add_argument("--network", required=True, metavar="DIR",
                        help="the network's folder: its model.json, and the README.md written there")
    parser.add_argument("--report", metavar="REPORT_DIR",
                        help="a folder tsumego report wrote on records the network never trained on: "
                             "its summary.json's figures and unsure band go into model.json "
                             "(default: none; the card keeps the figures model.json holds)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from model.network_card import write_card

    return write_card(args.network, args.report)
