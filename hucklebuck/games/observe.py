"""A seat's view as JSON: the one definition of what each seat may know, in the
form the conformance protocol's ``observe`` operation and the table server use.

:func:`observation_json` turns any game's observation (``game.observation(seat)``,
or ``game.observation(None)`` for an onlooker) into a JSON object; :func:`view`
does both steps.  Every field comes from the observation, and the observation
holds only what the seat may know (DEF #84-#91): its own hand, the face-up cards,
the public actions in order (another seat's discard or draw shows only as its
count, a Buck 'Em declaration under ``simultaneous_declare`` only as
``"S declared"`` until everyone has declared), the tricks, the standings, the
card counts, whose turn it is, and the seat's legal actions when it is to act.

>>> from hucklebuck.games import DeerParkGame
>>> v = view(DeerParkGame(3, seed=1), None)
>>> v["seat"], v["hand"], v["hand_sizes"]
(None, None, [5, 5, 5])
"""

from __future__ import annotations

from typing import Any

from ..cards import Card, CardSet
from .buckem import BuckEmObservation
from .deerpark import DeerParkObservation
from .engine import TrickGame
from .hucklebuck import HucklebuckObservation

__all__ = ["observation_json", "view"]


def _codes(cards: CardSet | tuple[Card, ...] | list[Card]) -> list[str]:
    """Card codes in canonical order (clubs, diamonds, hearts, spades; 2 up to Ace)."""
    return [c.code for c in sorted(cards, key=lambda c: c.index)]


def observation_json(obs: HucklebuckObservation | BuckEmObservation | DeerParkObservation) -> dict[str, Any]:
    """The JSON object of a seat's (or an onlooker's) view, field by field as the
    protocol page defines the ``observe`` result."""
    if isinstance(obs, HucklebuckObservation):
        game = "hucklebuck"
    elif isinstance(obs, DeerParkObservation):
        game = "deerpark"
    elif isinstance(obs, BuckEmObservation):
        game = "buckem"
    else:
        raise TypeError("an observation from game.observation(seat) is needed")
    seat = obs.seat
    current: dict[str, Any] | None = None
    if obs.current_trick:
        current = {"leader": obs.trick_leader, "cards": [c.code for c in obs.current_trick]}
    out: dict[str, Any] = {
        "game": game,
        "players": len(obs.hand_sizes),
        "seat": seat,
        "hand_number": obs.hand_number,
        "dealer": obs.dealer,
        "phase": obs.phase.value,
        "to_act": obs.to_act,
        "hand": _codes(obs.hand) if seat is not None else None,
        "hand_sizes": list(obs.hand_sizes),
        "trump": obs.trump.symbol if obs.trump is not None else None,
        "history": list(obs.history),
        "current_trick": current,
        "tricks": [
            {"leader": t.seats[0], "cards": [c.code for c in t.cards], "winner": t.winner} for t in obs.tricks
        ],
        "tricks_won": list(obs.tricks_won),
        "legal": sorted(str(a) for a in obs.legal_actions),
        "game_over": obs.game_over,
        "winners": sorted(obs.winners),
    }
    if isinstance(obs, HucklebuckObservation):
        out["scores"] = list(obs.scores)
        out["out"] = sorted(obs.out)
        out["bidder"] = obs.bidder
        out["bid"] = obs.bid
        out["declarations"] = [{"seat": s, "exchange": n} for s, n in obs.declarations]
        out["stock_size"] = obs.stock_size
    elif isinstance(obs, DeerParkObservation):
        out["scores"] = list(obs.scores)
        out["turned"] = obs.turned.code
        out["maker"] = obs.maker
        out["requirement"] = obs.requirement
        out["locked"] = sorted(obs.locked)
    else:
        out["bankrolls"] = list(obs.bankrolls)
        out["pot"] = obs.pot
        out["pot_units"] = obs.pot_units
        out["upcard"] = obs.upcard.code
        out["swapped_upcard"] = obs.swapped_upcard.code if obs.swapped_upcard is not None else None
        out["scare"] = [c.code if c is not None else None for c in obs.scare]
        out["decisions"] = [{"seat": s, "decision": d} for s, d in obs.decisions]
        out["stock_size"] = obs.stock_size
        out["rake_shown"] = _codes(obs.rake_shown)
    return out


def view(game: TrickGame[Any, Any], seat: int | None) -> dict[str, Any]:
    """``observation_json(game.observation(seat))``: what ``seat`` (``None``: an onlooker) may know now.

    An onlooker's ``"hand"`` is ``null`` (no seat, so no hand), where the typed onlooker
    observation keeps an empty card set."""
    obs: Any = game.observation(seat)
    return observation_json(obs)
