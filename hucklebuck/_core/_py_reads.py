"""What the cards the other seats played say about a sampled deal (twin of
``hb_search_reads`` in ``csrc/hb_search_reads.c``): the same numbers and refusals."""

from __future__ import annotations

from dataclasses import dataclass

from ._py_eval import _Rules
from ._py_search import PLAY, SearchPosition, _duck_card
from ._py_search_check import SearchError, check_pos

__all__ = ["E_READ", "Read", "reads"]

E_GAME, E_LEN, E_MODE, E_READ = -1, -4, -11, -19
FULL52 = (1 << 52) - 1


@dataclass(frozen=True)
class Read:
    """One card another seat played this hand: the seat, the card, the cards of its
    trick before it (leader first), the cards the seat played after it, and the chance
    that such a seat plays the card the policy would."""

    seat: int
    card: int
    trick: tuple[int, ...]
    later: int
    match: float


def reads(p: SearchPosition, deals: list[list[int]], plays: list[Read]) -> list[float]:
    """The likelihood of ``plays`` on each deal (8 hand masks each): a card the playout policy
    (a ducking Deer Park seat: the ducking policy) would play from the seat's hand then counts
    its read's ``match``, another of its L legal cards ``(1 - match) / (L - 1)``, a forced card 1."""
    if not 0 <= p.game <= 2:
        raise SearchError(E_GAME)
    if not 0 <= p.trump <= 3 or p.phase != PLAY:
        raise SearchError(E_MODE)
    r = _Rules(p.game, p.trump)
    check_pos(p, r)
    if len(deals) > 1 << 22 or len(plays) > 64:
        raise SearchError(E_LEN)
    for d in plays:
        if (
            not 0 <= d.seat < p.nseats
            or not 0 <= d.card <= 51
            or len(d.trick) > 7
            or d.later & ~FULL52
            or d.later >> d.card & 1
            or any(not 0 <= c <= 51 for c in d.trick)
            or not 0.0 < float(d.match) < 1.0  # NaN too
        ):
            raise SearchError(E_READ)
    if any(len(deal) != 8 or any(m & ~FULL52 or m < 0 for m in deal) for deal in deals):
        raise SearchError(E_READ)
    ducks = p.flags >> 8 & 0xFF
    out = []
    for deal in deals:
        w = 1.0
        for d in plays:
            hand = deal[d.seat] | d.later | 1 << d.card
            trick = list(d.trick)
            n = r.legal(hand, trick[0] if trick else -1).bit_count()
            if n <= 1:
                continue
            duck = p.game == 2 and ducks >> d.seat & 1
            c = _duck_card(r, hand, trick) if duck else r.policy(hand, trick)
            w *= d.match if c == d.card else (1.0 - d.match) / (n - 1)
        out.append(w)
    return out
