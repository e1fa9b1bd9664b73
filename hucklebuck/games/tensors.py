"""Observation tensors: what one seat may know, as a flat float32 array of fixed length.

A tensor is an :class:`array.array` of type code ``"f"`` (single precision, as
OpenSpiel's and most learning libraries' tensors): indexing and iterating give
Python floats, ``tensor.tolist()`` a list, and NumPy views it without a copy
(``numpy.frombuffer(tensor, dtype=numpy.float32)``).  Counts and scores are
exact up to 2**24 (16,777,216), beyond which single precision rounds them (a
Buck 'Em pot without a ``pot_limit`` can grow that large).

The length depends on the game and the player count ``n`` only (not on the
options or the phase); :meth:`~hucklebuck.games.engine.TrickGame.observation_tensor_shape`
gives it as a one-element tuple.  Seats are *relative* to the observing seat:
position ``p`` of an ``n``-long block is seat ``(seat + p) % n``, so position
0 is always the observer.  Cards are 52-long blocks indexed by card number
(``suit * 13 + rank - 2``, whatever the game's pack).  Flags are 1.0 or 0.0;
counts and scores are raw numbers.  The tensor holds the same facts as
:meth:`observation` and never a card the seat may not see: other hands, the
stock, the kitty below the turned card, others' discards.

Blocks, in order (common to all games):

==================  ========  ==============================================
block               length    meaning
==================  ========  ==============================================
hand                52        the observer's cards
played              n x 52    cards played this hand, completed tricks and
                              the trick in progress, by the seat that played
trick               n x 52    the trick in progress, by seat
leader              n         who leads the trick in progress (play phase)
to_act              n         whose turn it is (all zero when nobody acts)
dealer              n         the dealer (once a hand is over: the next one)
trump               4         clubs, diamonds, hearts, spades, once known
phase               12        one flag per :class:`~hucklebuck.games.Phase`,
                              in declaration order
tricks_won          n         tricks each seat has taken this hand
standings           n         scores (bankrolls in Buck 'Em)
==================  ========  ==============================================

Then Hucklebuck: ``bidder`` (n), ``bid`` (4: bid 2, 3, 4, 5), ``passed`` (n:
passed in this auction), ``out`` (n), ``declared`` (n x 7 per seat: dropped,
stayed to exchange 0..5), ``own_discard`` (52: the cards this seat discarded
in the exchange), ``stock_size`` (1).

Buck 'Em: ``upcard`` (52, as this seat sees it), ``scare`` (n x 52, the face-up
scare cards), ``decisions`` (n x 3: stayed, stayed and swapped, folded, as far as
this seat may see them under ``simultaneous_declare``), ``drew`` (n: has drawn),
``draw_count`` (n: cards each seat drew), ``own_discard`` (52), ``pot`` (1),
``pot_units`` (1), ``stock_size`` (1).

Deer Park Euchre: ``turned`` (52: the turned card, public), ``maker`` (n),
``requirement`` (2: the maker needs 2, needs 3), ``locked`` (n: may not call
trump, the lock rule), ``passed_order`` (n: passed in round 1), ``passed_call``
(n: passed in round 2), ``own_discard`` (52: the dealer's own discard, seen by
the dealer only).
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any, Final

from .. import _validate as v
from ..actions import BuckStay, Discard, Draw, Fold, Pass, Play
from ..errors import PlayerCountError
from ..packs import GameKind, player_range
from .base import Phase

if TYPE_CHECKING:
    from .engine import TrickGame

__all__ = ["Layout", "layout", "observation_tensor"]

# zip() without strict= below: the keyword costs about 0.2 µs per call, and every
# zipped pair has equal lengths (or, for the trick, stops at the shorter on purpose).
_PHASES: Final = {p: i for i, p in enumerate(Phase)}
_FLOATS: Final = tuple(float(i) for i in range(64))
"""Small counts as floats (indexing a tuple is cheaper than calling float)."""
#: The largest single-precision float: a Buck 'Em pot above it is shown as this value, not inf.
_F32_MAX: Final = 3.4028234663852886e38
_PLAY: Final = Phase.PLAY
_HAND_OVER: Final = Phase.HAND_OVER
_GAME_OVER: Final = Phase.GAME_OVER
_STAY_FOLD: Final = Phase.STAY_FOLD
_DEERPARK: Final = GameKind.DEERPARK
_HUCKLEBUCK: Final = GameKind.HUCKLEBUCK
_BUCKEM: Final = GameKind.BUCKEM

# Blocks with one entry (or one row of ``width``) per seat, seen from the observer.
_PER_SEAT: Final = {
    "played": 52,
    "trick": 52,
    "leader": 1,
    "to_act": 1,
    "dealer": 1,
    "tricks_won": 1,
    "standings": 1,
    "bidder": 1,
    "passed": 1,
    "out": 1,
    "declared": 7,
    "scare": 52,
    "decisions": 3,
    "drew": 1,
    "draw_count": 1,
    "maker": 1,
    "locked": 1,
    "passed_order": 1,
    "passed_call": 1,
}
_COMMON_SEAT_BLOCKS: Final = ("played", "trick", "leader", "to_act", "dealer", "tricks_won", "standings")
_FIXED_BLOCKS: Final = {
    GameKind.DEERPARK: ("turned", "requirement", "own_discard"),
    GameKind.HUCKLEBUCK: ("bid", "own_discard", "stock_size"),
    GameKind.BUCKEM: ("upcard", "own_discard", "pot", "pot_units", "stock_size"),
}
_EXTRA_SEAT_BLOCKS: Final = {
    GameKind.DEERPARK: ("maker", "locked", "passed_order", "passed_call"),
    GameKind.HUCKLEBUCK: ("bidder", "passed", "out", "declared"),
    GameKind.BUCKEM: ("scare", "decisions", "drew", "draw_count"),
}


class Layout:
    """The blocks of one game's tensor for ``n`` players: name -> (offset, length).

    Besides the offsets it holds, per observing seat, where each seat's entry of
    every per-seat block lies (:attr:`views`), so building a tensor adds no
    rotation arithmetic.
    """

    __slots__ = (
        "at",
        "blocks",
        "dealer",
        "leader",
        "n",
        "phase",
        "phase_at",
        "played",
        "rot",
        "rot52",
        "size",
        "standings",
        "to_act",
        "trick",
        "tricks_won",
        "trump",
        "views",
        "zeros",
    )

    def __init__(self, kind: GameKind, n: int) -> None:
        self.n = n
        spec: list[tuple[str, int]] = [
            ("hand", 52),
            ("played", n * 52),
            ("trick", n * 52),
            ("leader", n),
            ("to_act", n),
            ("dealer", n),
            ("trump", 4),
            ("phase", len(_PHASES)),
            ("tricks_won", n),
            ("standings", n),
        ]
        if kind is GameKind.HUCKLEBUCK:
            spec += [
                ("bidder", n),
                ("bid", 4),
                ("passed", n),
                ("out", n),
                ("declared", n * 7),
                ("own_discard", 52),
                ("stock_size", 1),
            ]
        elif kind is GameKind.BUCKEM:
            spec += [
                ("upcard", 52),
                ("scare", n * 52),
                ("decisions", n * 3),
                ("drew", n),
                ("draw_count", n),
                ("own_discard", 52),
                ("pot", 1),
                ("pot_units", 1),
                ("stock_size", 1),
            ]
        else:
            spec += [
                ("turned", 52),
                ("maker", n),
                ("requirement", 2),
                ("locked", n),
                ("passed_order", n),
                ("passed_call", n),
                ("own_discard", 52),
            ]
        self.blocks: dict[str, tuple[int, int]] = {}
        off = 0
        for name, size in spec:
            self.blocks[name] = (off, size)
            off += size
        self.size = off
        self.zeros = bytes(4 * off)
        """A zero tensor's bytes (a new tensor is one memory copy of them)."""
        self.played = self.offset("played")
        self.trick = self.offset("trick")
        self.leader = self.offset("leader")
        self.to_act = self.offset("to_act")
        self.dealer = self.offset("dealer")
        self.trump = self.offset("trump")
        self.phase = self.offset("phase")
        self.tricks_won = self.offset("tricks_won")
        self.standings = self.offset("standings")
        self.at = {name: off for name, (off, _) in self.blocks.items()}
        """Block name -> offset."""
        self.rot = tuple(tuple((s - seat) % n for s in range(n)) for seat in range(n))
        """``rot[seat][s]``: where seat ``s`` sits in an ``n``-long block seen from ``seat``."""
        self.rot52 = tuple(tuple(52 * r for r in row) for row in self.rot)
        self.phase_at = {id(p): self.phase + i for p, i in _PHASES.items()}
        """``id(phase)`` -> the index of its flag (ints hash faster than enum members)."""
        names = _COMMON_SEAT_BLOCKS + _EXTRA_SEAT_BLOCKS[kind]
        fixed = tuple(self.at[name] for name in _FIXED_BLOCKS[kind])
        self.views = tuple(
            (*(tuple(self.at[name] + _PER_SEAT[name] * rot[s] for s in range(n)) for name in names), fixed)
            for rot in self.rot
        )
        """``views[seat][b][s]``: where seat ``s``'s entry (or row) of per-seat block ``b``
        starts, seen from ``seat``, blocks in the order of ``_COMMON_SEAT_BLOCKS`` then
        the game's ``_EXTRA_SEAT_BLOCKS``; last, the offsets of the game's
        ``_FIXED_BLOCKS``."""

    def offset(self, name: str) -> int:
        """Where block ``name`` starts."""
        return self.blocks[name][0]


_LAYOUTS: dict[tuple[GameKind, int], Layout] = {}
_BY_KIND: dict[int, list[Layout | None]] = {id(kind): [None] * 9 for kind in GameKind}
"""``id(kind)`` -> layouts by player count (enum members hash slowly; ints do not)."""


def layout(kind: GameKind | str, n: int) -> Layout:
    """The (shared) layout of ``kind`` (a :class:`~hucklebuck.packs.GameKind` or its name) with ``n`` players.

    An unknown game raises :class:`~hucklebuck.errors.OptionsError`, a player count the
    game does not seat :class:`~hucklebuck.errors.PlayerCountError`.
    """
    lay = _LAYOUTS.get((kind, n)) if type(n) is int else None  # type: ignore[arg-type]  # a name hashes as its kind
    if lay is None:
        kind = v.game(kind, "game")
        lo, hi = player_range(kind)
        most = 8 if kind is GameKind.DEERPARK else hi  # Deer Park seats eight with a variant
        if type(n) is not int or not lo <= n <= most:
            variant = " (8 with a variant)" if most > hi else ""
            raise PlayerCountError(f"{kind.title} is for {lo} to {hi} players{variant}, not {v.shown(n)}")
        lay = _LAYOUTS[(kind, n)] = Layout(kind, n)
        by_n = _BY_KIND[id(kind)]
        if n < len(by_n):
            by_n[n] = lay
    return lay


def observation_tensor(game: TrickGame[Any, Any], seat: int) -> array[float]:
    """The tensor of ``seat`` (already checked) in ``game``; see the module docstring."""
    # One function for the three games: a call per game part would cost more than the
    # part itself.  Names ``x1..x4`` are the game's per-seat blocks (see Layout.views).
    kind = game.kind
    n = game._n
    lay = _BY_KIND[id(kind)][n] or layout(kind, n)
    played_at, trick_at, leader_at, to_act_at, dealer_at, won_at, standing_at, x1, x2, x3, x4, fixed = (
        lay.views[seat]
    )
    t = array("f", lay.zeros)  # one allocation and a copy: no element-by-element set-up
    mask = game._hands[seat]
    while mask:  # highest card first: one operation fewer a card than the lowest-bit trick
        i = mask.bit_length() - 1
        t[i] = 1.0
        mask ^= 1 << i
    play = game._play
    phase = game._phase
    if play is not None:
        for base, cards, pos, w in zip(played_at, play.played, won_at, play.won):  # noqa: B905
            for i in cards:
                t[base + i] = 1.0
            if w:
                t[pos] = _FLOATS[w]
        current = play.current
        if current:
            for s, c in zip(play.seats, current):  # noqa: B905
                t[trick_at[s] + c._index] = 1.0
        if phase is _PLAY:
            t[leader_at[play.leader]] = 1.0
            t[to_act_at[play.seats[len(current)]]] = 1.0
        elif phase is not _HAND_OVER and phase is not _GAME_OVER and game._turn is not None:
            t[to_act_at[game._turn]] = 1.0
    elif phase is not _HAND_OVER and phase is not _GAME_OVER and game._turn is not None:
        t[to_act_at[game._turn]] = 1.0
    t[dealer_at[game._dealer]] = 1.0  # type: ignore[attr-defined]
    trump = game._trump  # type: ignore[attr-defined]
    if trump is not None:
        t[lay.trump + trump] = 1.0
    t[lay.phase_at[id(phase)]] = 1.0
    g: Any = game  # the game-specific state below
    if kind is _DEERPARK:
        # x1..x4: maker, locked, passed_order, passed_call
        turned_off, requirement_off, discard_off = fixed
        scores = g._scores
        lock_at = g._options.lock_at
        for pos, lock_pos, v in zip(standing_at, x2, scores):  # noqa: B905
            if v:
                t[pos] = v + 0.0  # float(v), without the call
            if v >= lock_at:
                t[lock_pos] = 1.0
        if g._options.lock_permanent:
            for lock_pos, ever in zip(x2, g._ever_locked):  # noqa: B905
                if ever:
                    t[lock_pos] = 1.0
        turned = g._turned
        if turned is not None:
            t[turned_off + turned._index] = 1.0
        if g._maker is not None:
            t[x1[g._maker]] = 1.0
        if g._requirement is not None:
            t[requirement_off + (0 if g._requirement == 2 else 1)] = 1.0
        passes = 0
        for a in g._actions:
            cls = type(a)
            if cls is Pass:
                t[(x3 if passes < n else x4)[a.seat]] = 1.0
                passes += 1
            elif cls is Play:
                break
            elif cls is Discard and a.seat == seat:  # only the dealer discards, and sees it
                t[discard_off + a.cards[0]._index] = 1.0
    elif kind is _HUCKLEBUCK:
        # x1..x4: bidder, passed, out, declared
        bid_off, discard_off, stock_off = fixed
        for pos, v in zip(standing_at, g._scores):  # noqa: B905
            if v:
                t[pos] = v + 0.0  # float(v), without the call
        if g._bidder is not None:
            t[x1[g._bidder]] = 1.0
        if g._high is not None:
            t[bid_off + g._high - 2] = 1.0
        passed = g._passed
        if True in passed:
            for pos, flag in zip(x2, passed):  # noqa: B905
                if flag:
                    t[pos] = 1.0
        out = g._out
        if True in out:
            for pos, flag in zip(x3, out):  # noqa: B905
                if flag:
                    t[pos] = 1.0
        for s, k in g._declared.items():
            t[x4[s] + (0 if k is None else 1 + k)] = 1.0
        # The exchange is the last phase before the play and takes only discards, so
        # this hand's discards are the run of actions just before the first play (or,
        # before any play, at the end): walk back over that run, not the whole auction.
        acts = g._actions
        # (every finished trick has a card from each seat in play)
        i = len(acts) - (0 if play is None else len(play.tricks) * len(play.seats) + len(play.current)) - 1
        while i >= 0:
            a = acts[i]
            if type(a) is not Discard:
                break
            if a.seat == seat:
                for c in a.cards:
                    t[discard_off + c._index] = 1.0
            i -= 1
        t[stock_off] = _FLOATS[len(g._stock)]
    else:
        # x1..x4: scare, decisions, drew, draw_count
        upcard_off, discard_off, pot_off, units_off, stock_off = fixed
        for pos, v in zip(standing_at, g._bankrolls):  # noqa: B905
            if v:
                t[pos] = v + 0.0  # float(v), without the call
        hidden = phase is _STAY_FOLD and g._options.simultaneous_declare
        upcard = g._upcard
        if hidden and g._swapped is not None and g._swapped != seat and g._deal is not None:
            upcard = g._deal.upcard
        if upcard is not None:
            t[upcard_off + upcard._index] = 1.0
        scare = g._scare
        if scare.count(None) != len(scare):
            for pos, c in zip(x1, scare):  # noqa: B905
                if c is not None:
                    t[pos + c._index] = 1.0
        for a in g._actions:  # stays, folds and draws, then the plays
            cls = type(a)
            if cls is Draw:
                s = a.seat
                t[x3[s]] = 1.0
                t[x4[s]] = _FLOATS[len(a.cards)]
                if s == seat:
                    for c in a.cards:
                        t[discard_off + c._index] = 1.0
            elif cls is BuckStay:
                if not hidden or a.seat == seat:
                    t[x2[a.seat] + (1 if a.swap else 0)] = 1.0
            elif cls is Fold:
                if not hidden or a.seat == seat:
                    t[x2[a.seat] + 2] = 1.0
            elif cls is Play:
                break
        t[pot_off] = min(g._pot, _F32_MAX) + 0.0  # a pot past single precision's range stays finite
        t[units_off] = g._units + 0.0
        t[stock_off] = _FLOATS[len(g._stock)]
    return t


from ._view_tensor import tensor_of  # noqa: E402  (it reads this module's layouts)

__all__ += ["tensor_of"]
