"""``tsumego quantize``'s options (the packing: :mod:`model.quantize`)."""
from __future__ import annotations

from cli.training import options_from
from model.quantize import DEFAULT_BITS, DEFAULT_SCHEME, SCHEMES, QuantizeOptions


def register(commands) -> None:
    parser = commands.add_parser(
        "quantize", help="pack the trained network at b bits a weight; table of test error by b")
    parser.add_argument("--model", required=True, help="model folder written by tsumego train")
    parser.add_argument("--bits", type=int, default=DEFAULT_BITS, help="bits a weight (default 5)")
    parser.add_argument("--scheme", choices=SCHEMES, default=DEFAULT_SCHEME,
                        help=f"how each tensor's range is chosen (default {DEFAULT_SCHEME}; "
                             "see model/quantize.py)")
    parser.add_argument("--out", help="packed file to write (default MODEL/model-<b>bit.tsq)")
    parser.add_argument("--data", help="records for the error table (default: the training data)")
    parser.add_argument("--no-table", action="store_true", help="skip the table of error by bits")
    parser.add_argument("--table-schemes", default=",".join(SCHEMES), metavar="SCHEME,...",
                        help="schemes the table compares (default all; each costs 7 evaluations of "
                             "the test split, minutes for a conv network)")
    parser.add_argument("--no-bias-correction", action="store_true",
                        help="keep the float biases (see model/bias_correction.py)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from model.quantize import quantize_model

    table_schemes = tuple(scheme for scheme in args.table_schemes.split(",") if scheme)
    unknown = sorted(set(table_schemes) - set(SCHEMES))
    if unknown or not table_schemes:
        args.parser.error(f"--table-schemes takes some of {', '.join(SCHEMES)}, not {args.table_schemes!r}")
    if not 1 <= args.bits <= 16:
        args.parser.error(f"--bits must be 1..16 (the float file is always written), not {args.bits}")
    return quantize_model(options_from(QuantizeOptions, args, table_schemes=table_schemes))
