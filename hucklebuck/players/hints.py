"""Hints a person can read: each legal move's chance of winning the game.

:func:`hint` is the one entry point, used by the terminal's ``hint`` command
and meant for any other table (a browser, a server): give it the observation
of the seat to act and it returns a :class:`Hint` with every legal move's
**chance of winning the game** in percent (Hucklebuck, Deer Park Euchre) or
its **expected chips** from this round on (Buck 'Em), best first, one plain
sentence on why the best move is best, and the number of sampled deals behind
the figures.  The figures are :class:`~hucklebuck.players.MonteCarloPlayer`'s
(the game-value model of :mod:`hucklebuck.players.value` applied to sampled
deals of the cards the seat has not seen), so they use only what the seat
may know.

>>> from hucklebuck.games import DeerParkGame
>>> game = DeerParkGame(3, seed=2)
>>> h = hint(game.observation(game.to_act), samples=64, seed=1)
>>> h.unit, h.samples, len(h.moves) == len(game.legal_actions())
('%', 64, True)
>>> 0.0 <= h.moves[0].value <= 100.0
True

The signature is stable: ``hint(observation, *, samples=400, seed=None) ->
Hint``; :meth:`Hint.to_dict` gives a JSON-ready form (actions as protocol
strings).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..actions import Action, Bid, BuckStay, Call, Drop, Fold, Order, Pass, Play, Stay
from ..cards import CardSet, Suit
from ..games.base import Phase
from ..packs import GameKind
from .base import check_observation
from .heuristics import EXCHANGE_GAIN, estimate_tricks, euchre_strength, plays_for_fifty
from .montecarlo import MonteCarloPlayer

__all__ = ["DEFAULT_HINT_SAMPLES", "Hint", "MoveHint", "hint"]

#: Sampled deals behind a hint unless told otherwise.
DEFAULT_HINT_SAMPLES = 400


@dataclass(frozen=True)
class MoveHint:
    """One legal move and what it is worth."""

    action: Action
    value: float
    """Chance of winning the game in percent (0-100), or expected chips (Buck 'Em)."""


@dataclass(frozen=True)
class Hint:
    """Every legal move's worth, best first, and why the best is best."""

    game: GameKind
    moves: tuple[MoveHint, ...]
    """Best first (equal values keep the legal order)."""
    unit: str
    """``"%"`` (chance of winning the game) or ``"chips"`` (Buck 'Em)."""
    reason: str
    """One plain sentence on why the best move is best."""
    samples: int
    """Sampled deals of the unseen cards behind every figure."""

    @property
    def best(self) -> Action:
        """The move the hint recommends."""
        return self.moves[0].action

    def figure(self, move: MoveHint) -> str:
        """``"34% to win"`` or ``"+1.25 chips"``."""
        if self.unit == "%":
            return f"{move.value:.0f}% to win"
        return f"{move.value:+.2f} chips"

    def lines(self, name: Callable[[Action], str] = str) -> list[str]:
        """The hint as text lines: a heading, one line per move (``name`` writes a move), the reason."""
        what = "chance of winning the game" if self.unit == "%" else "expected chips from this round on"
        out = [f"Hint ({what}, over {self.samples} sampled deals of the cards you have not seen):"]
        width = max(len(name(m.action)) for m in self.moves)
        for m in self.moves:
            out.append(f"  {name(m.action):<{width}}  {self.figure(m)}")
        out.append(self.reason)
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: ``{"moves": [{"action": "1 bid 3", "value": 34.2}, ...], ...}``."""
        return {
            "game": self.game.value,
            "unit": self.unit,
            "samples": self.samples,
            "reason": self.reason,
            "moves": [{"action": str(m.action), "value": round(m.value, 2)} for m in self.moves],
        }


def hint(observation: Any, *, samples: int = DEFAULT_HINT_SAMPLES, seed: int | None = None) -> Hint:
    """What each legal move of the seat that observes is worth, best first.

    ``observation`` is ``game.observation(seat)`` for the seat to act;
    ``samples`` the sampled deals (more is steadier and slower: 400 take well
    under a second on the C core); ``seed`` makes the figures repeatable.
    Anything that is not such an observation raises the errors of
    :func:`hucklebuck.players.base.check_observation`; a bad ``samples`` or
    ``seed`` raises :class:`~hucklebuck.errors.OptionsError`.
    """
    game = check_observation(observation)
    player = MonteCarloPlayer(samples=samples, seed=seed)
    ranked = player.analyse(observation)
    scale = 1.0 if game is GameKind.BUCKEM else 100.0
    moves = tuple(MoveHint(a, v * scale) for a, v in ranked)
    unit = "chips" if game is GameKind.BUCKEM else "%"
    return Hint(game, moves, unit, _reason(observation, game, moves, unit), samples)


# ------------------------------------------------------------------ reasons
def _card_words(cards: CardSet | list[Any]) -> str:
    return " ".join(c.display for c in cards)  # 6♣, as the hand and the moves show it


def _why(obs: Any, game: GameKind, best: Action) -> str:
    """The plain clause on the best move, from the seat's hand and goal."""
    if game is GameKind.DEERPARK:
        high = plays_for_fifty(obs.scores, obs.seat)
        goal = (
            "playing for 50 you want to take no trick"
            if high
            else "playing for 0 every trick you take counts"
        )
        if isinstance(best, Order | Call):  # the goal once, with what making trump risks for it
            suit = obs.turned.suit if isinstance(best, Order) else best.suit
            t = euchre_strength(obs.hand, suit)
            doing = "ordering up" if isinstance(best, Order) else f"calling {_suit(suit)}"
            risk = (
                f"playing for 50, {doing} and missing your three tricks moves you 5 toward it"
                if high
                else f"playing for 0, {doing} means taking three tricks (a point down each); missing "
                "them puts you 5 further from it"
            )
            return f"{risk}; your hand is worth about {t:.1f} tricks in {_suit(suit)}"
        return goal
    if game is GameKind.HUCKLEBUCK:
        if isinstance(best, Bid | Pass) and obs.phase is Phase.AUCTION:
            suit, est = max(((s, estimate_tricks(obs.hand, s)) for s in Suit), key=lambda p: (p[1], p[0]))
            est += EXCHANGE_GAIN
            if isinstance(best, Bid):
                if est >= best.amount - 0.5:
                    return f"bid {best.amount}: you expect about {est:.1f} tricks with {_suit(suit)} as trump"
                return (  # the bid pays for the game's sake, not on the hand's count alone: say so
                    f"bid {best.amount}: your hand alone promises only about {est:.1f} tricks with "
                    f"{_suit(suit)} as trump, but played out over the sampled deals the bid still does "
                    "better for your chance of winning the game than passing"
                )
            return f"pass: your best trump, {_suit(suit)}, promises only about {est:.1f} tricks"
        if isinstance(best, Stay | Drop) and obs.trump is not None:
            est = estimate_tricks(obs.hand, obs.trump)
            if isinstance(best, Drop):
                return f"drop: with about {est:.1f} tricks expected, staying risks -5 for taking none"
            return f"stay: you expect about {est:.1f} tricks with {_suit(obs.trump)} as trump"
    if game is GameKind.BUCKEM and isinstance(best, BuckStay | Fold):
        trumps = [c for c in obs.hand if c.suit is obs.trump]
        held = f"you hold {len(trumps)} trump{'s' if len(trumps) != 1 else ''}"
        if isinstance(best, Fold):
            return (
                f"fold: {held}, and a burn would cost you the pot of {obs.pot}; a fold costs nothing "
                "now, and its figure above zero is what the later rounds are expected to bring you"
            )
        return f"stay: {held}" + (f" ({_card_words(trumps)})" if trumps else "")
    if isinstance(best, Play):
        return _play_why(obs, game, best)
    return str(best).split(" ", 1)[1] if " " in str(best) else str(best)


def _play_why(obs: Any, game: GameKind, best: Play) -> str:
    won = obs.tricks_won[obs.seat]
    card = best.card.display
    if game is GameKind.HUCKLEBUCK:
        if obs.seat == obs.bidder and obs.bid is not None:
            need = obs.bid - won
            if need > 0:
                return f"{card}: you bid {obs.bid} and still need {need} trick{'s' if need != 1 else ''}"
            return f"{card}: your bid is made, and every further trick is a point"
        if won == 0:
            return f"{card}: you need one trick, or staying costs you 5"
        return f"{card}: every trick you take is a point"
    need = 2 - won
    if need > 0:
        return f"{card}: you need {need} more trick{'s' if need != 1 else ''} to win or share the pot"
    return f"{card}: you have your two tricks; a third may take the whole pot"


def _suit(s: Suit) -> str:
    return {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}[s]


def _reason(obs: Any, game: GameKind, moves: tuple[MoveHint, ...], unit: str) -> str:
    best = moves[0]
    clause = _why(obs, game, best.action)
    clause = clause[0].upper() + clause[1:]
    if len(moves) == 1:
        return f"{clause}; it is your only move."
    nxt = moves[1].value
    if unit == "%":  # the margin is the one between the figures shown, as rounded there
        figure = f"{best.value:.0f}% to win"
        points = round(best.value) - round(nxt)
        more = f"{points} percentage point{'s' if points != 1 else ''} more than the next best move"
        close = points < 1
    else:
        figure = f"{best.value:+.2f} chips"
        gap = round(best.value, 2) - round(nxt, 2)
        more = f"{gap:.2f} chips more than the next best move"
        close = gap < 0.005
    if close:
        return f"{clause}; it is a toss-up: the best move and the next best both give you {figure}."
    return f"{clause}; the best move gives you {figure}, {more}."
