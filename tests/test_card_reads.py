"""Inference from card play: the other seats' cards read as the search's own playout policy."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thorough_kit import examples

import hucklebuck
from hucklebuck._core._py_eval import _Rules
from hucklebuck._core._py_reads import Read
from hucklebuck._core._py_search import _duck_card
from hucklebuck.actions import Play
from hucklebuck.cards import Card
from hucklebuck.games import DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase
from hucklebuck.packs import GameKind
from hucklebuck.players import RandomPlayer, _search, inference, likelihood, make_player

#: A measured table for every context (the shipped one may lack some): made-up chances.
MATCH = {"play|hb|lead": 0.5, "play|hb|follow": 0.8, "play|dp|lead": 0.3, "play|dp|follow": 0.7}
MATCH |= {"play|dp|lead-duck": 0.55, "play|dp|follow-duck": 0.45}


@pytest.fixture
def measured(monkeypatch: Any) -> None:
    data = dict(likelihood.DATA)
    for key, p in MATCH.items():
        data[key] = {"0": {"match": round(1000 * p), "other": round(1000 * (1 - p))}}
    monkeypatch.setattr(likelihood, "DATA", data)


class PolicyPlayer:
    """Plays every card as the search's playout policy would (a Deer Park seat playing for 50:
    its ducking policy); anything else as the heuristic."""

    def __init__(self, game: str) -> None:
        self.other = make_player("heuristic", game)

    def choose(self, obs: Any) -> Any:
        if obs.phase is not Phase.PLAY:
            return self.other.choose(obs)
        pos = _search.build_position(obs)
        r = _Rules(pos.game, pos.trump)
        ducks = pos.game == 2 and pos.flags >> 8 >> obs.seat & 1
        c = (
            _duck_card(r, obs.hand.mask, list(pos.trick))
            if ducks
            else r.policy(obs.hand.mask, list(pos.trick))
        )
        return next(a for a in obs.legal_actions if isinstance(a, Play) and a.card.index == c)


def _played(obs: Any) -> list[tuple[int, int]]:
    """The cards played this hand, in order, from the hand's history."""
    out = []
    for entry in obs.history:
        parts = entry.split()
        if len(parts) == 3 and parts[1] == "play":
            out.append((int(parts[0]), Card.parse(parts[2]).index))
    return out


def _into_play(game: Any, seats: list[Any], cards: int) -> Any:
    """Play on until ``cards`` cards of the hand are on the table; the observation of the seat to act."""
    while True:
        if game.phase is Phase.HAND_OVER:
            raise AssertionError("the hand ended first")
        obs = game.observation(game.to_act)
        if obs.phase is Phase.PLAY and len(_played(obs)) >= cards:
            return obs
        game.apply(seats[obs.seat].choose(obs))


def _hucklebuck_table(cards: int) -> tuple[Any, Any]:
    """The first Hucklebuck table (by seed) whose hand reaches ``cards`` cards played."""
    for seed in range(100):
        for game, obs in _tables(seed, cards):
            if isinstance(game, HucklebuckGame):
                return game, obs
    raise AssertionError("no hand got that far")


def _tables(seed: int, cards: int) -> list[tuple[Any, Any]]:
    out = []
    for cls, name in ((HucklebuckGame, "hucklebuck"), (DeerParkGame, "deerpark")):
        game = cls(4, seed=seed)
        try:
            obs = _into_play(game, [PolicyPlayer(name) for _ in range(4)], cards)
        except AssertionError:
            continue
        out.append((game, obs))
    return out


def test_each_read_is_a_card_another_seat_played_with_what_it_played_after(measured: None) -> None:
    checked = 0
    for seed in range(4):
        for _, obs in _tables(seed, 9):
            kind = _search.game_of(obs)
            reads = inference.play_reads(obs, kind, _search.build_position(obs))
            shown = _played(obs)
            assert [(r.seat, r.card) for r in reads] == [(s, c) for s, c in shown if s != obs.seat]
            for r, k in zip(reads, [k for k, (s, _) in enumerate(shown) if s != obs.seat], strict=True):
                assert r.later == sum(1 << c for s, c in shown[k + 1 :] if s == r.seat)
                assert 0 < r.match < 1
            checked += 1
    assert checked >= 4


def test_the_true_deal_of_policy_players_gets_the_full_match_weight(measured: None) -> None:
    checked = 0
    for seed in range(12):
        for game, obs in _tables(seed, 6):
            kind = _search.game_of(obs)
            pos = _search.build_position(obs)
            reads = inference.play_reads(obs, kind, pos)
            true = [game.hand(s).mask if s < 4 else 0 for s in range(8)]
            weight = _search.read_weights(pos, [true], reads)[0]
            expected = 1.0
            for r in reads:
                hand = true[r.seat] | r.later | 1 << r.card
                rules = _Rules(pos.game, pos.trump)
                if rules.legal(hand, r.trick[0] if r.trick else -1).bit_count() > 1:
                    expected *= r.match
            assert weight == pytest.approx(expected)
            assert reads and weight < 1.0
            checked += 1
    assert checked >= 12


def test_a_card_off_the_policy_counts_the_rest_of_the_chance_shared(measured: None) -> None:
    _, obs = _hucklebuck_table(2)
    pos = _search.build_position(obs)
    read = inference.play_reads(obs, GameKind.HUCKLEBUCK, pos)[0]
    rules = _Rules(pos.game, pos.trump)
    deals = _search.sample_hands(pos, 9, 200)
    weights = _search.read_weights(pos, deals, [read])
    seen = set()
    for deal, w in zip(deals, weights, strict=True):
        hand = deal[read.seat] | read.later | 1 << read.card
        legal = rules.legal(hand, read.trick[0] if read.trick else -1).bit_count()
        policy = rules.policy(hand, list(read.trick))
        want = 1.0 if legal == 1 else read.match if policy == read.card else (1 - read.match) / (legal - 1)
        assert w == pytest.approx(want)
        seen.add(policy == read.card)
    assert seen == {True, False}


@pytest.mark.single_core
@pytest.mark.skipif("c" not in hucklebuck.available(), reason="C core not built")
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 1), st.integers(0, 10**6), st.integers(1, 19), st.integers(0, 2**64 - 1))
def test_both_cores_read_the_same_weights(which: int, seed: int, cards: int, sseed: int) -> None:
    cls = (HucklebuckGame, DeerParkGame)[which]
    game = cls(4, seed=seed)
    rng = random.Random(seed)
    bot = RandomPlayer(seed=seed)
    try:
        obs = _into_play(game, [bot] * 4, cards % 16)
    except AssertionError:
        return
    pos = _search.build_position(obs)
    reads = [Read(r.seat, r.card, r.trick, r.later, rng.uniform(0.05, 0.95)) for r in _reads_of(obs, pos)]
    got = []
    for core in ("c", "python"):
        with hucklebuck.using(core):
            deals = _search.sample_hands(pos, sseed, 16)
            got.append(_search.read_weights(pos, deals, reads))
    assert got[0] == got[1]


def _reads_of(obs: Any, pos: Any) -> list[Read]:
    saved = dict(likelihood.DATA)
    try:
        for key, p in MATCH.items():
            likelihood.DATA[key] = {"0": {"match": round(1000 * p), "other": round(1000 * (1 - p))}}
        return inference.play_reads(obs, _search.game_of(obs), pos)
    finally:
        likelihood.DATA.clear()
        likelihood.DATA.update(saved)


@pytest.mark.parametrize(
    "bad",
    [
        {"seat": 7},
        {"seat": -1},
        {"card": 52},
        {"later": 1 << 52},
        {"match": 0.0},
        {"match": 1.0},
        {"match": math.nan},
        {"trick": tuple(range(8))},
        {"trick": (60,)},
        {"self_later": True},
    ],
)
def test_bad_reads_are_refused(measured: None, bad: dict[str, Any]) -> None:
    _, obs = _hucklebuck_table(3)
    pos = _search.build_position(obs)
    read = inference.play_reads(obs, GameKind.HUCKLEBUCK, pos)[0]
    fields = {
        "seat": read.seat,
        "card": read.card,
        "trick": read.trick,
        "later": read.later,
        "match": read.match,
    }
    change = dict(bad)
    if change.pop("self_later", False):
        fields["later"] = 1 << read.card
    fields.update(change)
    deals = _search.sample_hands(pos, 1, 4)
    with pytest.raises(hucklebuck.CoreInputError, match="does not fit this position"):
        _search.read_weights(pos, deals, [Read(**fields)])
    with pytest.raises(hucklebuck.CoreInputError, match="does not fit this position"):
        _search.read_weights(pos, [[1 << 53] * 8], [read])  # a card that does not exist


def test_reads_only_in_the_play(measured: None) -> None:
    game = HucklebuckGame(4, seed=1)
    obs = game.observation(game.to_act)
    pos = _search.build_position(obs)
    assert inference.play_reads(obs, GameKind.HUCKLEBUCK, pos) == []
    with pytest.raises(hucklebuck.CoreInputError):
        _search.read_weights(pos, _search.sample_hands(pos, 1, 2), [Read(1, 0, (), 0, 0.5)])


def test_the_player_weighs_deals_by_the_cards_played(measured: None, monkeypatch: Any) -> None:
    _, obs = _hucklebuck_table(6)
    pos = _search.build_position(obs)
    deals = _search.sample_hands(pos, 4, 32)
    with_cards = inference.sample_weights(obs, GameKind.HUCKLEBUCK, deals, pos)
    without = inference.sample_weights(obs, GameKind.HUCKLEBUCK, deals)
    reads = _search.read_weights(pos, deals, inference.play_reads(obs, GameKind.HUCKLEBUCK, pos))
    assert with_cards is not None and len(set(reads)) > 1
    base = without or [1.0] * len(deals)
    assert with_cards == pytest.approx([a * b for a, b in zip(base, reads, strict=True)])
