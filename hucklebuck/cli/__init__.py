"""The ``hucklebuck`` command line.

Each subcommand lives in its own module of this package and exposes
``register(subparsers) -> None``, which adds its parser and sets the default
``run`` to a function taking the parsed arguments and returning the exit
status.  Bad input raises :class:`CliError` (or any
:class:`~hucklebuck.errors.HucklebuckError`): :func:`main` prints one line
naming the problem and exits with status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import HucklebuckError
from .common import CliError, ErrorParser, Output, can_encode

__all__ = ["COMMANDS", "CliError", "build_parser", "main"]

COMMANDS: tuple[str, ...] = ("play", "options", "evaluate", "solve", "simulate", "tournament", "serve")
"""The subcommand modules, in the order ``--help`` lists them (missing ones are skipped)."""

DESCRIPTION = """\
Play Hucklebuck, Buck 'Em and Deer Park Euchre in the terminal, watch computer
players, list each game's variant options, and evaluate, solve or simulate hands.

examples:
  hucklebuck play hucklebuck --players 4 --you 1     sit at seat 1 against three bots
  hucklebuck play deerpark --players 3 --seed 5      watch three bots play
  hucklebuck options buckem                          every Buck 'Em variant option
  hucklebuck evaluate hucklebuck --hand "AS KS QS 2H 3D" --trump S --players 4
"""


def program_name() -> str:
    """``hucklebuck`` from the console script, ``python -m hucklebuck`` otherwise."""
    base = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if base in ("", "-c", "__main__.py") or base.startswith("python"):
        return "python -m hucklebuck"
    return base.removesuffix(".exe").removesuffix(".py")


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every available subcommand registered."""
    parser = ErrorParser(
        prog=prog or program_name(),
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            continue
        module.register(sub)
    parser.subcommands = dict(sub.choices)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except (CliError, HucklebuckError) as exc:
        message = " ".join(str(exc).split()) or type(exc).__name__
        Output(sys.stderr, ascii_only=not can_encode(sys.stderr))(
            f"{parser.prog} {args.command}: error: {message}"
        )
        return 2
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly.
        try:
            sys.stdout = open(os.devnull, "w")  # swallow the final flush
        except OSError:
            pass
        return 0
    return status
