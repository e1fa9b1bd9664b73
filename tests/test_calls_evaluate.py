"""evaluate_hand() in C (issue 40): on the C core a plain evaluation runs in C from the
arguments to the result (``hucklebuck._hbcall.evaluate``); everything else, errors
included, takes the checked Python path both cores share.

These tests pin the error wording on both cores, check that the C path answers
exactly the plain calls (and only on the C core), that it gives the general
path's answer bit for bit on random arguments of every game (on both cores), that
hostile arguments get the same result or the same error on both cores, that an
evaluation by the solver past the C path's node budget is left to the Python path,
that threads each use their own table, and that it holds no references it should not.
"""

from __future__ import annotations

import random
import sys
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from thorough_kit import examples

import hucklebuck as hb
from hucklebuck import (
    Card,
    CardError,
    CardSet,
    GameKind,
    HucklebuckError,
    OptionsError,
    PlayerCountError,
    Suit,
    evaluate,
    parse_cards,
)
from hucklebuck._mc import evaluate_counts
from hucklebuck.evaluate import TrickDistribution, evaluate_hand
from hucklebuck.packs import pack, player_range

HAS_C = "c" in hb.available()
needs_c = pytest.mark.skipif(not HAS_C, reason="the C core is not built")
ALL = [Card.from_index(i) for i in range(52)]
HAND = CardSet(parse_cards("AS KS QS 2H 3D"))
AS, KS, C2, TC = parse_cards("AS KS 2C TC")
PLAIN: dict[str, Any] = {"players": 4, "samples": 20}
# the compiled function's arguments after game, trump and hand, with their defaults
KEYS = (
    "players", "seat", "leader", "seen", "in_play", "samples", "seed", "method", "workers",
    "short_handed", "executor", "chunk_size", "progress", "node_limit",
)  # fmt: skip
DEFAULTS: dict[str, Any] = {
    "seat": 0, "leader": 0, "seen": (), "in_play": None, "samples": 10_000, "seed": 0,
    "method": "playout", "workers": 1, "short_handed": False, "executor": None, "chunk_size": None,
    "progress": None, "node_limit": None,
}  # fmt: skip


def _ext_call(game: object, trump: object, hand: object, **kwargs: Any) -> TrickDistribution | None:
    from hucklebuck import _fast

    assert _fast.ext is not None
    args = {**DEFAULTS, **kwargs}
    return _fast.ext.evaluate(game, trump, hand, *(args[k] for k in KEYS))


def _general(game: object, trump: object, hand: object, **kwargs: Any) -> TrickDistribution:
    """The checked Python path on the active core."""
    counts, samples = evaluate_counts(game, trump, hand, **kwargs)  # type: ignore[arg-type]
    return TrickDistribution(counts, samples)


def _outcome(call: Callable[..., object], *args: Any, **kwargs: Any) -> tuple[str, object]:
    try:
        return "ok", call(*args, **kwargs)
    except HucklebuckError as exc:
        return type(exc).__name__, str(exc)


class Seats(list):  # type: ignore[type-arg]
    """A list subclass."""


class Count(int):
    """An int subclass."""


class Method(str):
    """A str subclass."""


# ------------------------------------------------------------------ the errors, on both cores
@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"game": "poker"}, OptionsError,
         "game: 'poker' is not a game (expected one of 'hucklebuck', 'buckem', 'deerpark')"),
        ({"trump": "s"}, CardError,
         "trump: 's' is not a suit (give a Suit or one of the letters C, D, H, S)"),
        ({"hand": "AS KS"}, CardError,
         "hand must be a CardSet or a list of Cards, not 'AS KS' (parse text with parse_cards)"),
        ({"hand": [AS, AS]}, CardError, "hand: card AS appears twice"),
        ({"hand": ALL[:6]}, CardError, "hand must hold 1 to 5 cards, not 6"),
        ({"hand": []}, CardError, "hand must hold 1 to 5 cards, not 0"),
        ({"players": 2}, PlayerCountError, "players must be an integer 3..7, not 2"),
        ({"players": True}, PlayerCountError, "players must be an integer 3..7, not True (bool)"),
        ({"seat": 4}, PlayerCountError, "seat must be an integer 0..3, not 4"),
        ({"leader": -1}, PlayerCountError, "leader must be an integer 0..3, not -1"),
        ({"seen": [AS]}, CardError, "seen: a card is both in the hand and among the seen cards"),
        ({"in_play": [0, 0]}, PlayerCountError, "in_play lists a seat twice: [0, 0]"),
        ({"in_play": [1, 2]}, PlayerCountError, "in_play [1, 2] must include the seat, 0"),
        ({"in_play": [0]}, PlayerCountError, "in_play must hold at least 2 seats, not [0]"),
        ({"samples": 0}, OptionsError, "samples must be an integer 1..4294967295, not 0"),
        ({"samples": 2**32}, OptionsError, f"samples must be an integer 1..4294967295, not {2**32}"),
        ({"seed": -1}, OptionsError, f"seed must be an integer 0..{2**64 - 1}, not -1"),
        ({"seed": 1.5}, OptionsError, f"seed must be an integer 0..{2**64 - 1}, not 1.5 (float)"),
        ({"method": "solve"}, OptionsError, "method must be one of 'playout', 'solver', not 'solve'"),
        ({"workers": 0}, OptionsError, "workers must be an integer 1..1024, not 0"),
        ({"short_handed": 1}, OptionsError, "short_handed must be True or False, not 1"),
        ({"node_limit": 0}, OptionsError, f"node_limit must be an integer 1..{2**63 - 1}, not 0"),
        ({"game": "deerpark", "players": 3, "hand": [AS, C2]}, CardError,
         "hand and seen must be cards of the Deer Park Euchre pack for 3 players"),
        ({"game": "deerpark", "players": 7, "hand": [AS], "seen": list(pack("deerpark", 7))[:30]}, CardError,
         "seen: only 5 unseen cards are left, too few to deal 1 to each of 6 other seats"),
        ({"chunk_size": 0}, OptionsError, "chunk_size must be a positive integer, not 0"),
        ({"progress": 5}, OptionsError, "progress must be a callable progress(done, total), not 5"),
        ({"executor": "pool"}, OptionsError,
         "executor must be a concurrent.futures.Executor (a ThreadPoolExecutor, a ProcessPoolExecutor, "
         "dask.distributed.Client.get_executor(), ...), not str"),
    ],
)  # fmt: skip
def test_evaluate_error_wording(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    args: dict[str, Any] = {"game": "hucklebuck", "trump": Suit.SPADES, "hand": HAND, **PLAIN, **kwargs}
    with pytest.raises(error) as info:
        evaluate_hand(**args)
    assert str(info.value) == message


def test_plain_evaluations(core_name: str) -> None:
    want = _general("hucklebuck", Suit.SPADES, HAND, **PLAIN)
    assert sum(want.counts) == 20
    assert evaluate_hand("hucklebuck", Suit.SPADES, HAND, **PLAIN) == want
    assert evaluate_hand(GameKind.HUCKLEBUCK, "S", list(HAND), **PLAIN) == want
    assert evaluate_hand("hucklebuck", "S", tuple(HAND), in_play=(3, 0, 1, 2), **PLAIN) == want


# ------------------------------------------------------------------ when the C path answers
@needs_c
@pytest.mark.single_core
def test_the_c_path_answers_plain_evaluations_only_on_the_c_core() -> None:
    with hb.using("c"):
        assert _ext_call("hucklebuck", Suit.SPADES, HAND, **PLAIN) is not None
        assert _ext_call("hucklebuck", "S", list(HAND), **PLAIN, method="solver") is not None
        assert _ext_call("buckem", "S", HAND, players=5, samples=5, in_play=[0, 3]) is not None
        assert _ext_call("buckem", "S", HAND, players=5, samples=5, short_handed=True) is None  # 2H, 3D: no
        assert _ext_call("buckem", "S", ALL[-5:], players=5, samples=5, short_handed=True) is not None
        assert _ext_call("hucklebuck", "S", HAND, **PLAIN, node_limit=2**63 - 1) is not None
        assert _ext_call("hucklebuck", "S", HAND, **PLAIN, seed=2**64 - 1) is not None
        for kwargs in [
            {"samples": 100_001},  # a long evaluation: where Ctrl-C can stop it
            {"samples": Count(20)},
            {"seed": -1},
            {"seed": 2**64},
            {"players": Count(4)},
            {"players": 8},  # not a Hucklebuck count
            {"seat": True},
            {"in_play": {0, 1}},  # a set: the Python path reads it
            {"in_play": Seats([0, 1])},
            {"in_play": [0, 1, 1]},
            {"method": Method("playout")},
            {"method": "solver", "node_limit": 10},  # each solve's own budget: the Python path
            {"workers": 2},
            {"short_handed": 0},
            {"chunk_size": 20},
            {"progress": print},
            {"node_limit": 0},
            {"hand": iter(HAND)},
            {"hand": [AS, AS]},
            {"seen": [AS]},
            {"trump": 3},
            {"game": "Hucklebuck"},
        ]:
            args: dict[str, Any] = {"game": "hucklebuck", "trump": "S", "hand": HAND, **PLAIN, **kwargs}
            assert _ext_call(**args) is None, kwargs
        with hb.using("python"):
            assert _ext_call("hucklebuck", Suit.SPADES, HAND, **PLAIN) is None


@needs_c
@pytest.mark.single_core
def test_a_plain_evaluation_on_the_c_core_skips_the_python_path(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []

    def spy(*args: Any, **kwargs: Any) -> tuple[tuple[int, ...], int]:
        calls.append(args)
        return evaluate_counts(*args, **kwargs)

    monkeypatch.setattr(evaluate, "evaluate_counts", spy)
    with hb.using("c"):
        want = evaluate_hand("hucklebuck", Suit.SPADES, HAND, **PLAIN)
        assert calls == []
        assert evaluate_hand("hucklebuck", Suit.SPADES, HAND, **PLAIN, chunk_size=20) == want
        assert len(calls) == 1  # chunking takes the Python path (one chunk: the same answer)
    with hb.using("python"):
        assert evaluate_hand("hucklebuck", Suit.SPADES, HAND, **PLAIN) == want
        assert len(calls) == 2


def _random_arguments(rng: random.Random) -> tuple[Any, Any, Any, dict[str, Any]]:
    """Mostly valid evaluations of every game, some of them impossible deals."""
    kind = rng.choice(list(GameKind))
    lo, hi = player_range(kind)
    players = rng.randint(lo, hi)
    short = rng.random() < 0.5
    cards = list(pack(kind, players, short_handed=short) if kind is GameKind.BUCKEM else pack(kind, players))
    if rng.random() < 0.1:
        cards = list(ALL)  # cards outside the pack, now and then
    rng.shuffle(cards)
    size = rng.randint(1, 5)
    hand, seen = cards[:size], cards[size : size + rng.choice([0, 0, 1, 3, 10])]
    seat, leader = rng.randrange(players), rng.randrange(players)
    in_play: Any = None
    if rng.random() < 0.4:
        in_play = rng.sample(range(players), rng.randint(2, players))
        if rng.random() < 0.8:
            in_play = sorted({*in_play, seat, leader})
        in_play = tuple(in_play) if rng.random() < 0.5 else in_play
    kwargs = {
        "players": players,
        "seat": seat,
        "leader": leader,
        "seen": rng.choice([list, tuple, CardSet])(seen),
        "in_play": in_play,
        "samples": rng.randint(1, 60),
        "seed": rng.getrandbits(64),
        "method": "solver" if rng.random() < 0.25 else "playout",
        "short_handed": short,
    }
    game = kind if rng.random() < 0.5 else kind.value
    trump = rng.choice(list(Suit))
    trump = trump if rng.random() < 0.5 else "CDHS"[int(trump)]
    return game, trump, rng.choice([list, tuple, CardSet])(hand), kwargs


@needs_c
@pytest.mark.single_core
@pytest.mark.parametrize("seed", range(4))
def test_the_c_path_gives_the_general_answer_on_random_arguments(seed: int) -> None:
    rng = random.Random(4000 + seed)
    answered = 0
    for _ in range(examples(150)):
        game, trump, hand, kwargs = _random_arguments(rng)
        if kwargs["method"] == "solver" and kwargs["players"] > 5:
            kwargs["samples"] = min(kwargs["samples"], 4)  # keep the Python core's solves short
        with hb.using("python"):
            want = _outcome(_general, game, trump, hand, **kwargs)
        with hb.using("c"):
            general = _outcome(_general, game, trump, hand, **kwargs)
            got = _ext_call(game, trump, hand, **kwargs)
            public = _outcome(evaluate_hand, game, trump, hand, **kwargs)
        assert general == want == public, (game, trump, hand, kwargs)
        if got is not None:
            answered += 1
            assert ("ok", got) == want, (game, trump, hand, kwargs)
        elif want[0] == "ok":
            assert kwargs["method"] == "solver", (game, trump, hand, kwargs)  # only past the node budget
    assert answered >= 0.4 * examples(150)  # most plain calls are taken by the C path


# ------------------------------------------------------------------ hostile arguments
class SubCard(Card):
    """A Card subclass."""

    __slots__ = ()


def _raw_set(mask: object) -> CardSet:
    cards = object.__new__(CardSet)
    object.__setattr__(cards, "_mask", mask)
    return cards


HOSTILE: dict[str, list[Callable[[], object]]] = {
    "game": [lambda: "hucklebuck", lambda: GameKind.DEERPARK, lambda: "HUCKLEBUCK", lambda: 0, lambda: None],
    "trump": [lambda: Suit.HEARTS, lambda: "S", lambda: "s", lambda: 2, lambda: True, lambda: float("nan")],
    "hand": [
        lambda: HAND, lambda: list(HAND)[:3], lambda: tuple(HAND), lambda: iter(HAND), lambda: [AS, AS],
        lambda: [SubCard._make(51)], lambda: _raw_set(-1), lambda: _raw_set(True), lambda: _raw_set(1 << 52),
        lambda: "AS", lambda: None, lambda: [TC], lambda: ALL[:9],
    ],
    "players": [lambda: 4, lambda: 3, lambda: 7, lambda: 8, lambda: Count(4), lambda: True, lambda: 4.0],
    "seat": [lambda: 0, lambda: 2, lambda: 9, lambda: -1, lambda: Count(1), lambda: True, lambda: 2**70],
    "leader": [lambda: 0, lambda: 1, lambda: 3, lambda: False, lambda: 1.0],
    "seen": [lambda: (), lambda: [TC], lambda: CardSet([C2]), lambda: [AS], lambda: "TC", lambda: [None]],
    "in_play": [
        lambda: None, lambda: [0, 1], lambda: (2, 0, 1), lambda: {0, 1, 2}, lambda: [0, 0, 1],
        lambda: Seats([0, 1]), lambda: [0, True], lambda: [0, 1.0], lambda: "01", lambda: [0, 9],
    ],
    "samples": [lambda: 1, lambda: 17, lambda: 0, lambda: Count(5), lambda: True, lambda: 3.0, lambda: -2],
    "seed": [lambda: 0, lambda: 2**64 - 1, lambda: 2**64, lambda: -1, lambda: Count(3), lambda: 1.0],
    "method": [lambda: "playout", lambda: "solver", lambda: Method("playout"), lambda: "Playout", lambda: 0],
    "workers": [lambda: 1, lambda: 2, lambda: True, lambda: 0],
    "short_handed": [lambda: False, lambda: True, lambda: 1, lambda: None],
    "chunk_size": [lambda: None, lambda: 5, lambda: 0],
    "node_limit": [lambda: None, lambda: 1, lambda: 10**6, lambda: 2**63, lambda: 0, lambda: True],
}  # fmt: skip


@needs_c
@pytest.mark.single_core
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.fixed_dictionaries({name: st.sampled_from(options) for name, options in HOSTILE.items()}))
def test_hostile_arguments_get_the_same_answer_or_error_on_both_cores(
    recipe: dict[str, Callable[[], object]],
) -> None:
    if recipe["method"]() == "solver":
        recipe = {**recipe, "samples": lambda: 2}  # a few solves of up to 8 seats on the Python core

    def call() -> object:
        args = {name: make() for name, make in recipe.items()}
        return evaluate_hand(args.pop("game"), args.pop("trump"), args.pop("hand"), **args)  # type: ignore[arg-type]

    with hb.using("python"):
        want = _outcome(call)
    with hb.using("c"):
        assert _outcome(call) == want


# ------------------------------------------------------------------ budget, threads, references
@needs_c
@pytest.mark.single_core
def test_solver_evaluations_past_the_budget_take_the_python_path() -> None:
    # Buck 'Em at eight seats: tens of thousands of nodes a solve, past the C path's budget
    args: dict[str, Any] = {"players": 8, "samples": 6, "seed": 11, "method": "solver"}
    hand = CardSet(parse_cards("TC 4D QD TH KH"))
    with hb.using("c"):
        assert _ext_call("buckem", Suit.HEARTS, hand, **args) is None
        want = _general("buckem", Suit.HEARTS, hand, **args)
        assert evaluate_hand("buckem", Suit.HEARTS, hand, **args) == want
        assert sum(want.counts) == 6


@needs_c
@pytest.mark.single_core
def test_threads_evaluate_at_once_each_in_its_own_table() -> None:
    rng = random.Random(12)
    calls = []
    while len(calls) < 24:
        game, trump, hand, kwargs = _random_arguments(rng)
        kwargs["method"] = "solver" if len(calls) % 2 else "playout"
        kwargs["samples"] = 8
        with hb.using("c"):
            if _ext_call(game, trump, hand, **kwargs) is not None:
                calls.append((game, trump, hand, kwargs))
    with hb.using("python"):
        want = [_general(g, t, h, **kw) for g, t, h, kw in calls]

    def run(i: int) -> TrickDistribution:
        with hb.using("c"):
            g, t, h, kw = calls[i]
            return evaluate_hand(g, t, h, **kw)

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(run, list(range(len(calls))) * 3)) == want * 3


@needs_c
@pytest.mark.single_core
def test_the_c_evaluation_keeps_reference_counts_and_memory_flat() -> None:
    seen = [TC]
    in_play = [0, 1, 3]
    objects: list[object] = [HAND, *Suit, *GameKind, AS, KS, TC, seen, in_play, TrickDistribution]

    def round_() -> None:
        evaluate_hand("hucklebuck", Suit.SPADES, HAND, players=4, samples=3)
        evaluate_hand("hucklebuck", "S", list(HAND), players=4, seen=seen, in_play=in_play, samples=3, seed=9)
        evaluate_hand(GameKind.HUCKLEBUCK, "H", HAND, players=5, samples=2, method="solver")
        evaluate_hand("hucklebuck", "S", HAND, players=4, samples=3, workers=True)  # an error: Python path

    def safe_round() -> None:
        try:
            round_()
        except OptionsError:
            pass

    with hb.using("c"):
        for _ in range(200):
            safe_round()
        before = [sys.getrefcount(o) for o in objects]
        tracemalloc.start()
        try:
            for _ in range(300):
                safe_round()
            start, _ = tracemalloc.get_traced_memory()
            for _ in range(2000):
                safe_round()
            end, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        after = [sys.getrefcount(o) for o in objects]
    assert after == before
    assert end - start < 20_000
