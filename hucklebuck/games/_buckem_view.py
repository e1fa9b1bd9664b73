"""What a Buck 'Em seat or an onlooker sees beyond the common view: others' draws as
counts, decisions hidden until everyone has declared, the swapped upcard, the dealt hand
sizes while declaring is simultaneous, and the cards a raker showed (DEF #85, #88).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..actions import Draw, Fold
from ..cards import Card, CardSet, Rank
from .base import Phase

if TYPE_CHECKING:
    from .buckem import BuckEmGame

_STAY_FOLD: Final = Phase.STAY_FOLD
MAX_DRAW: Final = 3
_DRAW_TEXT: Final = tuple(tuple(f"{s} draw {k} cards" for k in range(MAX_DRAW + 1)) for s in range(8))
"""How another seat's draw of k cards shows in a history."""


def view(game: BuckEmGame, seat: int | None) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The history ``seat`` (``None``: an onlooker) may read, and the game's own fields of
    its observation."""
    options = game._options
    hidden = options.simultaneous_declare and game._phase is _STAY_FOLD
    history, private = game._public_history()
    decisions: list[tuple[int, str]] = []
    if private:
        texts = list(history)
        acts = game._actions
        for i in private:
            a = acts[i]
            kind = type(a)
            if kind is Draw:
                if a.seat != seat:  # others' draws show only as a count
                    texts[i] = _DRAW_TEXT[a.seat][len(a.cards)]  # type: ignore[union-attr]
            elif hidden and a.seat != seat:  # simultaneous declare: not yet revealed
                texts[i] = f"{a.seat} declared"
            else:
                word = "fold" if kind is Fold else "stay swap" if a.swap else "stay"  # type: ignore[union-attr]
                decisions.append((a.seat, word))
        history = tuple(texts)
    assert game._trump is not None and game._upcard is not None
    upcard = game._upcard
    swapped_upcard = None
    if game._swapped is not None and game._deal is not None:
        if hidden and game._swapped != seat:
            upcard = game._deal.upcard
        else:
            swapped_upcard = game._deal.upcard
    return history, {
        "upcard": upcard,
        "swapped_upcard": swapped_upcard,
        "scare": tuple(game._scare),
        "decisions": tuple(decisions),
        "bankrolls": tuple(game._bankrolls),
        "pot": game._pot,
        "pot_units": game._units,
        "stock_size": len(game._stock),
        "rake_shown": rake_shown(game),
    }


def hand_sizes(game: BuckEmGame, seat: int | None) -> tuple[int, ...]:
    """Every hand's size as ``seat`` may know it: under simultaneous declaring a fold
    empties a hand, so until everyone has declared, others see every hand at its dealt
    size (DEF #85)."""
    sizes = [h.bit_count() for h in game._hands]
    if game._options.simultaneous_declare and game._phase is _STAY_FOLD:
        for s in game._decisions:
            if s != seat:
                sizes[s] = game._dealt[s].bit_count()
    return tuple(sizes)


def rake_shown(game: BuckEmGame) -> tuple[Card, ...]:
    """The cards the raker of the round just ended showed (DEF #88)."""
    results = game._results
    if not results or game._phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        return ()
    from .buckem import RakeHand

    last = results[-1]
    if last.hand != game._hand_no or last.raked is None or game._trump is None:
        return ()
    seat, trump = last.raked, game._trump
    judged = game._dealt[seat] if game._options.rake_hand is RakeHand.AS_DEALT else game._hands[seat]
    trumps = [c for c in CardSet.from_mask(judged) if c.suit is trump]
    aces = [c for c in trumps if c.rank is Rank.ACE]
    return tuple(aces or trumps)


def card_zones(game: BuckEmGame) -> dict[str, CardSet]:
    """Where every card of the game's pack is (see :meth:`BuckEmGame.card_zones`)."""
    upcard = game._upcard
    up = CardSet([upcard]) if upcard is not None and upcard in game._pack else CardSet()
    return game._common_zones() | {
        "upcard": up,
        "stock": CardSet(game._stock),
        "folded": CardSet(game._folded_pool),
        "discards": CardSet(game._discards),
    }
