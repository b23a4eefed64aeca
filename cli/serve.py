"""``tsumego serve``: the network and the solver in a browser (docs/serve.md).

``tsumego serve [--host H] [--port P] [--model FILE.tsq|DIR] [--data DIR] [--max-nodes N]
[--seconds S] [--workers W]`` loads the network (the shipped one unless
``--model``), starts the solver's worker processes, scores ``--data`` for the
research view, prints the address and serves until Ctrl-C.  It listens on
127.0.0.1 unless ``--host`` says otherwise: the page reads and solves
whatever it is sent, so it is for this machine's user.
"""
from __future__ import annotations

import logging
import os
import socket

from pipeline import quiet
from pipeline.budgets import SERVE_MAX_NODES
from pipeline.errors import CommandError
from solver.area import DEFAULT_MAX_AREA

DEFAULT_PORT = 8088
# The CPU time of each answer's solves (solve --seconds), past which the group is not settled:
# the page waits no longer.  The reference problems that say who plays are proved within 2.5 s.
DEFAULT_SECONDS = 10.0


def register(commands) -> None:
    parser = commands.add_parser("serve", help="a local web page: open an SGF, click a group, see the "
                                               "network's halo and the solver's proof")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (0.0.0.0: every interface, for other machines too)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port to listen on (0: any free one)")
    parser.add_argument("--model", help="packed network (.tsq) or a model folder (its model-5bit.tsq) "
                                        "(default: the shipped network, model/networks/conv-books)")
    parser.add_argument("--data", metavar="DIR",
                        help="for the research view: a folder of subproblem files (TS and AS labelled, as "
                             "solve-all writes them) or a features folder (its test split) (default: none)")
    parser.add_argument("--max-nodes", type=int, default=SERVE_MAX_NODES,
                        help="node budget of each solve; past it the group is not settled within the budget")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS,
                        help="CPU time of each answer's solves, as solve --seconds (a solve's process is "
                             "stopped past twice that and 5 s more)")
    parser.add_argument("--workers", type=int, default=2,
                        help="solver processes; requests beyond them wait their turn")
    parser.add_argument("--max-area", type=int, default=DEFAULT_MAX_AREA,
                        help="reject groups whose search area has more empty points, as solve does")
    parser.set_defaults(run=run, on_interrupt="the server stopped")


def run(args) -> int:
    from werkzeug.serving import make_server

    from model.evaluate import load_network, network_unsure_band
    from model.shipped import packed_file
    from model.quantize import DEFAULT_BITS
    from model.serve.app import create_app
    from model.serve.research import load_research
    from model.serve.solve_queue import SolveQueue, wall_limit
    from pipeline.warm_up import warm_up_planes

    if args.max_nodes < 0 or args.seconds <= 0 or args.workers < 1:
        args.parser.error("--max-nodes must not be negative, --seconds and --workers must be positive")
    model = packed_file(args.model)
    net = load_network(model)   # eval's loader: the same checks, the same one-line errors
    warm_up_planes()
    research = load_research(args.data, net, DEFAULT_BITS) if args.data else None
    settings = {"max_nodes": args.max_nodes, "max_area": args.max_area, "seconds": args.seconds,
                "guide": model, "model": os.path.basename(os.path.dirname(os.path.abspath(model))),
                "unsure_band": list(network_unsure_band(model))}
    try:   # bound here, so that a port in use is one line (werkzeug's own bind exits with its own)
        listening = socket.create_server((args.host, args.port),
                                         family=socket.AF_INET6 if ":" in args.host else socket.AF_INET)
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        raise CommandError(f"--host {args.host} --port {args.port}: cannot listen there ({reason})", code=2) from exc
    solves = SolveQueue(settings, workers=args.workers, seconds=wall_limit(args.seconds))
    app = create_app(net, solves, research, settings=settings)
    server = make_server(args.host, args.port, app, threaded=True, fd=listening.fileno())
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"tsumego serve: http://{host}:{listening.getsockname()[1]}/  (Ctrl-C to stop)", flush=True)
    if research is not None:
        print(f"research view: {research.predictions.safe.size} positions of {args.data}", flush=True)
    if not quiet.verbose():   # a line a request, unless --verbose
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    try:
        server.serve_forever()   # (werkzeug's ends quietly on Ctrl-C)
    finally:
        server.server_close()
        solves.close()
    print("tsumego serve: stopped", flush=True)
    return 0
