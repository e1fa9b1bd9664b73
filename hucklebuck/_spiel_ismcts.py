"""Resampling an OpenSpiel state from a seat's information, for OpenSpiel's
Python ISMCTS (:class:`open_spiel.python.algorithms.ismcts.ISMCTSBot`).

A resampled state is the same episode replayed from a different deal of the
current hand: one the seat cannot tell apart from the real one.  The cards the
other seats hold now come from the Monte Carlo player's consistent sampler
(:func:`hucklebuck.players._search.sample_hands`: voids, played cards, the
upcard or turned card and scare cards respected); what they threw away in an
exchange, a draw or the dealer's discard, and the cards nobody has seen, are
dealt at random from the cards the seat has not seen.  Earlier hands of the
episode are replayed as they were (they no longer bear on the hidden cards).
Every resampled state is checked: replayed by the rules and with the seat's
information state unchanged, else another world is drawn.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .actions import Action, BuckStay, Discard, Draw, Order, Play
from .cards import Card, CardSet, Rank
from .errors import HucklebuckError
from .games.base import ActionEvent, RestockEvent
from .packs import GameKind
from .players._search import build_position, sample_hands

if TYPE_CHECKING:  # pragma: no cover
    from .openspiel import SpielState

__all__ = ["MAX_TRIES", "ismcts_bot", "resample", "resampler"]

HAND_SIZE = 5
MAX_TRIES = 50
"""Worlds drawn before giving up (each is checked by replaying it)."""


def resample(state: SpielState, player: int, rng: random.Random) -> SpielState:
    """A state ``player`` cannot tell from ``state``, with the hidden cards dealt anew.

    ``state`` must be at ``player``'s decision.  Raises :class:`ValueError` if
    no consistent world is found in :data:`MAX_TRIES` draws (a hand whose stock
    was re-formed, which the deal cannot express, is replayed as it was).
    """
    if state.is_chance_node() or state.is_terminal() or state.current_player() != player:
        raise ValueError("resample a state at the given player's decision")
    wanted = state.information_state_string(player)
    for _ in range(MAX_TRIES):
        world = _world(state, player, rng)
        if world is None:
            same: SpielState = state.clone()  # nothing hidden can be redealt consistently
            return same
        new = _replay(state, *world)
        if new is not None and new.information_state_string(player) == wanted:
            return new
    raise ValueError("no consistent deal found for this information state")


def _replay(state: SpielState, chance: list[int], actions: list[Action]) -> SpielState | None:
    hist = state.history()
    spec = state._spec
    per_hand = len(spec.pack) + (1 if spec.removed else 0)
    done = len(state._ep.log[-1])
    prefix = hist[: len(hist) - done - per_hand]
    new: SpielState = state.get_game().new_initial_state()
    try:
        for a in prefix:
            new.apply_action(a)
        for c in chance:
            new.apply_action(c)
        for action in actions:
            game = new._game
            assert game is not None
            new.apply_action(game.action_id(action))
    except (HucklebuckError, ValueError, RuntimeError, AssertionError):
        return None
    return new


def _world(state: SpielState, me: int, rng: random.Random) -> tuple[list[int], list[Action]] | None:
    """A new deal of the current hand (as chance outcomes) and the hand's actions in it."""
    game = state._game
    assert game is not None
    spec = state._spec
    kind, n, hand_no = spec.kind, spec.players, game.hand_number
    events = [ev for ev in game.events if getattr(ev, "hand", None) == hand_no]
    if any(isinstance(ev, RestockEvent) for ev in events):
        return None
    actions: list[Action] = [ev.action for ev in events if isinstance(ev, ActionEvent)]
    true = game.to_dict()["hands"][-1]["deal"]
    dealt = [tuple(Card.parse(c) for c in h) for h in true["hands"]]
    masks = sample_hands(build_position(game.observation(me)), rng.getrandbits(63), 1)[0]
    held = [game.hand(s) if s == me else CardSet.from_mask(masks[s]) for s in range(n)]
    played = [CardSet() for _ in range(n)]
    for a in actions:
        if isinstance(a, Play):
            played[a.seat] = played[a.seat] | CardSet([a.card])
    public: set[Card] = set(dealt[me])
    for s in range(n):
        public |= set(held[s]) | set(played[s])
    up = Card.parse(true["upcard"]) if "upcard" in true else None
    turned = Card.parse(true["kitty"][0]) if "kitty" in true else None
    scare = [None] * n if kind is not GameKind.BUCKEM else [game.scare_card(s) for s in range(n)]  # type: ignore[attr-defined]
    fixed = {c for c in (up, turned, *scare) if c is not None}
    public |= fixed
    # Exchanges in order: who threw away how many (and my own, as they were).
    exchanges: list[Discard | Draw] = [a for a in actions if isinstance(a, (Discard, Draw)) and a.cards]
    my_draws = _my_draws(true, exchanges, me, kind)
    for mine in my_draws.values():
        public |= set(mine)
    pool = [c for c in game._pack if c not in public]  # the cards ``me`` has not seen
    rng.shuffle(pool)
    new_hands: list[tuple[Card, ...]] = list(dealt)
    thrown: dict[int, tuple[Card, ...]] = {}
    drawn: dict[int, tuple[Card, ...]] = {}
    swapped = {a.seat for a in actions if isinstance(a, BuckStay) and a.swap}
    deuce = Card(Rank.TWO, game.trump) if game.trump is not None else None
    if swapped and deuce is not None:
        pool = [c for c in pool if c != deuce]  # the swapper's, shown in the upcard's place
    picked = kind is GameKind.DEERPARK and any(isinstance(a, Order) for a in actions)
    for s in range(n):
        if s == me or not dealt[s]:
            continue
        final = set(held[s]) | set(played[s])
        k = sum(len(a.cards) for a in exchanges if a.seat == s)
        must_throw = [c for c in fixed if c not in final and _owned(c, s, scare, up, swapped)]
        if not final:  # out of the hand (dropped, folded): its cards were never seen
            unseen: list[Card] = [c for c in (scare[s],) if c is not None]
            while len(unseen) < HAND_SIZE:
                unseen.append(pool.pop())
            new_hands[s] = _ordered(unseen, scare[s], spec)
            continue
        if picked and s == game.dealer and turned is not None:
            extra = () if turned not in final else (pool.pop(),)
            thrown[s] = extra if extra else (turned,)
            before = (final | set(extra)) - {turned}
            new_hands[s] = _ordered(list(before), None, spec)
            continue
        keep = [c for c in final if c not in fixed]
        rng.shuffle(keep)
        if len(keep) < k or len(must_throw) > k:
            return None
        got = keep[:k]
        throw = list(must_throw) + [pool.pop() for _ in range(k - len(must_throw))]
        before = (final - set(got)) | set(throw)
        if s in swapped and up is not None and deuce is not None:
            before = (before - {up}) | {deuce}
        if len(before) != HAND_SIZE:
            return None
        drawn[s], thrown[s] = tuple(got), tuple(throw)
        new_hands[s] = _ordered(list(before), scare[s], spec)
    rest = pool
    # The stock, top first: each exchange draws from the top in turn, then the unseen cards.
    stock: list[Card] = []
    for a in exchanges:
        stock.extend(my_draws[id(a)] if a.seat == me else drawn.get(a.seat, ()))
    new_actions: list[Action] = []
    for a in actions:
        if isinstance(a, (Discard, Draw)) and a.seat != me and a.cards:
            a = type(a)(a.seat, tuple(sorted(thrown[a.seat])))  # what this world threw away
        new_actions.append(a)
    order = sorted((s for s in range(n) if dealt[s]), key=lambda s: (s - game.dealer - 1) % n)
    k = len(order)
    seq: list[Card] = [new_hands[order[i % k]][i // k] for i in range(HAND_SIZE * k)]
    if kind is GameKind.HUCKLEBUCK:
        seq += stock + rest
        extra_chance: list[int] = []
    elif kind is GameKind.DEERPARK:
        assert turned is not None
        seq += [turned, *rest]
        extra_chance = []
    else:
        assert up is not None
        if spec.removed:
            seq += stock + rest
            extra_chance = [up.index]
        else:
            seq += [up, *stock, *rest]
            extra_chance = []
    if len(seq) != len(spec.pack) or len(set(seq)) != len(seq):
        return None
    return [c.index for c in seq] + extra_chance, new_actions


def _owned(card: Card, seat: int, scare: list[Card | None], up: Card | None, swapped: set[int]) -> bool:
    """Whether ``card`` is public and was in ``seat``'s hand before the exchange."""
    return card == scare[seat] or (card == up and seat in swapped)


def _ordered(cards: list[Card], scare: Card | None, spec: Any) -> tuple[Card, ...]:
    """A dealt hand in deal order, a Buck 'Em scare card where the deal shows it."""
    cards = sorted(cards)
    if scare is not None and scare in cards:
        pos = spec.option_dict["scare_position"] - 1
        cards.remove(scare)
        cards.insert(pos, scare)
    return tuple(cards)


def _my_draws(
    true: dict[str, Any], exchanges: list[Discard | Draw], me: int, kind: GameKind
) -> dict[int, tuple[Card, ...]]:
    """The cards each of ``me``'s exchanges drew (from the real stock, top first), by action."""
    stock = [Card.parse(c) for c in true.get("stock", ())]
    out: dict[int, tuple[Card, ...]] = {}
    at = 0
    for a in exchanges:
        k = len(a.cards)
        if a.seat == me:
            out[id(a)] = tuple(stock[at : at + k])
        at += k
    return out


def resampler(seed: int = 0) -> Callable[[SpielState, int], SpielState]:
    """A resampler for OpenSpiel's Python ISMCTS (``bot.set_resampler(resampler())``).

    Each call deals the hidden cards of the current hand anew, consistently with
    everything the player has seen (the Monte Carlo player's sampler), and
    replays the episode on that deal (as this module's docstring says).
    OpenSpiel's C++ ``pyspiel.ISMCTSBot`` cannot use it: it calls the state's
    own ``ResampleFromInfostate``, which Python games do not provide.
    """
    rng = random.Random(seed)

    def cb(state: SpielState, player: int) -> SpielState:
        return resample(state, player, rng)

    return cb


def ismcts_bot(
    game: Any,
    *,
    max_simulations: int = 100,
    uct_c: float = 2.0,
    seed: int = 0,
    evaluator: Any = None,
) -> Any:
    """OpenSpiel's Python ISMCTS bot for one of these games, with :func:`resampler` set.

    ``evaluator`` defaults to one random rollout per leaf.  The bot searches
    afresh at every step, so it also takes part in ``evaluate_bots`` (whose
    ``restart_at`` and ``inform_action`` it accepts and ignores).
    """
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

    class Bot(ismcts.ISMCTSBot):  # type: ignore[misc]
        def restart_at(self, state: Any) -> None:
            pass

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            pass

    state_rng = np.random.RandomState(seed)
    if evaluator is None:
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=state_rng)
    bot = Bot(
        game=game,
        evaluator=evaluator,
        uct_c=uct_c,
        max_simulations=max_simulations,
        random_state=state_rng,
    )
    bot.set_resampler(resampler(seed))
    return bot
