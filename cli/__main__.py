"""``python -m cli``: the ``tsumego`` command without the console script installed."""
import sys

from cli.main import main

sys.exit(main())
