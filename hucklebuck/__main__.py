"""Command line: ``python -m hucklebuck play hucklebuck --players 4 --seed 7``.

Plays a whole game between computer players and prints it trick by trick.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from . import backend_info
from .actions import Bid, Discard, Drop, NameTrump, Pass, Stay
from .cards import CardSet
from .games.base import Phase, ScoreEvent, TrickEvent
from .games.hucklebuck import HucklebuckGame
from .players import HucklebuckHeuristic, Player, RandomPlayer

__all__ = ["main"]


def _cards(cs: CardSet | Sequence[object]) -> str:
    return " ".join(getattr(c, "display", str(c)) for c in cs)


def play_hucklebuck(players: int, seed: int, kinds: Sequence[str], out: list[str]) -> HucklebuckGame:
    """Play one game, writing the account of it to ``out`` line by line."""
    rng = random.Random(seed)
    game = HucklebuckGame(players, rng=random.Random(rng.getrandbits(64)))
    bots: list[Player] = [
        RandomPlayer(random.Random(rng.getrandbits(64)))
        if kinds[i % len(kinds)] == "random"
        else HucklebuckHeuristic()
        for i in range(players)
    ]
    names = [f"P{i}({kinds[i % len(kinds)][0]})" for i in range(players)]
    say = out.append
    say(f"Hucklebuck, {players} players, seed {seed}, core: {backend_info().name}")
    say(f"target {game.options.target}; out at -25 or lower")
    while True:
        if game.phase is Phase.HAND_OVER:
            game.next_hand()
        hand_no = game.hand_number
        say("")
        say(f"=== Hand {hand_no}: {names[game.dealer]} deals; scores {list(game.scores)}")
        for s in range(players):
            if s not in game.out:
                say(f"  {names[s]}: {_cards(game.hand(s))}")
        seen_events = len(game.events)
        while game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            seat = game.to_act
            assert seat is not None
            action = bots[seat].choose(game.observation(seat))
            game.apply(action)
            if isinstance(action, Bid):
                say(
                    f"  {names[seat]} bids {action.amount}"
                    + (" (shoots the moon)" if action.amount == 5 else "")
                )
            elif isinstance(action, Pass):
                say(f"  {names[seat]} passes")
            elif isinstance(action, NameTrump):
                say(f"  {names[seat]} names trump: {action.suit.glyph}")
            elif isinstance(action, Stay):
                say(f"  {names[seat]} stays, exchanging {action.exchange}")
            elif isinstance(action, Drop):
                say(f"  {names[seat]} drops")
            elif isinstance(action, Discard):
                say(f"  {names[seat]} discards {_cards(action.cards)}, now holds {_cards(game.hand(seat))}")
            for ev in game.events[seen_events:]:
                if isinstance(ev, TrickEvent):
                    t = ev.trick
                    plays = ", ".join(
                        f"{names[s]} {c.display}" for s, c in zip(t.seats, t.cards, strict=True)
                    )
                    say(f"  trick {ev.number}: {plays} -> {names[t.winner]} wins")
                elif isinstance(ev, ScoreEvent):
                    say(f"  {names[ev.seat]} {ev.delta:+d}: {ev.reason}")
            seen_events = len(game.events)
        say(
            f"  scores after hand {hand_no}: {list(game.scores)}"
            + (f"; out: {[names[s] for s in game.out]}" if game.out else "")
        )
        if game.is_over:
            break
    say("")
    say(
        f"Game over after {game.hand_number} hands. Final scores: "
        + ", ".join(f"{names[s]} {game.scores[s]}" for s in range(players))
    )
    say("Winner: " + " and ".join(names[s] for s in game.winners))
    return game


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m hucklebuck``."""
    parser = argparse.ArgumentParser(prog="python -m hucklebuck", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a whole game between computer players")
    play.add_argument("game", choices=["hucklebuck"], help="which game")
    play.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    play.add_argument("--seed", type=int, default=None, help="random seed (default: a random one)")
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
        play_hucklebuck(args.players, seed, kinds, lines)
    except ValueError as exc:
        parser.error(str(exc))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
