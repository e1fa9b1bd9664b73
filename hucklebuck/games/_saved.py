"""What every game does as a saved thing: cheap copies for search, and the JSON form.

:class:`SavedGame` is a base class of :class:`~hucklebuck.games.engine.TrickGame`
(kept apart so the engine module stays readable); its methods are documented
with each game class.  The JSON layout itself is :mod:`hucklebuck.games.persist`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from ..errors import RestoreError
from . import persist as _persist
from ._lazy_deal import real_class
from .base import Phase, TrickPlay

if TYPE_CHECKING:
    from .engine import TrickGame

__all__ = ["SavedGame"]

_G = TypeVar("_G", bound="SavedGame")


class SavedGame:
    """Copies and the JSON form of a game (a base class of every game class)."""

    if TYPE_CHECKING:  # what the methods below use of the game (set by TrickGame)
        mutable_state: ClassVar[tuple[str, ...]]
        _n: int
        _hand_no: int
        _phase: Phase
        _play: TrickPlay | None
        _play_shared: bool
        _rng_shared: bool

    # ------------------------------------------------------------------ copy
    def copy(self: _G) -> _G:
        """An independent copy, cheap enough for search (no deep copy).

        Lists and dicts are copied one level deep; everything else in a game is
        immutable and shared, but for the trick state and the random source,
        which are shared until either game changes them and then copied (so a
        ``rng`` passed in is no longer advanced by a game once it is copied).
        A copy of a game whose first hand is still to be dealt deals the same hand.
        """
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        if "_pending_seed" in d:  # not dealt yet: the copy deals the same hand from the same seed
            for name in self.mutable_state:
                v = d.get(name)
                if v is not None:
                    d[name] = v.copy()
            return new
        for name in self.mutable_state:
            v = d[name]
            if v is not None:
                d[name] = v.copy()
        self._rng_shared = True
        d["_rng_shared"] = True
        if self._play is not None:
            self._play_shared = True
            d["_play_shared"] = True
        return new

    def __copy__(self: _G) -> _G:
        return self.copy()

    def __deepcopy__(self: _G, memo: dict[int, Any]) -> _G:
        """:meth:`copy`: already independent, and far cheaper than a generic deep copy
        (OpenSpiel's ``clone()`` deep-copies a state's attributes)."""
        return self.copy()

    # ------------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        """The whole game as JSON-safe data: set-up, every deal and action, and the
        random state, so :meth:`from_dict` rebuilds an identical game."""
        return _persist.game_to_dict(cast("TrickGame[Any, Any]", self))  # every SavedGame is one

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls: type[_G], data: Mapping[str, Any]) -> _G:
        """Rebuild a game saved with :meth:`to_dict`, replaying and checking every step.

        Raises :class:`~hucklebuck.errors.RestoreError` naming what is wrong.
        """
        game: _G = _persist.game_from_dict(cast(Any, cls), data)  # a TrickGame class
        return game

    @classmethod
    def from_json(cls: type[_G], text: str | bytes) -> _G:
        """Rebuild a game from :meth:`to_json` output (the JSON text; data already
        parsed goes to :meth:`from_dict`)."""
        if isinstance(text, Mapping):
            raise RestoreError("from_json takes the JSON text; pass a dict to from_dict() instead")
        return cls.from_dict(_persist.load_json(text))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SavedGame) or real_class(type(other)) is not real_class(type(self)):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} players={self._n} hand={self._hand_no} phase={self._phase.value}>"
