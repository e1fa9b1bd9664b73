"""The lazily dealt first hand of a game built from a seed (see
:meth:`hucklebuck.games.engine.TrickGame._first_hand`).

An undealt game belongs to a *twin* of its class (same name and module, made
once per class) whose ``__getattr__`` deals the hand when an attribute the deal
sets is first read, then gives the game back its own class.  ``phase``, most often the first
read, deals in the twin's own property (not through ``__getattr__``, which would first build
an AttributeError).  Dealt games have no
``__getattr__``: on the class itself it would slow every attribute read of
every game (CPython cannot specialise such reads).
"""

from __future__ import annotations

import random
import threading
from typing import Any, Final, SupportsIndex

__all__ = ["pending_class", "real_class", "seeded_random"]

_DEAL_LOCK: Final = threading.RLock()
"""Held while a pending first hand is dealt (see ``TrickGame._first_hand``); re-entrant,
so a deal that looks at another undealt game cannot deadlock."""
_PENDING: dict[type, type] = {}
"""Each game class's twin for games whose first hand is still to deal."""


_new_random: Final = random.Random.__new__
_seed_random: Final[Any] = random.Random.__mro__[1].seed  # type: ignore[attr-defined]
"""The C seed that ``random.Random.seed`` calls (``_random.Random.seed``)."""


def seeded_random(seed: int) -> random.Random:
    """``random.Random(seed)`` for an int seed: the same state, without the two Python calls
    of ``Random.__init__`` and ``Random.seed`` (for an int they only call the C seed and set
    ``gauss_next`` to None)."""
    if type(seed) is not int:
        return random.Random(seed)
    rng: random.Random = _new_random(random.Random)
    _seed_random(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]
    return rng


def _deal_pending(game: Any) -> None:
    """Deal a pending game's first hand and give it back its own class.

    The deal is made on a scratch twin and published by giving the game the twin's
    attribute dict (one atomic swap) and then its class, under a lock, so another
    thread reading the game meanwhile sees it either undealt or fully dealt, and it
    is dealt once.
    """
    with _DEAL_LOCK:
        d = game.__dict__
        seed = d.get("_pending_seed")
        if seed is None:  # dealt by another thread meanwhile
            return
        real = real_class(type(game))
        state = d.copy()
        del state["_pending_seed"]
        twin: Any = object.__new__(real)
        twin.__dict__ = state
        twin._deal_first_hand(seeded_random(seed), None)
        game.__dict__ = state
        object.__setattr__(game, "__class__", real)


def _pending_getattr(self: Any, name: str) -> Any:
    # Called only for a missing attribute of a pending game: deal, then look again.
    # Dunder names (the copy and pickle protocols probe them) never deal.
    if name[:2] == "__" or "_pending_seed" not in self.__dict__:
        return object.__getattribute__(self, name)
    _deal_pending(self)
    return object.__getattribute__(self, name)


def _pending_phase(self: Any) -> Any:
    # ``phase`` of a pending game, usually its first read: deal, then read it. (Through
    # ``__getattr__`` the same read would first build and drop an AttributeError.)
    _deal_pending(self)
    return self._phase


def _pending_reduce_ex(self: Any, protocol: SupportsIndex) -> Any:
    # pickle and deepcopy: rebuilt undealt, by the game's own (importable) class
    return _revive_pending, (real_class(type(self)), dict(self.__dict__))


def _revive_pending(cls: type, state: dict[str, Any]) -> Any:
    """An undealt game of class ``cls`` with this state (how pickle rebuilds one)."""
    game: Any = object.__new__(cls)
    game.__dict__.update(state)
    object.__setattr__(game, "__class__", pending_class(cls))
    return game


def pending_class(cls: type) -> type:
    """The twin of game class ``cls`` for undealt games (same name and module)."""
    twin: type | None = _PENDING.get(cls)
    if twin is None:
        namespace = {
            "__getattr__": _pending_getattr,
            "phase": property(_pending_phase, doc="The current phase (the first hand dealt first)."),
            "__reduce_ex__": _pending_reduce_ex,
            "__module__": cls.__module__,
            "__qualname__": cls.__qualname__,
            "__doc__": cls.__doc__,
            "_real_game_class": cls,
        }
        twin = _PENDING[cls] = type(cls)(cls.__name__, (cls,), namespace)
    return twin


def real_class(cls: type) -> type:
    """A game class, or for a pending twin the class it stands for."""
    real: type = cls.__dict__.get("_real_game_class", cls)
    return real
