"""Every argument of a tournament or a board match checked, in the user's words (kept apart from
:mod:`hucklebuck.tournament`, which uses it)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .errors import OptionsError
from .packs import GameKind, player_range
from .players import PLAYER_KINDS
from .players.seer import SEER_KINDS

__all__ = ["check_all"]


def check_all(
    game: GameKind | str,
    players: int | None,
    bots: Sequence[str] | str,
    games: int,
    rounds: int,
    seed: int,
    options: Mapping[str, Any] | None,
    custom: Mapping[str, Callable[[int], Any]] | None,
    common_seeds: bool,
) -> tuple[
    GameKind, int, list[str], dict[str, Any], tuple[tuple[str, ...], ...], tuple[tuple[str, Any], ...]
]:
    """Every argument of a tournament checked: the game, players, line-up, options (the
    options first: they may allow eight players), compositions and custom kinds (shared
    with :func:`hucklebuck.boards.run_board_match`)."""
    from .tournament import _GAMES, DEFAULT_PLAYERS, compositions

    if not isinstance(common_seeds, bool):
        raise OptionsError(f"common_seeds must be True or False, not {common_seeds!r}")
    kind = GameKind.coerce(game)
    extra = tuple((str(k), f) for k, f in (custom or {}).items())
    if any(not callable(f) for _, f in extra):
        raise OptionsError("custom must map each kind's name to a factory taking a seed")
    known = (*PLAYER_KINDS, *SEER_KINDS, *(k for k, _ in extra))
    if options is not None and not isinstance(options, Mapping):
        raise OptionsError(f"options must be a mapping of option names to values, not {options!r}"[:200])
    opts = dict(options or {})
    parsed = _GAMES[kind].options_type.from_dict(
        opts
    )  # unknown or bad options fail here, naming the known ones
    lo, hi = player_range(kind)
    if kind is GameKind.DEERPARK and parsed.eight_player_turnup.value == "dealer_last_card":
        hi = 8
    if players is None:
        players = DEFAULT_PLAYERS[kind]
    if isinstance(players, bool) or not isinstance(players, int) or not lo <= players <= hi:
        eight = (
            " (eight need the option eight_player_turnup=dealer_last_card)"
            if kind is GameKind.DEERPARK and hi == 7 and players == 8
            else ""
        )
        raise OptionsError(f"{kind.title} is for {lo} to {hi} players, not {players!r}{eight}")
    if isinstance(bots, str):
        lineup_in = [b.strip() for b in bots.split(",")]
    elif isinstance(bots, Sequence) and all(isinstance(b, str) for b in bots):
        lineup_in = [b.strip() for b in bots]
    else:
        raise OptionsError(f"bots must be a list of player kinds, not {bots!r}"[:200])
    if not lineup_in or not all(lineup_in):
        raise OptionsError(
            f"bots must name at least one player kind, and no empty ones (of: {', '.join(known)})"
        )
    bad = [b for b in lineup_in if b not in known]
    if bad:
        raise OptionsError(f"unknown player kind {bad[0]!r} in bots (use {', '.join(known)})")
    if len(lineup_in) > players:
        raise OptionsError(
            f"the line-up names {len(lineup_in)} bots for {players} seats: give at most {players} "
            "(or more players)"
        )
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise OptionsError(f"games must be a positive integer, not {games!r}")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise OptionsError(f"rounds must be a positive integer, not {rounds!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionsError(f"seed must be an integer, not {seed!r}")
    return kind, players, lineup_in, opts, compositions(lineup_in, players), extra
