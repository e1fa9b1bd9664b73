"""Twin deals for the non-interference tests: two deals of one hand, with its
scripted actions, that differ only in two cards a seat (or an onlooker) never
sees, checked to keep every action legal and everything public the same."""

from __future__ import annotations

import random
import re
from typing import Any

from hucklebuck.errors import HucklebuckError
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.games.engine import TrickGame

GAMES: dict[str, type[TrickGame[Any, Any]]] = {
    "hucklebuck": HucklebuckGame,
    "buckem": BuckEmGame,
    "deerpark": DeerParkGame,
}
_CODE = re.compile(r"\b[2-9TJQKA][CDHS]\b")
VERBS_WITH_CARD = ("play", "discard", "draw")
VERBS_PLAIN = ("pass", "drop", "fold", "stay", "stay swap", "order", "stay 0", "stay 1", "stay 3")
VERBS_ARG = ("bid 2", "bid 3", "bid 5", "trump S", "trump H", "call C", "call D")


def _swap_text(text: str, x: str, y: str) -> str:
    return _CODE.sub(lambda m: y if m.group(0) == x else x if m.group(0) == y else m.group(0), text)


def _swap_deal(deal: Any, x: str, y: str) -> Any:
    if isinstance(deal, str):
        return _swap_text(deal, x, y)
    if isinstance(deal, list | tuple):
        return [_swap_deal(v, x, y) for v in deal]
    if isinstance(deal, dict):
        return {k: _swap_deal(v, x, y) for k, v in deal.items()}
    return deal


def _public(game: TrickGame[Any, Any], observer: int | None) -> tuple[Any, ...]:
    """What must stay equal between twins, read from the engine's full state."""
    own = tuple(sorted(c.code for c in game.hand(observer))) if observer is not None else ()
    tricks = tuple((t.seats, tuple(c.code for c in t.cards), t.winner) for t in (game.tricks or ()))
    return (own, tricks, game.current_trick, game.standings, game.phase, game.to_act, game.trump)


def _replay(
    cls: type[TrickGame[Any, Any]],
    players: int,
    options: dict[str, Any],
    deal: dict[str, Any],
    script: list[str],
) -> TrickGame[Any, Any]:
    game = cls(players, options=options, deal=deal)
    for text in script:
        game.apply(text)
    return game


def _trace(
    cls: Any, players: int, options: dict[str, Any], deal: Any, script: list[str], o: int | None
) -> Any:
    game = cls(players, options=options, deal=deal)
    out = [_public(game, o)]
    for text in script:
        game.apply(text)
        out.append(_public(game, o))
    return out


def _seen_by(
    game_cls: Any, players: int, options: dict[str, Any], deal: Any, script: list[str], o: int | None
) -> set[str]:
    """Every card the observer's view names at some point of the script (its hand, face-up cards, plays)."""
    from hucklebuck.games.observe import view

    game = game_cls(players, options=options, deal=deal)
    seen: set[str] = set()

    def note() -> None:
        text = repr(view(game, o))
        seen.update(_CODE.findall(text))

    note()
    for text in script:
        game.apply(text)
        note()
    return seen


def _make_case(game_name: str, players: int, options: dict[str, Any], seed: int) -> tuple[Any, list[str]]:
    """A random first hand: its deal and the scripted actions to the end of the hand."""
    cls = GAMES[game_name]
    game = cls(players, options=options, seed=seed)
    rng = random.Random(seed)
    script: list[str] = []
    while game.to_act is not None and game.hand_number == 1:
        script.append(str(rng.choice(game.legal_actions())))
        game.apply(script[-1])
    deal = game._deal.to_dict()  # type: ignore[attr-defined]
    if game._restocks:  # the re-formed stocks it used, so every replay forms the same ones
        deal["restock"] = [[c.code for c in r] for r in game._restocks]
    return deal, script


def _twin(
    game_name: str,
    players: int,
    options: dict[str, Any],
    deal: Any,
    script: list[str],
    o: int | None,
    rng: random.Random,
) -> tuple[Any, list[str]] | None:
    cls = GAMES[game_name]
    seen = _seen_by(cls, players, options, deal, script, o)
    pack = {c for hand in deal["hands"] for c in hand} | set(_CODE.findall(repr(deal)))
    hidden = sorted(pack - seen)
    want = _trace(cls, players, options, deal, script, o)
    for _ in range(60):
        if len(hidden) < 2:
            return None
        x, y = rng.sample(hidden, 2)
        deal2 = _swap_deal(deal, x, y)
        script2 = [_swap_text(t, x, y) for t in script]
        try:
            if _trace(cls, players, options, deal2, script2, o) != want:
                continue
        except HucklebuckError:
            continue
        return deal2, script2
    return None
