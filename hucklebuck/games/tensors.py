"""Observation tensors: what one seat may know, as a flat ``list[float]`` of fixed length.

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

from typing import TYPE_CHECKING, Any, Final

from ..actions import BuckStay, Discard, Draw, Fold, Pass, Play
from ..packs import GameKind
from .base import Phase

if TYPE_CHECKING:
    from .buckem import BuckEmGame
    from .deerpark import DeerParkGame
    from .engine import TrickGame
    from .hucklebuck import HucklebuckGame

__all__ = ["Layout", "layout", "observation_tensor"]

_PHASES: Final = {p: i for i, p in enumerate(Phase)}
_PHASE_AT: Final = {id(p): i for i, p in enumerate(Phase)}  # ints hash faster than enum members


class Layout:
    """The blocks of one game's tensor for ``n`` players: name -> (offset, length)."""

    __slots__ = (
        "at",
        "blocks",
        "dealer",
        "leader",
        "n",
        "phase",
        "played",
        "rot",
        "rot52",
        "size",
        "standings",
        "to_act",
        "trick",
        "tricks_won",
        "trump",
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

    def offset(self, name: str) -> int:
        """Where block ``name`` starts."""
        return self.blocks[name][0]


_LAYOUTS: dict[tuple[GameKind, int], Layout] = {}


def layout(kind: GameKind, n: int) -> Layout:
    """The (shared) layout of ``kind`` with ``n`` players."""
    key = (kind, n)
    lay = _LAYOUTS.get(key)
    if lay is None:
        lay = _LAYOUTS[key] = Layout(kind, n)
    return lay


def _set_mask(t: list[float], off: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        t[off + low.bit_length() - 1] = 1.0
        mask ^= low


def observation_tensor(game: TrickGame[Any, Any], seat: int) -> list[float]:
    """The tensor of ``seat`` (already checked) in ``game``; see the module docstring."""
    kind = game.kind
    lay = _LAYOUTS.get((kind, game._n)) or layout(kind, game._n)
    rot = lay.rot[seat]
    t = [0.0] * lay.size
    mask = game._hands[seat]
    while mask:
        low = mask & -mask
        t[low.bit_length() - 1] = 1.0
        mask ^= low
    play = game._play
    phase = game._phase
    to_act = game._turn
    if play is not None:
        rot52 = lay.rot52[seat]
        off = lay.played
        for s, cards in enumerate(play.played):
            base = off + rot52[s]
            for i in cards:
                t[base + i] = 1.0
        current = play.current
        if current:
            off = lay.trick
            for s, c in zip(play.seats, current, strict=False):
                t[off + rot52[s] + c._index] = 1.0
        if phase is Phase.PLAY:
            t[lay.leader + rot[play.leader]] = 1.0
            to_act = play.seats[len(current)]
        off = lay.tricks_won
        for s, w in enumerate(play.won):
            if w:
                t[off + rot[s]] = float(w)
    if to_act is not None and phase is not Phase.HAND_OVER and phase is not Phase.GAME_OVER:
        t[lay.to_act + rot[to_act]] = 1.0
    t[lay.dealer + rot[game._dealer]] = 1.0  # type: ignore[attr-defined]
    trump = game._trump  # type: ignore[attr-defined]
    if trump is not None:
        t[lay.trump + trump] = 1.0
    t[lay.phase + _PHASE_AT[id(phase)]] = 1.0
    off = lay.standings
    for s, v in enumerate(game._bankrolls if kind is GameKind.BUCKEM else game._scores):  # type: ignore[attr-defined]
        if v:
            t[off + rot[s]] = float(v)
    if kind is GameKind.DEERPARK:
        _deerpark(game, seat, t, lay)  # type: ignore[arg-type]
    elif kind is GameKind.HUCKLEBUCK:
        _hucklebuck(game, seat, t, lay)  # type: ignore[arg-type]
    else:
        _buckem(game, seat, t, lay)  # type: ignore[arg-type]
    return t


def _deerpark(game: DeerParkGame, seat: int, t: list[float], lay: Layout) -> None:
    n = lay.n
    at = lay.at
    rot = lay.rot[seat]
    if game._turned is not None:
        t[at["turned"] + game._turned._index] = 1.0
    if game._maker is not None:
        t[at["maker"] + rot[game._maker]] = 1.0
    if game._requirement is not None:
        t[at["requirement"] + (0 if game._requirement == 2 else 1)] = 1.0
    off = at["locked"]
    opts = game._options
    lock_at, ever, scores = opts.lock_at, game._ever_locked, game._scores
    if opts.lock_permanent:
        for s in range(n):
            if scores[s] >= lock_at or ever[s]:
                t[off + rot[s]] = 1.0
    else:
        for s in range(n):
            if scores[s] >= lock_at:
                t[off + rot[s]] = 1.0
    passes = 0
    for a in game._actions:
        kind = type(a)
        if kind is Play:
            break
        if kind is Pass:
            t[at["passed_order" if passes < n else "passed_call"] + rot[a.seat]] = 1.0
            passes += 1
        elif kind is Discard and a.seat == seat:  # only the dealer discards, and sees it
            t[at["own_discard"] + a.cards[0]._index] = 1.0  # type: ignore[union-attr]


def _hucklebuck(game: HucklebuckGame, seat: int, t: list[float], lay: Layout) -> None:
    n = lay.n
    b = lay.blocks
    if game._bidder is not None:
        t[b["bidder"][0] + (game._bidder - seat) % n] = 1.0
    if game._high is not None:
        t[b["bid"][0] + game._high - 2] = 1.0
    off_p, off_o = b["passed"][0], b["out"][0]
    for s in range(n):
        r = (s - seat) % n
        if game._passed[s]:
            t[off_p + r] = 1.0
        if game._out[s]:
            t[off_o + r] = 1.0
    off = b["declared"][0]
    for s, k in game._declared.items():
        t[off + ((s - seat) % n) * 7 + (0 if k is None else 1 + k)] = 1.0
    off = b["own_discard"][0]
    for a in game._actions:
        if isinstance(a, Play):
            break
        if isinstance(a, Discard) and a.seat == seat:
            for c in a.cards:
                t[off + c._index] = 1.0
    t[b["stock_size"][0]] = float(len(game._stock))


def _buckem(game: BuckEmGame, seat: int, t: list[float], lay: Layout) -> None:
    n = lay.n
    b = lay.blocks
    hidden = game._options.simultaneous_declare and game._phase is Phase.STAY_FOLD
    upcard = game._upcard
    if hidden and game._swapped is not None and game._swapped != seat and game._deal is not None:
        upcard = game._deal.upcard
    if upcard is not None:
        t[b["upcard"][0] + upcard._index] = 1.0
    off = b["scare"][0]
    for s, c in enumerate(game._scare):
        if c is not None:
            t[off + ((s - seat) % n) * 52 + c._index] = 1.0
    off_d, off_drew, off_cnt, off_own = (
        b["decisions"][0],
        b["drew"][0],
        b["draw_count"][0],
        b["own_discard"][0],
    )
    for a in game._actions:
        if isinstance(a, Play):
            break
        r = (a.seat - seat) % n
        if isinstance(a, (BuckStay, Fold)):
            if hidden and a.seat != seat:
                continue
            col = 2 if isinstance(a, Fold) else (1 if a.swap else 0)
            t[off_d + r * 3 + col] = 1.0
        elif isinstance(a, Draw):
            t[off_drew + r] = 1.0
            t[off_cnt + r] = float(len(a.cards))
            if a.seat == seat:
                for c in a.cards:
                    t[off_own + c._index] = 1.0
    t[b["pot"][0]] = float(game._pot)
    t[b["pot_units"][0]] = float(game._units)
    t[b["stock_size"][0]] = float(len(game._stock))
