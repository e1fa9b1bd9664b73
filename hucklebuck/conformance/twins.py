"""The leak check's random games and twins (:mod:`hucklebuck.conformance.leaks`).

:func:`random_request` plays 1 to 3 whole hands of a game at random player
counts, options and start positions; :func:`cut` cuts such a request at an
action of one of its hands; :func:`twin` transposes two cards in one hand of a
request (its deal, re-formed stocks and action texts), which is how a twin
game that a viewer cannot tell apart is built.

>>> import random
>>> req = random_request("deerpark", random.Random(1))
>>> req["op"], req["game"], len(req["hands"]) >= 1
('observe', 'deerpark', True)
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Iterator
from typing import Any, Final

from ..cards import Card
from ..games.base import Phase
from ..games.buckem import BuckEmGame
from ..games.deerpark import DeerParkGame
from ..games.engine import TrickGame
from ..games.hucklebuck import HucklebuckGame

__all__ = ["OVER", "cards_in", "cut", "random_request", "replay", "twin"]

_CARD: Final = re.compile(r"\b[2-9TJQKA][CDHS]\b")
_TYPES: Final[dict[str, Any]] = {  # the game classes, by protocol name
    "hucklebuck": HucklebuckGame,
    "buckem": BuckEmGame,
    "deerpark": DeerParkGame,
}
#: The phases in which no one acts: the hand (or the game) is scored.
OVER: Final = (Phase.HAND_OVER, Phase.GAME_OVER)


def _setup(game: str, rng: random.Random) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """A random player count, protocol options and start position."""
    if game == "hucklebuck":
        n = rng.randint(3, 7)
        opts = {
            "target": rng.choice([15, 11]),
            "all_pass": rng.choice(["dealer_scores_5", "dealer_must_bid"]),
            "moon_at_zero": rng.choice(["reset_to_zero", "win", "score_normally"]),
            "tie_break": rng.choice(["highest_then_bidder", "bidder_first", "shared"]),
            "exchange_order": rng.choice(["bidder_left_bidder_last", "dealer_left_dealer_last"]),
            "auction_reentry": rng.random() < 0.3,
        }
        start = {"dealer": rng.randrange(n), "scores": [rng.randint(-20, 12) for _ in range(n)]}
        return n, opts, start
    if game == "deerpark":
        n = rng.randint(3, 7)
        opts = {
            "club_turnup_pickup": rng.random() < 0.3,
            "round2_excludes_turned_suit": rng.random() < 0.3,
            "failed_contract_tricks_count": rng.random() < 0.3,
            "first_lead": rng.choice(["eldest", "maker"]),
            "lock_at": rng.choice([45, 45, 40]),
        }
        return n, opts, {"dealer": rng.randrange(n), "scores": [rng.randint(4, 46) for _ in range(n)]}
    n = rng.randint(5, 8)
    short = n in (5, 6) and rng.random() < 0.4
    opts = {
        "ante": rng.choice([1, 1, 2]),
        "short_handed": short,
        "short_handed_trump": "removed_card" if short and rng.random() < 0.5 else "flip",
        "scare_cards": rng.random() < 0.3,
        "deuce_swap": rng.random() < 0.5,
        "simultaneous_declare": rng.random() < 0.5,
        "pot_limit": rng.choice([None, None, 20]),
        "split": rng.choice(["equal", "proportional"]),
        "rake_hand": rng.choice(["as_dealt", "after_swap"]),
    }
    return n, opts, {"dealer": rng.randrange(n)}


def random_request(game: str, rng: random.Random) -> dict[str, Any]:
    """A ``play`` request of 1 to 3 whole hands chosen at random, all of them played out."""
    n, opts, start = _setup(game, rng)
    g = _TYPES[game](n, options=opts, rng=random.Random(rng.getrandbits(32)), **start)
    hands: list[dict[str, Any]] = []
    for h in range(rng.choice([1, 2, 2, 3])):
        if h:
            if g.is_over:
                break
            g.next_hand()
        assert g._deal is not None
        deal = g._deal.to_dict()
        actions: list[str] = []
        while g.phase not in OVER:
            action = rng.choice(g.legal_actions())
            g.apply(action)
            actions.append(str(action))
        if g._restocks:
            deal["restock"] = [[c.code for c in r] for r in g._restocks]
        hands.append({"deal": deal, "actions": actions})
    return {"op": "observe", "game": game, "players": n, "options": opts, "start": start, "hands": hands}


def cut(req: dict[str, Any], hand: int, k: int, seat: int | None) -> dict[str, Any]:
    """``req`` up to action ``k`` of hand ``hand`` (a later hand dropped), observed by ``seat``."""
    hands = copy.deepcopy(req["hands"][: hand + 1])
    hands[-1]["actions"] = hands[-1]["actions"][:k]
    return dict(req, hands=hands, seat=seat)


def replay(req: dict[str, Any]) -> Iterator[TrickGame[Any, Any]]:
    """Our engine's game after each action of the last hand of ``req`` (and before the first);
    the same game object, moved on between the items."""
    first = req["hands"][0]["deal"]
    g = _TYPES[req["game"]](req["players"], options=req["options"], deal=first, **req["start"])
    for i, h in enumerate(req["hands"]):
        if i:
            g.next_hand(h["deal"])
        last = i == len(req["hands"]) - 1
        if last:
            yield g
        for text in h["actions"]:
            g.apply(text)
            if last:
                yield g


def cards_in(value: Any) -> set[str]:
    """The card codes written anywhere in ``value``."""
    return set(_CARD.findall(json.dumps(value)))


def twin(req: dict[str, Any], a: str, b: str, hand: int = -1) -> dict[str, Any]:
    """``req`` with cards ``a`` and ``b`` transposed in hand ``hand``: in its deal
    (re-formed stocks included) and in its action texts, whose cards are then put
    back in canonical order."""
    swap = {a: b, b: a}

    def deal_map(v: Any) -> Any:
        if isinstance(v, str):
            return swap.get(v, v)
        if isinstance(v, list):
            return [deal_map(x) for x in v]
        if isinstance(v, dict):
            return {k: deal_map(x) for k, x in v.items()}
        return v

    def action_map(text: str) -> str:
        words = text.split(" ")
        head = [w for w in words if not _CARD.fullmatch(w)]
        cards = [swap.get(w, w) for w in words if _CARD.fullmatch(w)]
        cards.sort(key=lambda c: Card.parse(c).index)
        return " ".join(head + cards)

    out = copy.deepcopy(req)
    h = out["hands"][hand]
    h["deal"] = deal_map(h["deal"])
    h["actions"] = [action_map(t) for t in h.get("actions", [])]
    return out
