"""Trained policies a host offers for computer seats: ``hucklebuck serve --learned NAME=PATH``.

The host chooses the files; a client only picks a ``NAME`` from the server's
list (``GET /api/games``), exactly as it picks ``mc`` or ``heuristic``: a
table request never carries a path.  Every checkpoint is loaded and checked
when the server starts (:func:`load_offers`), so a missing, damaged or
mismatched file stops the start with a sentence naming it, instead of a seat
that cannot move later.  NumPy (the ``learn`` extra) is imported only when
a policy is offered.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cli.common import GAMES
from ..errors import HucklebuckError
from ..packs import GameKind
from ..players import LEARNED_KIND, PLAYER_KINDS, shipped_learned_kinds
from ..players.seer import SEER_KINDS

__all__ = ["INSTALL_HINT", "LearnedOfferError", "OfferedPolicy", "load_offers", "parse_offer"]

INSTALL_HINT = "pip install 'hucklebuck[learn]'"
"""How to install what an offered policy needs (NumPy)."""

NAME = re.compile(r"[a-z][a-z0-9-]{0,23}\Z")
"""What a policy's name may be: a lower-case letter, then up to 23 lower-case letters, digits or dashes."""


class LearnedOfferError(HucklebuckError, ValueError):
    """A trained policy the host asked to offer cannot be offered (the message says which and why)."""


@dataclass(frozen=True)
class OfferedPolicy:
    """One trained policy a server offers: its name, its file, and what it plays."""

    name: str
    path: str
    game: GameKind
    players: int
    network: Any
    """The loaded :class:`hucklebuck.learn.Network` (shared by every seat; only read)."""

    def player(self, seed: int) -> Any:
        """A player of this policy (its most likely legal move; ``seed`` seeds nothing it uses)."""
        from ..learn.player import LearnedPlayer

        return LearnedPlayer(self.network, seed=seed)

    def fits(self, game: GameKind, players: int) -> str | None:
        """Why this policy cannot sit at a ``players``-player table of ``game`` (None: it can)."""
        if game is not self.game or players != self.players:
            return (
                f"the trained policy {self.name!r} plays {self.game.title} with {self.players} players,"
                f" not {game.title} with {players}"
            )
        return None


def parse_offer(text: str) -> tuple[str, str]:
    """``NAME=PATH`` as ``(NAME, PATH)``; :class:`LearnedOfferError` says what is wrong with it."""
    name, sep, path = text.partition("=")
    name = name.strip()
    if not sep or not path:
        raise LearnedOfferError(f"{text!r}: say NAME=PATH (a name for the lobby, then the checkpoint file)")
    if not NAME.match(name):
        raise LearnedOfferError(
            f"{name!r} cannot name a trained policy: use a lower-case letter, then up to 23 lower-case"
            " letters, digits or dashes (such as dp4 or trained-1)"
        )
    if name in PLAYER_KINDS or name in SEER_KINDS or name == LEARNED_KIND:
        raise LearnedOfferError(f"{name!r} is the name of a built-in computer player: choose another name")
    if name.startswith(f"{LEARNED_KIND}-"):
        raise LearnedOfferError(
            f"{name!r}: names beginning {LEARNED_KIND}- are kept for weights shipped with the library:"
            " choose another name"
        )
    return name, path


def load_offers(
    pairs: Sequence[tuple[str, str]], shipped: Mapping[str, str] | None = None
) -> Mapping[str, OfferedPolicy]:
    """Each ``(NAME, PATH)`` loaded and checked; :class:`LearnedOfferError` names the first file that
    cannot be offered and why (not found, not a checkpoint, a game or size the server does not seat,
    NumPy missing).  ``shipped``: the library's own trained kinds
    (:func:`~hucklebuck.players.shipped_learned_kinds`, the default), offered too where NumPy is
    installed.  Nothing to offer imports nothing."""
    names = [parse_offer(f"{name}={path}") for name, path in pairs]
    extra = list((shipped_learned_kinds() if shipped is None else shipped).items())
    if not names and not extra:
        return {}
    try:
        from ..learn import Network
    except ImportError as exc:
        if not names:
            return {}  # the shipped weights wait for NumPy; the host asked for nothing
        raise LearnedOfferError(
            f"offering a trained policy needs NumPy, which is not installed: {INSTALL_HINT} ({exc})"
        ) from None
    from ..games.tensors import layout

    out: dict[str, OfferedPolicy] = {}
    for name, path in names + extra:
        if name in out:
            raise LearnedOfferError(f"the name {name!r} is given to two trained policies: give each its own")
        where = os.path.abspath(path)
        if os.path.isdir(where):
            raise LearnedOfferError(f"trained policy {name!r}: {where} is a folder: name a checkpoint in it")
        if not os.path.isfile(where):
            raise LearnedOfferError(f"trained policy {name!r}: there is no file {where}")
        not_one = f"trained policy {name!r}: {where} is not a checkpoint of python -m hucklebuck.learn"
        try:
            with open(where, "rb") as fh:
                head = fh.read(4)
        except OSError as exc:
            raise LearnedOfferError(f"trained policy {name!r}: cannot read {where}: {exc.strerror}") from None
        if head != b"PK\x03\x04":  # every .npz file is a zip archive
            raise LearnedOfferError(f"{not_one} (not an .npz archive)")
        try:
            net = Network.load(where)
        except Exception as exc:  # a damaged archive raises whatever its reader meets
            raise LearnedOfferError(
                f"{not_one} (it is damaged or of another kind: {_first_line(exc)})"
            ) from None
        lo, hi = next(s.player_range for s in GAMES.values() if s.kind is net.kind)
        if not lo <= net.players <= hi:
            raise LearnedOfferError(
                f"trained policy {name!r}: {where} was trained for {net.players} players, and"
                f" {net.kind.title} is played by {lo} to {hi}"
            )
        want = layout(net.kind, net.players).size
        w1 = net.params.get("w1")
        if w1 is None or w1.ndim != 2 or w1.shape[0] != want:
            raise LearnedOfferError(
                f"trained policy {name!r}: {where} does not fit {net.kind.title} with {net.players}"
                f" players (its network reads {None if w1 is None else w1.shape[0]} numbers, the game"
                f" gives {want})"
            )
        out[name] = OfferedPolicy(name, where, net.kind, net.players, net)
    return out


def _first_line(exc: BaseException) -> str:
    """The start of ``exc``'s message, cut at a word within about 120 characters."""
    said = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc  # no quotes around it
    text = " ".join(str(said).split()) or type(exc).__name__
    return text if len(text) <= 120 else text[:120].rsplit(" ", 1)[0] + " ..."
