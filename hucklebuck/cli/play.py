"""``hucklebuck play``: sit at the table yourself (``--you SEAT``) or watch
computer players, hand by hand and trick by trick."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any

from .. import backend_info
from ..actions import Action, parse_action
from ..errors import HucklebuckError
from ..games.base import Phase
from ..games.engine import TrickGame
from ..games.persist import load_json
from ..packs import GameKind
from ..players import (
    DEFAULT_PLAYER_KIND,
    LEARNED_KIND,
    PLAYER_KINDS,
    Player,
    make_player,
    shipped_learned_kinds,
)
from ..players.hints import Hint
from ..players.hints import hint as make_hint
from ..words.people import computer_label, seat_label, short_name
from .common import (
    DEFAULT_PLAYERS,
    CliError,
    GameSpec,
    Output,
    add_ascii_argument,
    add_option_argument,
    game_spec,
    learned_players,
    make_output,
    parse_kinds,
    parse_options,
    positive_int,
    seat_int,
)
from .human import Human, Quit, save_game
from .table import CITATIONS, Table

__all__ = ["register", "run"]


BUCKEM_DEFAULT_HANDS = 10

DESCRIPTION = """\
Play a whole game in the terminal. With --you SEAT you sit at that seat and the
other seats are computer players; give --you more than once for several people
sharing the keyboard (hot seat). Without --you you watch computer players.

On your turn the table is shown with your legal moves numbered: answer with the
number, or write the move ('10h', 'AS', 'bid 3', 'pass', 'stay 2', ...).
Commands: ? or help, hint, show, save FILE, quit. A move that is your only legal
one is played for you (--ask-forced to be asked anyway). Red suits print in red
on a terminal (--no-color or the NO_COLOR variable to turn it off).

examples:
  hucklebuck play hucklebuck --players 4 --you 1
  hucklebuck play deerpark --players 3 --you 1 --you 2 --bots random
  hucklebuck play buckem --players 5 --hands 3 --seed 1
  hucklebuck play --resume saved.json
"""


def register(subparsers: Any) -> None:
    """Add the ``play`` subcommand."""
    p = subparsers.add_parser(
        "play",
        help="play a game yourself (--you SEAT) or watch computer players",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", metavar="GAME", nargs="?", help="hucklebuck, buckem or deerpark")
    p.add_argument(
        "--players",
        "-n",
        type=int,
        metavar="N",
        default=None,
        help="number of players (default 4; Buck 'Em 5)",
    )
    p.add_argument(
        "--you",
        type=seat_int,
        action="append",
        default=[],
        metavar="SEAT",
        help="your seat, counted from 1 (1 to the number of players; repeat for hot-seat play)",
    )
    p.add_argument(
        "--bots",
        default=None,
        metavar="KIND[,KIND...]",
        help=f"computer player kinds, cycled over the computer seats: {', '.join(PLAYER_KINDS)} "
        f"(default {DEFAULT_PLAYER_KIND}, the strongest; mc-solver solves every sampled deal "
        "exactly and thinks many times longer)",
    )
    p.add_argument(
        "--learned",
        metavar="PATH",
        help="a checkpoint of python -m hucklebuck.learn (needs NumPy): --bots may then name 'learned'",
    )
    p.add_argument("--seed", type=int, default=None, help="random seed (default: a random one)")
    p.add_argument(
        "--hands",
        type=positive_int,
        default=None,
        metavar="N",
        help=f"stop after N hands (default: play to the end; Buck 'Em sessions stop after "
        f"{BUCKEM_DEFAULT_HANDS})",
    )
    p.add_argument("--resume", metavar="FILE", default=None, help="continue a game saved with 'save FILE'")
    p.add_argument(
        "--ask-forced",
        action="store_true",
        help="ask for your move even when only one is legal (default: it is played for you)",
    )
    p.add_argument(
        "--cite",
        action="store_true",
        help="show the rule behind each scoring line (S0-S4: the sources; DEF #n: the rule decisions)",
    )
    add_option_argument(p)
    add_ascii_argument(p)
    p.set_defaults(run=run)


MAX_SAVE_BYTES = 16 * 1024 * 1024
"""The largest file ``--resume`` reads: far above any real save (a long game is a few hundred KB)."""


def _load(path: str) -> tuple[GameSpec, TrickGame[Any, Any], dict[str, Any]]:
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_SAVE_BYTES + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise CliError(f"cannot read {path}: {why}") from None
    if len(raw) > MAX_SAVE_BYTES:
        raise CliError(f"{path} is not a saved game (it is over {MAX_SAVE_BYTES // (1024 * 1024)} MB)")
    try:
        data = load_json(raw)  # the library's one loader: bad bytes and deep nesting refused
    except HucklebuckError:
        raise CliError(f"{path} is not a saved game (it is not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != "hucklebuck-game":
        raise CliError(f"{path} is not a saved game (no 'hucklebuck-game' format marker)")
    spec = game_spec(str(data.get("game", "")))
    try:
        game = spec.game_type.from_dict(data)
    except HucklebuckError as exc:
        raise CliError(f"{path} is not a valid saved game: {exc}") from None
    meta = data.get("table")
    meta = meta if isinstance(meta, dict) else {}
    you, bots, bot_seed = meta.get("you", []), meta.get("bots"), meta.get("bot_seed", 0)
    if (
        not isinstance(you, list)
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in you)
        or not (bots is None or isinstance(bots, str))
        or not isinstance(bot_seed, int)
    ):
        raise CliError(f"{path} is not a valid saved game: its 'table' entry is damaged")
    return spec, game, meta


def _kinds(text: str | None, learned: str | None = None) -> list[str]:
    if text is None:
        return [DEFAULT_PLAYER_KIND]
    allowed = (*PLAYER_KINDS, *shipped_learned_kinds())  # and trained weights shipped with the library
    return parse_kinds(text, (*allowed, LEARNED_KIND) if learned else allowed)


def run(args: argparse.Namespace) -> int:
    """Play or watch one game."""
    say = make_output(args)
    meta: dict[str, Any] = {}
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    if args.resume is not None:
        if args.options:
            raise CliError("--option cannot change a resumed game (its options are in the file)")
        spec, game, meta = _load(args.resume)
        if args.game is not None and game_spec(args.game) is not spec:
            raise CliError(f"{args.resume} holds a game of {spec.name}, not {args.game}")
        if args.players is not None and args.players != game.players:
            raise CliError(f"{args.resume} is a {game.players}-player game, not {args.players}")
        players = game.players
    else:
        if args.game is None:
            raise CliError("say which game: hucklebuck, buckem or deerpark (or --resume FILE)")
        spec = game_spec(args.game)
        options = parse_options(spec, args.options)
        players = args.players if args.players is not None else DEFAULT_PLAYERS[spec.name]
        game = spec.game_type(players, options=options, rng=random.Random(seed))
    # --you counts seats from 1, as people do; the game and the saved file count from 0.
    seen: set[int] = set()
    for s in args.you:
        if not 1 <= s <= players:
            raise CliError(f"--you {s}: no such seat; seats are 1 to {players}")
        if s in seen:
            raise CliError(f"--you {s} is given twice; each person needs a seat of their own")
        seen.add(s)
    humans: list[int] = [s - 1 for s in args.you] if args.you else [int(s) for s in meta.get("you", [])]
    if any(not 0 <= s < players for s in humans):
        raise CliError(f"{args.resume} is not a valid saved game: its 'table' entry is damaged")
    bots_text = args.bots if args.bots is not None else meta.get("bots")
    learned = args.learned if args.learned is not None else meta.get("learned")
    learned = learned if isinstance(learned, str) else None
    kinds = _kinds(bots_text if isinstance(bots_text, str) or bots_text is None else None, learned)
    bot_seed = int(meta.get("bot_seed", seed)) if args.resume is not None else seed
    bot_kind: dict[int, str] = {}
    for i, s in enumerate(s for s in range(players) if s not in humans):
        bot_kind[s] = kinds[i % len(kinds)]
    bots = _Bots(spec, bot_kind, bot_seed, learned if LEARNED_KIND in kinds else None)
    if bots.learned is not None and learned is not None:
        learned_players(bots.learned, players, learned)  # before the table is shown
    names = _names(players, humans)
    limit = (
        args.hands
        if args.hands is not None
        else (BUCKEM_DEFAULT_HANDS if spec.kind is GameKind.BUCKEM else None)
    )
    view = {"show_all": not humans, "private": humans if len(humans) == 1 else (), "cite": args.cite}
    table = Table(game, names, say, **view)
    header = (
        f"{spec.title}, {players} players"
        + (f", resumed from {args.resume}" if args.resume else f", seed {seed}")
        + f" (core: {backend_info().name})"
    )
    table.intro(header, _labels(names, humans, bot_kind, players))
    if args.cite:
        table.say(f"Rule citations: {CITATIONS}")
    save_meta: dict[str, Any] = {"you": humans, "bots": ",".join(kinds), "bot_seed": bot_seed}
    if bots.learned is not None:
        save_meta["learned"] = learned
    terminal = say.tty and _isatty(sys.stdin)
    person = Human(
        table,
        say,
        _reader(say),
        save=lambda path: save_game(game, path, save_meta),
        hint=_hinter(game, spec) if humans else None,
        hot_seat=len(humans) > 1 and terminal,
        clear=(lambda: say.write(CLEAR_SCREEN)) if say.tty else None,
        auto_forced=not args.ask_forced,
        offer_save=True,
    )
    if args.resume is not None:
        _recap(game, Table(_replica(game), names, say, **view))
        table.caught_up()
    try:
        _loop(game, table, bots, person, limit, resumed=args.resume is not None)
    except Quit as q:
        say("")
        say("Leaving the game." + (" (end of input)" if str(q) == "end of input" else ""))
        return 0
    return 0


CLEAR_SCREEN = "\x1b[H\x1b[2J\x1b[3J"
"""Cursor home, clear the screen, clear the scrollback (so the next person at a hot seat
cannot scroll back to the previous hand)."""


def _replica(game: TrickGame[Any, Any]) -> TrickGame[Any, Any]:
    """The game as it stood at the deal of its current hand."""
    data = game.to_dict()
    data["hands"][-1]["actions"] = []
    replica: TrickGame[Any, Any] = type(game).from_dict(data)
    return replica


def _recap(game: TrickGame[Any, Any], table: Table) -> None:
    """After ``--resume``: the current hand so far, told in order as it was played
    (the deal, the auction or calling, exchanges or draws, then the tricks)."""
    replica = table.game
    table.hand_start()
    in_play = replica.phase is Phase.PLAY
    if in_play:
        table.announce_trump()
    for action in game.to_dict()["hands"][-1]["actions"]:
        seat = replica.to_act
        assert seat is not None
        before = replica.hand(seat)
        move = parse_action(replica.kind, action)
        replica.apply(move)
        table.action(seat, move, before)
        if replica.phase is Phase.PLAY and not in_play:
            in_play = True
            table.announce_trump()
    table.say("  (the game continues from here)")


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _names(players: int, humans: list[int]) -> list[str]:
    if len(humans) == 1:
        return ["You" if s in humans else short_name(s) for s in range(players)]
    return [short_name(s) for s in range(players)]


def _labels(names: list[str], humans: list[int], kinds: dict[int, str], players: int) -> str:
    width = max(len(n) for n in names)
    lines = ["Players:"]
    for s in range(players):
        who = "a person" if s in humans else f"{computer_label(kinds[s])} ({kinds[s]})"
        seat = f" ({seat_label(s)})" if names[s] == "You" else ""
        lines.append(f"  {names[s]:<{width}}  {who}{seat}")
    lines.append(
        f"Seats are numbered 1 to {players} going left; the deal and the turn pass to the next number."
    )
    return "\n".join(lines)


def _reader(say: Output) -> Callable[[str], str | None]:
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")  # a stray byte is an unreadable answer, not a crash

    def read(prompt: str) -> str | None:
        if say.tty:
            say.write(prompt + ": ")
        else:
            say(prompt + ":")
        line = sys.stdin.readline()
        if not line:
            return None
        if not say.tty:
            say("> " + line.rstrip("\n"))
        return line

    return read


class _Bots:
    """The computer players.  Each decision gets a fresh player seeded from the
    game's position, so a saved and resumed game continues exactly as it would have."""

    def __init__(self, spec: GameSpec, kinds: dict[int, str], seed: int, learned: str | None = None) -> None:
        self.spec = spec
        self.kinds = kinds
        self.seed = seed
        # the --learned checkpoint, loaded once (it plays its most likely action: no seed to vary)
        self.learned = None if learned is None else make_player(LEARNED_KIND, spec.kind, path=learned)

    def __contains__(self, seat: object) -> bool:
        return seat in self.kinds

    def choose(self, game: TrickGame[Any, Any], seat: int) -> Action:
        decision = random.Random(f"{self.seed}:{seat}:{len(game.events)}").getrandbits(63)
        kind = self.kinds[seat]
        if kind == LEARNED_KIND and self.learned is not None:
            return self.learned.choose(game.observation(seat))
        player: Player[Any] = make_player(kind, self.spec.kind, seed=decision)
        return player.choose(game.observation(seat))


def _hinter(game: TrickGame[Any, Any], spec: GameSpec) -> Callable[[int], Hint] | None:
    def hint(seat: int) -> Hint:
        return make_hint(game.observation(seat), seed=len(game.events))

    return hint


def _loop(
    game: TrickGame[Any, Any],
    table: Table,
    bots: _Bots,
    person: Human,
    limit: int | None,
    *,
    resumed: bool = False,
) -> None:
    in_play = game.phase is Phase.PLAY
    if not resumed:  # a resumed game's hand so far was told by the recap
        table.hand_start()
        if in_play:
            table.announce_trump()
    while True:
        phase = game.phase
        if phase is Phase.GAME_OVER:
            break
        if phase is Phase.HAND_OVER:
            if limit is not None and game.hand_number >= limit:
                break
            game.next_hand()
            table.hand_start()
            in_play = game.phase is Phase.PLAY
            if in_play:
                table.announce_trump()
            continue
        seat = game.to_act
        assert seat is not None
        action = person.ask(seat) if seat not in bots else bots.choose(game, seat)
        before = game.hand(seat)
        game.apply(action)
        table.action(seat, action, before)
        if game.phase is Phase.PLAY and not in_play:
            in_play = True
            table.announce_trump()
        if game.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            table.hand_end()
    table.game_end()
