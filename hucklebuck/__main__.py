"""Command line entry: ``python -m hucklebuck`` (or the ``hucklebuck`` script).

The commands live in :mod:`hucklebuck.cli`; this module only starts them.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line (see :func:`hucklebuck.cli.main`).

    After Ctrl-C (status 130) with worker threads still inside a chunk of
    work (``--workers``), the process ends at once instead of waiting for them.
    """
    from .cli import main as cli_main

    status = cli_main(argv)
    if status == 130 and any(
        t.is_alive() and not t.daemon and t is not threading.main_thread() for t in threading.enumerate()
    ):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
