"""Computer players.  Each chooses an action from an observation only, so it
never sees another player's cards.

Every player has a ``choose(observation) -> Action`` method (the
:class:`Player` protocol).  :func:`make_player` builds one by kind name for a
game; :data:`PLAYER_KINDS` lists the kinds, :data:`DEFAULT_PLAYER_KIND` is the
strongest.

>>> from hucklebuck.games import HucklebuckGame
>>> game = HucklebuckGame(4, seed=1)
>>> bot = make_player("heuristic", "hucklebuck")
>>> game.is_legal(bot.choose(game.observation(game.to_act)))
True
"""

from __future__ import annotations

import os
from importlib import import_module
from typing import TYPE_CHECKING, Any, Literal, cast, overload

from ..errors import OptionsError
from ..games.buckem import BuckEmObservation
from ..games.deerpark import DeerParkObservation
from ..games.hucklebuck import HucklebuckObservation
from ..packs import GameKind
from .base import Player, RandomPlayer

if TYPE_CHECKING:
    from .heuristics import (
        BuckEmHeuristic,
        DeerParkHeuristic,
        HucklebuckHeuristic,
        bid_value,
        estimate_tricks,
        euchre_strength,
        hands_to_goal,
    )
    from .montecarlo import MonteCarloPlayer, hand_utility

# The players and their models load on first use, so that the package imports quickly and
# ``python -m hucklebuck.players.value`` (or ``.likelihood``) runs a module not yet imported.
_LAZY = {
    "BuckEmHeuristic": "heuristics",
    "DeerParkHeuristic": "heuristics",
    "HucklebuckHeuristic": "heuristics",
    "bid_value": "heuristics",
    "estimate_tricks": "heuristics",
    "euchre_strength": "heuristics",
    "hands_to_goal": "heuristics",
    "MonteCarloPlayer": "montecarlo",
    "hand_utility": "montecarlo",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    found = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = found
    return found


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "DEFAULT_PLAYER_KIND",
    "LEARNED_KIND",
    "PLAYER_KINDS",
    "AnyObservation",
    "BuckEmHeuristic",
    "DeerParkHeuristic",
    "HucklebuckHeuristic",
    "MonteCarloPlayer",
    "Player",
    "RandomPlayer",
    "bid_value",
    "estimate_tricks",
    "euchre_strength",
    "hand_utility",
    "hands_to_goal",
    "make_player",
    "shipped_learned_kinds",
]

PLAYER_KINDS: tuple[str, ...] = ("mc", "mc-solver", "heuristic", "random", "mc-blind")
"""The player kinds :func:`make_player` knows: strongest first, then ``mc-blind``
(``mc`` without inference, to measure what inference gains)."""

LEARNED_KIND: str = "learned"
"""The kind of a trained network (:mod:`hucklebuck.learn`), made with ``path=`` its checkpoint."""

_Path = str | os.PathLike[str]

SHIPPED_WEIGHTS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "learn", "weights")
"""Where trained weights shipped with the library live: each ``learned-NAME.npz`` there is the
player kind ``learned-NAME`` (package data of :mod:`hucklebuck.learn`)."""


def shipped_learned_kinds() -> dict[str, str]:
    """The trained policies shipped with the library as player kinds: kind name to weights file
    (``learned-dp4`` for ``learned-dp4.npz``; empty when none ship).  Reading the list needs no NumPy;
    playing one does (``pip install 'hucklebuck[learn]'``)."""
    try:
        names = sorted(os.listdir(SHIPPED_WEIGHTS))
    except OSError:
        return {}
    return {
        n[: -len(".npz")]: os.path.join(SHIPPED_WEIGHTS, n)
        for n in names
        if n.startswith(f"{LEARNED_KIND}-") and n.endswith(".npz")
    }


DEFAULT_PLAYER_KIND: str = PLAYER_KINDS[0]
"""The strongest player kind: what an empty seat gets unless told otherwise."""

_HEURISTICS: dict[GameKind, str] = {
    GameKind.HUCKLEBUCK: "HucklebuckHeuristic",
    GameKind.DEERPARK: "DeerParkHeuristic",
    GameKind.BUCKEM: "BuckEmHeuristic",
}


AnyObservation = HucklebuckObservation | BuckEmObservation | DeerParkObservation
"""An observation of any of the three games (what a player made for a game not known statically takes)."""


# A game named statically gets a player typed for its observations; a game known only at run
# time gets one typed for any of the three (the overlap with the first three is intended).
@overload
def make_player(  # type: ignore[overload-overlap]
    kind: str,
    game: Literal[GameKind.HUCKLEBUCK, "hucklebuck"],
    *,
    seed: int | None = None,
    path: _Path | None = None,
) -> Player[HucklebuckObservation]: ...
@overload
def make_player(  # type: ignore[overload-overlap]
    kind: str, game: Literal[GameKind.BUCKEM, "buckem"], *, seed: int | None = None, path: _Path | None = None
) -> Player[BuckEmObservation]: ...
@overload
def make_player(  # type: ignore[overload-overlap]
    kind: str,
    game: Literal[GameKind.DEERPARK, "deerpark"],
    *,
    seed: int | None = None,
    path: _Path | None = None,
) -> Player[DeerParkObservation]: ...
@overload
def make_player(
    kind: str, game: GameKind | str, *, seed: int | None = None, path: _Path | None = None
) -> Player[AnyObservation]: ...
def make_player(
    kind: str, game: GameKind | str, *, seed: int | None = None, path: _Path | None = None
) -> Player[AnyObservation]:
    """A new computer player of ``kind`` (one of :data:`PLAYER_KINDS`) for ``game``.

    ``seed`` seeds the player's own random source (the heuristics use none
    and ignore it).  ``"mc"`` is :class:`MonteCarloPlayer` with its default
    settings, ``"mc-solver"`` the same with ``method="solver"`` (open-cards
    solves instead of playouts: slower), ``"mc-blind"`` ``"mc"`` without
    inference (each sampled deal counts the same), ``"heuristic"`` the game's
    rule-of-thumb player.  ``"learned"`` is a network trained on the batched
    lane (:mod:`hucklebuck.learn`, which needs NumPy), loaded from the
    checkpoint at ``path``; ``path`` is for ``"learned"`` only.  A kind
    ``"learned-NAME"`` of :func:`shipped_learned_kinds` plays weights shipped
    with the library.  An unknown
    kind or game raises :class:`~hucklebuck.errors.OptionsError` naming the
    valid ones.

    The return type is exact for a game named by a literal
    (``make_player("heuristic", "deerpark")`` is a
    ``Player[DeerParkObservation]``); the signature seen at run time
    (:func:`inspect.signature`) is the general one, ``Player[AnyObservation]``:
    a player that takes an observation of its game.
    """
    g = GameKind.coerce(game)
    if kind == LEARNED_KIND:
        return _learned(g, seed, path)
    shipped = shipped_learned_kinds().get(kind) if kind.startswith(f"{LEARNED_KIND}-") else None
    if shipped is not None and path is None:
        return _learned(g, seed, shipped)
    if path is not None:
        raise OptionsError(f"path= is for the {LEARNED_KIND!r} player kind only, not {kind!r}")
    from .montecarlo import MonteCarloPlayer

    if kind == "mc":
        return MonteCarloPlayer(seed=seed)
    if kind == "mc-blind":
        return MonteCarloPlayer(seed=seed, inference=False)
    if kind == "mc-solver":
        return MonteCarloPlayer(method="solver", seed=seed)
    if kind == "random":
        return RandomPlayer(seed=seed)
    if kind == "heuristic":
        made: Player[Any] = getattr(import_module(".heuristics", __name__), _HEURISTICS[g])()
        return made
    raise OptionsError(
        f"unknown player kind {kind!r} (use one of: {', '.join(PLAYER_KINDS)}; "
        f"or {LEARNED_KIND!r} with path=)"
    )


def _learned(game: GameKind, seed: int | None, path: _Path | None) -> Player[AnyObservation]:
    """The ``"learned"`` kind: a checkpoint of :mod:`hucklebuck.learn` for ``game``."""
    try:
        from ..learn.player import LearnedPlayer, shipped_weights
    except ImportError as exc:  # NumPy missing
        raise ImportError(
            f"the {LEARNED_KIND!r} player needs NumPy: pip install 'hucklebuck[learn]' ({exc})"
        ) from exc
    if path is None:
        path = shipped_weights(game)
        if path is None:
            raise OptionsError(
                f"the {LEARNED_KIND!r} player needs path= (a checkpoint of python -m hucklebuck.learn): "
                f"no trained weights ship for {game.title}"
            )
    player = LearnedPlayer(path, seed=seed)
    if player.kind is not game:
        raise OptionsError(
            f"the checkpoint at {os.fspath(path)!r} plays {player.kind.title}, not {game.title}"
        )
    return cast("Player[AnyObservation]", player)
