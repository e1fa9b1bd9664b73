"""Hucklebuck's bidding and exchange phases: the auction, naming trump, staying
or dropping, and the exchange with the stock (S0, S2; DEF #4-#6, #18, #19, #21).

The rules of each phase as functions of a :class:`~hucklebuck.games.hucklebuck.HucklebuckGame`:
which actions are legal, why one is not, and what one does.  The game's hooks
call these; scoring a finished hand is in :mod:`._hucklebuck_scoring`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from ..actions import Action, Bid, Discard, Drop, NameTrump, Pass, Stay
from ..cards import Card, CardSet, Suit
from ..errors import IllegalAction
from . import _hucklebuck_scoring as _scoring
from . import hucklebuck as _hb
from .base import HAND_SIZE, Phase, RestockEvent, serve_from_stock
from .ids import HB_BID, HB_DISCARD, HB_DROP, HB_PASS, HB_STAY, HB_TRUMP, card_choices, interned, subset_ids

# Phases as module constants: an enum member looked up on its class costs ~60 ns a time.
_AUCTION: Final = Phase.AUCTION
_DECLARE: Final = Phase.DECLARE
_EXCHANGE: Final = Phase.EXCHANGE
_TRUMP: Final = Phase.TRUMP

if TYPE_CHECKING:
    from .hucklebuck import HucklebuckGame


def legal_in_phase(game: HucklebuckGame, seat: int) -> list[Action]:
    phase = game._phase
    if phase is _AUCTION:
        acts: list[Action] = []
        if not _dealer_forced(game, seat):
            acts.append(interned(Pass, seat))
        low = 2 if game._high is None else game._high + 1
        acts.extend(interned(Bid, seat, b) for b in range(low, 6))
        return acts
    if phase is _TRUMP:
        return [interned(NameTrump, seat, s) for s in Suit]
    if phase is _DECLARE:
        stays: list[Action] = [interned(Stay, seat, k) for k in range(HAND_SIZE + 1)]
        return stays if seat == game._bidder else [interned(Drop, seat), *stays]
    k = game._declared[seat]
    assert phase is _EXCHANGE and k is not None
    return list(card_choices(Discard, seat, game._hands[seat], k, k))  # (kept: built once per hand)


def legal_ids_in_phase(game: HucklebuckGame, seat: int) -> list[int] | None:
    # The ids of exactly what _legal_in_phase lists, ascending.
    phase = game._phase
    if phase is _AUCTION:
        low = 2 if game._high is None else game._high + 1
        ids = [] if _dealer_forced(game, seat) else [HB_PASS]
        ids.extend(range(HB_BID + low - 2, HB_BID + 4))
        return ids
    if phase is _TRUMP:
        return list(range(HB_TRUMP, HB_TRUMP + 4))
    if phase is _DECLARE:
        stays = range(HB_STAY, HB_STAY + HAND_SIZE + 1)
        return list(stays) if seat == game._bidder else [HB_DROP, *stays]
    k = game._declared[seat]  # the exchange: every choice of k cards
    assert k is not None
    return subset_ids(HB_DISCARD, game._hands[seat].bit_count(), k, k)


def _dealer_forced(game: HucklebuckGame, seat: int) -> bool:
    return (
        game._options.all_pass is _hb.AllPass.DEALER_MUST_BID and seat == game._dealer and game._high is None
    )


def check_action(game: HucklebuckGame, action: Action) -> None:
    if isinstance(action, Pass):
        if _dealer_forced(game, action.seat):
            raise IllegalAction(f"{action}: nobody has bid, so the dealer must bid (dealer_must_bid)")
    elif isinstance(action, Bid):
        low = 2 if game._high is None else game._high + 1
        if action.amount > 5:
            raise IllegalAction(f"{action}: the highest bid is 5 (shooting the moon)")
        if action.amount < low:
            if game._high is None:
                raise IllegalAction(f"{action}: the lowest bid is 2")
            raise IllegalAction(f"{action}: a bid must beat the current bid of {game._high}")
    elif isinstance(action, Stay):
        if not 0 <= action.exchange <= HAND_SIZE:
            raise IllegalAction(f"{action}: a player exchanges 0 to 5 cards")
    elif isinstance(action, Drop):
        if action.seat == game._bidder:
            raise IllegalAction(f"{action}: the bidder cannot drop")
    elif isinstance(action, Discard):
        k = game._declared[action.seat]
        if len(action.cards) != k:
            raise IllegalAction(
                f"{action}: seat {action.seat} said it would exchange {k}, "
                f"so it must discard exactly {k} card(s)"
            )
        if len(set(action.cards)) != len(action.cards):
            raise IllegalAction(f"{action}: a card is discarded twice")
        held = game._hands[action.seat]
        for c in action.cards:
            if not held & c.mask:
                raise IllegalAction(f"{action}: seat {action.seat} does not hold {c.code}")
        _plan_exchange(game, action, None)  # may raise DealError for a wrong restock


# ------------------------------------------------------------------ apply
def do_action(game: HucklebuckGame, action: Action) -> None:
    if isinstance(action, (Bid, Pass)):
        _do_auction(game, action)
    elif isinstance(action, NameTrump):
        _do_trump(game, action)
    elif isinstance(action, (Stay, Drop)):
        _do_declare(game, action)
    elif isinstance(action, Discard):
        _do_exchange(game, action)


def _do_auction(game: HucklebuckGame, action: Bid | Pass) -> None:
    seat = action.seat
    seated = game._seated()
    if isinstance(action, Bid):
        game._high, game._bidder = action.amount, seat
        game._passes_in_row = 0
        if action.amount == 5:  # shooting the moon ends the auction (S2, DEF #32)
            _end_auction(game)
            return
    else:
        game._passed[seat] = True
        game._passes_in_row += 1
    if game._options.auction_reentry:
        if game._high is None and game._passes_in_row >= len(seated):
            _all_passed(game)
            return
        if game._high is not None and game._passes_in_row >= len(seated) - 1:
            _end_auction(game)
            return
        game._turn = game._next_seated(seat)
        return
    live = [s for s in seated if not game._passed[s]]
    if not live:
        _all_passed(game)
        return
    if game._high is not None and live == [game._bidder]:
        _end_auction(game)
        return
    nxt = game._next_seated(seat)
    while game._passed[nxt]:
        nxt = game._next_seated(nxt)
    game._turn = nxt


def _end_auction(game: HucklebuckGame) -> None:
    game._phase = _TRUMP
    game._turn = game._bidder


def _all_passed(game: HucklebuckGame) -> None:
    delta = [0] * game._n
    reasons = [""] * game._n
    delta[game._dealer] = 5
    reasons[game._dealer] = "everyone passed: the dealer scores 5 without play (S0, DEF #4)"
    _scoring.finish_hand(game, delta, reasons, active=(), winner_by_moon=None)


def _do_trump(game: HucklebuckGame, action: NameTrump) -> None:
    game._trump = action.suit
    assert game._bidder is not None
    others = [s for s in game._seated() if s != game._bidder]
    game._decl_order = (*game._clockwise_from(_hb._left(game._bidder, game._n), others), game._bidder)
    game._phase = _DECLARE
    game._turn = game._decl_order[0]


def _do_declare(game: HucklebuckGame, action: Stay | Drop) -> None:
    seat = action.seat
    if isinstance(action, Drop):
        game._declared[seat] = None
        game._set_aside.extend(CardSet.from_mask(game._hands[seat]))
        game._hands[seat] = 0
    else:
        game._declared[seat] = action.exchange
    if seat == game._bidder:  # the bidder declares last (S2)
        _start_exchange(game)
        return
    nxt = game._decl_order[game._decl_order.index(seat) + 1]
    if nxt == game._bidder and all(v is None for v in game._declared.values()):
        _lone_bidder(game)
        return
    game._turn = nxt


def _lone_bidder(game: HucklebuckGame) -> None:
    assert game._bidder is not None
    delta = [0] * game._n
    reasons = [""] * game._n
    moon_win: int | None = None
    if game._high == 5 and game._options.lone_moon_bidder is _hb.LoneMoonBidder.WINS_GAME:
        moon_win = game._bidder
        reasons[game._bidder] = (
            "everyone else dropped against a moon bid: the bidder wins "
            "the game (lone_moon_bidder=wins_game, DEF #6)"
        )
    else:
        reasons[game._bidder] = "everyone else dropped: the bidder scores 5 without play (S2, DEF #5, #6)"
    delta[game._bidder] = 5
    _scoring.finish_hand(game, delta, reasons, active=(), winner_by_moon=moon_win)


def _start_exchange(game: HucklebuckGame) -> None:
    assert game._bidder is not None
    stayers = [s for s, k in game._declared.items() if k is not None]
    if game._options.exchange_order is _hb.ExchangeOrder.BIDDER_LEFT_BIDDER_LAST:
        others = [s for s in stayers if s != game._bidder]
        order = (*game._clockwise_from(_hb._left(game._bidder, game._n), others), game._bidder)
    else:
        order = game._clockwise_from(_hb._left(game._dealer, game._n), stayers)
    game._exch_order = tuple(s for s in order if game._declared[s])
    game._exch_index = 0
    if game._exch_order:
        game._phase = _EXCHANGE
        game._turn = game._exch_order[0]
    else:
        _begin_play(game)


def _plan_exchange(
    game: HucklebuckGame, action: Discard, rng: random.Random | None
) -> tuple[list[Card], list[Card], list[tuple[Card, ...]], list[Card], list[tuple[Card, ...]] | None]:
    """Work out an exchange without changing state.

    Returns (cards received, the stock afterwards, new stocks formed, the
    set-aside pile afterwards, the restock queue afterwards).  With ``rng``
    None nothing is shuffled (used to validate only).
    """
    set_aside = list(game._set_aside)

    def take_pool() -> list[Card]:
        # DEF #18: every card set aside and not used in an earlier new stock,
        # but not the discards of the player being served (not added yet).
        pool = list(set_aside)
        set_aside.clear()
        return pool

    received, stock, formed, queue = serve_from_stock(
        len(action.cards), game._stock, take_pool, game._restock_queue, rng, len(game._restocks)
    )
    set_aside.extend(action.cards)
    return received, stock, formed, set_aside, queue


def _do_exchange(game: HucklebuckGame, action: Discard) -> None:
    received, stock, formed, set_aside, queue = _plan_exchange(game, action, game._rng)
    seat = action.seat
    hand = game._hands[seat]
    for c in action.cards:
        hand &= ~c.mask
    for c in received:
        hand |= c.mask
    game._hands[seat] = hand
    game._stock = stock
    game._set_aside = set_aside
    game._restock_queue = queue
    for f in formed:
        game._restocks.append(f)
        game._events.append(RestockEvent(game._hand_no, f))
    game._exch_index += 1
    if game._exch_index < len(game._exch_order):
        game._turn = game._exch_order[game._exch_index]
    else:
        _begin_play(game)


def _begin_play(game: HucklebuckGame) -> None:
    assert game._bidder is not None and game._trump is not None
    active = [s for s, k in game._declared.items() if k is not None]
    # The bidder leads the first trick (S0, S2, DEF #23).
    game._start_play(game._trump, game._clockwise_from(0, active), game._bidder)
