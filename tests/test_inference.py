"""Inference and the modelled auction re-entry of the Monte Carlo search."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from hucklebuck._core import _py_search as pys
from hucklebuck.actions import Bid, Order, Pass
from hucklebuck.cards import CardSet, Rank, Suit
from hucklebuck.errors import OptionsError
from hucklebuck.games import DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.packs import GameKind
from hucklebuck.players import MonteCarloPlayer, _search, inference, likelihood, montecarlo
from hucklebuck.players.accuracy import measure
from hucklebuck.players.heuristics import EXCHANGE_GAIN, estimate_tricks


def _auction(options: dict[str, Any]) -> HucklebuckGame:
    """Four seats: the first passes, the second bids 2, the third passes; the dealer decides."""
    game = HucklebuckGame(4, options=options, seed=11)
    first = game.to_act
    assert first is not None
    game.apply(Pass(first))
    game.apply(Bid((first + 1) % 4, 2))
    game.apply(Pass((first + 2) % 4))
    assert game.phase is Phase.AUCTION and game.to_act == (first + 3) % 4
    return game


def _bidders_when_passing(game: HucklebuckGame) -> set[int]:
    obs = game.observation(game.to_act)
    pos = _search.build_position(obs)
    legal, cands = _search.candidates(obs)
    i = next(k for k, a in enumerate(legal) if isinstance(a, Pass))
    data = _search.run_search(pos, [cands[i]], 7, 400)
    return {data[k + 8] for k in range(0, len(data), pys.REC)}


def test_a_seat_that_passed_before_the_last_bid_may_reenter() -> None:
    off, on = _auction({}), _auction({"auction_reentry": True})
    first = (off.to_act - 3) % 4  # type: ignore[operator]
    third = (first + 2) % 4
    pos_off = _search.build_position(off.observation(off.to_act))
    pos_on = _search.build_position(on.observation(on.to_act))
    assert pos_off.state[first] == 1 and pos_off.state[third] == 1
    assert pos_on.state[first] == 0  # passed before the bid of 2: may bid again
    assert pos_on.state[third] == 1  # passed since it: out unless someone bids again
    # In the simulated rest of the auction the first seat takes the bid in some deals
    # only where re-entry is allowed.
    assert first not in _bidders_when_passing(off)
    assert first in _bidders_when_passing(on)


def test_with_reentry_a_full_circuit_of_passes_still_ends_the_auction() -> None:
    game = HucklebuckGame(4, options={"auction_reentry": True}, seed=3)
    for _ in range(3):
        seat = game.to_act
        assert seat is not None
        game.apply(Pass(seat))
    pos = _search.build_position(game.observation(game.to_act))
    assert sorted(s for s in range(4) if pos.state[s] == 1) == sorted(s for s in range(4) if s != game.to_act)


def test_mc_plays_reentry_auctions_legally() -> None:
    game = HucklebuckGame(4, options={"auction_reentry": True}, seed=5)
    bot = MonteCarloPlayer(samples=8, seed=1)
    for _ in range(120):
        if game.phase is Phase.GAME_OVER:
            break
        if game.phase is Phase.HAND_OVER:
            game.next_hand()
            continue
        seat = game.to_act
        assert seat is not None
        game.apply(bot.choose(game.observation(seat)))


def test_measured_likelihoods_favour_the_hands_that_make_the_choice() -> None:
    # Bidding is likelier with a strong hand, passing with a weak one; so is ordering up
    # for a seat playing for 0 (the counts shipped with the library).
    bid = likelihood.context_key("hb-auction", 4, likelihood.hb_auction_context(2, False, False))
    # (buckets 2 and 9: half a trick and two and a quarter tricks, both well measured)
    assert likelihood.likelihood(bid, 9, "bid") > likelihood.likelihood(bid, 2, "bid")
    assert likelihood.likelihood(bid, 2, "pass") > likelihood.likelihood(bid, 9, "pass")
    order = likelihood.context_key("dp-order", 4, likelihood.dp_order_context(False, False, False))
    assert likelihood.likelihood(order, 7, "order") > likelihood.likelihood(order, 2, "order")
    # never certain either way
    assert 0.0 < likelihood.likelihood(bid, 0, "bid") < 1.0


def test_an_order_weighs_the_deals_by_the_orderer_hand() -> None:
    game = DeerParkGame(4, seed=21)
    seat = game.to_act
    assert seat is not None
    game.apply(Pass(seat))
    game.apply(Order((seat + 1) % 4))
    while game.phase is not Phase.PLAY:
        s = game.to_act
        assert s is not None
        game.apply(MonteCarloPlayer(samples=8, seed=2).choose(game.observation(s)))
    obs = game.observation(game.to_act)
    assert obs.seat != (seat + 1) % 4
    pos = _search.build_position(obs)
    hands = _search.sample_hands(pos, 5, 64)
    weights = inference.sample_weights(obs, GameKind.DEERPARK, hands)
    assert weights is not None and len(weights) == 64 and min(weights) > 0
    assert max(weights) > min(weights)


def test_the_accuracy_command_reads_every_phase(capsys: Any) -> None:
    rows = measure("deerpark", players=3, bots=("heuristic",), games=1, samples=8, seed=2)
    assert "play" in rows and rows["play"].positions > 0
    _, blind, inferred, gain, ess = rows["play"].row()
    assert 0.0 <= blind <= 1.0 and 0.0 <= inferred <= 1.0 and 0.0 < ess <= 1.0
    assert abs(gain - (inferred - blind)) < 1e-12


def test_true_deal_values_leave_nothing_to_chance_in_the_play() -> None:
    from hucklebuck.players import make_player
    from hucklebuck.players.accuracy import true_values

    game = DeerParkGame(4, seed=6)
    bot = make_player("heuristic", "deerpark")
    while game.phase is not Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        game.apply(bot.choose(game.observation(seat)))
    obs = game.observation(game.to_act)
    acts = list(obs.legal_actions)
    first = true_values(obs, game, acts, 1, 3)
    assert first == true_values(obs, game, acts, 99, 5)  # every hand known: no deal left to draw
    assert all(0.0 <= v <= 1.0 for v in first)
    blind = MonteCarloPlayer(samples=64, seed=3, inference=False).analyse(obs)
    assert dict(blind) != dict(zip(acts, first, strict=True))  # the sampled hands are not the true ones


def test_the_accuracy_command_prints_the_true_deal_gain(capsys: Any) -> None:
    from hucklebuck.players.accuracy import main

    assert main(["deerpark", "--players", "3", "--bots", "heuristic", "--games", "1", "--samples", "8"]) == 0
    out = capsys.readouterr().out
    assert "true-deal gain" in out and "choices changed; on the true deal a changed" in out


def test_rebuild_counts_every_kind_of_choice() -> None:
    data = likelihood.rebuild(1, 4, kind="heuristic")
    kinds = {key.split("|")[0] for key in data}
    assert {"hb-auction", "hb-declare", "dp-order", "play"} <= kinds
    for key, per in data.items():
        for b, counts in per.items():
            assert 0 <= int(b) <= likelihood.TOP
            if key.startswith(("play|", "suit|")):
                assert b == "0" and set(counts) <= {"match", "other"} and sum(counts.values()) > 0
            else:
                assert set(counts) <= {"bid", "pass", "stay", "drop", "order", "call"}
    # the heuristics follow suit as cheaply as the playout policy: nearly every card matches
    follow = data["play|hb|follow"]["0"]
    assert follow.get("match", 0) > 4 * follow.get("other", 0)
    # and the Hucklebuck heuristic names the suit of its best trick estimate: every one matches
    assert data["suit|hb|trump"]["0"].get("match", 0) > 0 and "other" not in data["suit|hb|trump"]["0"]


def test_the_fast_trick_estimate_is_the_heuristic_one() -> None:
    rng = random.Random(3)
    for _ in range(500):
        mask = sum(1 << c for c in rng.sample(range(52), rng.randint(0, 7)))
        hand = CardSet.from_mask(mask)
        for t in Suit:
            assert inference._hb_estimate(mask, int(t)) == pytest.approx(estimate_tricks(hand, t))
            keep = [
                c
                for c in hand
                if c.suit is t
                or c.rank == Rank.ACE
                or (c.rank == Rank.KING and len(hand.of_suit(c.suit)) >= 2)
            ]
            assert inference._keepers(mask, int(t)) == len(keep)
        best = max(estimate_tricks(hand, t) for t in Suit) + EXCHANGE_GAIN
        assert inference._hb_best(mask) == pytest.approx(best)


def test_the_rebuild_command_prints_a_data_module(monkeypatch: Any, capsys: Any) -> None:
    monkeypatch.setattr(likelihood, "rebuild", lambda games, seed: {"hb-auction|2": {"8": {"bid": games}}})
    assert likelihood.main(["--games", "3", "--seed", "9"]) == 0
    text = capsys.readouterr().out
    assert "--games 3 --seed 9 --write" in text
    namespace: dict[str, Any] = {}
    exec(compile(text, "data", "exec"), namespace)
    assert namespace["DATA"] == {"hb-auction|2": {"8": {"bid": 3}}}


@pytest.mark.parametrize("power", [0, -1, 5, True, "1", float("nan")])
def test_bad_weight_power(power: Any) -> None:
    with pytest.raises(OptionsError, match="weight_power"):
        MonteCarloPlayer(weight_power=power)


def test_flat_weights_value_the_actions_as_without_inference() -> None:
    game = HucklebuckGame(4, seed=8)
    first = game.to_act
    assert first is not None
    game.apply(Bid(first, 3))
    obs = game.observation(game.to_act)
    flat = MonteCarloPlayer(samples=64, seed=4, weight_power=1e-12, resample=1).analyse(obs)
    blind = MonteCarloPlayer(samples=64, seed=4, inference=False).analyse(obs)
    sharp = MonteCarloPlayer(samples=64, seed=4, resample=1).analyse(obs)
    assert [a for a, _ in flat] == [a for a, _ in blind]
    assert all(x == pytest.approx(y, abs=1e-6) for (_, x), (_, y) in zip(flat, blind, strict=True))
    assert any(abs(x - y) > 1e-6 for (_, x), (_, y) in zip(sharp, blind, strict=True))


def _after_a_bid() -> Any:
    game = HucklebuckGame(4, seed=8)
    first = game.to_act
    assert first is not None
    game.apply(Bid(first, 3))
    return game.observation(game.to_act)


def test_resampling_draws_deals_in_proportion_to_their_weights(monkeypatch: Any) -> None:
    obs = _after_a_bid()
    player = MonteCarloPlayer(samples=8, seed=1)
    drawn = 8 * player.resample
    # only deals 5 and 9 fit, 9 three times as well: 2 and 6 of the 8 samples
    weights = [0.0] * drawn
    weights[5], weights[9] = 1.0, 3.0
    monkeypatch.setattr(inference, "weigh", lambda found, hands: list(weights))
    pos = _search.build_position(obs)
    picks, counts = player._picks(obs, GameKind.HUCKLEBUCK, pos, 77)
    assert picks == [5, 9] and counts == [2.0, 6.0]
    # equal weights: evenly spaced deals, each once
    monkeypatch.setattr(inference, "weigh", lambda found, hands: [1.0] * len(hands))
    picks, counts = player._picks(obs, GameKind.HUCKLEBUCK, pos, 77)
    assert counts == [1.0] * 8
    assert picks is not None and [b - a for a, b in itertools.pairwise(picks)] == [player.resample] * 7


def test_resampled_values_are_the_counted_means_of_the_picked_deals(monkeypatch: Any) -> None:
    obs = _after_a_bid()

    def every_third(found: Any, hands: Any) -> list[float]:
        return [1.0 if k % 3 == 0 else 0.0 for k in range(len(hands))]

    monkeypatch.setattr(inference, "weigh", every_third)
    player = MonteCarloPlayer(samples=16, seed=2)
    ranked = player.analyse(obs)
    # the same values by hand: the picked deals' outcomes, each counted as often as it was drawn
    replay = MonteCarloPlayer(samples=16, seed=2)
    sseed = replay.rng.getrandbits(64)
    pos = _search.build_position(obs)
    legal, cands = _search.candidates(obs)
    picks, counts = replay._picks(obs, GameKind.HUCKLEBUCK, pos, sseed)
    assert picks is not None and counts is not None and all(k % 3 == 0 for k in picks)
    data = _search.run_search(pos, cands, sseed, len(picks), picks=picks, drawn=16 * replay.resample)
    size = len(picks) * pys.REC
    from hucklebuck.players.montecarlo import hand_utility

    by_hand: dict[Any, float] = {}
    for ci, action in enumerate(legal):
        block = data[ci * size : (ci + 1) * size]
        recs = [block[k * pys.REC : (k + 1) * pys.REC] for k in range(len(picks))]
        total = sum(hand_utility(GameKind.HUCKLEBUCK, r, obs) * c for r, c in zip(recs, counts, strict=True))
        by_hand[action] = total / 16
        if isinstance(action, Bid) and action.amount == 5:  # the moon's measured over-rating is taken off
            by_hand[action] = max(0.0, by_hand[action] - montecarlo.MOON_BIAS)
    assert {a: pytest.approx(v) for a, v in ranked} == by_hand


@pytest.mark.parametrize("resample", [0, 17, 2.0, True, "4"])
def test_bad_resample(resample: Any) -> None:
    with pytest.raises(OptionsError, match="resample"):
        MonteCarloPlayer(resample=resample)


@pytest.mark.single_core
@pytest.mark.parametrize("module", ["likelihood", "value", "accuracy"])
def test_the_rebuild_commands_run_without_a_warning(module: str) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-W", "error", "-m", f"hucklebuck.players.{module}", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and "usage: python -m hucklebuck.players." in done.stdout


def test_nothing_to_read_draws_no_extra_deals(monkeypatch: Any) -> None:
    game = HucklebuckGame(4, seed=3)
    obs = game.observation(game.to_act)  # the first to speak: nobody has done anything yet
    assert inference.readings(obs, GameKind.HUCKLEBUCK, _search.build_position(obs)) is None

    def no_drawing(*args: Any) -> Any:
        raise AssertionError("deals drawn for inference with nothing to read")

    monkeypatch.setattr(_search, "sample_hands", no_drawing)
    player = MonteCarloPlayer(samples=16, seed=1)
    blind = MonteCarloPlayer(samples=16, seed=1, inference=False)
    assert player.analyse(obs) == blind.analyse(obs)
