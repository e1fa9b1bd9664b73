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

from importlib import import_module
from typing import TYPE_CHECKING, Any, Literal, overload

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
]

PLAYER_KINDS: tuple[str, ...] = ("mc", "mc-solver", "heuristic", "random", "mc-blind")
"""The player kinds :func:`make_player` knows: strongest first, then ``mc-blind``
(``mc`` without inference, to measure what inference gains)."""

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
    kind: str, game: Literal[GameKind.HUCKLEBUCK, "hucklebuck"], *, seed: int | None = None
) -> Player[HucklebuckObservation]: ...
@overload
def make_player(  # type: ignore[overload-overlap]
    kind: str, game: Literal[GameKind.BUCKEM, "buckem"], *, seed: int | None = None
) -> Player[BuckEmObservation]: ...
@overload
def make_player(  # type: ignore[overload-overlap]
    kind: str, game: Literal[GameKind.DEERPARK, "deerpark"], *, seed: int | None = None
) -> Player[DeerParkObservation]: ...
@overload
def make_player(kind: str, game: GameKind | str, *, seed: int | None = None) -> Player[AnyObservation]: ...
def make_player(kind: str, game: GameKind | str, *, seed: int | None = None) -> Player[Any]:
    """A new computer player of ``kind`` (one of :data:`PLAYER_KINDS`) for ``game``.

    ``seed`` seeds the player's own random source (the heuristics use none
    and ignore it).  ``"mc"`` is :class:`MonteCarloPlayer` with its default
    settings, ``"mc-solver"`` the same with ``method="solver"`` (open-cards
    solves instead of playouts: slower), ``"mc-blind"`` ``"mc"`` without
    inference (each sampled deal counts the same), ``"heuristic"`` the game's
    rule-of-thumb player.  An unknown kind or game raises
    :class:`~hucklebuck.errors.OptionsError` naming the valid ones.
    """
    g = GameKind.coerce(game)
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
    raise OptionsError(f"unknown player kind {kind!r} (use one of: {', '.join(PLAYER_KINDS)})")
