"""Saving and restoring a game as JSON-safe data (the bodies of
:meth:`~hucklebuck.games.engine.TrickGame.to_dict` and
:meth:`~hucklebuck.games.engine.TrickGame.from_dict`).

The saved form holds the set-up, every deal and action and the random state;
restoring replays and checks every step, so a saved game can only describe a
legal game.
"""

from __future__ import annotations

import errno
import json
import os
import tempfile
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, TypeVar

from ..cards import Card
from ..errors import HucklebuckError, RestoreError
from .base import Phase, rng_from_json, rng_to_json

if TYPE_CHECKING:
    from .engine import TrickGame

__all__ = ["FORMAT", "FORMAT_VERSION", "game_from_dict", "game_to_dict", "load_json", "write_atomic"]

FORMAT: Final = "hucklebuck-game"
"""The ``format`` field of a saved game."""
FORMAT_VERSION: Final = 1
"""The ``version`` field of a saved game."""

G = TypeVar("G", bound="TrickGame[Any, Any]")


def game_to_dict(game: TrickGame[Any, Any]) -> dict[str, Any]:
    """The saved form of ``game`` (see :meth:`~hucklebuck.games.engine.TrickGame.to_dict`)."""
    logs = list(game._past_logs)
    if game._deal is not None:
        logs.append((game._deal, tuple(game._restocks), tuple(game._actions)))
    hands = [
        {
            "deal": deal.to_dict(),
            "restock": [[c.code for c in r] for r in restocks],
            "actions": [str(a) for a in actions],
        }
        for deal, restocks, actions in logs
    ]
    if game._deal is not None:  # this hand's texts are cached already
        hands[-1]["actions"] = list(game._public_history()[0])
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "game": game.kind.value,
        "players": game._n,
        "options": game._options.to_dict(),
        "start": game._start_state(),
        "hands": hands,
        "rng": rng_to_json(game._rng_obj),
    }


def game_from_dict(cls: type[G], data: Mapping[str, Any]) -> G:
    """Rebuild a game of class ``cls`` from its saved form, replaying every step
    (see :meth:`~hucklebuck.games.engine.TrickGame.from_dict`)."""
    try:
        if not isinstance(data, Mapping):
            raise RestoreError("a saved game must be an object")
        if data.get("format") != FORMAT or data.get("version") != FORMAT_VERSION:
            raise RestoreError(f"not a saved game (expected format {FORMAT!r} version {FORMAT_VERSION})")
        if data.get("game") != cls.kind.value:
            raise RestoreError(f"this saved game is {data.get('game')!r}, not {cls.kind.value!r}")
        hands = data["hands"]
        if not isinstance(hands, list) or not hands:
            raise RestoreError("the saved game has no hands")
        game: G | None = None
        for i, h in enumerate(hands):
            if not isinstance(h, Mapping) or not isinstance(h.get("deal"), Mapping):
                raise RestoreError(f"hand {i + 1} has no deal")
            formed_raw = h.get("restock") or []
            if not isinstance(formed_raw, list):
                raise RestoreError(f"hand {i + 1}: 'restock' must be a list")
            given = cls._deal_from_dict(h["deal"])
            formed = tuple(tuple(Card.parse(c) for c in r) for r in formed_raw)
            # Replay with the stocks actually formed, so no shuffle is redone.
            replay = given if given.restock is not None else cls._deal_with_restock(given, formed)
            if game is None:
                game = cls._from_start(data["players"], data["options"], data["start"], replay)
            else:
                game.next_hand(replay)
            game._deal = given
            actions = h.get("actions")
            if not isinstance(actions, list):
                raise RestoreError(f"hand {i + 1}: 'actions' must be a list")
            for a in actions:
                game.apply(a)
            if tuple(game._restocks) != formed:
                raise RestoreError(
                    f"hand {i + 1}: the saved 'restock' {[' '.join(c.code for c in r) for r in formed]} "
                    f"is not what replaying its actions forms "
                    f"{[' '.join(c.code for c in r) for r in game._restocks]}"
                )
            if i < len(hands) - 1 and game.phase is not Phase.HAND_OVER:
                raise RestoreError(f"hand {i + 1} is unfinished but more hands follow")
        assert game is not None
        game._rng = rng_from_json(data["rng"])
        return game
    except RestoreError:
        raise
    except (HucklebuckError, LookupError, TypeError, AttributeError, ArithmeticError, ValueError) as exc:
        raise RestoreError(f"the saved game is not valid: {_why(exc)}") from None


def _why(exc: Exception) -> str:
    """What is wrong with a saved game, in its own words (a missing field by name, no class names)."""
    if isinstance(exc, KeyError) and exc.args and isinstance(exc.args[0], str):
        return f"the field {exc.args[0][:60]!r} is missing"
    if isinstance(exc, HucklebuckError):
        return str(exc)[:200]
    if isinstance(exc, LookupError):
        return "an item it refers to is missing"
    return f"a field has the wrong kind of value ({str(exc)[:200]})"


def load_json(text: str | bytes) -> Any:
    """Parse a saved game's JSON text (``bytes`` are read as UTF-8), or raise
    :class:`~hucklebuck.errors.RestoreError`."""
    try:
        data = json.loads(text)
    except UnicodeDecodeError:
        raise RestoreError("the saved game is not JSON text (it is not UTF-8)") from None
    except (TypeError, ValueError) as exc:
        raise RestoreError(f"the saved game is not JSON: {exc}") from None
    except RecursionError:
        raise RestoreError("the saved game is not JSON this library reads: nested too deeply") from None
    return data


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` so that a failure never destroys the file already there.

    The text goes to a temporary file in the same folder, is flushed to the disk
    (``fsync``) and only then renamed over ``path`` (an atomic step on POSIX and
    Windows).  A full disk, a file-size limit, a missing folder or a killed
    process leave the previous file exactly as it was (and no temporary file).
    Saving through a symbolic link replaces the file it points to.  Any failure
    raises :class:`OSError` (a path holding a NUL character too).
    """
    target = path if isinstance(path, str) else os.fspath(path) if isinstance(path, os.PathLike) else None
    if not isinstance(target, str):
        raise OSError(errno.EINVAL, "a file name must be text")
    if "\0" in target:
        raise OSError(errno.EINVAL, "a file name cannot hold a NUL character")
    if not target:
        raise OSError(errno.EINVAL, "the file name is empty")
    try:
        target = os.path.realpath(target)
        folder, name = os.path.split(target)
        fd, tmp = tempfile.mkstemp(prefix=f".{name[:40]}.", suffix=".tmp", dir=folder)
    except ValueError as exc:  # a name the file system cannot encode
        raise OSError(errno.EINVAL, f"not a usable file name ({exc})") from None
    try:
        try:
            mode = os.stat(target).st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            fd = -1
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable (POSIX); not every system can open a folder
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)
