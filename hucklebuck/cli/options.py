"""``hucklebuck options GAME``: every variant option with its default, values and source."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from ..words.people import option_label
from .common import add_ascii_argument, add_game_argument, game_spec, make_output

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``options`` subcommand."""
    p = subparsers.add_parser(
        "options",
        help="list a game's variant options (for --option NAME=VALUE)",
        description="List every variant option of a game: its default, the values it takes, and "
        "where the rule comes from (S0, S2, S3, S4 are the rule sources; DEF #n is the numbered "
        "decision this library takes where the sources are silent or disagree).",
    )
    add_game_argument(p)
    add_ascii_argument(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the option list."""
    spec = game_spec(args.game)
    say = make_output(args)
    say(f"{spec.title} options (use --option NAME=VALUE on play, simulate, evaluate, tournament):")
    wrap = textwrap.TextWrapper(width=78, initial_indent="    ", subsequent_indent="    ")
    for info in spec.options_type.describe():
        say("")
        say(f"  {info.name}   ({option_label(info.name)})   default: {info.default}")
        say(f"    values: {info.values}")
        if info.doc:
            for line in wrap.wrap(info.doc.replace("``", "")):
                say(line)
        for value, doc in info.value_docs:
            if doc:
                say(f"      {value}: {doc.replace('``', '')}")
    return 0
