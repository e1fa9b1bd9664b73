"""solve() in C (issue 40): on the C core a plain, valid, short solve runs in C from the
arguments to the result (``hucklebuck._hbcall.solve``); everything else, errors included,
takes the checked Python path both cores share.

These tests pin the error wording on both cores, check that the C path answers
exactly the plain calls (and only on the C core), that it gives the Python
path's answer on random positions of every game, that a long solve is left to
the Python path (where Ctrl-C and a time limit can stop it), that threads each
get their own table, and that it holds no references it should not.
"""

from __future__ import annotations

import random
import sys
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

import hucklebuck as hb
from hucklebuck import (
    CardError,
    CardSet,
    GameKind,
    OptionsError,
    PlayerCountError,
    Suit,
    evaluate,
    parse_cards,
)
from hucklebuck.evaluate import solve
from hucklebuck.packs import pack

HAS_C = "c" in hb.available()
needs_c = pytest.mark.skipif(not HAS_C, reason="the C core is not built")
AS, KS, AH, KH, QS, C2 = parse_cards("AS KS AH KH QS 2C")
SMALL = [CardSet([AS, KS]), CardSet([AH, KH]), CardSet([QS, C2])]
# Buck 'Em, 8 seats: about four million nodes, far past the C path's budget
HEAVY = [
    2260595906850816, 1125968626582080, 71468272582916, 2162864,
    844699647492352, 290271069741056, 137976266752, 23089744183296,
]  # fmt: skip


def _random_position(rng: random.Random) -> tuple[GameKind, Suit, list[CardSet], int, int]:
    kind = rng.choice(list(GameKind))
    seats = rng.randint(2, 6 if kind is GameKind.DEERPARK else 7)
    cards = list(pack(kind, 4) if kind is GameKind.DEERPARK else CardSet.from_mask((1 << 52) - 1))
    size = rng.randint(1, min(5, len(cards) // seats))
    rng.shuffle(cards)
    hands = [CardSet(cards[i * size : (i + 1) * size]) for i in range(seats)]
    for s in rng.sample(range(seats), rng.randint(0, seats - 2)):  # some seats out of play
        hands[s] = CardSet()
    in_play = [s for s in range(seats) if hands[s]]
    return kind, rng.choice(list(Suit)), hands, rng.choice(in_play), rng.choice(in_play)


# ------------------------------------------------------------------ the errors, on both cores
@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: solve("poker", Suit.SPADES, SMALL, leader=0, seat=0), OptionsError,
         "game: 'poker' is not a game (expected one of 'hucklebuck', 'buckem', 'deerpark')"),
        (lambda: solve("hucklebuck", "s", SMALL, leader=0, seat=0), CardError,
         "trump: 's' is not a suit (give a Suit or one of the letters C, D, H, S)"),
        (lambda: solve("hucklebuck", "S", SMALL[:1], leader=0, seat=0), PlayerCountError,
         "hands must list 2 to 8 seats, not 1"),
        (lambda: solve("hucklebuck", "S", [[AS], [AS]], leader=0, seat=0), CardError,
         "hands[1] holds a card that is also in another hand"),
        (lambda: solve("hucklebuck", "S", [[AS, KS], [AH]], leader=0, seat=0), CardError,
         "hands: the seats in play must hold the same number of cards, 1 to 5"),
        (lambda: solve("hucklebuck", "S", [[AS], [AH], []], leader=2, seat=0), PlayerCountError,
         "leader 2 is not in play (its hand is empty)"),
        (lambda: solve("hucklebuck", "S", SMALL, leader=3, seat=0), PlayerCountError,
         "leader must be an integer 0..2, not 3"),
        (lambda: solve("hucklebuck", "S", SMALL, leader=0, seat=True), PlayerCountError,
         "seat must be an integer 0..2, not True (bool)"),
        (lambda: solve("hucklebuck", "S", SMALL, leader=-1, seat=0), PlayerCountError,
         "leader must be an integer 0..2, not -1"),
        (lambda: solve("hucklebuck", "S", SMALL, leader=2**70, seat=0), PlayerCountError,
         f"leader must be an integer 0..2, not {2**70}"),
        (lambda: solve("hucklebuck", "S", "AS KS", leader=0, seat=0), CardError,
         "hands must be a list of hands, one per seat, not 'AS KS'"),
        (lambda: solve("hucklebuck", "S", [["AS"], [AH]], leader=0, seat=0), CardError,
         "hands[0] item 0 must be a Card, not 'AS' (use parse_card('AS'))"),
    ],
)  # fmt: skip
def test_solve_error_wording(call: Callable[[], object], error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_plain_solves(core_name: str) -> None:
    assert solve("hucklebuck", Suit.SPADES, SMALL, leader=1, seat=0) == 2
    assert solve(GameKind.HUCKLEBUCK, "S", [list(h) for h in SMALL], leader=1, seat=0) == 2
    assert solve("hucklebuck", "H", (SMALL[0], tuple(SMALL[1]), []), leader=1, seat=0) == 0


# ------------------------------------------------------------------ when the C path answers
@needs_c
@pytest.mark.single_core
def test_the_c_path_answers_plain_short_solves_only_on_the_c_core() -> None:
    from hucklebuck import _fast

    ext = _fast.ext
    assert ext is not None
    with hb.using("c"):
        assert ext.solve("hucklebuck", Suit.SPADES, SMALL, 1, 0) == 2
        assert ext.solve(GameKind.HUCKLEBUCK, "S", tuple(list(h) for h in SMALL), 1, 0) == 2
        for args in [
            ("hucklebuck", Suit.SPADES, SMALL[:1], 0, 0),  # one seat
            ("hucklebuck", Suit.SPADES, SMALL, 3, 0),  # no such leader
            ("hucklebuck", Suit.SPADES, SMALL, True, 0),  # a bool is not a seat here
            ("hucklebuck", Suit.SPADES, [[AS], [AS]], 0, 1),  # a card twice
            ("hucklebuck", Suit.SPADES, [[AS], []], 1, 0),  # the leader is not in play
            ("hucklebuck", Suit.SPADES, iter(SMALL), 1, 0),  # not a list or tuple
            ("hucklebuck", 3, SMALL, 1, 0),
            ("buckem", Suit.HEARTS, [CardSet.from_mask(h) for h in HEAVY], 5, 7),  # a long solve
        ]:
            assert ext.solve(*args) is None, args
        with hb.using("python"):
            assert ext.solve("hucklebuck", Suit.SPADES, SMALL, 1, 0) is None


@needs_c
@pytest.mark.single_core
def test_a_plain_solve_on_the_c_core_skips_the_python_path(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    checked = evaluate._solve_checked

    def spy(*args: object, **kwargs: object) -> int:
        calls.append(args)
        return checked(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(evaluate, "_solve_checked", spy)
    with hb.using("c"):
        assert solve("hucklebuck", Suit.SPADES, SMALL, leader=1, seat=0) == 2
        assert calls == []
        assert solve("hucklebuck", Suit.SPADES, SMALL, leader=1, seat=0, node_limit=100) == 2
        assert len(calls) == 1  # a budget takes the Python path
    with hb.using("python"):
        assert solve("hucklebuck", Suit.SPADES, SMALL, leader=1, seat=0) == 2
        assert len(calls) == 2


@needs_c
@pytest.mark.single_core
def test_the_c_path_gives_the_python_answer_on_random_positions() -> None:
    from hucklebuck import _fast

    ext = _fast.ext
    assert ext is not None
    rng = random.Random(40)
    answered = 0
    for _ in range(300):
        kind, trump, hands, leader, seat = _random_position(rng)
        with hb.using("python"):
            want = evaluate._solve_checked(kind, trump, hands, leader=leader, seat=seat)
        with hb.using("c"):
            got = ext.solve(kind.value if rng.random() < 0.5 else kind, trump, hands, leader, seat)
            assert solve(kind, trump, hands, leader=leader, seat=seat) == want
        if got is not None:
            answered += 1
            assert got == want, (kind, trump, hands, leader, seat)
    assert answered >= 290  # only a rare long solve is left to the Python path


@needs_c
@pytest.mark.single_core
def test_threads_solve_at_once_each_in_its_own_table() -> None:
    rng = random.Random(7)
    positions = [_random_position(rng) for _ in range(60)]
    with hb.using("python"):
        want = [solve(k, t, h, leader=ld, seat=s) for k, t, h, ld, s in positions]

    def run(i: int) -> int:
        with hb.using("c"):
            k, t, h, ld, s = positions[i]
            return solve(k, t, h, leader=ld, seat=s)

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(run, list(range(60)) * 3)) == want * 3


@needs_c
@pytest.mark.single_core
def test_the_c_solve_keeps_reference_counts_and_memory_flat() -> None:
    objects: list[object] = [*SMALL, *Suit, *GameKind, AS, KS, AH, KH, QS, C2]
    lists = [[AS, KS], [AH, KH], [QS, C2]]

    def round_() -> None:
        solve("hucklebuck", Suit.SPADES, SMALL, leader=1, seat=0)
        solve("hucklebuck", "S", lists, leader=0, seat=2)
        solve(GameKind.HUCKLEBUCK, "S", tuple(SMALL), leader=2, seat=1)

    with hb.using("c"):
        for _ in range(200):
            round_()
        before = [sys.getrefcount(o) for o in objects]
        tracemalloc.start()
        try:
            for _ in range(300):
                round_()
            start, _ = tracemalloc.get_traced_memory()
            for _ in range(3000):
                round_()
            end, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        after = [sys.getrefcount(o) for o in objects]
    assert after == before
    assert end - start < 20_000
