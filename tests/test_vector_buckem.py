"""Buck 'Em on the batched lane against the game objects, step by step (both cores).

On the C core the batch runs on the C state machine (``csrc/hb_vec_be.c``)
whenever its chips provably fit 64-bit integers; these tests drive sessions
with policies that reach every part of a round (rakes, void rounds, burns,
splits, deuce swaps, scare cards, re-formed stocks) and compare every buffer,
every seat's tensor and the game objects.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from test_vector import Reference, check_same, lanes_agree
from test_vector_errors import snapshot

import hucklebuck
from hucklebuck import backend
from hucklebuck.cards import Card, Rank, Suit
from hucklebuck.errors import (
    ActionParseError,
    IllegalAction,
    OptionsError,
    PlayerCountError,
    UnsupportedOption,
)
from hucklebuck.games import BuckEmGame, BuckEmOptions
from hucklebuck.games.ids import BE_DRAW, BE_FOLD, BE_STAY, BE_SWAP
from hucklebuck.vector import VectorGame
from hucklebuck.vector._clane import buckem_chips_fit

# episodes of K hands warn (RewardWarning) that they do not teach winning; these tests cut them on purpose
pytestmark = pytest.mark.filterwarnings("ignore::hucklebuck.vector.RewardWarning")

Chooser = Callable[[BuckEmGame, list[int], random.Random], int]
"""(the environment's game, its legal ids, a random source) -> the id to play."""


def bold(g: BuckEmGame, legal: list[int], rng: random.Random) -> int:
    """Stays (and swaps) most of the time and draws three cards: pots grow, stocks run out."""
    if BE_SWAP in legal and rng.random() < 0.7:
        return BE_SWAP
    if BE_STAY in legal and rng.random() < 0.8:
        return BE_STAY
    draws = [k for k in legal if k >= BE_DRAW and (k - BE_DRAW).bit_count() == 3]
    if draws and rng.random() < 0.8:
        return rng.choice(draws)
    return rng.choice(legal)


def timid(g: BuckEmGame, legal: list[int], rng: random.Random) -> int:
    """Folds most of the time: void rounds and lone stayers (rakes)."""
    if BE_FOLD in legal and rng.random() < 0.75:
        return BE_FOLD
    return rng.choice(legal)


def uniform(g: BuckEmGame, legal: list[int], rng: random.Random) -> int:
    return rng.choice(legal)


def rakes(cards: Iterable[Card], trump: Suit) -> bool:
    """The rake cards: the ace of trump, or two trumps at least one of them K, Q or J."""
    trumps = [c for c in cards if c.suit is trump]
    return any(c.rank is Rank.ACE for c in trumps) or (
        len(trumps) >= 2 and any(c.rank in (Rank.KING, Rank.QUEEN, Rank.JACK) for c in trumps)
    )


def raker(g: BuckEmGame, legal: list[int], rng: random.Random) -> int:
    """Bold in even rounds (burns: double pots, no ante next); in odd rounds only a hand
    with the rake cards stays (lone stayers rake half of a double pot)."""
    if len(g.results) % 2 == 0 or BE_STAY not in legal:
        return bold(g, legal, rng)
    seat = g.to_act
    assert seat is not None and g.trump is not None
    return BE_STAY if rakes(g.hand(seat), g.trump) or BE_FOLD not in legal else BE_FOLD


def drive(
    players: int,
    options: Any,
    n: int,
    seed: int,
    hands: int,
    steps: int,
    chooser: Chooser,
    reward: str = "game",
    every: int = 5,
) -> tuple[VectorGame, Reference, int]:
    """Step a batch and the game objects with the same ids, comparing everything; also
    the largest bankroll or pot (in absolute value) seen."""
    vg = VectorGame("buckem", players, n, options=options, seed=seed, hands=hands, reward=reward)
    assert vg.lane == ("c" if backend() == "c" else "python")
    ref = Reference("buckem", players, vg.options, n, seed, hands, reward)
    check_same(vg, ref)
    rng = random.Random(seed)
    peak = 0
    for k in range(steps):
        masks = vg.legal_mask.tolist()
        acts = [
            -1 if vg.terminated[i] else chooser(g, [a for a, v in enumerate(row) if v], rng)  # type: ignore[arg-type]
            for i, (g, row) in enumerate(zip(ref.games, masks, strict=True))
        ]
        ref.step(acts)
        vg.step(acts)
        check_same(vg, ref, tensors=k % every == 0)
        for g in ref.games:
            assert isinstance(g, BuckEmGame)
            peak = max(peak, g.pot, *(abs(b) for b in g.bankrolls))
    check_same(vg, ref)
    return vg, ref, peak


BUCKEM_OPTIONS: list[tuple[int, dict[str, Any]]] = [
    (5, {}),
    (5, {"short_handed": True, "short_handed_trump": "removed_card", "scare_cards": True}),
    (6, {"short_handed": True, "deuce_swap": True, "rake_hand": "after_swap"}),
    (6, {"deuce_swap": True, "rake_hand": "after_swap", "simultaneous_declare": True}),
    (7, {"scare_cards": True, "scare_position": 2, "split": "proportional", "pot_limit": 3}),
    (7, {"odd_chip": "carry", "rake_rounding": "ceil", "after_void_round_ante": False, "ante": 3}),
    (8, {"odd_chip": "first_left_of_dealer", "deuce_swap": True, "simultaneous_declare": True}),
    (8, {"scare_cards": True, "scare_position": 1, "pot_limit": 10, "ante": 2, "short_handed": True}),
]


@pytest.mark.parametrize("index", range(len(BUCKEM_OPTIONS)))
def test_sessions_every_option(index: int) -> None:
    """Sessions of several rounds through each option, bold and timid play, both rewards."""
    players, options = BUCKEM_OPTIONS[index]
    vg, _, _ = drive(players, options, 3, 3000 + index, 4 if players < 8 else 3, 300, bold, "game", every=8)
    assert max(vg.episodes) >= 1
    drive(players, options, 3, 4000 + index, 4, 90, timid, "hand")


def test_rounds_reach_every_settlement() -> None:
    """The policies above reach rakes, void rounds, burns, two-winner splits and re-formed stocks."""
    seen: set[str] = set()
    for players, options in BUCKEM_OPTIONS[:4]:
        for chooser in (bold, timid):
            _, ref, _ = drive(players, options, 2, 11 + players, 8, 120, chooser, every=40)
            for g in ref.games:
                assert isinstance(g, BuckEmGame)
                for r in g.results:
                    seen.add("rake" if r.raked is not None else "void" if not r.stayers else "played")
                    seen.update({"burn"} if r.burned else set())
                    seen.update({"split"} if len(r.winners) == 2 else set())
                    seen.update({"restock"} if r.restock else set())
    assert seen >= {"rake", "void", "played", "burn", "split", "restock"}, seen


def test_odd_chips_and_rakes_of_double_pots() -> None:
    """Half of an odd double pot raked with ceil rounding, and the odd chip of a split to the
    winner first left of the dealer when that is not the lower seat: both reached, both equal."""
    options = {"rake_rounding": "ceil", "odd_chip": "first_left_of_dealer"}
    ceil_rakes = odd_chips = 0
    for seed in range(8):
        _, ref, _ = drive(7, options, 3, 500 + seed, 8, 300, raker, "hand", every=15)
        for g in ref.games:
            assert isinstance(g, BuckEmGame)
            for r in g.results:
                if r.raked is not None and r.pot > 0 and (r.payouts[r.raked] + r.pot) % 2:
                    ceil_rakes += 1
                if len(r.winners) == 2 and sum(r.payouts) % 2:
                    first = min(r.winners, key=lambda s: (s - r.dealer - 1) % 7)
                    odd_chips += first != min(r.winners)
        if ceil_rakes and odd_chips:
            break
    assert ceil_rakes and odd_chips, (ceil_rakes, odd_chips)


@pytest.mark.parametrize("rake_hand", ["as_dealt", "after_swap"])
def test_rake_of_a_deuce_swapper(rake_hand: str) -> None:
    """A lone stayer who swapped is tested on the hand as dealt, or (rake_hand=after_swap)
    on the hand with the upcard: reached where the two disagree."""
    differ = [0]

    def swapper(g: BuckEmGame, legal: list[int], rng: random.Random) -> int:
        if BE_SWAP in legal:  # the swapper stays alone: everyone else folds
            seat, trump = g.to_act, g.trump
            assert seat is not None and trump is not None
            held = set(g.hand(seat))
            after = (held - {Card(Rank.TWO, trump)}) | {g.upcard}
            differ[0] += rakes(held, trump) != rakes(after, trump)
            return BE_SWAP
        return BE_FOLD if BE_FOLD in legal else rng.choice(legal)

    options = {"deuce_swap": True, "rake_hand": rake_hand}
    for seed in range(8):
        drive(5, options, 4, 700 + seed, 12, 300, swapper, "hand", every=20)
        if differ[0]:
            break
    assert differ[0]


def test_largest_antes_on_the_c_lane_while_the_chips_fit() -> None:
    """The largest ante at eight seats, no pot limit: as many rounds as fit 64 bits stay on the
    C lane (float32 rounds the big counts in tensors and rewards alike); one more goes to the
    game objects."""
    options = BuckEmOptions(ante=2**31 - 1)
    fit = max(k for k in range(1, 40) if buckem_chips_fit(8, options, k))
    assert 3 <= fit < 39 and not buckem_chips_fit(8, options, fit + 1)
    on_c = "c" if backend() == "c" else "python"
    assert VectorGame("buckem", 8, 1, options=options, hands=fit, seed=0).lane == on_c
    assert VectorGame("buckem", 8, 1, options=options, hands=fit + 1, seed=0).lane == "python"
    vg, _, peak = drive(8, options, 2, 99, fit, 420, bold, "game", every=7)
    assert peak > 2**40  # far past 32 bits and float32's exact integers
    assert max(vg.episodes) >= 1
    drive(8, options, 2, 98, fit, 60, bold, "hand", every=3)
    limited = BuckEmOptions(ante=2**31 - 1, pot_limit=2**40)  # a pot limit keeps the growth linear
    assert VectorGame("buckem", 8, 1, options=limited, hands=50, seed=0).lane == on_c
    assert drive(8, limited, 2, 97, 50, 300, bold, "hand", every=6)[2] > 2**41


@pytest.mark.parametrize(
    "options,bad,why",
    [
        ({"scare_cards": True, "scare_position": 1}, BE_FOLD, "must stay"),
        ({}, BE_SWAP, "deuce swap is not in play"),
        ({"deuce_swap": True}, BE_SWAP, "swap"),
    ],
)
def test_illegal_decisions_change_nothing(options: dict[str, Any], bad: int, why: str) -> None:
    """A fold the scare card forbids, a swap without the variant or the deuce: IllegalAction
    naming the environment and the id, and every buffer as before."""
    for seed in range(200):
        vg = VectorGame("buckem", 5, 4, options=options, seed=seed, hands=1)
        rows = vg.legal_mask.tolist()
        envs = [i for i, row in enumerate(rows) if row[BE_STAY] and not row[bad]]
        if envs:
            break
    else:
        raise AssertionError("no deal with that decision refused")
    before = snapshot(vg)
    acts = list(vg.sample_legal(1))
    acts[envs[-1]] = bad
    with pytest.raises(IllegalAction, match=rf"environment {envs[-1]}: action id {bad}\b.*{why}"):
        vg.step(acts)
    assert snapshot(vg) == before


def test_a_draw_of_four_cards_changes_nothing() -> None:
    vg = VectorGame("buckem", 5, 3, seed=4, hands=1)
    for _ in range(20):  # everybody stays: the draw comes after one round of decisions
        if any(vg.legal_mask.tolist()[i][BE_DRAW] for i in range(3)):
            break
        vg.step([BE_STAY if not t else 0 for t in vg.terminated.tolist()])
    i = next(i for i in range(3) if vg.legal_mask.tolist()[i][BE_DRAW])
    before = snapshot(vg)
    acts = list(vg.sample_legal(3))
    acts[i] = BE_DRAW + 0b1111
    with pytest.raises(IllegalAction, match=rf"environment {i}: action id {BE_DRAW + 15}\b"):
        vg.step(acts)
    assert snapshot(vg) == before


def test_simultaneous_declare_hides_a_swap_until_everyone_has_declared() -> None:
    """Under simultaneous_declare the other seats still see the dealt upcard after a deuce
    swap, and nobody's decision, until the last seat has declared (tensors of every seat)."""
    options = {"deuce_swap": True, "simultaneous_declare": True}
    for seed in range(400):
        vg = VectorGame("buckem", 6, 1, options=options, seed=seed, hands=1)
        if vg.legal_mask.tolist()[0][BE_SWAP] and vg.game(0).to_act != vg.game(0).dealer:
            break
    else:
        raise AssertionError("no deal where a seat before the dealer may swap")
    swapper = vg.current_player[0]
    up = vg.game(0).upcard
    vg.step([BE_SWAP])
    g = vg.game(0)
    assert g.phase.value == "stay_fold" and g.upcard != up  # the 2 of trump is face up now
    size = vg.tensor_size
    at = 52 + 109 * 6 + 16  # the upcard block
    for seat in range(6):
        t = vg.observation_tensor(seat=seat).tolist()[0]
        assert t == g.observation_tensor(seat).tolist()
        shown = [c for c in range(52) if t[at + c]]
        assert shown == [(g.upcard if seat == swapper else up)._index], seat
        assert len(t) == size
    while g.phase.value == "stay_fold":
        vg.step([BE_STAY])
        g = vg.game(0)
    for seat in range(6):  # revealed: everyone sees the 2 of trump
        t = vg.observation_tensor(seat=seat).tolist()[0]
        assert t == g.observation_tensor(seat).tolist()
        assert [c for c in range(52) if t[at + c]] == [g.upcard._index]


def test_bad_arguments_and_buffers() -> None:
    """The library's own errors for Buck 'Em's arguments, and nothing changed by bad buffers."""
    for players in (4, 9):
        with pytest.raises(PlayerCountError):
            VectorGame("buckem", players, 2, hands=1)
    assert VectorGame("buckem", 5, 2, hands=None).hands == 10  # no end: 10 rounds, as PettingZoo's
    with pytest.raises(OptionsError, match="ante"):
        VectorGame("buckem", 5, 2, options={"ante": 0}, hands=1)
    with pytest.raises(OptionsError, match="pot_limit"):
        VectorGame("buckem", 5, 2, options={"pot_limit": 2**58 + 1})
    with pytest.raises(OptionsError, match="removed"):
        VectorGame(
            "buckem", 7, 2, options={"short_handed": True, "short_handed_trump": "removed_card"}, hands=1
        )
    with pytest.raises(OptionsError, match="scare_position"):
        VectorGame("buckem", 5, 2, options={"scare_position": 6}, hands=1)
    with pytest.raises(UnsupportedOption):
        VectorGame("buckem", 5, 2, options={"blinds": True}, hands=1)
    with pytest.raises(OptionsError, match="threads"):
        VectorGame("buckem", 5, 2, threads=0, hands=1)
    vg = VectorGame("buckem", 6, 3, seed=5, hands=2)
    before = snapshot(vg)
    for bad in ([BE_STAY] * 2, [BE_STAY] * 4, [BE_STAY, "stay", BE_STAY], [BE_STAY, 2**70, BE_STAY]):
        with pytest.raises(ActionParseError):
            vg.step(bad)
    for seat in (6, -1):
        with pytest.raises(PlayerCountError):
            vg.observation_tensor(seat=seat)
    with pytest.raises(OptionsError):
        vg.observation_tensor(out=bytearray(4 * 3 * vg.tensor_size))  # bytes, not float32 items
    assert snapshot(vg) == before


@pytest.mark.single_core
@pytest.mark.parametrize("reward", ["progress", "game", "hand"])
def test_both_lanes_give_the_same_buffers(reward: str) -> None:
    if "c" not in hucklebuck.available():
        pytest.skip("needs the C core to compare the lanes")  # the CI run without cffi has one lane
    options = {"deuce_swap": True, "scare_cards": True, "pot_limit": 7}
    with hucklebuck.using("c"):
        c = VectorGame("buckem", 6, 5, options=options, seed=78, hands=5, reward=reward)
    with hucklebuck.using("python"):
        py = VectorGame("buckem", 6, 5, options=options, seed=78, hands=5, reward=reward)
    lanes_agree(c, py, 300, games=5)


def test_threads_give_the_same_buffers() -> None:
    args: dict[str, Any] = {"seed": 6, "hands": 3, "reward": "hand", "options": {"scare_cards": True}}
    one = VectorGame("buckem", 7, 23, **args)
    two = VectorGame("buckem", 7, 23, threads=2, **args)
    for k in range(120):
        acts = one.sample_legal(k)
        one.step(acts)
        two.step(acts)
        for a, b in ((one.legal_mask, two.legal_mask), (one.rewards, two.rewards)):
            assert a.tobytes() == b.tobytes()
        assert one.terminated.tobytes() == two.terminated.tobytes()
        if k % 15 == 0:
            seat = k % 7
            assert one.observation_tensor(seat=seat).tobytes() == two.observation_tensor(seat=seat).tobytes()
    assert max(two.episodes) >= 1
    two.close()
