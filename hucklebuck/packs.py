"""The three games and the pack each one uses per player count.

>>> len(pack(GameKind.DEERPARK, 3))
20
>>> len(pack("buckem", 5, short_handed=True))
44
"""

from __future__ import annotations

import enum

from .cards import Card, CardSet, Rank, Suit
from .errors import OptionsError, PlayerCountError

__all__ = ["GameKind", "pack", "player_range"]


class GameKind(enum.Enum):
    """The three games; the value is the protocol name."""

    # Members are singletons compared by identity: hash them by identity too, in C
    # (Enum's own __hash__ is a Python call on every dict lookup keyed by a game).
    __hash__ = object.__hash__

    HUCKLEBUCK = "hucklebuck"
    BUCKEM = "buckem"
    DEERPARK = "deerpark"

    @property
    def core_id(self) -> int:
        """The game number used by the cores (0, 1, 2)."""
        return _CORE_IDS[self]

    @property
    def title(self) -> str:
        """The game's name for people."""
        return _TITLES[self]

    @classmethod
    def coerce(cls, game: GameKind | str) -> GameKind:
        """Accept a :class:`GameKind` or its protocol name."""
        if isinstance(game, GameKind):
            return game
        try:
            return cls(game)
        except ValueError:
            names = ", ".join(repr(g.value) for g in cls)
            raise OptionsError(f"{game!r} is not a game (expected one of {names})") from None


_CORE_IDS = {GameKind.HUCKLEBUCK: 0, GameKind.BUCKEM: 1, GameKind.DEERPARK: 2}
_TITLES = {
    GameKind.HUCKLEBUCK: "Hucklebuck",
    GameKind.BUCKEM: "Buck 'Em",
    GameKind.DEERPARK: "Deer Park Euchre",
}
_RANGES = {GameKind.HUCKLEBUCK: (3, 7), GameKind.BUCKEM: (5, 8), GameKind.DEERPARK: (3, 7)}


def player_range(game: GameKind | str) -> tuple[int, int]:
    """The smallest and largest player count of a game (inclusive)."""
    return _RANGES[GameKind.coerce(game)]


def _check_players(game: GameKind, players: int) -> None:
    lo, hi = _RANGES[game]
    if isinstance(players, bool) or not isinstance(players, int):
        raise PlayerCountError(f"players (the player count) must be an integer, not {players!r}"[:200])
    if not lo <= players <= hi:
        raise PlayerCountError(f"{game.title} is for {lo} to {hi} players, not {players}")


def _ranks_from(lowest: Rank) -> CardSet:
    return CardSet(Card(r, s) for s in Suit for r in Rank if r >= lowest)


def pack(
    game: GameKind | str, players: int, *, short_handed: bool = False, eight_players: bool = False
) -> CardSet:
    """The pack a game uses for ``players``.

    * Hucklebuck: 52 cards for 3-7 players (S0, S2).
    * Buck 'Em: 52 cards for 5-8 players (S3); with ``short_handed`` the 2s go at
      six players (48) and the 2s and 3s at five (44); seven and eight keep 52
      (S3 variations, DEF #58).
    * Deer Park Euchre: the ``players + 2`` highest ranks of each suit, 3-7
      players (S4, DEF #70).

    * ``eight_players`` admits Deer Park Euchre at eight (fives to aces, no
      kitty; the ``eight_player_turnup`` variant of DEF #70).

    Raises :class:`~hucklebuck.errors.PlayerCountError` for an unsupported count.
    """
    kind = GameKind.coerce(game)
    for name, flag in (("short_handed", short_handed), ("eight_players", eight_players)):
        if not isinstance(flag, bool):
            raise OptionsError(f"{name} must be True or False, not {flag!r}"[:200])
    if not (kind is GameKind.DEERPARK and eight_players and players == 8):
        _check_players(kind, players)
    if kind is GameKind.DEERPARK:
        return _ranks_from(Rank(Rank.ACE - players - 1))
    if kind is GameKind.BUCKEM and short_handed:
        if players == 5:
            return _ranks_from(Rank.FOUR)
        if players == 6:
            return _ranks_from(Rank.THREE)
    return CardSet.from_mask((1 << 52) - 1)
