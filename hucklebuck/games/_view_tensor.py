"""The observation tensor of a typed observation: :func:`tensor_of`.

A seat's typed observation (``game.observation(seat)``, what a
:class:`~hucklebuck.players.Player` receives) holds every fact its tensor
holds, so the tensor is a function of the observation alone.  This is that
function, written from the observation's public fields; the engine's
:meth:`~hucklebuck.games.engine.TrickGame.observation_tensor`, the batched
lane's C state machine, the PettingZoo environments and the OpenSpiel games
all give exactly what it gives (the tests check every step of many games on
both cores), they only read the game's state directly, which is faster.
"""

from __future__ import annotations

from array import array
from typing import Any, Final

from ..cards import Card
from ..errors import OptionsError
from ..packs import GameKind
from .base import Phase
from .tensors import _F32_MAX, _PHASES, layout

__all__ = ["tensor_of"]

_KIND_BY_CLASS: dict[type, GameKind] = {}
_PLAY: Final = Phase.PLAY
_HAND_OVER: Final = Phase.HAND_OVER
_GAME_OVER: Final = Phase.GAME_OVER
_DECISION_SLOT: Final = {"stay": 0, "stay swap": 1, "fold": 2}


def _kind(view: object) -> GameKind:
    if not _KIND_BY_CLASS:  # the game modules import this one: look them up on first use
        from .buckem import BuckEmObservation
        from .deerpark import DeerParkObservation
        from .hucklebuck import HucklebuckObservation

        _KIND_BY_CLASS.update(
            {
                HucklebuckObservation: GameKind.HUCKLEBUCK,
                BuckEmObservation: GameKind.BUCKEM,
                DeerParkObservation: GameKind.DEERPARK,
            }
        )
    for cls, kind in _KIND_BY_CLASS.items():
        if isinstance(view, cls):
            if getattr(view, "seat", None) is None:
                raise OptionsError(
                    "an onlooker's observation has no tensor (the tensor is one seat's view): "
                    "give game.observation(seat) of a seat"
                )
            return kind
    raise OptionsError(
        "tensor_of takes a seat's observation of a Hucklebuck, Buck 'Em or Deer Park Euchre game "
        f"(game.observation(seat)), not {type(view).__name__}"
    )


def _cards_or_count(rest: list[str]) -> tuple[int, list[Card]]:
    """``"N cards"`` (another seat's hidden cards) or the seat's own listed cards."""
    if len(rest) == 2 and rest[1] in ("cards", "card") and rest[0].isdigit():
        return int(rest[0]), []
    cards = [Card.parse(text) for text in rest]
    return len(cards), cards


def tensor_of(view: Any) -> array[float]:
    """The observation tensor of a seat's typed observation (layout in :mod:`hucklebuck.games.tensors`).

    ``tensor_of(game.observation(seat))`` equals ``game.observation_tensor(seat)``
    in every state of every game, and is what the batched lane, the PettingZoo
    environments and the OpenSpiel games give for that seat.  An onlooker's
    observation (``seat`` None) or anything that is not an observation raises
    :class:`~hucklebuck.errors.OptionsError`.
    """
    kind = _kind(view)
    seat: int = view.seat
    n = len(view.tricks_won)
    lay = layout(kind, n)
    at = lay.at
    t = array("f", lay.zeros)

    def rel(s: int) -> int:
        return (s - seat) % n

    for c in view.hand:
        t[at["hand"] + c.index] = 1.0
    for trick in view.tricks:
        for s, c in zip(trick.seats, trick.cards, strict=False):
            t[at["played"] + 52 * rel(s) + c.index] = 1.0
    if view.current_trick:
        leader = view.trick_leader
        order = [(leader + k) % n for k in range(n)]
        if kind is GameKind.HUCKLEBUCK or kind is GameKind.BUCKEM:
            order = [s for s in order if s not in _absent(kind, view)]
        for s, c in zip(order, view.current_trick, strict=False):
            t[at["played"] + 52 * rel(s) + c.index] = 1.0
            t[at["trick"] + 52 * rel(s) + c.index] = 1.0
    if view.phase is _PLAY and view.trick_leader is not None:
        t[at["leader"] + rel(view.trick_leader)] = 1.0
    if view.to_act is not None:
        t[at["to_act"] + rel(view.to_act)] = 1.0
    t[at["dealer"] + rel(_tensor_dealer(kind, view, n))] = 1.0
    if view.trump is not None:
        t[at["trump"] + int(view.trump)] = 1.0
    t[at["phase"] + _PHASES[view.phase]] = 1.0
    for s in range(n):
        t[at["tricks_won"] + rel(s)] = float(view.tricks_won[s])
    if kind is GameKind.DEERPARK:
        _deerpark(view, t, at, rel, n)
    elif kind is GameKind.HUCKLEBUCK:
        _hucklebuck(view, t, at, rel)
    else:
        _buckem(view, t, at, rel, n)
    return t


def _tensor_dealer(kind: GameKind, view: Any, n: int) -> int:
    """The tensor's dealer: the view's, except once a hand is scored, where the tensor (as the
    engine's, the lane's and the agent interfaces') names who deals next, while the view names the
    dealer of the hand it describes."""
    dealer: int = view.dealer
    if view.phase is not _HAND_OVER and view.phase is not _GAME_OVER:
        return dealer
    if kind is not GameKind.HUCKLEBUCK:
        return (dealer + 1) % n
    out = set(view.out)
    if len(out) >= n:  # everyone out: nobody deals again
        return dealer
    s = (dealer + 1) % n
    while s in out:
        s = (s + 1) % n
    return s


def _absent(kind: GameKind, view: Any) -> set[int]:
    """Seats that play no card this hand (Hucklebuck: dropped or out; Buck 'Em: folded)."""
    if kind is GameKind.HUCKLEBUCK:
        return {s for s, k in view.declarations if k is None} | set(view.out)
    return {s for s, word in view.decisions if word == "fold"}


def _deerpark(view: Any, t: array[float], at: dict[str, int], rel: Any, n: int) -> None:
    seat = view.seat
    for s in range(n):
        t[at["standings"] + rel(s)] = float(view.scores[s])
    t[at["turned"] + view.turned.index] = 1.0
    if view.maker is not None:
        t[at["maker"] + rel(view.maker)] = 1.0
    if view.requirement is not None:
        t[at["requirement"] + (0 if view.requirement == 2 else 1)] = 1.0
    for s in view.locked:
        t[at["locked"] + rel(s)] = 1.0
    passes = 0
    for text in view.history:
        who, verb, *rest = text.split()
        if verb == "pass":
            t[at["passed_order" if passes < n else "passed_call"] + rel(int(who))] = 1.0
            passes += 1
        elif verb == "discard" and int(who) == seat:
            t[at["own_discard"] + Card.parse(rest[0]).index] = 1.0
        elif verb == "play":
            break


def _hucklebuck(view: Any, t: array[float], at: dict[str, int], rel: Any) -> None:
    seat = view.seat
    for s, score in enumerate(view.scores):
        t[at["standings"] + rel(s)] = float(score)
    if view.bidder is not None:
        t[at["bidder"] + rel(view.bidder)] = 1.0
    if view.bid is not None:
        t[at["bid"] + view.bid - 2] = 1.0
    for s in view.out:
        t[at["out"] + rel(s)] = 1.0
    for s, k in view.declarations:
        t[at["declared"] + 7 * rel(s) + (0 if k is None else 1 + k)] = 1.0
    for text in view.history:
        who, verb, *rest = text.split()
        if verb == "pass":
            t[at["passed"] + rel(int(who))] = 1.0
        elif verb == "discard" and int(who) == seat:
            for c in _cards_or_count(rest)[1]:
                t[at["own_discard"] + c.index] = 1.0
    t[at["stock_size"]] = float(view.stock_size)


def _buckem(view: Any, t: array[float], at: dict[str, int], rel: Any, n: int) -> None:
    seat = view.seat
    for s, chips in enumerate(view.bankrolls):
        t[at["standings"] + rel(s)] = float(chips)
    t[at["upcard"] + view.upcard.index] = 1.0
    for s, c in enumerate(view.scare):
        if c is not None:
            t[at["scare"] + 52 * rel(s) + c.index] = 1.0
    for s, word in view.decisions:
        t[at["decisions"] + 3 * rel(s) + _DECISION_SLOT[word]] = 1.0
    for text in view.history:
        who, verb, *rest = text.split()
        if verb != "draw":
            continue
        s = int(who)
        count, cards = _cards_or_count(rest)
        t[at["drew"] + rel(s)] = 1.0
        t[at["draw_count"] + rel(s)] = float(count)
        if s == seat:
            for c in cards:
                t[at["own_discard"] + c.index] = 1.0
    t[at["pot"]] = min(float(view.pot), _F32_MAX)
    t[at["pot_units"]] = float(view.pot_units)
    t[at["stock_size"]] = float(view.stock_size)
