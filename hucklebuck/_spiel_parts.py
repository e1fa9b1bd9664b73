"""The parts of an OpenSpiel state of :mod:`hucklebuck.openspiel` that need no
OpenSpiel: its records (one object, cheap to deep-copy, which is what OpenSpiel's
``clone()`` of a Python state does), the deal a shuffled pack makes, the
observation strings and the observer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .cards import Card
from .games import Phase
from .games.base import DealEvent
from .games.buckem import BuckEmDeal
from .games.deerpark import DeerParkDeal
from .games.engine import TrickGame
from .games.hucklebuck import HucklebuckDeal
from .games.ids import NUM_ACTIONS
from .packs import GameKind

if TYPE_CHECKING:
    from .openspiel import SpielState, _Config

__all__ = ["HAND_SIZE", "Episode", "Observer", "deal_of", "hand_view"]

HAND_SIZE = 5


class Episode:
    """A state's growing records, in one object whose deep copy is a few list copies
    (OpenSpiel's ``clone()`` of a Python state deep-copies each attribute)."""

    __slots__ = (
        "dealing",
        "dealt",
        "game",
        "hands_done",
        "last",
        "log",
        "over",
        "remaining",
        "seen",
        "spec",
        "totals",
    )

    def __init__(self, spec: _Config | None) -> None:
        if spec is None:
            return
        self.spec = spec
        self.game: TrickGame[Any, Any] | None = None
        self.hands_done = 0
        self.over = False
        self.dealing: list[int] = []  # the cards of the hand being dealt, in order
        self.remaining: list[int] = list(spec.pack_ids)  # the cards still to deal
        self.totals = [0.0] * spec.players
        self.last = [0.0] * spec.players
        self.seen: tuple[tuple[str, ...], ...] = ((),) * spec.players  # per seat, per hand (immutable)
        # per hand: (actor, action id); a finished hand's as a tuple, the hand under way's as a list
        self.log: list[Sequence[tuple[int, int]]] = []
        self.dealt: list[tuple[tuple[int, ...], ...]] = []  # per hand: each seat's dealt cards

    def __deepcopy__(self, memo: dict[int, Any]) -> Episode:
        new = Episode(None)
        new.spec, new.hands_done, new.over = self.spec, self.hands_done, self.over
        new.game = None if self.game is None else self.game.copy()
        new.dealing, new.remaining = self.dealing[:], self.remaining[:]
        new.totals, new.last = self.totals[:], self.last[:]
        new.seen = self.seen  # immutable: shared
        new.log = self.log[:]
        if new.log and isinstance(new.log[-1], list):  # the hand under way
            new.log[-1] = new.log[-1][:]
        new.dealt = self.dealt[:]
        return new


def deal_of(
    spec: _Config,
    cards: list[Card],
    game: TrickGame[Any, Any] | None,
    removed_upcard: int | None,
) -> Any:
    """The deal a shuffled pack makes, laid out as the game lays out its own shuffles."""
    kind, n = spec.kind, spec.players
    dealer = 0 if game is None else game.dealer  # a scored hand already names the next dealer
    if kind is GameKind.HUCKLEBUCK:
        out = set() if game is None else set(getattr(game, "out", ()))
        seated = [s for s in range(n) if s not in out]
        order = sorted(seated, key=lambda s: (s - dealer - 1) % n)  # one at a time from eldest
        k = len(order)
        dealt = HAND_SIZE * k
        hands: list[tuple[Card, ...]] = [()] * n
        for i, s in enumerate(order):
            hands[s] = tuple(cards[i:dealt:k])
        return HucklebuckDeal(tuple(hands), tuple(cards[dealt:]))
    dealt = HAND_SIZE * n
    hands = [()] * n
    for i in range(n):
        hands[(dealer + 1 + i) % n] = tuple(cards[i:dealt:n])
    if kind is GameKind.DEERPARK:
        return DeerParkDeal(tuple(hands), tuple(cards[dealt:]))
    if removed_upcard is not None:
        upcard, rest = Card.from_index(removed_upcard), cards[dealt:]
    else:
        upcard, rest = cards[dealt], cards[dealt + 1 :]
    opts = spec.option_dict
    scare = tuple(h[opts["scare_position"] - 1] for h in hands) if opts["scare_cards"] else None
    return BuckEmDeal(tuple(hands), upcard, tuple(rest), scare)


def hand_view(game: TrickGame[Any, Any], seat: int) -> str:
    """What ``seat`` saw of the current hand: its dealt cards and the actions as it saw them."""
    dealt = next(
        (ev.hands[seat] for ev in reversed(game.events) if isinstance(ev, DealEvent)),
        (),
    )
    seen = "; ".join(game.observation(seat).history)
    return f"[hand {game.hand_number}: dealt {' '.join(c.code for c in dealt)}; {seen}]"


def _observation_string(game: TrickGame[Any, Any], seat: int) -> str:
    obs = game.observation(seat)
    parts = [
        f"p{seat}",
        f"hand {' '.join(c.code for c in obs.hand)}",
        f"phase {obs.phase.value}",
        f"to act {obs.to_act}",
        f"trump {obs.trump.symbol if obs.trump is not None else '-'}",
        f"trick {' '.join(c.code for c in obs.current_trick)}",
        f"won {list(obs.tricks_won)}",
        f"standings {list(game.standings)}",
    ]
    for name in ("upcard", "turned"):
        card = getattr(obs, name, None)
        if card is not None:
            parts.append(f"{name} {card.code}")
    return "; ".join(parts)


class Observer:
    """OpenSpiel's Python observer: observation tensor/string, or the perfect-recall string."""

    def __init__(self, game: _Config, perfect_recall: bool, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perfect_recall = perfect_recall
        self.cfg = game
        self.tensor = np.zeros(game.info_size if perfect_recall else game.tensor_size, np.float32)
        self.dict = {"observation": self.tensor[: game.tensor_size]}
        if perfect_recall:
            per_hand = 52 + game.slots * game.slot_width
            self.dict["history"] = self.tensor[game.tensor_size :].reshape(game.hands, per_hand)

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill :attr:`tensor` for ``player`` in ``state``.

        The information-state tensor is the observation tensor, then per hand of
        the episode: the 52 cards dealt to ``player``, and one slot per action:
        the actor (relative to ``player``) and the action id, or a 'hidden' flag
        for another seat's private action (a discard or a draw, and under
        ``simultaneous_declare`` a Buck 'Em declaration)."""
        self.tensor.fill(0)
        game = state._game
        cfg = self.cfg
        if game is None:
            return
        self.tensor[: cfg.tensor_size] = game.observation_tensor(player)
        if not self.perfect_recall:
            return
        history = self.dict["history"]
        n, width, hidden = cfg.players, cfg.slot_width, cfg.players + NUM_ACTIONS[cfg.kind]
        for h, (dealt, log) in enumerate(zip(state._ep.dealt, state._ep.log, strict=True)):
            row = history[h]
            row[list(dealt[player])] = 1.0
            for k, (actor, action) in enumerate(log):
                base = 52 + k * width
                row[base + (actor - player) % n] = 1.0
                seen = actor == player or not cfg.private(action)
                row[base + (n + action if seen else hidden)] = 1.0

    def string_from(self, state: SpielState, player: int) -> str:
        """The observation (or information-state) string of ``player``."""
        game = state._game
        if not self.perfect_recall:
            return (
                f"p{player}; dealing"
                if game is None or state.is_chance_node()
                else _observation_string(game, player)
            )
        past = " ".join(state._ep.seen[player])
        if game is None or (game.phase is Phase.HAND_OVER and not state.is_terminal()):
            return f"p{player}; {past}; dealing {len(state._ep.dealing)}"
        if state.is_terminal():
            return f"p{player}; {past}; over"
        now = hand_view(game, player) + "; " + _observation_string(game, player)
        return f"p{player}; {past}; {now}"
