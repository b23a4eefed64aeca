"""``tsumego serve``: the network and the solver in a browser, for a player and for a researcher.

:mod:`cli.serve` is the command, :mod:`model.serve.app` the web
application, :mod:`model.serve.boards` the positions it reads and answers,
:mod:`model.serve.solve_queue` the worker processes that solve off the thread
serving pages, :mod:`model.serve.research` a folder of labelled positions
scored; ``static/`` holds the page itself (plain HTML, CSS and JavaScript,
nothing fetched from elsewhere).
"""
