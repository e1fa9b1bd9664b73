"""Helpers every subcommand shares: the games by name, ``--option`` parsing,
one-line errors and output that falls back to plain ASCII."""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any, NoReturn, TextIO

from ..errors import HucklebuckError
from ..games.buckem import BuckEmGame
from ..games.deerpark import DeerParkGame
from ..games.hucklebuck import HucklebuckGame
from ..games.options import OptionsBase
from ..packs import GameKind, player_range

__all__ = [
    "DEFAULT_PLAYERS",
    "GAMES",
    "CliError",
    "ErrorParser",
    "GameSpec",
    "Output",
    "add_ascii_argument",
    "add_game_argument",
    "add_option_argument",
    "add_players_argument",
    "game_spec",
    "make_output",
    "parse_kinds",
    "parse_options",
    "players_of",
    "positive_int",
    "wants_color",
]


class CliError(Exception):
    """Bad command-line input: :func:`hucklebuck.cli.main` prints it on one line and exits 2."""


class ErrorParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``prog: error: ...``) and exit 2."""

    subcommands: dict[str, argparse.ArgumentParser] | None = None
    """The subcommands' parsers by name, so words none of them knows are blamed on the
    subcommand given (whose ``--help`` lists its options), not on the program."""

    def error(self, message: str) -> NoReturn:
        """Print one line naming the problem and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """As :meth:`argparse.ArgumentParser.parse_args`; words left over are an error of
        the subcommand they were given to."""
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            sub = (self.subcommands or {}).get(str(getattr(parsed, "command", "")))
            (sub or self).error(f"unrecognized arguments: {' '.join(extra)}")
        return parsed


def parse_kinds(text: str, allowed: Sequence[str]) -> list[str]:
    """The player kinds of a ``--bots`` value: comma-separated, any case, empty entries
    skipped; none at all, or one not in ``allowed``, is a :class:`CliError`."""
    kinds = [k.strip().lower() for k in text.split(",") if k.strip()]
    if not kinds:
        raise CliError(f"--bots needs at least one kind: {', '.join(allowed)}")
    for k in kinds:
        if k == "learned" and k not in allowed:
            raise CliError(
                "--bots learned needs --learned PATH, the checkpoint it plays"
                " (written by python -m hucklebuck.learn train)"
            )
        if k not in allowed:
            raise CliError(f"unknown player kind {k!r} for --bots (use {', '.join(allowed)})")
    return kinds


def learned_players(player: Any, players: int | None, path: str) -> int:
    """The table size of a ``--learned`` checkpoint's ``player``; :class:`CliError` if ``players``
    (``--players``, ``None``: not given) is another."""
    trained = int(player.players)
    if players is not None and players != trained:
        raise CliError(
            f"the checkpoint {path} was trained for {trained} players, not {players}"
            f" (use --players {trained}, or a checkpoint trained for {players})"
        )
    return trained


@dataclass(frozen=True)
class GameSpec:
    """One game as the command line knows it."""

    name: str
    """The command-line name (``hucklebuck``, ``buckem``, ``deerpark``)."""
    kind: GameKind
    """The library's game kind."""
    game_type: Any
    """The game class (a :class:`~hucklebuck.games.engine.TrickGame` subclass)."""

    @property
    def title(self) -> str:
        """The game's printed name."""
        return self.kind.title

    @property
    def options_type(self) -> type[OptionsBase]:
        """The game's options dataclass."""
        options_type: type[OptionsBase] = self.game_type.options_type
        return options_type

    @property
    def player_range(self) -> tuple[int, int]:
        """Fewest and most players."""
        return player_range(self.kind)


GAMES: dict[str, GameSpec] = {
    "hucklebuck": GameSpec("hucklebuck", GameKind.HUCKLEBUCK, HucklebuckGame),
    "buckem": GameSpec("buckem", GameKind.BUCKEM, BuckEmGame),
    "deerpark": GameSpec("deerpark", GameKind.DEERPARK, DeerParkGame),
}
"""The games by command-line name."""


def game_spec(name: str) -> GameSpec:
    """The game called ``name`` (a few spellings accepted); :class:`CliError` otherwise."""
    key = name.strip().lower().replace("'", "").replace(" ", "").replace("_", "").replace("-", "")
    key = {"deerparkeuchre": "deerpark"}.get(key, key)
    spec = GAMES.get(key)
    if spec is None:
        raise CliError(f"unknown game {name!r} (choose hucklebuck, buckem or deerpark)")
    return spec


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    """The positional GAME argument."""
    parser.add_argument("game", metavar="GAME", help="hucklebuck, buckem or deerpark")


DEFAULT_PLAYERS: dict[str, int] = {"hucklebuck": 4, "deerpark": 4, "buckem": 5}
"""The player count a command uses when ``--players`` is not given (the commands agree)."""


def add_players_argument(parser: argparse.ArgumentParser, what: str = "number of players") -> None:
    """Add ``--players`` / ``-n``, defaulting by game (see :func:`players_of`)."""
    parser.add_argument(
        "--players", "-n", type=int, metavar="N", default=None, help=f"{what} (default 4; Buck 'Em 5)"
    )


def players_of(spec: GameSpec, given: int | None) -> int:
    """``--players`` as given, or the game's default; :class:`CliError` outside the game's range."""
    players = DEFAULT_PLAYERS[spec.name] if given is None else given
    lo, hi = spec.player_range
    if not lo <= players <= hi:
        raise CliError(f"{spec.title} is for {lo} to {hi} players, not {players}")
    return players


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """The repeatable ``--option NAME=VALUE`` argument."""
    parser.add_argument(
        "--option",
        "-o",
        dest="options",
        metavar="NAME=VALUE",
        action="append",
        default=[],
        help="a variant option, repeatable (list them with: options GAME)",
    )


def add_ascii_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--ascii`` and ``--no-color`` flags."""
    parser.add_argument("--ascii", action="store_true", help="print cards as AS, 10H instead of suit symbols")
    parser.add_argument(
        "--no-color",
        action="store_true",
        help="no red for hearts and diamonds (also: the NO_COLOR variable; never on a pipe)",
    )


def parse_options(spec: GameSpec, items: Sequence[str]) -> OptionsBase:
    """The game's options from ``NAME=VALUE`` strings (errors name the valid ones)."""
    try:
        return spec.options_type.from_assignments(items)
    except HucklebuckError as exc:
        raise CliError(f"{exc} (see: options {spec.name})") from None


def positive_int(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def seat_int(text: str) -> int:
    """An argparse type: a seat number (range checked once the player count is known)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seat number") from None
    return value


_RED, _RESET = "\x1b[31m", "\x1b[0m"
_RED_CARD = re.compile(r"(?:10|[2-9JQKA])?[♥♦]\*?")
"""A red card (``10♥``, ``J♦*``) or a red suit symbol, coloured as a whole."""

_ASCII = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S", "—": "-", "–": "-", "…": "..."})
_PROBE = "♣♦♥♠"


def can_encode(stream: IO[str], text: str = _PROBE) -> bool:
    """Whether ``stream`` can print ``text`` (the suit symbols by default)."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class Output:
    """Where a command prints: translates suit symbols to letters in ASCII mode
    and never raises :class:`UnicodeEncodeError`."""

    def __init__(self, stream: TextIO, *, ascii_only: bool, color: bool = False) -> None:
        """Write to ``stream``; ``ascii_only`` prints ``AS``/``10H`` for cards; ``color``
        prints hearts and diamonds in red (the suit symbols stay, for greyscale)."""
        self.stream = stream
        self.ascii = ascii_only
        self.color = color
        self.tty = _isatty(stream)

    def text(self, line: str) -> str:
        """``line`` as it will be printed."""
        if self.color:
            line = _RED_CARD.sub(lambda m: f"{_RED}{m.group(0)}{_RESET}", line)
        return line.translate(_ASCII) if self.ascii else line

    def __call__(self, line: str = "") -> None:
        """Print one line."""
        self.write(line + "\n")

    def write(self, text: str) -> None:
        """Print ``text`` as is (no newline added) and flush."""
        text = self.text(text)
        try:
            self.stream.write(text)
        except UnicodeEncodeError:
            encoding = getattr(self.stream, "encoding", None) or "ascii"
            self.stream.write(text.encode(encoding, "replace").decode(encoding))
        self.stream.flush()


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (ValueError, io.UnsupportedOperation):
        return False


def wants_color(args: argparse.Namespace, stream: IO[str]) -> bool:
    """Red suits only on a terminal, and not with ``--no-color``, ``NO_COLOR`` or ``TERM=dumb``."""
    return (
        _isatty(stream)
        and not getattr(args, "no_color", False)
        and not os.environ.get("NO_COLOR")
        and os.environ.get("TERM", "") != "dumb"
    )


def make_output(args: argparse.Namespace, stream: TextIO | None = None) -> Output:
    """The output for a command: ASCII with ``--ascii`` or when the stream can't encode suits;
    red hearts and diamonds on a terminal (:func:`wants_color`)."""
    out = stream if stream is not None else sys.stdout
    want_ascii = bool(getattr(args, "ascii", False)) or not can_encode(out)
    return Output(out, ascii_only=want_ascii, color=wants_color(args, out))


Runner = Callable[[argparse.Namespace], int]
"""A subcommand's ``run``: parsed arguments in, exit status out."""
