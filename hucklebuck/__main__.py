"""Command line entry: ``python -m hucklebuck`` (or the ``hucklebuck`` script).

The commands live in :mod:`hucklebuck.cli`; this module only starts them.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line (see :func:`hucklebuck.cli.main`)."""
    from .cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
