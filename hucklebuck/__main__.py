"""Command line: ``python -m hucklebuck play hucklebuck --players 4 --seed 7``.

Plays a whole game between computer players and prints it trick by trick.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

from . import backend_info
from .actions import (
    Action,
    Bid,
    BuckStay,
    Call,
    Discard,
    Draw,
    Drop,
    Fold,
    NameTrump,
    Order,
    Pass,
    Play,
    Stay,
)
from .cards import Card
from .games.base import Phase, ScoreEvent, TrickEvent
from .games.buckem import BuckEmGame
from .games.deerpark import DeerParkGame
from .games.engine import TrickGame
from .games.hucklebuck import HucklebuckGame
from .players import BuckEmHeuristic, DeerParkHeuristic, HucklebuckHeuristic, Player, RandomPlayer

__all__ = ["main", "play_game"]


def _cards(cs: Sequence[Card] | Any) -> str:
    return " ".join(c.display for c in cs)


def _describe(action: Action, name: str) -> str:
    if isinstance(action, Bid):
        return f"{name} bids {action.amount}" + (" (shoots the moon)" if action.amount == 5 else "")
    if isinstance(action, Pass):
        return f"{name} passes"
    if isinstance(action, NameTrump):
        return f"{name} names trump: {action.suit.glyph}"
    if isinstance(action, Stay):
        return f"{name} stays, exchanging {action.exchange}"
    if isinstance(action, Drop):
        return f"{name} drops"
    if isinstance(action, Order):
        return f"{name} orders up"
    if isinstance(action, Call):
        return f"{name} calls {action.suit.glyph}"
    if isinstance(action, Discard):
        return f"{name} discards {_cards(action.cards)}"
    if isinstance(action, BuckStay):
        return f"{name} stays" + (" and swaps the deuce for the upcard" if action.swap else "")
    if isinstance(action, Fold):
        return f"{name} folds"
    if isinstance(action, Draw):
        return f"{name} draws {len(action.cards)}" + (
            f" (discards {_cards(action.cards)})" if action.cards else ""
        )
    return f"{name} {action}"


GAMES: dict[str, tuple[Callable[..., TrickGame[Any, Any]], Callable[[], Player[Any]]]] = {
    "hucklebuck": (HucklebuckGame, HucklebuckHeuristic),
    "deerpark": (DeerParkGame, DeerParkHeuristic),
    "buckem": (BuckEmGame, BuckEmHeuristic),
}


def play_game(
    game_name: str, players: int, seed: int, kinds: Sequence[str], out: list[str], max_hands: int = 1000
) -> TrickGame[Any, Any]:
    """Play one game between computer players, writing an account of it to ``out``."""
    make_game, make_bot = GAMES[game_name]
    rng = random.Random(seed)
    game = make_game(players, rng=random.Random(rng.getrandbits(64)))
    bots: list[Player[Any]] = [
        RandomPlayer(random.Random(rng.getrandbits(64))) if kinds[i % len(kinds)] == "random" else make_bot()
        for i in range(players)
    ]
    names = [f"P{i}({kinds[i % len(kinds)][0]})" for i in range(players)]
    say = out.append
    say(f"{game.kind.title}, {players} players, seed {seed}, core: {backend_info().name}")
    while True:
        if game.phase is Phase.HAND_OVER:
            game.next_hand()
        hand_no = game.hand_number
        say("")
        label = "bankrolls" if game_name == "buckem" else "scores"
        say(f"=== Hand {hand_no}: {names[game.dealer]} deals; {label} {list(game.standings)}")
        for s in range(players):
            cards = game.hand(s)
            if cards:
                say(f"  {names[s]}: {_cards(cards)}")
        turned = getattr(game, "turned", None) or getattr(game, "upcard", None)
        if turned is not None:
            say(f"  turned up: {turned.display}")
        if game_name == "buckem":
            say(f"  pot {getattr(game, 'pot', 0)}, trump {game.trump.glyph if game.trump else '?'}")
        seen = len(game.events)
        while game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            seat = game.to_act
            assert seat is not None
            action = bots[seat].choose(game.observation(seat))
            game.apply(action)
            if not isinstance(action, Play):
                say("  " + _describe(action, names[seat]))
            for ev in game.events[seen:]:
                if isinstance(ev, TrickEvent):
                    t = ev.trick
                    if ev.number == 1 and game.trump is not None:
                        say(f"  trump: {game.trump.glyph}")
                    plays = ", ".join(
                        f"{names[s]} {c.display}" for s, c in zip(t.seats, t.cards, strict=True)
                    )
                    say(f"  trick {ev.number}: {plays} -> {names[t.winner]} wins")
                elif isinstance(ev, ScoreEvent) and (ev.delta or ev.reason):
                    say(f"  {names[ev.seat]} {ev.delta:+d}: {ev.reason}")
            seen = len(game.events)
        label = "bankrolls" if game_name == "buckem" else "scores"
        extra = f"; pot {getattr(game, 'pot', 0)}" if game_name == "buckem" else ""
        say(f"  {label} after hand {hand_no}: {list(game.standings)}{extra}")
        if game.is_over or hand_no >= max_hands:
            break
    say("")
    scores = game.standings
    if game.is_over:
        say(
            f"Game over after {game.hand_number} hands. Final scores: "
            + ", ".join(f"{names[s]} {scores[s]}" for s in range(players))
        )
        say("Winner: " + " and ".join(names[s] for s in game.winners))
    else:  # a Buck 'Em session has no end (DEF #62): the host stops it
        say(
            f"Session stopped after {game.hand_number} rounds. Bankrolls: "
            + ", ".join(f"{names[s]} {scores[s]}" for s in range(players))
            + f"; pot {getattr(game, 'pot', 0)}"
        )
    return game


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m hucklebuck``."""
    parser = argparse.ArgumentParser(prog="python -m hucklebuck", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a whole game between computer players")
    play.add_argument("game", choices=sorted(GAMES), help="which game")
    play.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    play.add_argument("--seed", type=int, default=None, help="random seed (default: a random one)")
    play.add_argument(
        "--hands", type=int, default=None, help="stop after this many hands (Buck 'Em sessions default to 10)"
    )
    play.add_argument(
        "--bots",
        default="heuristic",
        help="comma-separated player kinds, cycled over the seats: heuristic, random",
    )
    args = parser.parse_args(argv)
    kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
    bad = [k for k in kinds if k not in ("heuristic", "random")]
    if bad or not kinds:
        parser.error(f"unknown player kind {bad[0] if bad else ''!r} (use heuristic or random)")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    lines: list[str] = []
    try:
        limit = args.hands if args.hands is not None else (10 if args.game == "buckem" else 1000)
        play_game(args.game, args.players, seed, kinds, lines, limit)
    except ValueError as exc:
        parser.error(str(exc))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
