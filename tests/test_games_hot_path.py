"""The games' hot paths written out for speed (issue 40) give exactly what the plain code gave:
the shuffle of a deal, the trick seats in playing order, a hand's score reasons."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

import pytest

import hucklebuck as hb
from hucklebuck.cards import Card
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.games.base import Phase, TrickPlay, shuffle
from hucklebuck.games.deerpark import DeerParkOptions
from hucklebuck.games.engine import TrickGame

pytestmark = pytest.mark.single_core


class _OwnShuffle(random.Random):
    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        x.reverse()


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 24, 25, 32, 52, 64, 65])
def test_shuffle_is_random_shuffle(n: int, compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from hucklebuck import _fast

    if compiled and _fast.ext is None:
        pytest.skip("the compiled helpers are not built")
    if not compiled:
        monkeypatch.setattr(_fast, "ext", None)  # the Python loop
    cards = [Card.from_index(i % 52) for i in range(n)]
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = cards[:], cards[:]
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getstate() == theirs.getstate()  # the same draws: later deals agree too


def test_shuffle_leaves_another_random_source_its_own_shuffle() -> None:
    cards = [Card.from_index(i) for i in range(5)]
    shuffle(_OwnShuffle(1), cards)
    assert [c.index for c in cards] == [4, 3, 2, 1, 0]


def test_trick_seats_rotate_from_each_leader() -> None:
    play = TrickPlay(2, 2, (0, 2, 3), 2, 4)
    assert play.seats == (2, 3, 0)
    assert [play._rotated(s) for s in (0, 2, 3)] == [(0, 2, 3), (2, 3, 0), (3, 0, 2)]
    assert play._rotated(3) is play._rotated(3)  # built once


def test_score_reasons_are_the_rules_wording() -> None:
    seen: set[str] = set()
    for counted in (False, True):
        opts = DeerParkOptions(failed_contract_tricks_count=counted)
        for seed in range(60):
            game = DeerParkGame(4, seed=seed, options=opts)
            rng = random.Random(seed)
            while game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
                game.apply(rng.choice(game.legal_actions()))
            result = game.results[-1]
            for s in range(4):
                t, maker = result.tricks_won[s], s == result.maker
                need = result.requirement if maker else 1
                role = "the maker" if maker else "a defender"
                if t >= need:
                    want = (-t, f"{role} needed {need} and took {t}: -{t} (S4, DEF #65)")
                elif maker and counted:
                    want = (5 - t, f"the maker needed {need} and took {t}: +5 - {t} "
                            "(failed_contract_tricks_count, DEF #66)")  # fmt: skip
                else:
                    cite = "DEF #66" if maker else "DEF #65"
                    want = (5, f"{role} needed {need} and took {t}: +5 (S4, {cite})")
                assert (result.delta[s], result.reasons[s]) == want
                seen.add(want[1].split(":")[1])
    assert len(seen) >= 5  # taken, failed, failed with the option, defenders' +5 and -t


# ------------------------------------------------------------------ the compiled pick
needs_c = pytest.mark.skipif("c" not in hb.available(), reason="the C core is not built")


def _loop(mask: int, items: tuple[object, ...]) -> list[object]:
    out = []
    while mask:
        low = mask & -mask
        out.append(items[low.bit_length() - 1])
        mask ^= low
    return out


@needs_c
def test_pick_is_the_loop() -> None:
    from hucklebuck import _fast

    ext = _fast.ext
    assert ext is not None
    rng = random.Random(3)
    numbers = tuple(range(52))
    for _ in range(2000):
        mask = rng.getrandbits(52) & rng.getrandbits(52) & rng.getrandbits(52)
        assert ext.pick(mask, numbers) == _loop(mask, numbers)
    wide = tuple(str(i) for i in range(64))
    assert ext.pick((1 << 63) | 1, wide) == ["0", "63"]
    assert ext.pick(0, ()) == []
    for mask, items in [(-1, numbers), (1 << 64, wide), (1 << 52, numbers), (True, numbers), (1, [0])]:
        assert ext.pick(mask, items) is None  # type: ignore[arg-type]


@needs_c
@pytest.mark.parametrize("make", [lambda s: DeerParkGame(4, seed=s), lambda s: HucklebuckGame(5, seed=s),
                                  lambda s: BuckEmGame(6, seed=s)])  # fmt: skip
def test_legal_moves_are_the_same_with_and_without_pick(
    make: Callable[[int], TrickGame[Any, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from hucklebuck.games import _agent_api, engine

    for seed in range(15):
        game, rng = make(seed), random.Random(seed)
        while game.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            with monkeypatch.context() as m:
                m.setattr(engine, "_pick", None)
                m.setattr(_agent_api, "_pick", None)
                slow = (game.legal_actions(), game.legal_action_ids())
            fast = (game.legal_actions(), game.legal_action_ids())
            assert fast == slow and type(fast[0]) is list and type(fast[1]) is list
            game.apply_id(rng.choice(fast[1]))


@needs_c
def test_the_compiled_shuffle_refuses_what_it_does_not_take() -> None:
    from hucklebuck import _fast

    ext = _fast.ext
    assert ext is not None
    assert ext.shuffle(random.Random(1).getrandbits, (1, 2, 3)) is None  # type: ignore[arg-type]

    def boom(k: int) -> int:
        raise ValueError("no more bits")

    with pytest.raises(ValueError, match="no more bits"):
        ext.shuffle(boom, [1, 2, 3])
    with pytest.raises(RuntimeError, match="bad draw"):
        ext.shuffle(lambda k: -1, [1, 2, 3])
    with pytest.raises(RuntimeError, match="bad draw"):
        ext.shuffle(lambda k: "x", [1, 2, 3])  # type: ignore[arg-type, return-value]
    items = [object() for _ in range(10)]
    counts = [sys.getrefcount(o) for o in items]
    ext.shuffle(random.Random(2).getrandbits, items)
    assert sorted(map(id, items)) == sorted(map(id, items)) and [sys.getrefcount(o) for o in items] == counts


def test_kept_card_choices_are_every_combination_in_order_and_survive_eviction() -> None:
    """The exchange's and the draw's moves are built once per seat and hand and kept; what is kept is
    exactly every choice of the cards, in :func:`itertools.combinations` order, and stays so after
    the store is emptied to make room."""
    import itertools

    from hucklebuck.actions import Discard, Draw
    from hucklebuck.games import ids

    rng = random.Random(7)
    for _ in range(ids._CHOICES_KEPT + 50):  # past the cap: the store is emptied once on the way
        hand = sorted(rng.sample(range(52), 5))
        mask = sum(1 << i for i in hand)
        seat, k = rng.randrange(8), rng.randrange(4)
        cards = [Card.from_index(i) for i in hand]
        drawn = ids.card_choices(Draw, seat, mask, 0, 3)
        assert drawn == tuple(Draw(seat, c) for n in range(4) for c in itertools.combinations(cards, n))
        assert ids.card_choices(Draw, seat, mask, 0, 3) is drawn  # kept
        assert ids.card_choices(Discard, seat, mask, k, k) == tuple(
            Discard(seat, c) for c in itertools.combinations(cards, k)
        )
    assert len(ids._CHOICES) <= ids._CHOICES_KEPT
