"""The Monte Carlo player's solver method: the open-cards max^n play of the
search (``csrc/hb_maxn.c`` and its twin ``_core/_py_maxn.py``) against a
plain brute force, its node budget, and the player built on it, on both cores."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_players import GAMES, random_position
from thorough_kit import examples

import hucklebuck
from hucklebuck import pack
from hucklebuck._core import _py_search as pys
from hucklebuck._core._py import _TABLES
from hucklebuck.errors import CoreInputError, OptionsError
from hucklebuck.games import DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.players import MonteCarloPlayer, _search, make_player

GAME_NAMES = {0: "hucklebuck", 1: "buckem", 2: "deerpark"}
REC = pys.REC


def brute_maxn(
    game: int, trump: int, hands: list[int], order: list[int], lp: int, trick: list[int], duck: int
) -> list[int]:
    """Tricks per seat when each seat, seeing every card, maximises its own tricks
    (a seat of ``duck`` minimises them), trying cards weakest first and keeping the
    first of equal worth: the definition the solver method must meet."""
    suit, rank, masks = _TABLES[(game, trump)]
    n = len(order)

    def power(c: int) -> int:
        return ((suit[c] == trump) << 5) | rank[c]

    def key(lead: int, c: int) -> int:
        return ((suit[c] == trump) << 5) | ((suit[c] == lead) << 4) | rank[c]

    def rec(hands: list[int], lp: int, trick: list[int]) -> list[int]:
        if len(trick) == n:
            win = max(range(n), key=lambda i: key(suit[trick[0]], trick[i]))
            wpos = (lp + win) % n
            out = rec(hands, wpos, [])
            out[order[wpos]] += 1
            return out
        seat = order[(lp + len(trick)) % n]
        if not trick and not hands[seat]:
            return [0] * 8
        legal = hands[seat]
        if trick:
            legal = hands[seat] & masks[suit[trick[0]]] or hands[seat]
        best: list[int] | None = None
        bu = 0
        for c in sorted((c for c in range(52) if legal >> c & 1), key=lambda c: power(c) * 64 + c):
            nh = list(hands)
            nh[seat] &= ~(1 << c)
            v = rec(nh, lp, [*trick, c])
            u = -v[seat] if duck >> seat & 1 else v[seat]
            if best is None or u > bu:
                best, bu = v, u
        assert best is not None
        return best

    return rec(list(hands), lp, list(trick))


def open_position(seed: int) -> tuple[pys.SearchPosition, list[int]]:
    """A play position of a random game in which the deciding seat knows every hand."""
    rng = random.Random(seed)
    game = rng.choice([0, 1, 2])
    n = rng.randint(5, 6) if game == 1 else rng.randint(3, 5)  # Buck 'Em is for five or more
    deck = [c.index for c in pack(GAME_NAMES[game], n)]
    rng.shuffle(deck)
    k = rng.randint(1, 3 if n <= 4 else 2)
    trump = rng.randrange(4)
    suit, _, masks = _TABLES[(game, trump)]
    hands = [0] * 8
    for s in range(n):
        for c in deck[s * k : (s + 1) * k]:
            hands[s] |= 1 << c
    leader = rng.randrange(n)
    trick: list[int] = []
    for i in range(rng.randrange(n)):  # some seats have played to the trick already
        s = (leader + i) % n
        legal = hands[s] if not trick else (hands[s] & masks[suit[trick[0]]] or hands[s])
        c = rng.choice([c for c in range(52) if legal >> c & 1])
        hands[s] &= ~(1 << c)
        trick.append(c)
    seat = (leader + len(trick)) % n
    duck = rng.randrange(1 << n) if game == 2 else 0
    p = pys.SearchPosition(
        game=game,
        phase=pys.PHASES["play"],
        nseats=n,
        seat=seat,
        dealer=0,
        trump=trump,
        leader=leader,
        flags=duck << 8,
        trick=trick,
    )
    for s in range(n):
        p.size[s] = hands[s].bit_count()
        p.known[s] = hands[s]
        p.state[s] = 1
    return p, hands


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_solver_records_are_the_maxn_tricks(seed: int) -> None:
    p, hands = open_position(seed)
    n, seat = p.nseats, p.seat
    suit, _, masks = _TABLES[(p.game, p.trump)]
    legal = hands[seat] if not p.trick else (hands[seat] & masks[suit[p.trick[0]]] or hands[seat])
    cands = [(0, 1 << c) for c in range(52) if legal >> c & 1]
    data = _search.run_search(p, cands, seed, 2, pys.SOLVER, 0)
    order = list(range(n))
    for ci, (_, bit) in enumerate(cands):
        nh = list(hands)
        nh[seat] &= ~bit
        want = brute_maxn(
            p.game, p.trump, nh, order, p.leader, [*p.trick, bit.bit_length() - 1], p.flags >> 8
        )
        for k in range(2):  # every seat's cards are known: both samples are the same deal
            rec = data[(ci * 2 + k) * REC : (ci * 2 + k + 1) * REC]
            got = [b - 256 if b > 127 else b for b in rec[:8]]
            assert got == [want[s] if s < n else -1 for s in range(8)], (seed, ci)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(GAMES) - 1), st.integers(0, 10**6), st.integers(0, 40))
def test_a_solve_over_its_budget_is_played_out(index: int, seed: int, steps: int) -> None:
    # with a budget of one card no solve of a real choice finishes: every deal is played out
    _, obs = random_position(index, seed, steps)
    pos = _search.build_position(obs)
    _, cands = _search.candidates(obs)
    cands = cands[:6]
    assert _search.run_search(pos, cands, seed, 3, pys.SOLVER, 1) == _search.run_search(
        pos, cands, seed, 3, pys.PLAYOUT
    )


@pytest.mark.single_core
@pytest.mark.skipif("c" not in hucklebuck.available(), reason="C core not built")
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(GAMES) - 1), st.integers(0, 10**6), st.integers(0, 40), st.integers(0, 2**64 - 1))
def test_both_cores_give_the_same_solver_records(index: int, seed: int, steps: int, sseed: int) -> None:
    _, obs = random_position(index, seed, steps)
    pos = _search.build_position(obs)
    _, cands = _search.candidates(obs)
    cands = cands[:8]
    out = []
    for core in ("c", "python"):
        with hucklebuck.using(core):
            out.append(_search.run_search(pos, cands, sseed, 3, pys.SOLVER, 3000))
    assert out[0] == out[1]


@pytest.mark.single_core
@pytest.mark.skipif("c" not in hucklebuck.available(), reason="C core not built")
@pytest.mark.parametrize("index", range(len(GAMES)))
def test_solver_player_same_decision_on_both_cores(index: int) -> None:
    for seed in range(2):
        _, obs = random_position(index, 500 * index + seed, 9 + 11 * seed)
        got = []
        for core in ("c", "python"):
            with hucklebuck.using(core):
                got.append(
                    MonteCarloPlayer(samples=4, method="solver", seed=seed, node_limit=2000).analyse(obs)
                )
        assert got[0] == got[1]


def test_solver_player_plays_whole_hands_legally() -> None:
    for cls, n in ((HucklebuckGame, 3), (DeerParkGame, 3)):
        game: Any = cls(n, seed=11)
        bots = [MonteCarloPlayer(samples=3, method="solver", seed=s, node_limit=1500) for s in range(n)]
        for _ in range(40):
            if game.phase is Phase.GAME_OVER:
                break
            if game.phase is Phase.HAND_OVER:
                game.next_hand()
                continue
            seat = game.to_act
            action = bots[seat].choose(game.observation(seat))
            assert game.is_legal(action)
            game.apply(action)


def test_unknown_search_method_is_refused() -> None:
    _, obs = random_position(0, 1, 0)
    pos = _search.build_position(obs)
    _, cands = _search.candidates(obs)
    with pytest.raises(CoreInputError, match="mode"):
        _search.run_search(pos, cands, 1, 2, 7)


@pytest.mark.parametrize("limit", [0, -5, 2.5, True])
def test_bad_node_limits(limit: Any) -> None:
    with pytest.raises(OptionsError, match="node_limit must be an integer"):
        MonteCarloPlayer(method="solver", node_limit=limit)


def test_mc_solver_kind() -> None:
    bot = make_player("mc-solver", "hucklebuck", seed=3)
    assert isinstance(bot, MonteCarloPlayer) and bot.method == "solver"
