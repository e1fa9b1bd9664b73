"""Hand evaluation: the PRNG, the solver (against brute force), Monte Carlo
(against exact enumeration), simulation, advice, and C/Python agreement."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hb_helpers import brute
from hypothesis import given, settings
from hypothesis import strategies as st
from thorough_kit import examples

import hucklebuck
from hucklebuck import CardSet, CoreInputError, Suit, parse_cards
from hucklebuck._core import get_core
from hucklebuck._core._py_eval import SplitMix64
from hucklebuck.evaluate import (
    buckem_advice,
    deerpark_advice,
    evaluate_hand,
    hucklebuck_advice,
    rake_qualifies,
    simulate_hucklebuck,
    solve,
)
from hucklebuck.games import BuckEmGame, Phase

HAS_C = "c" in hucklebuck.available()
both_cores = pytest.mark.skipif(not HAS_C, reason="C core not built")


# ----------------------------------------------------------------------- PRNG
def test_splitmix64_matches_the_published_sequence() -> None:
    # The first outputs of splitmix64 from seed 0 (Vigna's reference implementation).
    assert get_core().rng_fill(0, 3) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_splitmix64_has_randoms_api() -> None:
    r = SplitMix64(7)
    assert isinstance(r, random.Random)
    state = r.getstate()
    a = [r.randrange(10) for _ in range(5)] + [r.random(), r.choice("abc")]
    r.setstate(state)
    assert a == [r.randrange(10) for _ in range(5)] + [r.random(), r.choice("abc")]
    assert all(0 <= SplitMix64(s).below(13) < 13 for s in range(50))
    deck = list(range(52))
    SplitMix64(3).shuffle(deck)
    assert sorted(deck) == list(range(52)) and deck != list(range(52))


@pytest.mark.single_core
@both_cores
@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 52))
def test_prng_and_shuffle_agree_between_cores(seed: int, n: int) -> None:
    from hucklebuck._core._c import CCore
    from hucklebuck._core._py import PythonCore

    c, p = CCore(), PythonCore()
    assert c.rng_fill(seed, 8) == p.rng_fill(seed, 8)
    cards = bytes(range(n))
    assert c.rng_shuffle(seed, cards) == p.rng_shuffle(seed, cards)


# --------------------------------------------------------------------- solver


def random_position(
    rng: random.Random, max_players: int, max_cards: int
) -> tuple[int, int, list[int], int, int]:
    game = rng.randrange(3)
    n = rng.randint(2, max_players)
    k = rng.randint(1, max_cards)
    deck = list(range(52))
    if game == 2:  # Deer Park: make bowers likely
        deck = [c for c in deck if c % 13 >= 7]
    rng.shuffle(deck)
    hands = [sum(1 << x for x in deck[i * k : (i + 1) * k]) for i in range(n)]
    if n > 2 and rng.random() < 0.3:
        hands[rng.randrange(n)] = 0  # a seat not in play
    active = [i for i, h in enumerate(hands) if h]
    return game, rng.randrange(4), hands, rng.choice(active), rng.choice(active)


def test_solver_matches_brute_force() -> None:
    rng = random.Random(11)
    for _ in range(250):
        game, trump, hands, leader, seat = random_position(rng, 4, 3)
        assert get_core().solve(game, trump, hands, leader, seat) == brute(game, trump, hands, leader, seat)


def test_solver_known_positions() -> None:
    # Two top trumps against two top hearts: both tricks.
    assert (
        solve("hucklebuck", Suit.SPADES, [parse_cards("AS KS"), parse_cards("AH KH")], leader=1, seat=0) == 2
    )
    # Deer Park, hearts trump: the left bower (JD) beats the ace of hearts.
    assert solve("deerpark", Suit.HEARTS, [parse_cards("JD"), parse_cards("AH")], leader=1, seat=0) == 1
    assert solve("hucklebuck", Suit.HEARTS, [parse_cards("JD"), parse_cards("AH")], leader=1, seat=0) == 0
    # An empty seat is not in play.
    assert solve("buckem", Suit.CLUBS, [parse_cards("2C"), [], parse_cards("3C")], leader=0, seat=0) == 0


@pytest.mark.single_core
@both_cores
@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 2**32))
def test_solver_agrees_between_cores(seed: int) -> None:
    from hucklebuck._core._c import CCore
    from hucklebuck._core._py import PythonCore

    game, trump, hands, leader, seat = random_position(random.Random(seed), 5, 4)
    assert CCore().solve(game, trump, hands, leader, seat) == PythonCore().solve(
        game, trump, hands, leader, seat
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 0, [1, 2, 4, 8, 16, 32, 64, 128, 256], 0, 0), "seat count"),
        ((0, 0, [3, 12], 0, 1), None),
        ((0, 0, [3, 4], 0, 1), "trick length"),  # unequal hands
        ((0, 0, [0b111111, 0b111111 << 6], 0, 1), "trick length"),  # six cards
        ((0, 0, [3, 3 << 2], 5, 1), "seat"),
        ((0, 0, [3, 0, 3 << 2], 1, 0), "seat"),  # the leader is not in play
        ((0, 0, [3, 1 << 60], 0, 1), "bits above 51"),
        ((0, 0, [3, 3], 0, 1), "twice"),
        ((4, 0, [3, 12], 0, 1), "game id"),
        ((0, 7, [3, 12], 0, 1), "trump"),
    ],
)
def test_solver_rejects_bad_positions(
    args: tuple[int, int, list[int], int, int], message: str | None
) -> None:
    if message is None:
        assert get_core().solve(*args) >= 0
        return
    with pytest.raises(CoreInputError, match=message):
        get_core().solve(*args)


@pytest.mark.single_core
@both_cores
def test_c_boundary_rejects_a_bad_transposition_table() -> None:
    from hucklebuck._hbc import ffi, lib

    hands = ffi.new("uint64_t[]", [3, 12])
    out = ffi.new("int *")
    table = ffi.new("hb_tt_entry[]", 3)
    assert lib.hb_solve(0, 0, hands, 2, 0, 1, table, 3, 1, out) == lib.HB_E_TT
    assert lib.hb_solve(0, 0, hands, 2, 0, 1, ffi.NULL, 0, 1, out) == 0  # no table is allowed
    assert lib.hb_solve(0, 0, hands, 2, 0, 1, ffi.NULL, 0, 1, ffi.NULL) == lib.HB_E_NULL
    stats = ffi.new("uint64_t[]", 3)
    assert lib.hb_sim_hucklebuck(5, 1, 10, stats, 3) == -4  # too small an output buffer


# ---------------------------------------------------------------- Monte Carlo
def test_evaluation_is_deterministic_for_a_seed() -> None:
    hand = parse_cards("AS KS QS 2H 3D")
    a = evaluate_hand("hucklebuck", Suit.SPADES, hand, players=4, samples=500, seed=5)
    b = evaluate_hand("hucklebuck", Suit.SPADES, hand, players=4, samples=500, seed=5)
    c = evaluate_hand("hucklebuck", Suit.SPADES, hand, players=4, samples=500, seed=6)
    assert a == b and sum(a.counts) == 500 and sum(c.counts) == 500
    assert 0 <= a.stderr < 0.1 and abs(sum(a.probabilities) - 1) < 1e-9


@pytest.mark.single_core
@both_cores
@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["playout", "solver"]))
def test_evaluation_agrees_between_cores(seed: int, method: str) -> None:
    rng = random.Random(seed)
    game = rng.choice(["hucklebuck", "deerpark", "buckem"])
    players = 3 if method == "solver" and game != "buckem" else {"buckem": 5}.get(game, rng.randint(3, 5))
    deck = list(hucklebuck.pack(game, players))
    hand = rng.sample(deck, 5 if method == "playout" else 2)
    trump = Suit(seed % 4)
    outs = []
    for core in ("c", "python"):
        with hucklebuck.using(core):
            outs.append(
                evaluate_hand(
                    game,
                    trump,
                    hand,
                    players=players,
                    samples=40 if method == "solver" else 300,
                    seed=seed,
                    method=method,
                )  # type: ignore[arg-type]
            )
    assert outs[0] == outs[1]


def exact_playout_distribution(trump: Suit, hand: list[str], others: list[str]) -> Counter[int]:
    """Every way to deal ``others`` to two seats of len(hand) cards, played by the policy."""
    from hucklebuck._core._py_eval import _playout, _Rules

    own = CardSet.parse(hand).mask
    cards = [c.index for c in parse_cards(others)]
    k = len(hand)
    dist: Counter[int] = Counter()
    for first in itertools.combinations(cards, k):
        rest = [c for c in cards if c not in first]
        for second in itertools.combinations(rest, k):
            hands = [own, sum(1 << c for c in first), sum(1 << c for c in second)]
            won = [0, 0, 0]
            _playout(_Rules(0, int(trump)), hands, [0, 1, 2], 0, won)
            dist[won[0]] += 1
    return dist


def test_monte_carlo_matches_exact_enumeration() -> None:
    # Three seats with 2 cards each; the unseen cards are exactly 4 (the rest are "seen").
    hand = ["AH", "2S"]
    unseen = ["KS", "QH", "3S", "7D"]
    seen = [c for c in hucklebuck.pack("hucklebuck", 3) if c.code not in hand + unseen]
    exact = exact_playout_distribution(Suit.SPADES, hand, unseen)
    total = sum(exact.values())
    d = evaluate_hand(
        "hucklebuck", Suit.SPADES, parse_cards(hand), players=3, seen=seen, samples=20000, seed=1
    )
    for t in range(6):
        p = exact[t] / total
        assert abs(d.probabilities[t] - p) < 4 * d.stderr_of(p) + 1e-9, (t, d.probabilities, p)


# ------------------------------------------------------------------ simulation
def test_simulation_totals_are_consistent() -> None:
    s = simulate_hucklebuck(7, 3000, seed=4)
    assert s.all_pass + s.lone_bidder + s.played == s.hands == 3000
    assert sum(s.made.values()) + sum(s.set.values()) == s.played
    assert s.played * 2 <= s.stayers <= s.played * 7
    assert s.restocks > 0  # seven players: the stock runs out now and then (DEF #18)
    again = simulate_hucklebuck(7, 3000, seed=4)
    assert again == s


def test_simulation_with_workers_is_the_sum_of_its_parts() -> None:
    two = simulate_hucklebuck(5, 2000, seed=9, workers=2)
    r = SplitMix64(9)
    seeds = [r.next_u64(), r.next_u64()]
    parts = [get_core().sim_hucklebuck(5, sd, 1000) for sd in seeds]
    assert two.played == parts[0][2] + parts[1][2] and two.hands == 2000


@pytest.mark.single_core
@both_cores
@settings(max_examples=examples(30), deadline=None)
@given(st.integers(3, 7), st.integers(0, 2**64 - 1))
def test_simulation_agrees_between_cores(players: int, seed: int) -> None:
    from hucklebuck._core._c import CCore
    from hucklebuck._core._py import PythonCore

    assert CCore().sim_hucklebuck(players, seed, 150) == PythonCore().sim_hucklebuck(players, seed, 150)


# ---------------------------------------------------------------------- advice
@pytest.mark.parametrize("trump", list(Suit))
def test_rake_test_matches_the_game_in_every_trump_suit(trump: Suit) -> None:  # S3; DEF #43
    rng = random.Random(int(trump))
    full = list(hucklebuck.pack("buckem", 5))
    for _ in range(25):
        rng.shuffle(full)
        trumps = [c for c in full if c.suit is trump]
        plain = [c for c in full if c.suit is not trump]
        k = rng.randint(0, 3)
        hand = trumps[:k] + plain[: 5 - k]
        up = trumps[k]
        others = [plain[5 + 5 * i : 10 + 5 * i] for i in range(4)]
        used = {*hand, up, *(c for o in others for c in o)}
        rest = [c for c in full if c not in used]
        deal = {
            "hands": [
                [c.code for c in others[0]],
                [c.code for c in hand],
                *[[c.code for c in o] for o in others[1:]],
            ],
            "upcard": up.code,
            "stock": [c.code for c in rest],
        }
        g = BuckEmGame(5, deal=deal)
        for s in (1, 2, 3, 4, 0):
            g.apply(f"{s} {'stay' if s == 1 else 'fold'}")
        assert g.phase is Phase.HAND_OVER
        assert (g.results[-1].raked == 1) is rake_qualifies(hand, trump)


def test_advice() -> None:
    strong = hucklebuck_advice(parse_cards("AS KS QS JS AH"), players=4, samples=800)
    assert strong.best_trump is Suit.SPADES and strong.bid is not None and strong.bid >= 3 and strong.stay
    weak = hucklebuck_advice(parse_cards("2C 3D 4H 5S 7C"), players=4, trump=Suit.SPADES, samples=800)
    assert weak.bid is None and not weak.stay and weak.exchange == 4
    b = buckem_advice(parse_cards("AS KS 2H 3D 4C"), parse_cards("9S")[0], players=6, samples=800)
    assert b.rakes_alone and b.stay and abs(b.p_two_or_more + b.p_burned - 1) < 1e-9
    d = deerpark_advice(parse_cards("JS JC AS KH QD"), players=3, samples=800)
    assert d.best_call is Suit.SPADES and d.call and d.p_make_two[Suit.SPADES] >= d.p_make_three[Suit.SPADES]


def test_deerpark_and_buckem_simulations_are_consistent() -> None:
    from hucklebuck.evaluate import simulate_buckem, simulate_deerpark

    d = simulate_deerpark(4, 2000, seed=3)
    assert d.club_turnups + d.ordered + d.called + d.stuck == d.hands == 2000
    assert d.voluntary_made + d.voluntary_set == d.ordered + d.called
    assert d.forced_made + d.forced_set == d.club_turnups + d.stuck
    b = simulate_buckem(8, 2000, seed=3, pot_limit=25)
    assert b.no_stayers + b.raked + b.lone_without_rake + b.played == b.hands == 2000
    assert b.one_winner + b.two_winners + b.no_winner == b.played
    assert b.restocks > 0  # eight players: the depleted-deck rule is exercised (DEF #49, #50)
    # chips are conserved: antes in = chips won + the pot left over - burn payments
    assert b.chips_won + b.final_pot - b.chips_burned > 0
    with pytest.raises(CoreInputError, match="pot grew"):
        simulate_buckem(8, 10_000, seed=16)  # no pot limit: the pot outgrows 64-bit integers


@pytest.mark.single_core
@both_cores
@settings(max_examples=examples(30), deadline=None)
@given(st.integers(3, 7), st.integers(5, 8), st.integers(0, 2**64 - 1), st.integers(0, 30))
def test_deerpark_and_buckem_simulations_agree_between_cores(
    dp_players: int, bk_players: int, seed: int, limit: int
) -> None:
    from hucklebuck._core._c import CCore
    from hucklebuck._core._py import PythonCore

    c, p = CCore(), PythonCore()
    assert c.sim_deerpark(dp_players, seed, 150) == p.sim_deerpark(dp_players, seed, 150)
    assert c.sim_buckem(bk_players, seed, 150, 1 + limit % 3, limit) == p.sim_buckem(
        bk_players, seed, 150, 1 + limit % 3, limit
    )
