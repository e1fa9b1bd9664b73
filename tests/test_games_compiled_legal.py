"""The compiled legal plays (``hucklebuck._hbcall.legal``, behind ``legal_action_ids`` and
``legal_actions`` in the play phase) list exactly what the Python path lists, refuse anything
but the plain case, and change nothing; the seeded random source of a lazily dealt game is
``random.Random(seed)`` (issue 60: the per-action API's speed)."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import hucklebuck as hb
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame, _agent_api, engine
from hucklebuck.games._lazy_deal import seeded_random
from hucklebuck.games.base import Phase
from hucklebuck.games.engine import TrickGame

needs_c = pytest.mark.skipif(
    "c" not in hb.available(), reason="the compiled helpers are built with the C core"
)

MAKERS: list[Callable[[int], TrickGame[Any, Any]]] = [
    lambda s: DeerParkGame(4, seed=s),
    lambda s: DeerParkGame(7, seed=s),
    lambda s: HucklebuckGame(5, seed=s),
    lambda s: BuckEmGame(6, seed=s),
]
DONE = (Phase.HAND_OVER, Phase.GAME_OVER)


def _ext() -> Any:
    from hucklebuck import _fast

    assert _fast.ext is not None
    return _fast.ext


@contextmanager
def python_legal() -> Iterator[None]:
    """The engine's legal moves without the compiled call (the Python twin)."""
    saved = engine._c_legal, _agent_api._c_legal
    engine._c_legal = _agent_api._c_legal = None
    try:
        yield
    finally:
        engine._c_legal, _agent_api._c_legal = saved


@needs_c
@pytest.mark.single_core
@pytest.mark.parametrize("make", MAKERS)
def test_the_compiled_legal_plays_are_the_python_ones(make: Callable[[int], TrickGame[Any, Any]]) -> None:
    ext = _ext()
    assert engine._c_legal is ext.legal and _agent_api._c_legal is ext.legal
    checked = 0
    for seed in range(10):
        game, rng = make(seed), random.Random(seed)
        for _ in range(3):  # hands
            while game.phase not in DONE:
                ids, typed = ext.legal(game, False), ext.legal(game, True)
                with python_legal():
                    want_ids, want_typed = game.legal_action_ids(), game.legal_actions()
                if game.phase is Phase.PLAY:
                    assert ids == want_ids and typed == want_typed
                    assert all(a is b for a, b in zip(typed, want_typed, strict=True))  # the shared Plays
                    checked += 1
                else:
                    assert ids is None and typed is None  # the Python path answers
                assert game.legal_action_ids() == want_ids and game.legal_actions() == want_typed
                if rng.random() < 0.1:  # a copy shares the trick state: read as it is
                    game = game.copy()
                game.apply_id(rng.choice(want_ids))
            if game.phase is Phase.GAME_OVER:
                break
            assert ext.legal(game, False) is None
            game.next_hand()
    assert checked > 300


def _at_play(seed: int = 3) -> DeerParkGame:
    game = DeerParkGame(4, seed=seed)
    rng = random.Random(seed)
    while game.phase is not Phase.PLAY:
        game.apply_id(rng.choice(game.legal_action_ids()))
    game.apply_id(game.legal_action_ids()[0])  # a trick under way: the suit led counts
    return game


REFUSED: list[tuple[str, Callable[[Any], None]]] = [
    ("hands a tuple", lambda g: setattr(g, "_hands", tuple(g._hands))),
    ("a hand a bool", lambda g: g._hands.__setitem__(g.to_act, True)),
    ("a hand negative", lambda g: g._hands.__setitem__(g.to_act, -1)),
    ("a hand past 52 cards", lambda g: g._hands.__setitem__(g.to_act, g._hands[g.to_act] | 1 << 60)),
    ("a hand huge", lambda g: g._hands.__setitem__(g.to_act, 1 << 200)),
    ("hands short", lambda g: setattr(g, "_hands", g._hands[:1])),
    ("hands gone", lambda g: delattr(g, "_hands")),
    ("trick state another object", lambda g: setattr(g, "_play", object())),
    ("current a tuple", lambda g: setattr(g._play, "current", tuple(g._play.current))),
    ("current holds a str", lambda g: g._play.current.__setitem__(0, "AS")),
    ("seats a list", lambda g: setattr(g._play, "seats", list(g._play.seats))),
    ("seats name a seat past the table", lambda g: setattr(g._play, "seats", (9, 9, 9, 9))),
    ("seats empty", lambda g: setattr(g._play, "seats", ())),
    ("suit table short", lambda g: setattr(g._play, "suit_of", b"\x00")),
    ("suit table past the suits", lambda g: setattr(g._play, "suit_of", bytes([7]) * 52)),
    ("suit masks a list", lambda g: setattr(g._play, "suit_masks", list(g._play.suit_masks))),
    ("phase another", lambda g: setattr(g, "_phase", Phase.ORDER)),
]


@needs_c
@pytest.mark.single_core
@pytest.mark.parametrize(("what", "corrupt"), REFUSED, ids=[c[0] for c in REFUSED])
def test_the_compiled_legal_refuses_a_state_it_does_not_take(
    what: str, corrupt: Callable[[Any], None]
) -> None:
    ext = _ext()
    game = _at_play()
    corrupt(game)
    before = dict(game.__dict__)
    hands = list(getattr(game, "_hands", ()))
    assert ext.legal(game, False) is None
    assert ext.legal(game, True) is None
    assert game.__dict__ == before and list(getattr(game, "_hands", ())) == hands


@needs_c
@pytest.mark.single_core
def test_the_compiled_legal_refuses_other_arguments() -> None:
    ext = _ext()
    game = _at_play()
    want = game.legal_action_ids()
    for typed in [1, 0, None, "yes"]:
        assert ext.legal(game, typed) is None
    for other in [object(), None, 3, "game", DeerParkGame(4, seed=1)]:  # the last: not in its play phase
        assert ext.legal(other, False) is None
    with pytest.raises(TypeError):
        ext.legal(game)
    with pytest.raises(TypeError):
        ext.legal(game, False, 1)
    assert game.legal_action_ids() == want
    play, hands, phase = game._play, game._hands, game._phase
    refs = [sys.getrefcount(x) for x in (play, hands, phase, game)]
    for _ in range(100):
        ext.legal(game, True)
        ext.legal(game, False)
    assert [sys.getrefcount(x) for x in (play, hands, phase, game)] == refs  # no reference kept or lost


@needs_c
@pytest.mark.single_core
def test_pick_takes_every_mask_up_to_64_bits_and_refuses_the_rest() -> None:
    pick = _ext().pick
    items = tuple(range(64))
    assert pick((1 << 64) - 1, items) == list(range(64))
    assert pick(1 << 63, items) == [63]
    assert pick((1 << 52) | 5, items) == [0, 2, 52]
    assert pick(0, items) == []
    for bad in [1 << 64, -1, -(1 << 70), True]:
        assert pick(bad, items) is None
    assert pick(1 << 5, tuple(range(5))) is None  # a bit past the items


@pytest.mark.parametrize("seed", [0, 1, 7, 2**31, 2**70 + 3, -5])
def test_a_seeded_game_draws_from_random_random_of_its_seed(seed: int) -> None:
    rng = seeded_random(seed)
    assert type(rng) is random.Random
    assert rng.getstate() == random.Random(seed).getstate()
    other = random.Random(seed)
    assert [rng.random() for _ in range(5)] == [other.random() for _ in range(5)]


def test_a_lazily_dealt_game_deals_what_an_eager_one_deals() -> None:
    for seed in [0, 5, 2**40]:
        lazy = DeerParkGame(4, seed=seed)
        eager = DeerParkGame(4, rng=random.Random(seed))
        assert lazy.to_dict() == eager.to_dict()
        assert lazy._rng.getstate() == eager._rng.getstate()  # the next hands too


def test_phase_stays_a_read_only_property() -> None:
    game = DeerParkGame(4, seed=2)
    assert isinstance(TrickGame.__dict__["phase"], property)
    assert TrickGame.phase.__doc__ == "The current phase."
    assert TrickGame.phase.fget.__annotations__["return"] in ("Phase", Phase)  # what the docs show
    assert game.phase is game._phase
    with pytest.raises(AttributeError):
        game.phase = Phase.PLAY  # type: ignore[misc]


@pytest.mark.parametrize("make", MAKERS)
def test_reading_phase_first_deals_an_undealt_game(make: Callable[[int], TrickGame[Any, Any]]) -> None:
    for seed in range(5):
        game, ref = make(seed), make(seed)
        assert "_pending_seed" in vars(game)
        assert game.phase is ref.phase  # the first read deals (the undealt twin class has its own phase)
        assert "_pending_seed" not in vars(game) and "phase" not in type(game).__dict__  # its own class again
        assert game.to_dict() == ref.to_dict()


@pytest.mark.parametrize(
    ("label", "target"), [("hands/s typed / OpenSpiel", 0.8), ("hands/s ids / OpenSpiel", 1.0)]
)
def test_the_targets_against_openspiel_are_guarded(label: str, target: float) -> None:
    from hucklebuck.bench import targets

    assert ("games", label) not in targets.PENDING  # both reached (typed about 1.0, ids about 1.06)
    quiet = targets.Load(0.0, 0.0, 0.0, 2)
    targets.reset()
    try:
        targets.check("games", label, 0.6 * target, target)  # a wide miss on a quiet machine
        assert not targets.RESULTS[-1].pending and targets.RESULTS[-1].wide
        assert targets.summary(quiet, quiet, True, None) == 1
    finally:
        targets.reset()
