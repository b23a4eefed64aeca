"""``tsumego report``'s options (what is scored and written: :mod:`model.report`)."""
from __future__ import annotations

from cli.training import options_from
from model.quantize import DEFAULT_BITS
from model.report import REPORT_SPLITS, ReportOptions


def register(commands) -> None:
    parser = commands.add_parser("report", help="accuracy by size, bits table and training curves")
    parser.add_argument("--model", required=True,
                        help="model folder (trained and quantized, or a packed network with its "
                             "model.json alone, as model/networks/conv-books)")
    parser.add_argument("--data", help="records to evaluate (default: the training data)")
    parser.add_argument("--split", choices=REPORT_SPLITS, default="test",
                        help="test: the test split of --data; all: both of its splits (records the "
                             "network never trained on)")
    parser.add_argument("--out", default="reports", help="folder to write (default reports/)")
    parser.add_argument("--bits", type=int, default=DEFAULT_BITS,
                        help="the packed file to compare with float (default 5)")
    parser.add_argument("--no-symmetries", action="store_true",
                        help="skip the accuracy over the 8 symmetries (it costs 8 evaluations "
                        "more, long for a conv network)")
    parser.add_argument("--exclude-problems", metavar="FILE",
                        help="leave out the records of the source problems FILE lists (one id a "
                             "line, as the records' GN; # starts a comment)")
    parser.add_argument("--trees", metavar="DIR",
                        help="solve-all's trees/ folder, whose roots tell which records are the problems' "
                             "root positions (default: solve-all/trees beside the records' folder, "
                             "when there is one)")
    parser.set_defaults(run=run)


def run(args) -> int:
    from model.report import write_report

    return write_report(options_from(ReportOptions, args))
