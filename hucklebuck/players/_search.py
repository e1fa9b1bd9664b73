"""From an observation to the core's search: the position a seat sees, the
candidates of its decision, and one core call for all of them.

Only the observation is read, so the search can never use another seat's
hidden cards.  What the seat has seen is kept out of the sampled cards: its
own hand and own discards, every card played, the turned card (a Deer Park
kitty card nobody may hold unless the dealer picked it up) or the Buck 'Em
upcard, and the scare cards shown.  A seat that failed to follow suit is void
in the led card's effective suit (bowers count as trumps in Deer Park Euchre).

A card seen that may have gone back into play is dealt again, but only to
the seats that can hold it (the position's ``barred`` masks): another seat's
scare card after that seat's draw (it kept it or discarded it), and, once a
stock has been re-formed this hand, the seat's own discards and the scare
cards of seats that folded or drew, to the seats served from a re-formed
stock (see :func:`_redealt_to`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._core import _py_reads, get_core
from .._core import _py_search as pys
from .._core._py_reads import Read
from ..actions import (
    Action,
    Bid,
    BuckStay,
    Call,
    Discard,
    Draw,
    Drop,
    Fold,
    NameTrump,
    Order,
    Pass,
    Play,
    Stay,
)
from ..cards import Card, CardSet, Suit
from ..errors import CoreInputError
from ..games.base import Phase, Trick
from ..games.buckem import BuckEmObservation
from ..games.deerpark import DeerParkObservation
from ..games.hucklebuck import HucklebuckObservation
from ..packs import GameKind, pack
from .heuristics import plays_for_fifty

__all__ = ["build_position", "candidates", "game_of", "run_search", "sample_hands"]

Observation = HucklebuckObservation | DeerParkObservation | BuckEmObservation

_MESSAGES = {
    -13: "no deal of the unseen cards fits the hand sizes and the voids shown",
    -14: "a candidate is not a legal choice in this position",
    -18: "the deals picked are not in increasing order among those drawn",
    -19: "a card read from the table does not fit this position",
}


def game_of(obs: object) -> GameKind:
    """The game an observation belongs to."""
    if isinstance(obs, HucklebuckObservation):
        return GameKind.HUCKLEBUCK
    if isinstance(obs, DeerParkObservation):
        return GameKind.DEERPARK
    if isinstance(obs, BuckEmObservation):
        return GameKind.BUCKEM
    raise TypeError(f"not an observation of a hucklebuck game: {type(obs).__name__}")


def _own_cards(history: Sequence[str], seat: int) -> int:
    """The seat's own discards named in the hand's history."""
    mask = 0
    for entry in history:
        parts = entry.split()
        if len(parts) >= 3 and parts[0] == str(seat) and parts[1] in ("discard", "draw"):
            for code in parts[2:]:
                try:
                    mask |= Card.parse(code).mask
                except ValueError:
                    break
    return mask


def _voids(
    tricks: Sequence[Trick], current: Sequence[Card], current_seats: Sequence[int], suits: bytes
) -> list[int]:
    voids = [0] * 8
    plays = [(t.seats, t.cards) for t in tricks]
    if current:
        plays.append((tuple(current_seats[: len(current)]), tuple(current)))
    for seats, cards in plays:
        lead = suits[cards[0].index]
        for s, c in zip(seats[1:], cards[1:], strict=True):
            if suits[c.index] != lead:
                voids[s] |= 1 << lead
    return voids


def _play_fields(
    pos: pys.SearchPosition, obs: Any, active: Sequence[int], game: GameKind, trump: Suit
) -> int:
    """Fill the play-phase fields; return the mask of cards seen on the table."""
    n = pos.nseats
    suits, _ = get_core().rules(game.core_id, int(trump))
    seen = 0
    for t in obs.tricks:
        for c in t.cards:
            seen |= c.mask
    for c in obs.current_trick:
        seen |= c.mask
    order = [s for s in range(n) if s in active]
    leader = obs.trick_leader if obs.trick_leader is not None else order[0]
    i = order.index(leader)
    in_trick = (order[i:] + order[:i])[: len(obs.current_trick)]
    pos.voids = _voids(obs.tricks, obs.current_trick, in_trick, suits)
    pos.leader = leader
    pos.trick = [c.index for c in obs.current_trick]
    for s in range(n):
        if s in active:
            pos.state[s] = 1
            pos.size[s] = 5 - len(obs.tricks) - (1 if s in in_trick else 0)
            pos.won[s] = obs.tricks_won[s]
    return seen


def build_position(obs: Any) -> pys.SearchPosition:
    """The search position of the seat that observes (its turn, any phase)."""
    game = game_of(obs)
    phase = pys.PHASES[obs.phase.value] if obs.phase.value in pys.PHASES else -1
    if phase < 0:
        raise ValueError(f"no decision to search in phase {obs.phase.value!r}")
    if game is GameKind.BUCKEM:
        n = len(obs.bankrolls)
        the_pack = pack(game, n, short_handed=obs.options.short_handed)
    else:
        n = len(obs.scores)
        the_pack = pack(game, n, eight_players=n == 8)
    me = obs.seat
    pos = pys.SearchPosition(game=game.core_id, phase=phase, nseats=n, seat=me, dealer=obs.dealer)
    hand = obs.hand.mask
    pos.known[me] = hand
    pos.size[me] = len(obs.hand)
    seen = hand | _own_cards(obs.history, me)
    # the seats a re-formed stock served, and the cards seen that may be in play again
    stock = len(the_pack) - 5 * n - (1 if game is GameKind.BUCKEM else 0)
    redealt = _redealt_to(obs.history, stock) if game is not GameKind.DEERPARK else set()
    maybe: list[tuple[int, set[int]]] = []
    trump = obs.trump
    pos.trump = int(trump) if trump is not None else -1
    if game is GameKind.HUCKLEBUCK:
        seen |= _hucklebuck(pos, obs, n)
        for s in range(n):
            pos.stay_min[s] = stay_min(obs.scores[s], obs.options.target)
            pos.win_bid[s] = win_bid(obs, s)
    elif game is GameKind.DEERPARK:
        seen |= _deerpark(pos, obs, n)
    else:
        seen |= _buckem(pos, obs, n, redealt, maybe)
    pos.size[me] = len(obs.hand)
    for s in range(n):
        seen |= pos.known[s]
        if s != me and pos.known[s].bit_count() > pos.size[s]:
            pos.known[s] = 0  # e.g. a scare card discarded in the draw: where it is is unknown
    if redealt and game is not GameKind.DEERPARK:
        maybe.append((_own_cards(obs.history, me), redealt))
    _place_maybe(pos, obs, maybe)
    # a card that may be in play again is in the pool (every seat barred from it: nowhere)
    seen &= ~_maybe_mask(pos, obs, maybe)
    pos.pool = the_pack.mask & ~seen
    return pos


def _redealt_to(history: Sequence[str], stock: int) -> set[int]:
    """The seats served from a re-formed stock this hand (empty: none was re-formed).

    ``stock`` is the stock's size after the deal; every exchange or draw in
    the history takes its number of cards from it (``"S draw N cards"``,
    ``"S discard N cards"``, or the seat's own cards named).  The seat whose
    draw empties it past its end, and every seat served after it, may have
    been given cards set aside this hand (folded hands, discards).
    """
    seats: set[int] = set()
    for entry in history:
        parts = entry.split()
        if len(parts) < 2 or parts[1] not in ("draw", "discard"):
            continue
        k = int(parts[2]) if len(parts) == 4 and parts[3] in ("card", "cards") else len(parts) - 2
        stock -= k
        if stock < 0:
            seats.add(int(parts[0]))
    return seats


def _table_cards(obs: Any) -> int:
    mask = 0
    for t in obs.tricks:
        for c in t.cards:
            mask |= c.mask
    for c in obs.current_trick:
        mask |= c.mask
    return mask


def _maybe_mask(pos: pys.SearchPosition, obs: Any, maybe: Sequence[tuple[int, set[int]]]) -> int:
    """The cards of ``maybe`` that are neither on the table, nor the Buck 'Em upcard, nor known
    to be in a hand."""
    placed = _table_cards(obs)
    upcard = getattr(obs, "upcard", None)
    if upcard is not None:  # after a deuce swap, the deuce (perhaps a scare card): out of play
        placed |= upcard.mask
    for m in pos.known:
        placed |= m
    mask = 0
    for cards, _ in maybe:
        mask |= cards
    return mask & ~placed


def _place_maybe(pos: pys.SearchPosition, obs: Any, maybe: Sequence[tuple[int, set[int]]]) -> None:
    """Bar every seat but those named from each card of ``maybe`` still unplaced (see the
    module docstring)."""
    free = _maybe_mask(pos, obs, maybe)
    for cards, seats in maybe:
        cards &= free
        for s in range(pos.nseats):
            if s != pos.seat and s not in seats:
                pos.barred[s] |= cards


def _hucklebuck(pos: pys.SearchPosition, obs: HucklebuckObservation, n: int) -> int:
    me = obs.seat
    out = set(obs.out)
    pos.high = obs.bid or 0
    pos.bidder = obs.bidder if obs.bidder is not None else -1
    declared = dict(obs.declarations)
    if obs.phase is Phase.PLAY:
        assert obs.trump is not None
        active = [s for s, k in declared.items() if k is not None]
        return _play_fields(pos, obs, active, GameKind.HUCKLEBUCK, obs.trump)
    exchanged = {int(e.split()[0]) for e in obs.history if e.split()[1:2] == ["discard"]}
    passed = _passed_for_good(obs.history, obs.options.auction_reentry)
    for s in range(n):
        if s in out:
            pos.state[s] = 1
            continue
        if obs.phase is Phase.AUCTION:
            pos.state[s] = 1 if s in passed else 0
            pos.size[s] = 5
        elif obs.phase is Phase.TRUMP:
            pos.size[s] = 5
        else:
            k = declared.get(s, 0) if s in declared else 0
            if s in declared and k is None:
                pos.state[s] = 1
                continue
            pos.size[s] = 5
            if s in exchanged:
                pos.state[s] = 2
            elif s in declared:
                pos.state[s] = 3 + (k or 0)
    if obs.phase is Phase.EXCHANGE and me not in exchanged:
        pos.state[me] = 3 + (declared.get(me) or 0)
    return 0


#: The least trick estimate (tenths of a trick) with which the simulated Hucklebuck seats stay, by
#: how far the seat is from the target: (points to go at least, estimate).  Measured from the
#: Monte Carlo player's own stay-or-drop choices in self-play (``mc-blind``, four players, 135 games):
#: below 0 it stays with nearly any hand (64 to 100 % with no estimate at all), and the nearer
#: the target the more it keeps its points, so the estimate where it stays half the time rises.
STAY_MIN: tuple[tuple[int, int], ...] = ((16, 0), (11, 1), (6, 2), (-1000, 4))


def stay_min(score: int, target: int) -> int:
    """The least trick estimate with which the search's simulated seat at ``score`` stays."""
    to_go = target - score
    return next(est for least, est in STAY_MIN if to_go >= least)


def win_bid(obs: HucklebuckObservation, seat: int) -> int:
    """The least bid with which ``seat``, making it, wins the game or reaches the target (0: none).

    A moon made from above 0 (or from 0 where the options say so) wins outright.
    """
    if seat in obs.out:
        return 0
    score = obs.scores[seat]
    least = max(2, obs.options.target - score)
    if least <= 5:
        return least
    if score > 0 or (score == 0 and obs.options.moon_at_zero.value == "win"):
        return 5
    return 0


def _passed_for_good(history: Sequence[str], reentry: bool) -> set[int]:
    """The seats the search takes as out of the Hucklebuck auction.

    Without ``auction_reentry`` a pass is final.  With it, a seat that passed
    before the last bid may bid again (re-entry), so it is still in; the seats
    that passed since the last bid count as out: if nobody bids again the
    auction ends with their passes (after a full circuit without a bid), and
    a seat the simulated bidders would not raise for is not raised for later.
    """
    seats: set[int] = set()
    for entry in history:
        parts = entry.split()
        if parts[1:2] == ["pass"]:
            seats.add(int(parts[0]))
        elif parts[1:2] == ["bid"] and reentry:
            seats.clear()
    return seats


def _deerpark(pos: pys.SearchPosition, obs: DeerParkObservation, n: int) -> int:
    me = obs.seat
    turned = obs.turned
    pos.turned = turned.index
    pos.flags = (1 if obs.options.round2_excludes_turned_suit else 0) | (
        2 if obs.options.first_lead.value == "maker" else 0
    )
    picked = any(e.endswith(" order") for e in obs.history) or (
        turned.suit is Suit.CLUBS and obs.options.club_turnup_pickup
    )
    for s in obs.locked:
        pos.state[s] |= 2
    for s in range(n):  # the seats that play for 50 duck in the play-outs
        if plays_for_fifty(obs.scores, s):
            pos.flags |= 1 << (8 + s)
    seen = turned.mask
    # With eight players there is no kitty: the turned card is the dealer's own last card.
    eight = n == 8
    if obs.phase in (Phase.ORDER, Phase.CALL):
        for s in range(n):
            pos.size[s] = 5
        if eight and obs.dealer != me:
            pos.known[obs.dealer] |= turned.mask
        return seen
    assert obs.trump is not None and obs.maker is not None and obs.requirement is not None
    pos.bidder, pos.high = obs.maker, obs.requirement
    if obs.phase is Phase.DEALER_DISCARD:
        for s in range(n):
            pos.size[s] = 5 if s != me else len(obs.hand)
        return seen
    seen |= _play_fields(pos, obs, list(range(n)), GameKind.DEERPARK, obs.trump)
    dealer = obs.dealer
    if (picked or eight) and dealer != me:
        played = any(turned in t.cards for t in obs.tricks) or turned in obs.current_trick
        suits, _ = get_core().rules(GameKind.DEERPARK.core_id, int(obs.trump))
        void = pos.voids[dealer] >> suits[turned.index] & 1
        if not played and not void:
            pos.known[dealer] |= turned.mask
            seen &= ~turned.mask
    return seen


def _buckem(
    pos: pys.SearchPosition,
    obs: BuckEmObservation,
    n: int,
    redealt: set[int],
    maybe: list[tuple[int, set[int]]],
) -> int:
    me = obs.seat
    trump = obs.trump
    pos.turned = obs.upcard.index
    seen = obs.upcard.mask
    decided = dict(obs.decisions)
    # After a deuce swap the deuce is the upcard (seen, out of play) and the swapper holds
    # the old upcard until its draw; after that it may be in its hand or among its hidden
    # discards, so it is dealt like an unseen card (unless this seat is the swapper).
    drew = {int(e.split()[0]) for e in obs.history if e.split()[1:2] == ["draw"]}
    took = obs.swapped_upcard
    swapper = next((s for s, d in obs.decisions if d == "stay swap"), None)
    if took is not None and (decided.get(me) == "stay swap" or obs.phase is not Phase.PLAY):
        if swapper == me or swapper not in drew:
            seen |= took.mask
    after_draw = swapper in drew or obs.phase is Phase.PLAY
    if took is not None and swapper is not None and swapper != me and after_draw:
        maybe.append((took.mask, redealt | {swapper}))  # in its hand, or discarded and maybe dealt on
    table_seen = 0
    active = [s for s in range(n) if decided.get(s, "").startswith("stay")]
    if obs.phase is Phase.PLAY:
        table_seen = _play_fields(pos, obs, active, GameKind.BUCKEM, trump)
        seen |= table_seen
    for s in range(n):
        d = decided.get(s)
        scare = obs.scare[s] if s < len(obs.scare) else None
        if scare is not None:
            seen |= scare.mask
            if s != me and d == "fold":  # set aside with the folded hand
                maybe.append((scare.mask, redealt))
            elif s != me and (s in drew or obs.phase is Phase.PLAY):  # kept, or discarded
                maybe.append((scare.mask, redealt | {s}))
        if d == "fold":
            pos.state[s] = 0 if obs.phase is Phase.PLAY else 1
            pos.size[s] = 0
            continue
        if obs.phase is Phase.PLAY:
            continue  # after the draw a scare card may have been discarded (see ``maybe``)
        pos.size[s] = 5
        if d is None:
            pos.state[s] = 0
        else:
            pos.state[s] = 4 if s in drew else 2
        if s != me:
            if scare is not None and s not in drew and scare != obs.upcard:  # (a swapped deuce is the upcard)
                pos.known[s] |= scare.mask
                if scare.suit is trump and d is None:
                    pos.state[s] |= 8
            if took is not None and d == "stay swap" and s not in drew:
                pos.known[s] |= took.mask
    for s in range(n):
        if s != me:
            seen &= ~pos.known[s]
    return seen


def candidates(obs: Any) -> tuple[list[Action], list[tuple[int, int]]]:
    """The legal actions and their search encodings (argument, cards)."""
    legal = list(obs.legal_actions)
    out: list[tuple[int, int]] = []
    for a in legal:
        if isinstance(a, Play):
            out.append((0, a.card.mask))
        elif isinstance(a, Bid):
            out.append((a.amount, 0))
        elif isinstance(a, Pass):
            out.append((-1 if obs.phase is Phase.CALL else 0, 0))
        elif isinstance(a, NameTrump | Call):
            out.append((int(a.suit), 0))
        elif isinstance(a, Stay):
            out.append((a.exchange, _weakest(obs.hand, obs.trump, a.exchange)))
        elif isinstance(a, Drop):
            out.append((-1, 0))
        elif isinstance(a, Discard | Draw):
            out.append((0, CardSet(a.cards).mask))
        elif isinstance(a, Order):
            out.append((1, 0))
        elif isinstance(a, BuckStay):
            out.append((2 if a.swap else 1, 0))
        elif isinstance(a, Fold):
            out.append((0, 0))
        else:  # pragma: no cover - every action type of the three games is above
            raise TypeError(f"cannot search action {a!r}")
    return legal, out


def _weakest(hand: CardSet, trump: Suit | None, k: int) -> int:
    ranked = sorted(hand, key=lambda c: (int(c.rank) + (20 if c.suit is trump else 0), c.index))
    return CardSet(ranked[:k]).mask


def _c_pos(ffi: Any, p: pys.SearchPosition) -> Any:
    cp = ffi.new("hb_search_pos *")
    for name in ("game", "phase", "nseats", "seat", "dealer", "trump", "leader", "high", "bidder", "turned"):
        setattr(cp, name, getattr(p, name))
    cp.flags = p.flags
    cp.trick_len = len(p.trick)
    for i in range(8):
        cp.size[i] = p.size[i]
        cp.voids[i] = p.voids[i]
        cp.state[i] = p.state[i]
        cp.won[i] = p.won[i]
        cp.known[i] = p.known[i]
        cp.barred[i] = p.barred[i]
        cp.stay_min[i] = p.stay_min[i]
        cp.win_bid[i] = p.win_bid[i]
    for i, c in enumerate(p.trick[:8]):
        cp.trick[i] = c
    cp.pool = p.pool
    return cp


def _c_module() -> tuple[Any, Any]:
    """The cffi module of the C core, untyped (its search entry points are not in the stub)."""
    from .. import _hbc

    ffi: Any = _hbc.ffi
    lib: Any = _hbc.lib
    return ffi, lib


def _raise(code: int) -> None:
    msg = _MESSAGES.get(code)
    if msg is None:
        from .._core._api import raise_for

        raise_for(code)
    raise CoreInputError(f"search: {msg}")


#: A playout search of up to this many (candidate, sample) records runs in the calling
#: thread (milliseconds); a longer one, and every solver search, where Ctrl-C can stop it.
FAST_RECORDS = 20_000


def run_search(
    p: pys.SearchPosition,
    cands: list[tuple[int, int]],
    seed: int,
    samples: int,
    method: int = pys.PLAYOUT,
    limit: int = 0,
    picks: list[int] | None = None,
    drawn: int = 0,
) -> bytes:
    """Records of every candidate over every sample, from the active core (one call).

    ``method``, ``limit``, ``picks`` and ``drawn`` as in
    :func:`hucklebuck._core._py_search.search`.
    """
    seed &= (1 << 64) - 1
    if picks is None:
        drawn = samples
    elif len(picks) != samples:
        _raise(-18)
    if get_core().name == "c":
        ffi, lib = _c_module()
        cp = _c_pos(ffi, p)
        cc = ffi.new("hb_search_cand[]", len(cands))
        for i, (a, cards) in enumerate(cands):
            cc[i].arg = a
            cc[i].cards = cards
        size = len(cands) * samples * pys.REC
        out = ffi.new("int8_t[]", size)
        from .._core._c import stoppable

        cpicks = ffi.NULL if picks is None else ffi.new("uint32_t[]", picks)

        def call(cancel: Any) -> int:
            n = len(cands)
            return int(
                lib.hb_search_pick(cp, cc, n, seed, drawn, cpicks, samples, method, limit, cancel, out, size)
            )

        # a long search runs where Ctrl-C can stop it (the solver method always)
        rc = stoppable(call, method != pys.PLAYOUT or len(cands) * samples > FAST_RECORDS)
        if rc != 0:
            _raise(rc)
        data: bytes = ffi.buffer(out)[:]
        return data
    try:
        return pys.search(p, cands, seed, samples, method, limit, picks, drawn)
    except pys.SearchError as exc:
        _raise(exc.code)
        raise  # pragma: no cover


def sample_hands(p: pys.SearchPosition, seed: int, samples: int) -> list[list[int]]:
    """The hidden deals the search draws for ``p`` (8 hand masks per sample)."""
    seed &= (1 << 64) - 1
    if get_core().name == "c":
        ffi, lib = _c_module()
        cp = _c_pos(ffi, p)
        out = ffi.new("uint64_t[]", 8 * samples)
        rc = lib.hb_search_sample(cp, seed, samples, out, 8 * samples)
        if rc != 0:
            _raise(rc)
        return [[int(out[8 * k + i]) for i in range(8)] for k in range(samples)]
    try:
        return pys.sample(p, seed, samples)
    except pys.SearchError as exc:
        _raise(exc.code)
        raise  # pragma: no cover


def read_weights(p: pys.SearchPosition, deals: Sequence[Sequence[int]], plays: Sequence[Read]) -> list[float]:
    """The likelihood of the other seats' cards ``plays`` on each deal, from the active core
    (one call; see :func:`hucklebuck._core._py_reads.reads`)."""
    if get_core().name == "c":
        ffi, lib = _c_module()
        cp = _c_pos(ffi, p)
        flat = [m for deal in deals for m in deal]
        if any(len(deal) != 8 for deal in deals):
            _raise(-19)
        cdeals = ffi.new("uint64_t[]", flat) if flat else ffi.NULL
        creads = ffi.new("hb_search_read[]", len(plays)) if plays else ffi.NULL
        for j, d in enumerate(plays):
            creads[j].seat, creads[j].card, creads[j].tlen = d.seat, d.card, len(d.trick)
            for i, c in enumerate(d.trick[:8]):
                creads[j].trick[i] = c
            creads[j].later = d.later
            creads[j].match = d.match
        out = ffi.new("double[]", max(1, len(deals)))
        rc = lib.hb_search_reads(cp, cdeals, len(deals), creads, len(plays), out, len(deals))
        if rc != 0:
            _raise(rc)
        return [float(out[k]) for k in range(len(deals))]
    try:
        return _py_reads.reads(p, [list(d) for d in deals], list(plays))
    except pys.SearchError as exc:
        _raise(exc.code)
        raise  # pragma: no cover
