"""A game built from a seed deals its first hand on first use (not in the constructor).

The deal it makes then must be exactly the one the constructor used to make: the
same cards, the same random state afterwards, the same saved form.  The eager
reference is the same game built with ``rng=random.Random(seed)``, which still
deals in the constructor.
"""

from __future__ import annotations

import copy
import hashlib
import pickle
import random
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest

from hucklebuck.errors import DealError, OptionsError, PlayerCountError
from hucklebuck.games import BuckEmGame, DeerParkGame, HucklebuckGame
from hucklebuck.games.base import TrickPlay
from hucklebuck.games.engine import TrickGame

Game = TrickGame[Any, Any]

CASES: list[tuple[type[Game], int, dict[str, Any]]] = [
    (DeerParkGame, 4, {}),
    (DeerParkGame, 3, {"dealer": 2}),
    (DeerParkGame, 8, {"options": {"eight_player_turnup": "dealer_last_card"}}),
    (DeerParkGame, 5, {"options": {"club_turnup_pickup": True}}),
    (HucklebuckGame, 4, {}),
    (HucklebuckGame, 6, {"dealer": 3, "out": [1]}),
    (BuckEmGame, 5, {}),
    (BuckEmGame, 6, {"options": {"short_handed": True, "scare_cards": True}}),
    (BuckEmGame, 7, {"dealer": 4, "bankrolls": [5] * 7, "pot": 3, "pot_units": 1, "ante_due": False}),
]
IDS = [f"{cls.__name__}-{n}-{i}" for i, (cls, n, _) in enumerate(CASES)]
SEEDS: list[int | None] = [None, *range(12), 2**70 + 3, -5]

GOLDEN = "c17f6346fa958894ec631f346a871357d83750b545e7497e8438030241d852ed"
"""The digest below, computed with the library as it was before the first deal was
deferred (every game dealt in its constructor)."""


def _digest() -> str:
    """sha256 over, for every case and seed: the new game's JSON, then its JSON after
    one hand of seeded random actions and the next deal."""
    h = hashlib.sha256()
    for cls, n, kw in CASES:
        for seed in SEEDS:
            g = cls(n, seed=seed, **kw)
            h.update(g.to_json().encode())
            rng = random.Random(0 if seed is None else seed)
            while g.to_act is not None:
                g.apply_id(rng.choice(g.legal_action_ids()))
            if not g.is_over:
                g.next_hand()
            h.update(g.to_json().encode())
    return h.hexdigest()


def test_seeded_games_are_byte_identical_to_the_eager_deal() -> None:
    assert _digest() == GOLDEN


def _pending(game: Game) -> bool:
    return "_pending_seed" in vars(game)


def _norm(v: Any) -> Any:
    """A comparable form of an attribute value (random sources and trick states by content)."""
    if isinstance(v, random.Random):
        return ("rng", v.getstate())
    if isinstance(v, TrickPlay):
        return ("play", {k: _norm(getattr(v, k)) for k in TrickPlay.__slots__})
    return v


def _state(game: Game) -> dict[str, Any]:
    return {k: _norm(v) for k, v in vars(game).items()}


@pytest.mark.parametrize(("cls", "n", "kw"), CASES, ids=IDS)
def test_lazy_deal_equals_the_eager_deal_attribute_for_attribute(
    cls: type[Game], n: int, kw: dict[str, Any]
) -> None:
    for seed in (None, 0, 1, 7, 12345):
        lazy = cls(n, seed=seed, **kw)
        assert _pending(lazy)
        before = _state(lazy)
        del before["_pending_seed"]
        eager = cls(n, rng=random.Random(0 if seed is None else seed), **kw)
        assert not _pending(eager)
        assert lazy.phase is eager.phase  # the first look deals
        assert not _pending(lazy)
        after = _state(lazy)
        assert after == _state(eager)
        # What was set before the deal is what the deal leaves (nothing read early is stale).
        assert {k: after[k] for k in before} == before


@pytest.mark.parametrize(("cls", "n", "kw"), CASES, ids=IDS)
def test_explicit_deal_gives_the_seeded_deal(cls: type[Game], n: int, kw: dict[str, Any]) -> None:
    lazy = cls(n, seed=3, **kw)
    deal = lazy.to_dict()["hands"][0]["deal"]
    given = cls(n, deal=deal, **kw)
    assert not _pending(given)
    assert [lazy.hand(s) for s in range(n)] == [given.hand(s) for s in range(n)]  # type: ignore[attr-defined]
    assert lazy.to_dict()["hands"] == given.to_dict()["hands"]


_ACCESSORS: list[tuple[str, Callable[[Game], Any]]] = [
    ("phase", lambda g: g.phase),
    ("to_act", lambda g: g.to_act),
    ("hand_number", lambda g: g.hand_number),
    ("dealer", lambda g: g.dealer),
    ("standings", lambda g: g.standings),
    ("trump", lambda g: g.trump),
    ("hands", lambda g: [g.hand(s) for s in range(g.players)]),  # type: ignore[attr-defined]
    ("card_zones", lambda g: g.card_zones()),  # type: ignore[attr-defined]
    ("legal_actions", lambda g: g.legal_actions()),
    ("legal_action_ids", lambda g: g.legal_action_ids()),
    ("observation", lambda g: g.observation(0)),
    ("observation_tensor", lambda g: g.observation_tensor(1)),
    ("events", lambda g: g.events),
    ("tricks", lambda g: (g.tricks, g.current_trick, g.trick_leader, g.tricks_won)),
    ("returns", lambda g: (g.returns(), g.hand_returns())),
    ("is_over", lambda g: (g.is_over, g.winners)),
    ("to_json", lambda g: g.to_json()),
    ("to_dict", lambda g: g.to_dict()),
    ("copy", lambda g: g.copy().to_json()),
    ("repr", repr),
    ("str", str),
    ("eq", lambda g: g == type(g).from_json(g.to_json())),
]


@pytest.mark.parametrize(("cls", "n", "kw"), CASES, ids=IDS)
@pytest.mark.parametrize(("what", "get"), _ACCESSORS, ids=[a for a, _ in _ACCESSORS])
def test_every_accessor_works_on_a_fresh_game(
    cls: type[Game], n: int, kw: dict[str, Any], what: str, get: Callable[[Game], Any]
) -> None:
    seed = 5
    lazy = cls(n, seed=seed, **kw)
    eager = cls(n, rng=random.Random(seed), **kw)
    assert get(lazy) == get(eager)
    assert lazy.to_json() == eager.to_json()


@pytest.mark.parametrize(("cls", "n", "kw"), CASES, ids=IDS)
def test_copy_of_an_undealt_game_deals_the_same_hand(cls: type[Game], n: int, kw: dict[str, Any]) -> None:
    ref = cls(n, seed=9, **kw).to_json()
    game = cls(n, seed=9, **kw)
    twin = game.copy()
    assert _pending(game) and _pending(twin)  # copying does not deal
    assert twin.to_json() == ref  # the copy first
    assert game.to_json() == ref
    game = cls(n, seed=9, **kw)
    twin = copy.copy(game)
    assert game.to_json() == ref  # the original first
    assert twin.to_json() == ref
    # Played on independently, they stay independent.
    for g, pick in ((game, 0), (twin, -1)):
        while g.to_act is not None:
            g.apply_id(g.legal_action_ids()[pick])
    assert cls.from_json(game.to_json()) == game
    assert cls.from_json(twin.to_json()) == twin


@pytest.mark.parametrize(("cls", "n", "kw"), CASES, ids=IDS)
def test_pickle_and_deepcopy_of_an_undealt_game(cls: type[Game], n: int, kw: dict[str, Any]) -> None:
    ref = cls(n, seed=4, **kw).to_json()
    for make in (
        lambda g: pickle.loads(pickle.dumps(g)),
        lambda g: pickle.loads(pickle.dumps(g, protocol=2)),
        copy.deepcopy,
    ):
        game = cls(n, seed=4, **kw)
        other = make(game)
        assert _pending(game) and _pending(other)
        assert other.to_json() == ref
        assert game.to_json() == ref
        dealt = make(game)  # and once dealt
        assert dealt.to_json() == ref


def test_unknown_attributes_still_raise_and_dunder_probes_do_not_deal() -> None:
    game = DeerParkGame(4, seed=1)
    deep = getattr(game, "__deepcopy__", None)  # the class's own (the cheap copy), found without dealing
    assert deep is not None and deep.__func__ is type(game).__deepcopy__
    assert _pending(game)
    assert getattr(game, "__getnewargs_ex__", None) is None
    assert getattr(game, "__setstate__", None) is None
    assert _pending(game)
    with pytest.raises(AttributeError, match="'DeerParkGame' object has no attribute 'nope'"):
        game.nope  # type: ignore[attr-defined]  # noqa: B018
    assert not _pending(game)  # an unknown name deals (it might have been the deal's)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        game.nope  # type: ignore[attr-defined]  # noqa: B018
    assert not hasattr(game, "_kitty_x")


@pytest.mark.parametrize(
    ("make", "error"),
    [
        (lambda: DeerParkGame(4, seed="x"), OptionsError),  # type: ignore[arg-type]
        (lambda: DeerParkGame(4, seed=True), OptionsError),
        (lambda: DeerParkGame(4, seed=1, rng=random.Random(1)), OptionsError),
        (lambda: DeerParkGame(4, rng=1), OptionsError),  # type: ignore[arg-type]
        (lambda: DeerParkGame(4, options={"lock_at": "high"}), OptionsError),
        (lambda: DeerParkGame(4, options={"no_such": 1}), OptionsError),
        (lambda: DeerParkGame(8), PlayerCountError),
        (lambda: DeerParkGame(2), PlayerCountError),
        (lambda: DeerParkGame(4, dealer=4), PlayerCountError),
        (lambda: DeerParkGame(4, scores=[1, 2]), OptionsError),
        (lambda: DeerParkGame(4, options=3), OptionsError),  # type: ignore[arg-type]
        (lambda: DeerParkGame(4, deal={"hands": [], "kitty": []}), DealError),
        (lambda: HucklebuckGame(9), PlayerCountError),
        (lambda: HucklebuckGame(4, out=[0]), PlayerCountError),
        (lambda: HucklebuckGame(3, out=[1, 2]), PlayerCountError),
        (lambda: HucklebuckGame(4, out=3), PlayerCountError),  # type: ignore[arg-type]
        (lambda: HucklebuckGame(4, options={"target": "x"}), OptionsError),
        (lambda: BuckEmGame(4), PlayerCountError),
        (lambda: BuckEmGame(5, pot=-1), OptionsError),
        (lambda: BuckEmGame(5, pot_units=True), OptionsError),
        (lambda: BuckEmGame(5, ante_due="yes"), OptionsError),  # type: ignore[arg-type]
        (lambda: BuckEmGame(5, bankrolls=[1]), OptionsError),
        (lambda: BuckEmGame(5, options={"short_handed_trump": "removed_card"}), OptionsError),
        (lambda: BuckEmGame(5, dealer=-1), PlayerCountError),
    ],
)
def test_bad_arguments_still_raise_in_the_constructor(
    make: Callable[[], Game], error: type[Exception]
) -> None:
    with pytest.raises(error):
        make()


@pytest.mark.parametrize(("cls", "n", "kw"), CASES, ids=IDS)
def test_threads_asking_one_undealt_game_together_deal_it_once(
    cls: type[Game], n: int, kw: dict[str, Any]
) -> None:
    # A tiny switch interval makes the threads interleave inside the deal itself.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for seed in range(20):
            game = cls(n, seed=seed, **kw)
            ref = cls(n, rng=random.Random(seed), **kw).to_json()
            start = threading.Barrier(6)
            seen: list[str] = []

            def look(
                k: int, g: Game = game, barrier: threading.Barrier = start, out: list[str] = seen
            ) -> None:
                barrier.wait()
                try:
                    out.append((g.copy() if k % 2 else g).to_json())
                except Exception as exc:  # reported by the assertion below
                    out.append(repr(exc))

            threads = [threading.Thread(target=look, args=(k,)) for k in range(6)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert seen == [ref] * 6  # whole, and dealt once: the random source advanced once
            assert game.to_json() == ref
    finally:
        sys.setswitchinterval(interval)


def test_a_given_rng_is_still_drawn_from_in_the_constructor() -> None:
    # Other code may go on using the same random source, so a game given one deals at once.
    rng = random.Random(2)
    first = DeerParkGame(4, rng=rng)
    second = DeerParkGame(4, rng=rng)
    assert not _pending(first) and not _pending(second)
    deal = first.to_dict()["hands"][0]["deal"]
    assert second.to_dict()["hands"][0]["deal"] != deal
    assert DeerParkGame(4, rng=random.Random(2)).to_dict()["hands"][0]["deal"] == deal


@pytest.mark.parametrize(
    ("cls", "n", "kw"), [(HucklebuckGame, 4, {}), (DeerParkGame, 4, {}), (BuckEmGame, 5, {})]
)
def test_a_dealt_game_has_its_own_class_and_no_getattr_hook(cls: Any, n: int, kw: dict[str, Any]) -> None:
    # A class-level __getattr__ would slow every attribute read of every game (about 12 %
    # of a random hand): only undealt games carry it, on a twin class of the same name.
    game = cls(n, seed=9, **kw)
    twin = type(game)
    assert twin is not cls and issubclass(twin, cls) and twin.__name__ == cls.__name__
    assert repr(game).startswith(f"<{cls.__name__} ")
    assert game == cls(n, seed=9, **kw)  # an undealt and a dealt game of the same seed compare equal
    assert type(game) is cls and not hasattr(cls, "__getattr__")
    for make in (lambda g: g.copy(), copy.deepcopy, lambda g: pickle.loads(pickle.dumps(g))):
        other = make(cls(n, seed=9, **kw))  # still undealt: dealt on its first use, then its own class
        assert other.hand(0) == game.hand(0) and type(other) is cls


def test_a_game_made_from_an_undealt_games_class_is_an_ordinary_game() -> None:
    game = DeerParkGame(4, seed=3)
    again = type(game)(4, seed=3)  # type() of an undealt game is its twin class
    assert again == game and type(again) is DeerParkGame and type(game) is DeerParkGame
