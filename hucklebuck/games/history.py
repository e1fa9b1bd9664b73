"""An append-only record that grows in constant time and copies in constant time.

A game keeps everything that happened in earlier hands (their deals and
actions, events and results).  Rebuilding a tuple of all of it at every new
hand made long sessions quadratically slower; a :class:`History` instead
shares one list between a game and its copies and is never changed in place
from the outside: :meth:`History.plus` returns a new history.  Copying a game
therefore still shares its past, and adding a hand costs the same after
100,000 hands as after one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Generic, TypeVar, overload

__all__ = ["History"]

T = TypeVar("T")


class History(Sequence[T], Generic[T]):
    """An immutable sequence whose :meth:`plus` is amortised O(1).

    Equal to any sequence (tuple, list or history) with the same items in the
    same order.
    """

    __slots__ = ("_items", "_n")

    def __init__(self, items: Iterable[T] = ()) -> None:
        """A history holding ``items``."""
        self._items: list[T] = list(items)
        self._n = len(self._items)

    @classmethod
    def _view(cls, items: list[T], n: int) -> History[T]:
        h: History[T] = object.__new__(cls)
        h._items = items
        h._n = n
        return h

    def plus(self, *items: T) -> History[T]:
        """A history with ``items`` added at the end (this one is unchanged)."""
        store = self._items
        if len(store) != self._n:
            # A history sharing this list has grown past us: take our own copy.
            store = store[: self._n]
        store.extend(items)
        return History._view(store, self._n + len(items))

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return tuple(self._items[: self._n][index])
        if not -self._n <= index < self._n:
            raise IndexError("history index out of range")
        return self._items[index if index >= 0 else self._n + index]

    def __iter__(self) -> Iterator[T]:
        items = self._items
        for i in range(self._n):
            yield items[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (History, tuple, list)):
            return len(other) == self._n and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other: Sequence[T]) -> tuple[T, ...]:
        return (*self, *other)

    def __repr__(self) -> str:
        return f"History({list(self)!r})"
