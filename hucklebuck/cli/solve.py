"""``hucklebuck solve``: the perfect-information result of a position, per seat."""

from __future__ import annotations

import argparse
from typing import Any

from .. import evaluate as ev
from ..packs import pack
from .common import CliError, add_ascii_argument, add_game_argument, game_spec, make_output
from .evaluate import read_hand, read_suit
from .table import SUIT_NAMES, cards_text

__all__ = ["register", "run"]

DESCRIPTION = """\
Solve a position with every hand open: for each seat, the most tricks it can be
sure of when all the other seats play against it. Give one hand per seat, in
seat order; every hand holds the same number of cards (1 to 5); write "-" for
a seat not in play.

example:
  hucklebuck solve hucklebuck --trump S --hands "AS KS" "AH KH" "2C 3C" --leader 1
"""


def register(subparsers: Any) -> None:
    """Add the ``solve`` subcommand."""
    p = subparsers.add_parser(
        "solve",
        help="perfect-information tricks per seat for open hands",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_argument(p)
    p.add_argument("--trump", required=True, metavar="SUIT", help="trump suit: C, D, H or S")
    p.add_argument(
        "--hands", required=True, nargs="+", metavar="CARDS", help="each seat's cards, in seat order"
    )
    p.add_argument(
        "--leader",
        type=int,
        default=1,
        help="the seat that leads, counted from 1 in --hands order (default 1)",
    )
    add_ascii_argument(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print each seat's sure tricks."""
    spec = game_spec(args.game)
    say = make_output(args)
    trump = read_suit(args.trump)
    hands = [
        () if h.strip() == "-" else read_hand(h, f"--hands (seat {i + 1})", None)
        for i, h in enumerate(args.hands)
    ]
    if not 2 <= len(hands) <= 8:
        raise CliError(f"--hands needs one hand per seat, 2 to 8 seats, not {len(hands)}")
    sizes = {len(h) for h in hands if h}
    if len(sizes) != 1:
        raise CliError("--hands: every seat in play must hold the same number of cards")
    size = sizes.pop()
    if not 1 <= size <= 5:
        raise CliError(f"--hands: a hand holds 1 to 5 cards, not {size}")
    seen: set[Any] = set()
    for h in hands:
        for c in h:
            if c in seen:
                raise CliError(f"--hands: {c.code} is in two hands")
            seen.add(c)
    lo, hi = spec.player_range
    players = min(max(len(hands), lo), hi)  # the table's size sets the pack
    the_pack = pack(spec.kind, players)
    outside = [c.display for c in seen if c not in the_pack]
    if outside:
        lowest = min(the_pack, key=lambda c: c.rank).rank.display
        raise CliError(
            f"--hands: {' '.join(sorted(outside))} not in the {spec.title} pack for {players} players"
            f" ({lowest} to A in each suit)"
        )
    if not 1 <= args.leader <= len(hands):
        raise CliError(f"--leader {args.leader}: no such seat (seats 1 to {len(hands)})")
    leader = args.leader - 1  # people count seats from 1, the solver from 0
    if not hands[leader]:
        raise CliError(f"--leader {args.leader}: that seat is not in play (its hand is '-')")
    say(
        f"{spec.title}, trump {trump.glyph} {SUIT_NAMES[trump]},"
        f" seat {args.leader} leads, {size} trick{'' if size == 1 else 's'} to play"
    )
    say(f"{'seat':<6}{'hand':<22}{'sure tricks':>12}")
    for seat, h in enumerate(hands):
        if not h:
            say(f"{seat + 1:<6}{'(not in play)':<22}")
            continue
        result = ev.solve(spec.kind, trump, hands, leader=leader, seat=seat)
        say(f"{seat + 1:<6}{cards_text(h):<22}{result:>12}")
    return 0
