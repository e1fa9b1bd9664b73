"""A Buck 'Em round before play: the deal (checked or shuffled), staying or
folding (with the deuce swap) and the draw from the stock (S3; DEF #1, #47-#50, #54).

The rules as functions of a :class:`~hucklebuck.games.buckem.BuckEmGame`: how a
deal is checked or made, which actions are legal, why one is not, and what one
does.  The game's hooks call these; settling the pot is in :mod:`._buckem_settle`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from ..actions import Action, BuckStay, Draw, Fold
from ..cards import Card, Rank
from ..errors import DealError, IllegalAction
from . import _buckem_settle as _settle
from . import buckem as _be
from .base import HAND_SIZE, Phase, RestockEvent, check_exact_cards, pack_cards, serve_from_stock, shuffle
from .ids import BE_DRAW, BE_FOLD, BE_STAY, BE_SWAP, card_choices, interned, subset_ids

# Phases as module constants: an enum member looked up on its class costs ~60 ns a time.
_DRAW: Final = Phase.DRAW
_STAY_FOLD: Final = Phase.STAY_FOLD

if TYPE_CHECKING:
    from .buckem import BuckEmDeal, BuckEmGame


def _removed_mode(game: BuckEmGame) -> bool:
    return game._options.short_handed_trump is _be.ShortHandedTrump.REMOVED_CARD


def validate_deal(game: BuckEmGame, deal: BuckEmDeal) -> None:
    if len(deal.hands) != game._n:
        raise DealError(f"the deal has {len(deal.hands)} hands for {game._n} seats")
    for s, h in enumerate(deal.hands):
        if len(h) != HAND_SIZE:
            raise DealError(f"seat {s} must get {HAND_SIZE} cards, not {len(h)}")
    what = f"deal (the {len(game._pack)}-card pack)"
    if _removed_mode(game):
        if deal.upcard not in game._removed:
            raise DealError(f"the upcard {deal.upcard.code} must be one of the removed cards")
        parts = [(f"hand of seat {s}", h) for s, h in enumerate(deal.hands)] + [("stock", deal.stock)]
    else:
        parts = [(f"hand of seat {s}", h) for s, h in enumerate(deal.hands)]
        parts += [("upcard", (deal.upcard,)), ("stock", deal.stock)]
    check_exact_cards(parts, game._pack, what)
    if game._options.scare_cards:
        if deal.scare is None or len(deal.scare) != game._n:
            raise DealError(f"with scare cards the deal needs one scare card per seat ({game._n})")
        for s, c in enumerate(deal.scare):
            if c not in deal.hands[s]:
                raise DealError(f"the scare card {c.code} of seat {s} is not in that seat's hand")
    for i, r in enumerate(deal.restock or ()):
        if len(set(r)) != len(r) or any(c not in game._pack for c in r):
            raise DealError(f"restock {i} lists a card twice or a card not in the pack")


def random_deal(game: BuckEmGame) -> BuckEmDeal:
    cards = pack_cards(game._pack)
    shuffle(game._rng, cards)
    n = game._n
    dealt = HAND_SIZE * n
    hands: list[tuple[Card, ...]] = [()] * n
    for i in range(n):  # one at a time from eldest (DEF #1): every n-th card
        hands[(game._dealer + 1 + i) % n] = tuple(cards[i:dealt:n])
    if _removed_mode(game):
        upcard = game._rng.choice(sorted(game._removed))
        rest = cards[dealt:]
    else:
        upcard = cards[dealt]
        rest = cards[dealt + 1 :]
    scare = None
    if game._options.scare_cards:
        k = game._options.scare_position - 1
        scare = tuple(h[k] for h in hands)
    return _be.BuckEmDeal(tuple(hands), upcard, tuple(rest), scare)


def _scared_in(game: BuckEmGame, seat: int) -> bool:
    c = game._scare[seat]
    return c is not None and c.suit is game._trump


def _can_swap(game: BuckEmGame, seat: int) -> bool:
    if not game._swap_on or game._upcard is None or game._trump is None:
        return False
    deuce = Card(Rank.TWO, game._trump)
    if game._upcard.rank is Rank.ACE:
        return False  # the trump ace is locked in (S3, DEF #54)
    return bool(game._dealt[seat] & deuce.mask) and bool(game._hands[seat] & deuce.mask)


def legal_in_phase(game: BuckEmGame, seat: int) -> list[Action]:
    if game._phase is _STAY_FOLD:
        acts: list[Action] = [interned(BuckStay, seat)]
        if _can_swap(game, seat):
            acts.append(interned(BuckStay, seat, True))
        if not _scared_in(game, seat):
            acts.append(interned(Fold, seat))
        return acts
    return list(card_choices(Draw, seat, game._hands[seat], 0, _be.MAX_DRAW))  # (kept: built once per hand)


def legal_ids_in_phase(game: BuckEmGame, seat: int) -> list[int] | None:
    # The ids of exactly what _legal_in_phase lists, ascending.
    if game._phase is _STAY_FOLD:
        ids = [BE_STAY]
        if _can_swap(game, seat):
            ids.append(BE_SWAP)
        if not _scared_in(game, seat):
            ids.append(BE_FOLD)
        return ids
    return subset_ids(BE_DRAW, game._hands[seat].bit_count(), 0, _be.MAX_DRAW)  # every 0-3 cards


def check_action(game: BuckEmGame, action: Action) -> None:
    seat = action.seat
    if isinstance(action, Fold):
        if _scared_in(game, seat):
            c = game._scare[seat]
            assert c is not None
            raise IllegalAction(f"{action}: seat {seat}'s scare card {c.code} is a trump, so it must stay")
    elif isinstance(action, BuckStay):
        if action.swap and not _can_swap(game, seat):
            if not game._swap_on:
                raise IllegalAction(f"{action}: the deuce swap is not in play")
            if game._upcard is not None and game._upcard.rank is Rank.ACE:
                raise IllegalAction(f"{action}: the upcard is the ace of trump and cannot be swapped")
            raise IllegalAction(f"{action}: only a player dealt the 2 of trump may swap")
    elif isinstance(action, Draw):
        if len(action.cards) > _be.MAX_DRAW:
            raise IllegalAction(f"{action}: a player draws at most {_be.MAX_DRAW} cards")
        if len(set(action.cards)) != len(action.cards):
            raise IllegalAction(f"{action}: a card is listed twice")
        for c in action.cards:
            if not game._hands[seat] & c.mask:
                raise IllegalAction(f"{action}: seat {seat} does not hold {c.code}")
        _plan_draw(game, action, None)


# ------------------------------------------------------------------ apply
def do_action(game: BuckEmGame, action: Action) -> None:
    seat = action.seat
    if isinstance(action, BuckStay):
        game._decisions[seat] = True
        if action.swap:
            assert game._trump is not None and game._upcard is not None
            deuce = Card(Rank.TWO, game._trump)
            game._hands[seat] = (game._hands[seat] & ~deuce.mask) | game._upcard.mask
            game._upcard = deuce
            game._swapped = seat
        _next_decision(game)
    elif isinstance(action, Fold):
        game._decisions[seat] = False
        game._folded_pool.extend(game.hand(seat))
        game._hands[seat] = 0
        _next_decision(game)
    elif isinstance(action, Draw):
        _do_draw(game, action)


def _next_decision(game: BuckEmGame) -> None:
    game._index += 1
    if game._index < len(game._order):
        game._turn = game._order[game._index]
        return
    stayers = game.stayers
    if not stayers:
        _settle.void_round(game, "nobody stayed: the pot carries over (S3, DEF #48)")
    elif len(stayers) == 1:
        _settle.lone_stayer(game, stayers[0])
    else:
        game._order = tuple(s for s in game._order if game._decisions[s])
        game._index = 0
        game._phase = _DRAW
        game._turn = game._order[0]


def _plan_draw(
    game: BuckEmGame, action: Draw, rng: random.Random | None
) -> tuple[
    list[Card], list[Card], list[tuple[Card, ...]], list[Card], list[Card], list[tuple[Card, ...]] | None
]:
    folded = list(game._folded_pool)
    discards = list(game._discards)

    def take_pool() -> list[Card]:
        # DEF #50: the folded hands first (S3), then the unused discards of
        # the stayers already served, never the current player's.
        if folded:
            pool = list(folded)
            folded.clear()
        else:
            pool = list(discards)
            discards.clear()
        return pool

    received, stock, formed, queue = serve_from_stock(
        len(action.cards), game._stock, take_pool, game._restock_queue, rng, len(game._restocks)
    )
    discards.extend(action.cards)
    return received, stock, formed, folded, discards, queue


def _do_draw(game: BuckEmGame, action: Draw) -> None:
    received, stock, formed, folded, discards, queue = _plan_draw(game, action, game._rng)
    seat = action.seat
    hand = game._hands[seat]
    for c in action.cards:
        hand &= ~c.mask
    for c in received:
        hand |= c.mask
    game._hands[seat] = hand
    game._stock, game._folded_pool, game._discards = stock, folded, discards
    game._restock_queue = queue
    for f in formed:
        game._restocks.append(f)
        game._events.append(RestockEvent(game._hand_no, f))
    game._index += 1
    if game._index < len(game._order):
        game._turn = game._order[game._index]
        return
    assert game._trump is not None
    # The first stayer left of the dealer leads (S3, DEF #60).
    game._start_play(game._trump, game._order, game._order[0])
