"""The cheap rule-of-thumb players, one per game (no sampling).

>>> from hucklebuck.games import HucklebuckGame
>>> game = HucklebuckGame(4, seed=1)
>>> action = HucklebuckHeuristic().choose(game.observation(game.to_act))
>>> game.is_legal(action)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from .._core import get_core
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
from ..cards import Card, CardSet, Rank, Suit
from ..games.base import Phase
from ..games.buckem import BuckEmObservation
from ..games.deerpark import DeerParkObservation
from ..games.hucklebuck import HucklebuckObservation
from ..packs import GameKind
from .base import check_observation

__all__ = [
    "EXCHANGE_GAIN",
    "MODEL_MARGIN",
    "BuckEmHeuristic",
    "DeerParkHeuristic",
    "HucklebuckHeuristic",
    "bid_value",
    "estimate_tricks",
    "euchre_strength",
    "hands_to_goal",
    "plays_for_fifty",
]


def estimate_tricks(hand: CardSet, trump: Suit) -> float:
    """A quick estimate of the tricks ``hand`` takes with ``trump`` (Hucklebuck rules).

    Trumps count by rank and length, off-suit aces and guarded kings a little.
    """
    trumps = sorted((c.rank for c in hand if c.suit is trump), reverse=True)
    n = len(trumps)
    est = 0.0
    for i, r in enumerate(trumps):
        if r == Rank.ACE:
            est += 1.0
        elif r == Rank.KING:
            est += 0.85 if n >= 2 else 0.45
        elif r == Rank.QUEEN:
            est += 0.6 if n >= 3 else 0.3
        elif i >= 2:
            est += 0.45  # length: a third or later small trump usually wins something
        else:
            est += 0.15
    for s in Suit:
        if s is trump:
            continue
        ranks = [c.rank for c in hand if c.suit is s]
        if Rank.ACE in ranks:
            est += 0.75
        if Rank.KING in ranks and len(ranks) >= 2:
            est += 0.3
    return est


def _value(card: Card, trump: Suit | None) -> int:
    """How much a card is worth keeping (higher is better)."""
    return int(card.rank) + (20 if card.suit is trump else 0)


def _beats(card: Card, best: Card, trump: Suit) -> bool:
    """Whether ``card`` beats the card now winning (plain Rams rules, no bowers)."""
    if card.suit is trump:
        return best.suit is not trump or card.rank > best.rank
    return card.suit is best.suit and best.suit is not trump and card.rank > best.rank


def _winning_card(cards: Sequence[Card], trump: Suit) -> Card:
    best = cards[0]
    for c in cards[1:]:
        if _beats(c, best, trump):
            best = c
    return best


#: Tricks the bidder expects to gain by naming trump and exchanging (added to :func:`estimate_tricks`).
EXCHANGE_GAIN = 0.4


def bid_value(estimate: float, bid: int) -> float:
    """The expected hand score of bidding ``bid`` with a trick estimate ``estimate``.

    The chance of making the bid grows by 0.45 a trick of margin from even
    odds at ``estimate == bid`` (kept within 2 %-98 %); a made bid scores the
    bid (at least), a set costs 5, a missed moon 15 (S0, S2).
    """
    p = min(0.98, max(0.02, 0.5 + 0.45 * (estimate - bid)))
    if bid == 5:
        return p * 10.0 - (1.0 - p) * 15.0
    return p * bid - (1.0 - p) * 5.0


#: Hucklebuck: how much more chance of winning the model's choice must give to overrule the rule of thumb.
MODEL_MARGIN = 0.05


class HucklebuckHeuristic:
    """A sensible Hucklebuck player.

    Bids when its estimated hand score is positive (:func:`bid_value` of
    :func:`estimate_tricks` with its best suit; a dealer whom everyone passed
    passes too, for the 5 points), unless the game-value model (a table
    look-up of the chance of winning from the score each outcome leads to)
    finds another bid or a pass better by more than :data:`MODEL_MARGIN`
    (near the target, near -25); names that suit, drops hands unlikely to take a trick, exchanges its weak
    cards, wins tricks as cheaply as it can and throws its lowest card otherwise.
    """

    def __init__(self, *, caution: float = 0.0) -> None:
        """``caution`` raises the bar for bidding and staying (try 0.3 for a timid player)."""
        self.caution = caution

    def choose(self, observation: HucklebuckObservation) -> Action:
        """Pick an action for the seat that observes."""
        obs = observation
        check_observation(obs, GameKind.HUCKLEBUCK)
        legal = obs.legal_actions
        if obs.phase is Phase.AUCTION:
            return self._auction(obs, legal)
        if obs.phase is Phase.TRUMP:
            return NameTrump(obs.seat, self._best_suit(obs.hand)[0])
        if obs.phase is Phase.DECLARE:
            return self._declare(obs, legal)
        if obs.phase is Phase.EXCHANGE:
            k = len(legal[0].cards) if isinstance(legal[0], Discard) else 0
            worst = sorted(obs.hand, key=lambda c: _value(c, obs.trump))[:k]
            return Discard(obs.seat, tuple(worst))
        return self._play(obs, legal)

    @staticmethod
    def _best_suit(hand: CardSet) -> tuple[Suit, float]:
        return max(((s, estimate_tricks(hand, s)) for s in Suit), key=lambda p: (p[1], p[0]))

    def _auction(self, obs: HucklebuckObservation, legal: tuple[Action, ...]) -> Action:
        _, est = self._best_suit(obs.hand)
        est += EXCHANGE_GAIN - self.caution  # the bidder names trump and exchanges its weak cards
        bids = [a for a in legal if isinstance(a, Bid)]
        can_pass = any(isinstance(a, Pass) for a in legal)
        nobody_bid = obs.bid is None
        last = obs.seat == obs.dealer and nobody_bid
        # When everyone else has passed, passing too gives the dealer 5 (S0, DEF #4).
        dealer_five = last and can_pass and obs.options.all_pass.value == "dealer_scores_5"
        if not bids:
            return Pass(obs.seat)
        # Each choice scored by the game-value model: the chance of winning the game from
        # the score it leads to (others' scores as they are), a table look-up.
        win = self._win_chance(obs)
        stacks = obs.options.bidder_zero_trick_penalty_stacks
        pass_points = 5.0 if dealer_five else 0.0
        rule: Action | None = None  # the rule of thumb: the lowest bid worth more than passing
        for b in bids:
            if bid_value(est, b.amount) > pass_points:
                rule = b
                break
        if rule is None:
            rule = Pass(obs.seat) if can_pass else bids[0]
        # The game-value model (a table look-up): each choice's chance of winning the game
        # from the score it leads to, others' scores as they are.  Where it differs from the
        # rule by more than MODEL_MARGIN (near the target, near -25) the model decides.
        values: dict[Action, float] = {}
        if can_pass:
            values[Pass(obs.seat)] = win(5 if dealer_five else 0)
        for b in bids:
            p = min(0.98, max(0.02, 0.5 + 0.45 * (est - b.amount)))
            made = 1.0 if (b.amount == 5 and obs.scores[obs.seat] > 0) else win(b.amount)
            values[b] = p * made + (1.0 - p) * win(-15 if b.amount == 5 else -5 - (2 if stacks else 0))
        best = max(values, key=lambda a: values[a])  # first of equals: pass, then the lowest bid
        if values[best] > values.get(rule, -1.0) + MODEL_MARGIN:
            return best
        return rule

    @staticmethod
    def _win_chance(obs: HucklebuckObservation) -> Callable[[int], float]:
        from .value import win_probabilities

        scores, me, out, target = list(obs.scores), obs.seat, obs.out, obs.options.target

        def win(delta: int) -> float:
            new = list(scores)
            new[me] += delta
            if new[me] >= target:
                return 1.0
            if new[me] <= -25:
                return 0.0
            return win_probabilities(GameKind.HUCKLEBUCK, new, out=out, target=target)[me]

        return win

    def _declare(self, obs: HucklebuckObservation, legal: tuple[Action, ...]) -> Action:
        assert obs.trump is not None
        trump = obs.trump
        keep = [
            c
            for c in obs.hand
            if c.suit is trump
            or c.rank == Rank.ACE
            or (c.rank == Rank.KING and len(obs.hand.of_suit(c.suit)) >= 2)
        ]
        exchange = len(obs.hand) - len(keep)
        if obs.seat == obs.bidder:
            return Stay(obs.seat, exchange)
        est = estimate_tricks(obs.hand, trump)
        # Staying risks -5 for no trick; more stayers make a trick harder to get.
        threshold = 0.8 + self.caution
        if est >= threshold or (keep and exchange >= 3 and est >= 0.6):
            return Stay(obs.seat, exchange)
        return Drop(obs.seat) if any(isinstance(a, Drop) for a in legal) else Stay(obs.seat, exchange)

    def _play(self, obs: HucklebuckObservation, legal: tuple[Action, ...]) -> Action:
        assert obs.trump is not None
        trump = obs.trump
        cards = [a.card for a in legal if isinstance(a, Play)]
        if not obs.current_trick:
            trumps = [c for c in cards if c.suit is trump]
            if obs.seat == obs.bidder and len(trumps) >= 2:
                return Play(obs.seat, max(trumps, key=lambda c: c.rank))
            off_aces = [c for c in cards if c.rank == Rank.ACE and c.suit is not trump]
            if off_aces:
                return Play(obs.seat, off_aces[0])
            return Play(obs.seat, max(cards, key=lambda c: _value(c, trump)))
        best = _winning_card(obs.current_trick, trump)
        winners = [c for c in cards if _beats(c, best, trump)]
        if winners:
            return Play(obs.seat, min(winners, key=lambda c: _value(c, trump)))
        return Play(obs.seat, min(cards, key=lambda c: _value(c, trump)))


def _tables(trump: Suit) -> tuple[bytes, bytes]:
    """Deer Park Euchre's effective suits and strengths for ``trump`` (one core call per core and trump)."""
    return _core_tables(get_core().name, trump)


@lru_cache(maxsize=8)
def _core_tables(core_name: str, trump: Suit) -> tuple[bytes, bytes]:
    """Keyed by the active core's name, so each core's own tables are used."""
    return get_core().rules(GameKind.DEERPARK.core_id, int(trump))


_PlayTables = tuple[bytes, tuple[int, ...], tuple[tuple[int, ...], ...]]
_PLAY_TABLES: dict[tuple[type, Suit], _PlayTables] = {}
_LAST_PLAY_TABLES: tuple[object, Suit, _PlayTables] | None = None


def _play_tables(trump: Suit) -> _PlayTables:
    """The Deer Park player's tables for ``trump`` under the active core: each card's
    effective suit, its strength (``trump << 5 | rank``), and per suit led its trick
    key (the strength with ``16`` added for the suit led), all by card number."""
    global _LAST_PLAY_TABLES
    core = get_core()
    last = _LAST_PLAY_TABLES
    if last is not None and last[0] is core and last[1] is trump:
        return last[2]
    key = (type(core), trump)
    hit = _PLAY_TABLES.get(key)
    if hit is None:
        suits, ranks = _core_tables(core.name, trump)
        strength = tuple(((suits[i] == trump) << 5) | ranks[i] for i in range(52))
        by_lead = tuple(
            tuple(strength[i] | ((suits[i] == lead) << 4) for i in range(52)) for lead in range(4)
        )
        hit = _PLAY_TABLES[key] = (suits, strength, by_lead)
    _LAST_PLAY_TABLES = (core, trump, hit)  # one tuple: replaced whole, so safe across threads
    return hit


_TRUMP_VALUE = {14: 1.0, 13: 0.85, 12: 0.75, 11: 0.55, 10: 0.45}


def euchre_strength(hand: CardSet, trump: Suit) -> float:
    """Expected tricks of ``hand`` with ``trump`` in Deer Park Euchre, bowers included."""
    suits, ranks = _tables(trump)
    est = 0.0
    for c in hand:
        if suits[c.index] == trump:
            est += _TRUMP_VALUE.get(ranks[c.index], 0.35)
        elif c.rank == Rank.ACE:
            est += 0.5
    return est


def hands_to_goal(score: int, *, low_rate: float = 1.3, high_rate: float = 5.0) -> tuple[float, float]:
    """Deer Park Euchre: about how many hands a player at ``score`` needs to reach 0 and 50.

    Playing for 0 a player loses about ``low_rate`` points a hand (a trick or
    two taken); playing for 50 it gains ``high_rate`` (5 for taking no trick).
    """
    return max(score, 0) / low_rate, max(50 - score, 0) / high_rate


def plays_for_fifty(scores: Sequence[int], seat: int) -> bool:
    """Deer Park Euchre: whether ``seat`` plays this hand for 50 rather than 0.

    A table look-up in the game-value model (:func:`hucklebuck.players.value.goes_high`):
    at each score, the goal a seat reaches in fewer hands on average at this
    table size, from the measured outcomes of hands played for each goal.
    """
    return _plays_for_fifty(len(scores), scores[seat])


@lru_cache(maxsize=1024)
def _plays_for_fifty(players: int, score: int) -> bool:
    from .value import goes_high

    return goes_high(players, score)


class DeerParkHeuristic:
    """A sensible Deer Park Euchre player.

    Each hand it picks the goal the game-value model says it reaches in fewer
    hands at its score and table size (:func:`plays_for_fifty`, a table
    look-up).  Playing for 0 it
    calls on trump strength (bowers count most), discards its weakest card and
    wins tricks as cheaply as it can; playing for 50 it makes trump in its
    weakest suit when that suit looks good for fewer than three tricks (a
    failed maker scores +5 as surely as a defender without a trick), keeps
    its low cards and ducks tricks.
    ``high_from`` fixes the switch to a score instead (the old behaviour).
    """

    def __init__(
        self, *, high_from: int | None = None, call_at: float = 2.6, fail_below: float = 1.6
    ) -> None:
        """``call_at``: the estimated tricks needed to call voluntarily when playing for 0;
        ``fail_below``: playing for 50, it makes trump when it expects fewer tricks than this."""
        self.high_from = high_from
        self.call_at = call_at
        self.fail_below = fail_below

    def goes_high(self, obs: DeerParkObservation) -> bool:
        """Whether this hand it plays for 50 rather than for 0."""
        scores = obs.scores
        if self.high_from is not None:
            return scores[obs.seat] >= self.high_from
        return _plays_for_fifty(len(scores), scores[obs.seat])

    def choose(self, observation: DeerParkObservation) -> Action:
        """Pick an action for the seat that observes."""
        obs = observation
        check_observation(obs, GameKind.DEERPARK)
        legal = obs.legal_actions
        going_high = self.goes_high(obs)
        phase = obs.phase
        if phase is Phase.PLAY:  # nine actions in ten
            return self._play(obs, legal, going_high)
        if phase is Phase.ORDER:
            strength = euchre_strength(obs.hand, obs.turned.suit)
            if obs.seat == obs.dealer:
                strength += euchre_strength(CardSet([obs.turned]), obs.turned.suit)
            # Going high, a maker who takes fewer than 3 tricks scores +5: a weak hand makes trump.
            good = strength < self.fail_below if going_high else strength >= self.call_at
            want = Order(obs.seat)
            return want if good and want in legal else Pass(obs.seat)
        if phase is Phase.CALL:
            calls = [a for a in legal if isinstance(a, Call)]
            if not calls:
                return legal[0]
            best = max(calls, key=lambda a: euchre_strength(obs.hand, a.suit))
            stuck = not any(isinstance(a, Pass) for a in legal)
            if going_high:
                worst = min(calls, key=lambda a: euchre_strength(obs.hand, a.suit))
                weak = euchre_strength(obs.hand, worst.suit) < self.fail_below
                return worst if stuck or weak else Pass(obs.seat)
            if stuck or (not going_high and euchre_strength(obs.hand, best.suit) >= self.call_at):
                return best
            return Pass(obs.seat)
        if phase is Phase.DEALER_DISCARD:
            assert obs.trump is not None
            suits, ranks = _tables(obs.trump)

            def power(c: Card) -> tuple[bool, int]:
                return (suits[c.index] == obs.trump, ranks[c.index])

            # playing for 50 it throws its strongest card away, else its weakest
            pick = max(obs.hand, key=power) if going_high else min(obs.hand, key=power)
            return Discard(obs.seat, (pick,))
        return self._play(obs, legal, going_high)

    def _play(self, obs: DeerParkObservation, legal: tuple[Action, ...], going_high: bool) -> Action:
        # One pass over the legal plays on card numbers and precomputed keys (see
        # _play_tables), returning the legal Play itself.  Strict comparisons keep the
        # first of equal keys, as min/max over the plays would.
        assert obs.trump is not None
        suits, strength, by_lead = _play_tables(obs.trump)
        current = obs.current_trick
        low: Play | None = None  # the weakest play
        pick: Play | None = None  # the case's choice, if any
        low_p = pick_p = 1 << 30
        if not current:
            high_p = -1
            for a in legal:
                if isinstance(a, Play):
                    p = strength[a.card._index]
                    if p < low_p:
                        low, low_p = a, p
                    if p > high_p:
                        pick, high_p = a, p
            if going_high:  # lead its weakest card, else its strongest
                pick = low
        else:
            key = by_lead[suits[current[0]._index]]
            best = -1
            for c in current:
                k = key[c._index]
                if k > best:
                    best = k
            if going_high:  # its strongest card that loses the trick, else its weakest
                pick_p = -1
                for a in legal:
                    if isinstance(a, Play):
                        i = a.card._index
                        p = strength[i]
                        if p < low_p:
                            low, low_p = a, p
                        if p > pick_p and key[i] <= best:
                            pick, pick_p = a, p
            else:  # its weakest card that wins the trick, else its weakest
                for a in legal:
                    if isinstance(a, Play):
                        i = a.card._index
                        p = strength[i]
                        if p < low_p:
                            low, low_p = a, p
                        if p < pick_p and key[i] > best:
                            pick, pick_p = a, p
        if pick is None:
            pick = low
        if pick is None:
            raise ValueError("no legal play in the play phase")
        return pick


class BuckEmHeuristic:
    """A sensible Buck 'Em player.

    Stays with two or more trumps, or a high trump with an off-suit ace (S3's
    advice), a little more boldly when few have stayed before it; swaps the
    deuce when it can; draws up to three cards that are neither trumps nor
    aces; wins tricks as cheaply as it can and throws its lowest card otherwise.
    """

    def choose(self, observation: BuckEmObservation) -> Action:
        """Pick an action for the seat that observes."""
        obs = observation
        check_observation(obs, GameKind.BUCKEM)
        legal = obs.legal_actions
        trump = obs.trump
        if obs.phase is Phase.STAY_FOLD:
            trumps = [c for c in obs.hand if c.suit is trump]
            high = any(c.rank >= Rank.QUEEN for c in trumps)
            aces = sum(1 for c in obs.hand if c.rank == Rank.ACE and c.suit is not trump)
            stayers = sum(1 for _, d in obs.decisions if d.startswith("stay"))
            good = len(trumps) >= 2 or (high and aces >= 1) or (len(trumps) == 1 and high and stayers <= 1)
            swap = BuckStay(obs.seat, True)
            if swap in legal and (good or BuckStay(obs.seat) in legal):
                return swap if good or Fold(obs.seat) not in legal else Fold(obs.seat)
            if good or Fold(obs.seat) not in legal:
                return BuckStay(obs.seat)
            return Fold(obs.seat)
        if obs.phase is Phase.DRAW:
            weak = sorted(
                (c for c in obs.hand if c.suit is not trump and c.rank != Rank.ACE), key=lambda c: c.rank
            )[:3]
            return Draw(obs.seat, tuple(weak))
        cards = [a.card for a in legal if isinstance(a, Play)]
        if not obs.current_trick:
            return Play(obs.seat, max(cards, key=lambda c: _value(c, trump)))
        best = _winning_card(obs.current_trick, trump)
        winners = [c for c in cards if _beats(c, best, trump)]
        if winners:
            return Play(obs.seat, min(winners, key=lambda c: _value(c, trump)))
        return Play(obs.seat, min(cards, key=lambda c: _value(c, trump)))
