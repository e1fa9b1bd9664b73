"""``hucklebuck tournament``: a duplicate-deal tournament between computer
player kinds, with 95 % confidence intervals (see :mod:`hucklebuck.tournament`)."""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import math
import sys
from typing import Any

from ..boards import run_board_match
from ..packs import GameKind
from ..players import LEARNED_KIND, PLAYER_KINDS, make_player, shipped_learned_kinds
from ..players.seer import SEER_KINDS
from ..tournament import CHUNK_DEALS, TournamentStopped, run_tournament
from .common import (
    CliError,
    add_game_argument,
    add_option_argument,
    game_spec,
    learned_players,
    parse_kinds,
    parse_options,
    positive_int,
)

__all__ = ["register", "run"]

_KINDS = PLAYER_KINDS + SEER_KINDS  # what --bots may name

DEFAULT_GAMES = 240
"""Games a tournament plays unless told: about two minutes of one core (measured in CPU time)."""

DESCRIPTION = f"""\
Play a duplicate tournament: the line-up of --bots (cycled over the seats)
plays each deal once per rotation through every seat, so the cards cancel out.
When the seats do not divide evenly among the bots (3 players, 2 kinds) every
composition is played (mc,heuristic,mc and heuristic,mc,heuristic), each
reported with each kind's even share, and their total.
Hucklebuck and Deer Park report each kind's share of games won (ties split),
Buck 'Em its mean chips per round over --rounds rounds and its margin over the
table's mean, each with a 95 % confidence interval (over deals: it needs two
deals or more). --games is rounded up to whole deals (a deal is one game per
seat rotation and composition). Deals run in seeded chunks of {CHUNK_DEALS}, so
the same --seed gives the same table whatever --workers is, on either core.
Progress goes to stderr when stderr is a terminal: the deals to play, then,
after the first few, how many are done and about how long the rest will take.
Ctrl-C stops a tournament (or a board match) and prints the table of the deals
finished by then (exit status 130).
The default (240 games of mc against heuristic) takes about two minutes of one
core (a game took 0.47 s of CPU in Hucklebuck, 0.27 s in Deer Park Euchre and
0.30 s in Buck 'Em here): a first look; --games 2000 narrows the intervals to
about a third, for ten times the time.

With --boards the deals are scored hand by hand instead (a board match, as in
bridge): each hand of a deal's reference game is played once per rotation from
the same standing with the same cards, and each kind scores the change the hand
made to its seats' chance of winning the game (Buck 'Em: their chips), over the
table's mean, per hand; even is 0. For the same interval it needs about half
the games whole games need (measured in Deer Park Euchre at four players).

player kinds: {", ".join(PLAYER_KINDS)}
and, to measure what seeing every card is worth: {", ".join(SEER_KINDS)} (a seer
reads every hand from the game; it is no fair player and plays nowhere else).
mc-solver and seer-solver solve every sampled deal exactly: a game takes them
ten or more times as long as mc or seer.

examples:
  hucklebuck tournament hucklebuck --players 4 --bots mc,heuristic --games 2000
  hucklebuck tournament buckem --players 6 --bots heuristic,random --option pot_limit=20
  hucklebuck tournament deerpark --players 4 --bots seer,mc-blind --games 400 --common-seeds
  hucklebuck tournament deerpark --players 4 --bots mc,mc-blind --games 1600 --common-seeds --boards
"""


def register(subparsers: Any) -> None:
    """Add the ``tournament`` subcommand."""
    p = subparsers.add_parser(
        "tournament",
        help="duplicate tournament between player kinds, with 95%% intervals",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_argument(p)
    p.add_argument(
        "--players",
        "-n",
        type=int,
        default=None,
        metavar="N",
        help="number of players (default 4; Buck 'Em 5)",
    )
    p.add_argument(
        "--bots",
        default="mc,heuristic",
        help=f"comma-separated player kinds cycled over the seats (default mc,heuristic; "
        f"kinds: {', '.join(_KINDS)})",
    )
    p.add_argument(
        "--games",
        type=positive_int,
        default=DEFAULT_GAMES,
        metavar="N",
        help=f"games to play (default {DEFAULT_GAMES}: about two minutes of one core)",
    )
    p.add_argument(
        "--rounds", type=positive_int, default=None, metavar="N", help="rounds per Buck 'Em game (default 20)"
    )
    p.add_argument("--seed", type=int, default=0, metavar="N", help="random seed (default 0)")
    p.add_argument("--workers", type=positive_int, default=1, metavar="N", help="threads to use (default 1)")
    p.add_argument(
        "--common-seeds",
        action="store_true",
        help="give each seat's player the same random seed whichever kind sits there (common random "
        "numbers: a small difference between two similar kinds shows with fewer games)",
    )
    p.add_argument(
        "--boards",
        action="store_true",
        help="score hand by hand (a board match): each hand of a reference game is played once per "
        "rotation from the same standing with the same cards, and each kind scores what the hand did "
        "to its chance of winning the game (Buck 'Em: its chips); for the same interval it needs "
        "about half the games",
    )
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.add_argument(
        "--learned",
        metavar="PATH",
        help="a checkpoint of python -m hucklebuck.learn (needs NumPy): --bots may then name 'learned'",
    )
    add_option_argument(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the tournament and print its table."""
    spec = game_spec(args.game)
    if args.rounds is not None and spec.kind is not GameKind.BUCKEM:
        raise CliError(f"--rounds is for Buck 'Em sessions; a game of {spec.title} ends by its own rules")
    options = parse_options(spec, args.options)
    defaults = spec.options_type().to_dict()
    changed = {k: v for k, v in options.to_dict().items() if v != defaults[k]}
    shipped = shipped_learned_kinds()  # trained weights shipped with the library, if any
    allowed = (*_KINDS, *shipped)
    kinds = parse_kinds(str(args.bots), (*allowed, LEARNED_KIND) if args.learned else allowed)
    extra: dict[str, Any] = {}
    if any(k in shipped for k in kinds):
        extra["custom"] = {
            k: functools.partial(_learned, spec.kind, shipped[k]) for k in kinds if k in shipped
        }
    if args.learned:
        trained = make_player(LEARNED_KIND, spec.kind, path=args.learned)  # a bad file: before any game
        if LEARNED_KIND in kinds:
            args.players = learned_players(trained, args.players, args.learned)  # its size unless told
        extra["custom"] = extra.get("custom", {}) | {
            LEARNED_KIND: functools.partial(_learned, spec.kind, args.learned)
        }
    # the player count is checked by run_tournament, after the options (eight_player_turnup allows 8)
    stopped = None
    try:
        result = _play(args, spec, kinds, changed, extra)
    except TournamentStopped as stop:  # Ctrl-C: the table of the deals finished so far
        result, stopped = stop.result, stop
    if stopped is not None:
        print(
            f"Stopped (Ctrl-C) after {result.deals} deal{'s' if result.deals != 1 else ''}: "
            "the table counts only the deals finished.",
            file=sys.stderr,
            flush=True,
        )
    if args.json:
        data = dataclasses.asdict(result)
        data["game"] = result.game.value
        json.dump(_no_nan(data), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(result.table() + "\n")
    return 130 if stopped is not None else 0


def _play(
    args: argparse.Namespace, spec: Any, kinds: list[str], changed: dict[str, Any], extra: dict[str, Any]
) -> Any:
    """The tournament (or board match) the arguments ask for (``extra``: more keyword arguments)."""
    return (run_board_match if args.boards else run_tournament)(
        spec.kind,
        players=args.players,
        bots=kinds,
        games=args.games,
        options=changed,
        seed=args.seed,
        **({} if args.rounds is None else {"rounds": args.rounds}),  # run_tournament's default otherwise
        workers=args.workers,
        common_seeds=args.common_seeds,
        **extra,
    )


def _learned(kind: GameKind, path: str, seed: int) -> Any:
    """The ``--learned`` checkpoint as a player (a module-level function: picklable)."""
    return make_player(LEARNED_KIND, kind, path=path, seed=seed)


def _no_nan(data: Any) -> Any:
    """``data`` with every ``nan`` (an interval from one deal) as ``null``, so it stays JSON."""
    if isinstance(data, float) and math.isnan(data):
        return None
    if isinstance(data, dict):
        return {k: _no_nan(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_no_nan(v) for v in data]
    return data
