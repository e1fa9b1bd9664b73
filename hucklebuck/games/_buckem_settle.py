"""Settling a Buck 'Em round: the rake when one player stays, the payouts and
burns after play, or a void round; then the round's result (S3; DEF #36-#48,
#62, #64).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ..cards import Card, CardSet, Rank, Suit
from . import buckem as _be
from .base import HandOverEvent, Phase, ScoreEvent

# Phases as module constants: an enum member looked up on its class costs ~60 ns a time.
_HAND_OVER: Final = Phase.HAND_OVER

if TYPE_CHECKING:
    from .buckem import BuckEmGame


def _rake_qualifies(hand: Sequence[Card], trump: Suit) -> bool:
    """S3, DEF #43: the ace of trump, or two trumps at least one of them K, Q or J."""
    trumps = [c for c in hand if c.suit is trump]
    if any(c.rank is Rank.ACE for c in trumps):
        return True
    return len(trumps) >= 2 and any(c.rank in (Rank.KING, Rank.QUEEN, Rank.JACK) for c in trumps)


def void_round(game: BuckEmGame, reason: str, seat: int | None = None) -> None:
    """No play: the pot carries; the next round antes unless the option says not.
    ``seat``: the player the reason is about (default: the dealer, for the round)."""
    game._ante_due = game._options.after_void_round_ante
    _close_round(
        game, raked=None, winners=(), burned=(), payouts=[0] * game._n, reason=reason, reason_seat=seat
    )


def lone_stayer(game: BuckEmGame, seat: int) -> None:
    assert game._trump is not None
    as_dealt = game._options.rake_hand is _be.RakeHand.AS_DEALT
    hand = list(CardSet.from_mask(game._dealt[seat] if as_dealt else game._hands[seat]))
    if not _rake_qualifies(hand, game._trump):
        void_round(game, "stayed alone without the rake cards: no play, the pot carries (S3, DEF #47)", seat)
        return
    pot = game._pot
    single = game._units <= 1
    if single:
        take = pot
    elif game._options.rake_rounding is _be.RakeRounding.CEIL:
        take = (pot + 1) // 2
    else:
        take = pot // 2
    payouts = [0] * game._n
    payouts[seat] = take
    game._bankrolls[seat] += take
    game._delta[seat] += take
    game._pot -= take
    if game._pot > 0:
        game._units = 1  # a rake leftover counts as single (DEF #46); no ante next (S3)
        game._ante_due = False
    else:
        game._units = 0
        game._ante_due = True
    # named by the pot's units (DEF #41), not by the take: half of a double pot of 1, rounded up, is all of it
    kind = "all of a single pot" if single else "half of a double pot"
    game._events.append(ScoreEvent(game._hand_no, seat, take, f"rakes {take}, {kind} (S3, DEF #41-#46)"))
    _close_round(game, raked=seat, winners=(seat,), burned=(), payouts=payouts, reason="")


def hand_played(game: BuckEmGame) -> None:
    assert game._play is not None
    opts = game._options
    won = game._play.won
    stayers = game.stayers
    pot = game._pot
    winners = tuple(s for s in stayers if won[s] >= 2)
    burned = tuple(s for s in stayers if won[s] <= 1)
    payouts = [0] * game._n
    if len(winners) == 1:
        payouts[winners[0]] = pot
    elif len(winners) == 2:
        a, b = winners
        if opts.split is _be.Split.PROPORTIONAL:
            total = won[a] + won[b]
            payouts[a] = pot * won[a] // total
            payouts[b] = pot * won[b] // total
        else:
            half = pot // 2
            payouts[a] = payouts[b] = half
            if pot % 2:
                odd_to: int | None = None
                if opts.odd_chip is _be.OddChip.BUCKUP and won[a] != won[b]:
                    odd_to = a if won[a] > won[b] else b
                elif opts.odd_chip is _be.OddChip.FIRST_LEFT_OF_DEALER:
                    odd_to = min(winners, key=lambda s: (s - game._dealer - 1) % game._n)
                if odd_to is not None:
                    payouts[odd_to] += 1
    paid = sum(payouts)
    for s in winners:
        game._bankrolls[s] += payouts[s]
        game._delta[s] += payouts[s]
        game._events.append(
            ScoreEvent(game._hand_no, s, payouts[s], f"took {won[s]} tricks: wins {payouts[s]} (S3)")
        )
    carry = pot - paid
    # Carried money keeps its units only if nobody won it (DEF #39, #41).
    carry_units = game._units if not winners else 0
    match = pot if opts.pot_limit is None else min(pot, opts.pot_limit)
    for s in burned:
        took = f"{won[s]} trick" + ("" if won[s] == 1 else "s")
        game._bankrolls[s] -= match
        game._delta[s] -= match
        game._events.append(
            ScoreEvent(game._hand_no, s, -match, f"took {took}: burned, pays {match} (S3, DEF #36)")
        )
    game._pot = carry + match * len(burned)
    game._units = carry_units + len(burned)
    game._ante_due = not burned  # a burn round has no ante (S3, DEF #64)
    _close_round(game, raked=None, winners=winners, burned=burned, payouts=payouts, reason="")


def _close_round(
    game: BuckEmGame,
    *,
    raked: int | None,
    winners: tuple[int, ...],
    burned: tuple[int, ...],
    payouts: list[int],
    reason: str,
    reason_seat: int | None = None,
) -> None:
    assert game._trump is not None
    if reason:
        seat = game._dealer if reason_seat is None else reason_seat
        game._events.append(ScoreEvent(game._hand_no, seat, 0, reason))
    if game._pot == 0:
        game._units = 0
    game._events.append(HandOverEvent(game._hand_no, tuple(game._bankrolls), ()))
    play = game._play
    game._results = game._results.plus(
        _be.BuckEmHandResult(
            hand=game._hand_no,
            dealer=game._dealer,
            trump=game._trump,
            stayers=game.stayers,
            raked=raked,
            winners=winners,
            burned=burned,
            tricks=tuple(play.tricks) if play else (),
            tricks_won=tuple(play.won) if play else (0,) * game._n,
            payouts=tuple(payouts),
            delta=tuple(game._delta),
            bankrolls=tuple(game._bankrolls),
            pot=game._pot,
            pot_units=game._units,
            ante_due=game._ante_due,
            restock=tuple(game._restocks),
            reasons=(reason,),
        ),
    )
    game._turn = None
    game._phase = _HAND_OVER
    game._dealer = (game._dealer + 1) % game._n  # the deal rotates clockwise (S3)
