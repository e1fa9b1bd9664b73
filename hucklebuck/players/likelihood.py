"""Measured likelihoods of the other seats' choices, for inference.

What a seat chose says something about its cards only through a model of how
it chooses.  The rules of thumb of the heuristic players are a poor model of
the Monte Carlo player (the default player, which a table of computer players
mostly seats): it orders up in Deer Park Euchre and bids in Hucklebuck on far
weaker hands than the heuristics, so reading its choices by their thresholds
points the wrong way.  This module *measures* the model instead:

1. **Self-play.**  Whole games are played by the default player at every seat
   (:func:`rebuild`), most at four players and some at every other player
   count (the counts are pooled over them); a Hucklebuck game in two with
   ``auction_reentry`` on.
2. **Counts.**  At every such choice with more than one legal action, the
   chooser's own hand gives a *feature* (a number the choice depends on,
   :func:`feature`), cut into quarter-point buckets, and the choice is counted
   under its *context* (what else it depends on that everyone sees):

   * Deer Park order round: order or pass, by trump strength in the turned
     suit (the dealer's with the turned card); context: whether the seat plays
     for 50, is the dealer, and is the first to speak.
   * Deer Park call round: call or pass, by the strength of the best suit it
     may call (playing for 50: the weakest); context: playing for 50, dealer.
   * Hucklebuck auction: bid or pass, by the best suit's trick estimate plus
     what the exchange gains; context: the least bid allowed, whether the
     dealer may pass for 5 points, and ``auction_reentry``.
   * The suit named as trump (a Hucklebuck bidder, a Deer Park caller): whether
     it is the one :func:`best_suits` gives (the best trick estimate; for a Deer
     Park seat playing for 50 the weakest suit), counted apart for a stuck dealer.
   * The cards played: whether each is the card the search's playout policy
     plays from that hand (:func:`play_match`).
   * Hucklebuck declaration (not the bidder): stay or drop, by the trick
     estimate with the named trump.  Counted, but inference does not read
     it: the default player stays on most hands, and the number of cards a
     stayer exchanges says more (see :mod:`hucklebuck.players.inference`).

3. **Likelihood.**  The chance of the choice given the bucket, smoothed
   toward the context's overall rate (:data:`PRIOR_WEIGHT` pseudo-counts) and
   never below :data:`~hucklebuck.players.inference.FLOOR`
   (:func:`likelihood`).

The counts are shipped in :mod:`hucklebuck.players._likelihood_data` and
rebuilt by ``python -m hucklebuck.players.likelihood --write`` (see
``--help``; the games run on the active core, so rebuild it on one core).
"""

from __future__ import annotations

import argparse
import pprint
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from ..actions import Bid, Call, Drop, NameTrump, Order, Pass, Play, Stay
from ..games import DeerParkGame, HucklebuckGame
from ..games.base import Phase
from ..packs import GameKind
from ._likelihood_data import DATA

__all__ = [
    "PRIOR_WEIGHT",
    "STEPS",
    "best_suits",
    "bucket",
    "context_key",
    "feature",
    "likelihood",
    "play_match",
    "rebuild",
    "suit_match",
]

#: Buckets per unit of a feature (quarter points).
STEPS = 4
#: The highest bucket (features above it share it).
TOP = 28
#: Pseudo-counts of the context's overall rate added to each bucket.
PRIOR_WEIGHT = 4.0


def bucket(x: float) -> int:
    """The bucket of a feature value."""
    return max(0, min(int(x * STEPS + 1e-9), TOP))


def _dp_strength(mask: int, trump: int) -> float:
    from .inference import _dp_strength as strength

    return strength(mask, trump)


def feature(choice: str, mask: int, arg: int, extra: int = 0) -> float:
    """The feature of a hand (``mask``) for a kind of choice.

    ``choice`` is ``"dp-order"`` (``arg`` the turned suit, ``extra`` the turned
    card's mask for the dealer), ``"dp-call"`` (``arg`` the excluded suit or
    -1; ``extra`` 1 when playing for 50), ``"hb-auction"`` or ``"hb-declare"``
    (``arg`` the trump).
    """
    from .inference import _hb_best, _hb_estimate

    if choice == "dp-order":
        return _dp_strength(mask | extra, arg)
    if choice == "dp-call":
        sts = [_dp_strength(mask, t) for t in range(4) if t != arg]
        return min(sts) if extra else max(sts)
    if choice == "hb-auction":
        return _hb_best(mask)
    return _hb_estimate(mask, arg)


def context_key(choice: str, players: int, context: str) -> str:
    """The key of a table: the kind of choice and the context (the counts are pooled over
    player counts, most of them measured at four)."""
    return f"{choice}|{context}"


@cache
def _table(key: str) -> tuple[dict[int, dict[str, float]], dict[str, float]] | None:
    raw = DATA.get(key)
    if raw is None:
        return None
    totals: Counter[str] = Counter()
    per: dict[int, dict[str, float]] = {}
    for b, counts in raw.items():
        per[int(b)] = {k: float(v) for k, v in counts.items()}
        totals.update(counts)
    n = sum(totals.values())
    return per, {k: v / n for k, v in totals.items()}


@lru_cache(maxsize=1 << 15)
def likelihood(key: str, b: int, label: str) -> float:
    """The measured chance of choice ``label`` from a hand in bucket ``b`` (1.0 when not measured)."""
    from .inference import FLOOR

    table = _table(key)
    if table is None:
        return 1.0
    per, prior = table
    counts = per.get(b, {})
    total = sum(counts.values())
    p = (counts.get(label, 0.0) + PRIOR_WEIGHT * prior.get(label, 0.0)) / (total + PRIOR_WEIGHT)
    return max(FLOOR, min(1.0 - FLOOR, p))


# ------------------------------------------------------------------ measuring
def dp_order_context(high: bool, dealer: bool, first: bool) -> str:
    """The context of a Deer Park order-round choice."""
    return f"{'h' if high else 'l'}{'d' if dealer else ''}{'f' if first else ''}"


def dp_call_context(high: bool, dealer: bool) -> str:
    """The context of a Deer Park call-round choice."""
    return f"{'h' if high else 'l'}{'d' if dealer else ''}"


def hb_auction_context(need: int, dealer_five: bool, reentry: bool) -> str:
    """The context of a Hucklebuck auction choice."""
    return f"{need}{'d' if dealer_five else ''}{'r' if reentry else ''}"


def _record_dp(obs: Any, action: Any, n: int, out: dict[str, Counter[Any]]) -> None:
    from .heuristics import plays_for_fifty

    if isinstance(action, Play):
        _record_play(obs, action, out)
        return
    me = obs.seat
    high = plays_for_fifty(obs.scores, me)
    dealer = me == obs.dealer
    if obs.phase is Phase.ORDER:
        first = not any(e.split()[1:2] == ["pass"] for e in obs.history)
        extra = obs.turned.mask if dealer else 0
        f = feature("dp-order", obs.hand.mask, int(obs.turned.suit), extra)
        label = "order" if isinstance(action, Order) else "pass"
        out[context_key("dp-order", n, dp_order_context(high, dealer, first))][(bucket(f), label)] += 1
    elif obs.phase is Phase.CALL:
        excluded = int(obs.turned.suit) if obs.options.round2_excludes_turned_suit else -1
        stuck = not any(isinstance(a, Pass) for a in obs.legal_actions)
        if not stuck:
            f = feature("dp-call", obs.hand.mask, excluded, 1 if high else 0)
            label = "call" if isinstance(action, Call) else "pass"
            out[context_key("dp-call", n, dp_call_context(high, dealer))][(bucket(f), label)] += 1
        if isinstance(action, Call):
            values = [_dp_strength(obs.hand.mask, t) for t in range(4)]
            allowed = [t for t in range(4) if t != excluded]
            label = "match" if int(action.suit) in best_suits(values, allowed, high) else "other"
            out[suit_context(GameKind.DEERPARK, high, stuck)][(0, label)] += 1


def best_suits(values: Sequence[float], allowed: Sequence[int], low: bool) -> list[int]:
    """The suits of ``allowed`` a rule of thumb names as trump: the strongest by ``values``
    (playing for 50, ``low``: the weakest), every one of them on a tie."""
    pick = min(values[t] for t in allowed) if low else max(values[t] for t in allowed)
    return [t for t in allowed if values[t] == pick]


def suit_context(game: GameKind, low: bool, stuck: bool) -> str:
    """The key of the table of how often a seat names the trump suit :func:`best_suits` gives."""
    if game is GameKind.HUCKLEBUCK:
        return "suit|hb|trump"
    return f"suit|dp|call-{'h' if low else 'l'}{'-stuck' if stuck else ''}"


def suit_match(game: GameKind, low: bool, stuck: bool) -> float | None:
    """The measured chance that a seat names a suit :func:`best_suits` gives (``None``
    where nothing is measured); smoothed and bounded as :func:`play_match`."""
    return _match(suit_context(game, low, stuck))


def _match(key: str) -> float | None:
    raw = DATA.get(key, {}).get("0")
    if not raw:
        return None
    match, other = float(raw.get("match", 0)), float(raw.get("other", 0))
    return max(0.05, min(0.95, (match + 2.0) / (match + other + 4.0)))


def play_context(game: GameKind, lead: bool, ducks: bool) -> str:
    """The key of the table of how often a seat plays the card the playout policy would."""
    name = "hb" if game is GameKind.HUCKLEBUCK else "dp"
    return f"play|{name}|{'lead' if lead else 'follow'}{'-duck' if ducks else ''}"


def play_match(game: GameKind, lead: bool, ducks: bool) -> float | None:
    """The measured chance that a seat plays the card the search's playout policy (a Deer
    Park seat playing for 50: its ducking policy) would, when it has a choice; ``None``
    where nothing is measured.  Smoothed toward one half (2 pseudo-counts each way) and
    kept between 5 % and 95 %."""
    return _match(play_context(game, lead, ducks))


def _record_play(obs: Any, action: Any, out: dict[str, Counter[Any]]) -> None:
    """Count whether the card chosen is the one the playout policy would choose."""
    from .._core._py_eval import _Rules
    from .._core._py_search import _duck_card
    from . import _search

    pos = _search.build_position(obs)
    rules = _Rules(pos.game, pos.trump)
    trick = list(pos.trick)
    ducks = pos.game == GameKind.DEERPARK.core_id and bool(pos.flags >> 8 >> obs.seat & 1)
    best = _duck_card(rules, obs.hand.mask, trick) if ducks else rules.policy(obs.hand.mask, trick)
    label = "match" if best == action.card.index else "other"
    out[play_context(_search.game_of(obs), not trick, ducks)][(0, label)] += 1


def _record_hb(obs: Any, action: Any, n: int, out: dict[str, Counter[Any]]) -> None:
    if isinstance(action, Play):
        _record_play(obs, action, out)
    elif obs.phase is Phase.TRUMP and isinstance(action, NameTrump):
        from .inference import _hb_estimate

        values = [_hb_estimate(obs.hand.mask, t) for t in range(4)]
        label = "match" if int(action.suit) in best_suits(values, range(4), False) else "other"
        out[suit_context(GameKind.HUCKLEBUCK, False, False)][(0, label)] += 1
    elif obs.phase is Phase.AUCTION:
        need = 2 if obs.bid is None else obs.bid + 1
        five = obs.seat == obs.dealer and obs.bid is None and obs.options.all_pass.value == "dealer_scores_5"
        ctx = hb_auction_context(need, five, obs.options.auction_reentry)
        label = "bid" if isinstance(action, Bid) else "pass"
        out[context_key("hb-auction", n, ctx)][(bucket(feature("hb-auction", obs.hand.mask, 0)), label)] += 1
    elif obs.phase is Phase.DECLARE and obs.seat != obs.bidder and obs.trump is not None:
        f = feature("hb-declare", obs.hand.mask, int(obs.trump))
        label = "drop" if isinstance(action, Drop) else "stay"
        assert isinstance(action, Drop | Stay)
        out[context_key("hb-declare", n, "")][(bucket(f), label)] += 1


def rebuild(games: int, seed: int, *, kind: str = "mc") -> dict[str, dict[str, dict[str, int]]]:
    """Play ``games`` self-play games per game at four players (a fifth as many at every
    other player count: Hucklebuck 3-7, Deer Park Euchre 3-8) and count every choice.

    Every second Hucklebuck game has ``auction_reentry`` on; ``kind`` is the player
    kind at every seat.
    """
    from . import make_player

    rng = random.Random(seed)
    counts: dict[str, Counter[Any]] = defaultdict(Counter)
    plan: list[tuple[GameKind, int]] = [(GameKind.HUCKLEBUCK, n) for n in range(3, 8)]
    plan += [(GameKind.DEERPARK, n) for n in range(3, 9)]
    for game, n in plan:
        for g in range(games if n == 4 else max(1, games // 5)):
            opts: dict[str, Any] = {}
            if game is GameKind.HUCKLEBUCK:
                table: Any = HucklebuckGame(
                    n, options={"auction_reentry": g % 2 == 1}, seed=rng.getrandbits(62)
                )
            else:
                if n == 8:
                    opts["eight_player_turnup"] = "dealer_last_card"
                table = DeerParkGame(n, options=opts, seed=rng.getrandbits(62))
            seats = [make_player(kind, game, seed=rng.getrandbits(62)) for _ in range(n)]
            hands = 0
            while table.phase is not Phase.GAME_OVER and hands < 60:
                if table.phase is Phase.HAND_OVER:
                    hands += 1
                    table.next_hand()
                    continue
                s = table.to_act
                obs = table.observation(s)
                action = seats[s].choose(obs)
                if len(obs.legal_actions) > 1:
                    (_record_hb if game is GameKind.HUCKLEBUCK else _record_dp)(obs, action, n, counts)
                table.apply(action)
    data: dict[str, dict[str, dict[str, int]]] = {}
    for key in sorted(counts):
        per: dict[str, dict[str, int]] = {}
        for (b, label), c in sorted(counts[key].items()):
            per.setdefault(str(b), {})[label] = c
        data[key] = per
    return data


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hucklebuck.players.likelihood [--games N] [--seed S] [--write]``: rebuild the counts."""
    ap = argparse.ArgumentParser(
        prog="python -m hucklebuck.players.likelihood",
        description="Rebuild inference's counts of the seats' choices: play self-play games and count "
        "every choice (the shipped data: --games 40 --seed 2026 --write).",
    )
    ap.add_argument(
        "--games",
        type=int,
        default=40,
        metavar="N",
        help="self-play games per game and player count (default 40)",
    )
    ap.add_argument("--seed", type=int, default=2026, metavar="N", help="random seed (default 2026)")
    ap.add_argument("--write", action="store_true", help="write hucklebuck/players/_likelihood_data.py")
    args = ap.parse_args(argv)
    data = rebuild(args.games, args.seed)
    text = (
        '"""Measured counts of the other seats\' choices (see :mod:`hucklebuck.players.likelihood`).\n\n'
        f"Generated by ``python -m hucklebuck.players.likelihood --games {args.games} --seed {args.seed} "
        '--write``.\n"""\n\n'
        "from typing import Any\n\n"
        f"DATA: dict[str, Any] = {pprint.pformat(data, width=86, compact=True, sort_dicts=True)}\n"
    )
    if args.write:
        from pathlib import Path

        Path(__file__).with_name("_likelihood_data.py").write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
