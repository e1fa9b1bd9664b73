"""Hand evaluation: a perfect-information solver, Monte Carlo trick
distributions, per-game advice, and bulk simulation.

Each function makes one call into the active core per batch of work (a whole
solve, all the samples of an evaluation, all the hands of a simulation), so the
C core runs it with the GIL released.  The bulk functions split their work
into seeded chunks (:mod:`hucklebuck.parallel`): ``workers=N`` alone makes N
near-equal chunks run on N threads, ``chunk_size=C`` makes chunks of C, and
``executor=`` runs the chunks on any :class:`concurrent.futures.Executor`
(a process pool, a Dask cluster's ``client.get_executor()``); ``progress``
is called after each chunk.  Results are reproducible: the same inputs,
``seed`` and chunking give the same answer on either core and on any executor
(the random source is specified in :mod:`hucklebuck._core._py_eval`).

Every argument is checked before any work starts, the same way on both cores
(one set of checks above both cores): a suit is a :class:`~hucklebuck.cards.Suit` or
its letter ``"C"``, ``"D"``, ``"H"``, ``"S"``; a hand is a
:class:`~hucklebuck.cards.CardSet` or an iterable of cards; seats and counts
are ints (not bools or floats).  A wrong value or a wrong type raises a
:class:`~hucklebuck.errors.HucklebuckError` whose message starts with the
argument's name; only a wrong call signature raises Python's ``TypeError``.

>>> from hucklebuck import Suit, parse_cards
>>> solve("hucklebuck", Suit.SPADES, [parse_cards("AS KS"), parse_cards("AH KH")], leader=1, seat=0)
2
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass

from . import _fast
from . import _validate as v
from ._core import get_core
from ._core._py_eval import SplitMix64
from ._mc import MAX_NODES, Method, evaluate_counts, pack_table
from ._mc import cards_of as _cards
from ._simulate import simulate_buckem, simulate_deerpark, simulate_hucklebuck
from .cards import Card, CardSet, Rank, Suit
from .errors import OptionsError
from .packs import GameKind
from .parallel import Progress

__all__ = [
    "BuckEmAdvice",
    "BuckEmSimStats",
    "DeerParkAdvice",
    "DeerParkSimStats",
    "HucklebuckAdvice",
    "HucklebuckSimStats",
    "SplitMix64",
    "TrickDistribution",
    "buckem_advice",
    "deerpark_advice",
    "evaluate_hand",
    "hucklebuck_advice",
    "rake_qualifies",
    "simulate_buckem",
    "simulate_deerpark",
    "simulate_hucklebuck",
    "solve",
]


def _time_limit(value: object, name: str, args: dict[str, object]) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1e9:
        raise OptionsError(f"{name} must be a positive number of seconds or None, not {v.shown(value)}")
    return float(value)


# The compiled solve and evaluate (hucklebuck._fast): on the C core each answers a plain,
# valid call in C and returns None for anything else, which then takes the checked path.
_c_solve: Callable[[object, object, object, object, object], int | None] | None = None
_c_evaluate: Callable[..., TrickDistribution | None] | None = None


def solve(
    game: GameKind | str,
    trump: Suit | str,
    hands: Sequence[Iterable[Card] | CardSet],
    *,
    leader: int,
    seat: int,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> int:
    """The most remaining tricks ``seat`` can be sure of when every card is open
    and all other players play against it.

    ``hands`` has one entry per seat (2-8 seats; an empty hand marks a seat not
    in play); the seats in play hold the same number of cards (1-5).

    ``node_limit`` caps the search at that many nodes (cards tried; both cores
    count them alike, so a budget ends a solve at the same point on either) and
    ``time_limit`` at about that many seconds; past either it raises
    :class:`~hucklebuck.errors.SolveBudgetExceeded`.  Without them a solve is
    unbounded (see the worst cases measured in the evaluation docs).  Ctrl-C
    stops a solve within milliseconds on either core.
    """
    if _c_solve is not None and node_limit is None and time_limit is None:
        found = _c_solve(game, trump, hands, leader, seat)
        if found is not None:
            return found
    return _solve_checked(
        game, trump, hands, leader=leader, seat=seat, node_limit=node_limit, time_limit=time_limit
    )


@v.checked(
    v.solve_seats,
    game=v.GAME,
    trump=v.SUIT,
    hands=v.seat_hands,
    node_limit=v.optional(v.int_in(1, MAX_NODES)),
    time_limit=_time_limit,
)
def _solve_checked(
    game: GameKind | str,
    trump: Suit | str,
    hands: Sequence[Iterable[Card] | CardSet],
    *,
    leader: int,
    seat: int,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> int:
    """:func:`solve` with every argument checked, on the selected core."""
    kind = GameKind.coerce(game)
    masks = [_cards(h, f"hand of seat {i}").mask for i, h in enumerate(hands)]
    return get_core().solve(kind.core_id, int(trump), masks, leader, seat, node_limit or 0, time_limit)


@dataclass(frozen=True)
class TrickDistribution:
    """How many tricks a seat took over the samples of an evaluation."""

    counts: tuple[int, ...]
    """counts[t] = samples in which the seat took t tricks (t = 0..5)."""
    samples: int

    @property
    def probabilities(self) -> tuple[float, ...]:
        """P(0) ... P(5)."""
        return tuple(c / self.samples for c in self.counts) if self.samples else (0.0,) * 6

    @property
    def mean(self) -> float:
        """Expected tricks."""
        return sum(t * c for t, c in enumerate(self.counts)) / self.samples if self.samples else 0.0

    @property
    def stderr(self) -> float:
        """Standard error of :attr:`mean`."""
        if self.samples < 2:
            return 0.0
        m = self.mean
        var = sum(c * (t - m) ** 2 for t, c in enumerate(self.counts)) / (self.samples - 1)
        return math.sqrt(var / self.samples)

    def at_least(self, k: int) -> float:
        """P(tricks >= k): 1.0 for any ``k <= 0`` (when there are samples), 0.0 above 5."""
        k = v.integer(k, "k", -(1 << 63), 1 << 63)
        return sum(self.counts[max(k, 0) :]) / self.samples if self.samples else 0.0

    def stderr_of(self, p: float) -> float:
        """Standard error of a probability ``p`` estimated from these samples."""
        return math.sqrt(p * (1 - p) / self.samples) if self.samples else 0.0


def _link_calls() -> None:
    """Give :func:`solve` and :func:`evaluate_hand` the compiled one-call functions
    (see :mod:`hucklebuck._fast`)."""
    global _c_solve, _c_evaluate
    if _fast.ext is not None:
        _fast.ext.link_evaluate(TrickDistribution, pack_table())
        _c_solve = _fast.ext.solve
        _c_evaluate = _fast.ext.evaluate


_link_calls()


def evaluate_hand(
    game: GameKind | str,
    trump: Suit | str,
    hand: Iterable[Card] | CardSet,
    *,
    players: int,
    seat: int = 0,
    leader: int = 0,
    seen: Iterable[Card] = (),
    in_play: Sequence[int] | None = None,
    samples: int = 10_000,
    seed: int = 0,
    method: Method = "playout",
    workers: int = 1,
    short_handed: bool = False,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    progress: Progress | None = None,
    node_limit: int | None = None,
) -> TrickDistribution:
    """The distribution of tricks ``hand`` takes for ``seat``.

    The cards ``seat`` cannot see (the game's pack less ``hand`` and ``seen``)
    are dealt at random to the other seats in play (``in_play``, default all),
    and the hand is played out ``samples`` times, either by the fast playout
    policy or by the solver (every seat then plays perfectly against ``seat``).
    ``workers``, ``chunk_size``, ``executor`` and ``progress`` split the
    samples into seeded chunks (see :mod:`hucklebuck.parallel`).
    With ``method="solver"``, ``node_limit`` caps each sample's solve as in
    :func:`solve` (:class:`~hucklebuck.errors.SolveBudgetExceeded` past it).
    """
    if _c_evaluate is not None:
        found = _c_evaluate(
            game, trump, hand, players, seat, leader, seen, in_play, samples, seed, method, workers,
            short_handed, executor, chunk_size, progress, node_limit,
        )  # fmt: skip
        if found is not None:
            return found
    counts, total = evaluate_counts(
        game, trump, hand, players=players, seat=seat, leader=leader, seen=seen, in_play=in_play,
        samples=samples, seed=seed, method=method, workers=workers, short_handed=short_handed,
        executor=executor, chunk_size=chunk_size, progress=progress, node_limit=node_limit,
    )  # fmt: skip
    return TrickDistribution(counts, total)


# -------------------------------------------------------------------- advice
@dataclass(frozen=True)
class HucklebuckAdvice:
    """Advice for a Hucklebuck hand (5 cards, every seat assumed to stay)."""

    expected_by_trump: dict[Suit, float]
    """Expected tricks as the bidder (leading) for each trump suit."""
    best_trump: Suit
    bid: int | None
    """The highest bid made at least half the time with the best trump (None: pass)."""
    stay: bool
    """As a non-bidder with ``trump``: whether staying beats dropping on average."""
    stay_value: float
    """Expected score of staying (+t, or -5 for no trick)."""
    exchange: int
    """Suggested exchange count: the cards that are neither trumps nor A, K, Q."""


@v.checked(
    hand=v.HAND,
    players=v.players_of(GameKind.HUCKLEBUCK),
    trump=v.optional(v.SUIT),
    samples=v.SAMPLES,
    seed=v.SEED,
    workers=v.WORKERS,
    method=v.one_of("playout", "solver"),
)
def hucklebuck_advice(
    hand: Iterable[Card] | CardSet,
    *,
    players: int,
    trump: Suit | str | None = None,
    samples: int = 4000,
    seed: int = 0,
    workers: int = 1,
    method: Method = "playout",
) -> HucklebuckAdvice:
    """Trump choice, bid, and stay/drop advice from Monte Carlo deals, played
    out by ``method`` as in :func:`evaluate_hand`.

    ``trump`` is the named trump for the stay/drop question (default: the best
    suit for this hand).
    """
    own = _cards(hand, "hand")
    dists = {
        s: evaluate_hand(
            "hucklebuck",
            s,
            own,
            players=players,
            seat=0,
            leader=0,
            samples=samples,
            seed=seed,
            workers=workers,
            method=method,
        )
        for s in Suit
    }
    expected = {s: d.mean for s, d in dists.items()}
    best = max(Suit, key=lambda s: (expected[s], s))
    bid = next((b for b in (5, 4, 3, 2) if dists[best].at_least(b) >= 0.5), None)
    named = best if trump is None else trump
    as_other = evaluate_hand(
        "hucklebuck",
        named,
        own,
        players=players,
        seat=0,
        leader=1,
        samples=samples,
        seed=(seed + 1) & v.MAX_SEED,
        workers=workers,
        method=method,
    )
    value = as_other.mean - 5 * as_other.probabilities[0]
    exchange = sum(1 for c in own if c.suit is not named and c.rank < Rank.QUEEN)
    return HucklebuckAdvice(expected, best, bid, value > 0, value, exchange)


@v.checked(hand=v.HAND, trump=v.SUIT)
def rake_qualifies(hand: Iterable[Card] | CardSet, trump: Suit | str) -> bool:
    """Buck 'Em's rake test (S3, DEF #43): the trump ace, or two trumps with a trump K, Q or J."""
    trumps = [c for c in _cards(hand, "hand") if c.suit is trump]
    if any(c.rank is Rank.ACE for c in trumps):
        return True
    return len(trumps) >= 2 and any(c.rank in (Rank.KING, Rank.QUEEN, Rank.JACK) for c in trumps)


@dataclass(frozen=True)
class BuckEmAdvice:
    """Advice for a Buck 'Em hand."""

    p_two_or_more: float
    """P(taking 2+ tricks): a share of the pot."""
    p_burned: float
    """P(taking 0 or 1 trick): matching the pot."""
    stay: bool
    rakes_alone: bool
    """Whether this hand would rake the pot as the only stayer."""


@v.checked(
    v.upcard_apart,
    hand=v.HAND,
    upcard=v.CARD,
    players=v.players_of(GameKind.BUCKEM),
    seat=v.seat_of(),
    dealer=v.seat_of(),
    stayers=v.optional(v.seats_of()),
    samples=v.SAMPLES,
    seed=v.SEED,
    workers=v.WORKERS,
    method=v.one_of("playout", "solver"),
    short_handed=v.BOOL,
)
def buckem_advice(
    hand: Iterable[Card] | CardSet,
    upcard: Card,
    *,
    players: int,
    seat: int = 1,
    dealer: int = 0,
    stayers: Sequence[int] | None = None,
    samples: int = 4000,
    seed: int = 0,
    workers: int = 1,
    method: Method = "playout",
    short_handed: bool = False,
) -> BuckEmAdvice:
    """Stay/fold advice: the chances of 2+ tricks and of being burned if
    ``stayers`` (default: everyone) play (by ``method``, as in
    :func:`evaluate_hand`), and the rake test."""
    own = _cards(hand, "hand")
    seats = sorted(set(stayers) | {seat}) if stayers is not None else list(range(players))
    leader = next(s for s in ((dealer + 1 + i) % players for i in range(players)) if s in seats)
    d = evaluate_hand(
        "buckem",
        upcard.suit,
        own,
        players=players,
        seat=seat,
        leader=leader,
        seen=[upcard],
        in_play=seats,
        samples=samples,
        seed=seed,
        workers=workers,
        method=method,
        short_handed=short_handed,
    )
    p2 = d.at_least(2)
    return BuckEmAdvice(p2, 1 - p2, p2 >= 0.5, rake_qualifies(own, upcard.suit))


@dataclass(frozen=True)
class DeerParkAdvice:
    """Advice for calling trump in Deer Park Euchre."""

    p_make_three: dict[Suit, float]
    """Per suit, P(taking 3+ tricks): a voluntary call succeeds."""
    p_make_two: dict[Suit, float]
    """Per suit, P(taking 2+ tricks): the stuck dealer's requirement."""
    best_call: Suit
    call: bool
    """Whether calling the best suit succeeds at least half the time."""


@v.checked(
    hand=v.HAND,
    players=v.players_of(GameKind.DEERPARK),
    seat=v.seat_of(),
    dealer=v.seat_of(),
    seen=v.HAND,
    samples=v.SAMPLES,
    seed=v.SEED,
    workers=v.WORKERS,
    method=v.one_of("playout", "solver"),
)
def deerpark_advice(
    hand: Iterable[Card] | CardSet,
    *,
    players: int,
    seat: int = 1,
    dealer: int = 0,
    seen: Iterable[Card] = (),
    samples: int = 4000,
    seed: int = 0,
    workers: int = 1,
    method: Method = "playout",
) -> DeerParkAdvice:
    """P(meeting 3) for each suit one could call and P(meeting 2) for a stuck
    dealer (played out by ``method``, as in :func:`evaluate_hand`)."""
    own = _cards(hand, "hand")
    leader = (dealer + 1) % players
    dists = {
        s: evaluate_hand(
            "deerpark",
            s,
            own,
            players=players,
            seat=seat,
            leader=leader,
            seen=seen,
            samples=samples,
            seed=seed,
            workers=workers,
            method=method,
        )
        for s in Suit
    }
    three = {s: d.at_least(3) for s, d in dists.items()}
    two = {s: d.at_least(2) for s, d in dists.items()}
    best = max(Suit, key=lambda s: (three[s], s))
    return DeerParkAdvice(three, two, best, three[best] >= 0.5)


# --------------------------------------------------------------- simulation
@dataclass(frozen=True)
class HucklebuckSimStats:
    """Totals over simulated Hucklebuck hands (policy in :mod:`hucklebuck._core._py_sim`)."""

    hands: int
    all_pass: int
    lone_bidder: int
    played: int
    stayers: int
    """Players in played hands, bidders included (divide by ``played`` for the average)."""
    restocks: int
    """Times the stock ran out and was re-formed (DEF #18)."""
    stayer_zero: int
    """Non-bidders who stayed and took no trick (-5 each)."""
    made: dict[int, int]
    """Per bid (2..5), hands where the bidder made it."""
    set: dict[int, int]
    """Per bid (2..5), hands where the bidder was set."""

    def make_rate(self, bid: int) -> float:
        """How often a bid of ``bid`` was made."""
        n = self.made[bid] + self.set[bid]
        return self.made[bid] / n if n else 0.0


@dataclass(frozen=True)
class DeerParkSimStats:
    """Totals over simulated Deer Park Euchre hands (policy in :mod:`hucklebuck._core._py_sim`)."""

    hands: int
    club_turnups: int
    ordered: int
    """Round-one order-ups."""
    called: int
    """Round-two calls by a player other than the dealer."""
    stuck: int
    """Stuck dealers."""
    voluntary_made: int
    voluntary_set: int
    forced_made: int
    """Makers needing 2 (turned club or stuck dealer) who took 2+."""
    forced_set: int
    defenders_without_trick: int

    @property
    def voluntary_set_rate(self) -> float:
        """How often a voluntary maker was set."""
        n = self.voluntary_made + self.voluntary_set
        return self.voluntary_set / n if n else 0.0

    @property
    def forced_set_rate(self) -> float:
        """How often a maker needing 2 was set."""
        n = self.forced_made + self.forced_set
        return self.forced_set / n if n else 0.0


@dataclass(frozen=True)
class BuckEmSimStats:
    """Totals over a simulated Buck 'Em session (policy in :mod:`hucklebuck._core._py_sim`)."""

    hands: int
    no_stayers: int
    raked: int
    lone_without_rake: int
    played: int
    one_winner: int
    two_winners: int
    no_winner: int
    burned: int
    """Players burned, summed over hands."""
    stayers: int
    restocks: int
    chips_won: int
    chips_burned: int
    final_pot: int

    @property
    def carried(self) -> int:
        """Rounds whose pot carried untaken (no stayers, an unqualified lone stayer, no winner)."""
        return self.no_stayers + self.lone_without_rake + self.no_winner
