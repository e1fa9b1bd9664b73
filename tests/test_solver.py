"""The perfect-information solver: exact (against brute force), identical on both
cores down to the node count, bounded by a node or time budget, stoppable by Ctrl-C.
"""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import cast

import pytest
from hb_helpers import brute, busy_for, default_sigint, interrupt
from hypothesis import given, settings
from hypothesis import strategies as st
from thorough_kit import examples

import hucklebuck
from hucklebuck import CardSet, OptionsError, SolveBudgetExceeded, Suit, parse_cards
from hucklebuck._core import Core, get_core
from hucklebuck._core._py_solve import solve as py_solve
from hucklebuck.evaluate import TrickDistribution, evaluate_hand, solve

HAS_C = "c" in hucklebuck.available()
both_cores = pytest.mark.skipif(not HAS_C, reason="C core not built")
ROOT = Path(__file__).resolve().parents[1]

#: The reproduction of issue 16 (clubs trump, leader 3, seat 4): 129-145 s with the first solver.
ISSUE_DEAL = [
    206158430281,
    275481887776,
    17322508544,
    2251799814013060,
    8830452783104,
    1163294039605248,
    275382272,
    163277476724738,
]
#: An 8-seat Buck 'Em deal (hearts trump, leader 5, seat 7) that needs millions of nodes.
HEAVY_DEAL = [
    2260595906850816,
    1125968626582080,
    71468272582916,
    2162864,
    562984850571264,
    2483027978,
    158346855350272,
    142941881344,
]


TINY = [parse_cards("AS"), parse_cards("AH")]


def position(
    rng: random.Random, players: tuple[int, int], cards: tuple[int, int]
) -> tuple[int, int, list[int], int, int]:
    """A random position: game, trump, hands (maybe one seat out), leader, seat."""
    game = rng.randrange(3)
    n = rng.randint(*players)
    k = rng.randint(*cards)
    deck = list(range(52))
    if game == 2:  # Deer Park: the short pack, so bowers are likely
        deck = [c for c in deck if c % 13 >= 4]
    rng.shuffle(deck)
    k = min(k, len(deck) // n)
    hands = [sum(1 << x for x in deck[i * k : (i + 1) * k]) for i in range(n)]
    if n > 2 and rng.random() < 0.3:
        hands[rng.randrange(n)] = 0  # a seat not in play
    active = [i for i, h in enumerate(hands) if h]
    return game, rng.randrange(4), hands, rng.choice(active), rng.choice(active)


# -------------------------------------------------------------- exactness
@pytest.mark.parametrize(("players", "cards", "count"), [((2, 4), (1, 3), 300), ((5, 8), (1, 2), 150)])
def test_solver_matches_brute_force(players: tuple[int, int], cards: tuple[int, int], count: int) -> None:
    rng = random.Random(hash((players, cards)) & 0xFFFF)
    for _ in range(count):
        game, trump, hands, leader, seat = position(rng, players, cards)
        assert get_core().solve(game, trump, hands, leader, seat) == brute(
            game, trump, hands, leader, seat
        ), (
            game,
            trump,
            hands,
            leader,
            seat,
        )


def test_solver_matches_brute_force_on_three_card_crowds() -> None:
    rng = random.Random(5)
    for _ in range(12):
        game, trump, hands, leader, seat = position(rng, (4, 5), (3, 3))
        assert get_core().solve(game, trump, hands, leader, seat) == brute(game, trump, hands, leader, seat)


def test_a_lone_seat_in_play_takes_every_trick() -> None:
    # Found by the fuzzer: one seat in play (the others empty) crashed the Python core.
    for game, trump, hand in [(0, 0, 0b111), (2, 1, CardSet(parse_cards("9S TH JD")).mask), (1, 3, 1 << 51)]:
        hands = [0, hand, 0]
        assert get_core().solve_counted(game, trump, hands, 1, 1) == (hand.bit_count(), 0)
        assert brute(game, trump, hands, 1, 1) == hand.bit_count()


def test_issue_deal_is_solved_quickly_and_exactly() -> None:
    value, nodes = get_core().solve_counted(1, 0, ISSUE_DEAL, 3, 4)
    assert value == solve("buckem", Suit.CLUBS, [CardSet.from_mask(h) for h in ISSUE_DEAL], leader=3, seat=4)
    assert nodes < 10_000  # the trump bounds settle it almost at once


def test_a_tiny_table_gives_the_same_values() -> None:
    # The Python twin with a table that is cleared every few positions still finds the exact value.
    rng = random.Random(8)
    for _ in range(60):
        game, trump, hands, leader, seat = position(rng, (3, 6), (2, 4))
        full = py_solve(game, trump, hands, leader, seat)
        assert py_solve(game, trump, hands, leader, seat, tt_size=4)[0] == full[0]
        assert py_solve(game, trump, hands, leader, seat, tt_size=0)[0] == full[0]


# ------------------------------------------------- both cores, node for node
def _c_and_py() -> tuple[Core, Core]:
    from hucklebuck._core._c import CCore
    from hucklebuck._core._py import PythonCore

    return CCore(), PythonCore()


@pytest.mark.single_core
@both_cores
@settings(max_examples=examples(120), deadline=None)
@given(st.integers(0, 2**32))
def test_cores_agree_on_value_and_nodes(seed: int) -> None:
    c, p = _c_and_py()
    rng = random.Random(seed)
    game, trump, hands, leader, seat = position(rng, (2, 8), (1, 5))
    while c.solve_counted(game, trump, hands, leader, seat)[1] > 20_000:  # keep the Python side quick
        game, trump, hands, leader, seat = position(rng, (2, 8), (1, 5))
    assert c.solve_counted(game, trump, hands, leader, seat) == p.solve_counted(
        game, trump, hands, leader, seat
    )


@pytest.mark.single_core
@both_cores
def test_cores_agree_on_full_eight_seat_deals() -> None:
    c, p = _c_and_py()
    rng = random.Random(16)
    checked = 0
    while checked < 25:
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << x for x in deck[5 * i : 5 * i + 5]) for i in range(8)]
        trump, leader, seat = rng.randrange(4), rng.randrange(8), rng.randrange(8)
        got = c.solve_counted(1, trump, hands, leader, seat)
        if got[1] > 30_000:
            continue
        assert got == p.solve_counted(1, trump, hands, leader, seat)
        checked += 1


@pytest.mark.single_core
@both_cores
@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32))
def test_a_node_budget_ends_both_cores_at_the_same_point(seed: int) -> None:
    c, p = _c_and_py()
    rng = random.Random(seed)
    game, trump, hands, leader, seat = position(rng, (3, 8), (2, 5))
    while not 2 <= c.solve_counted(game, trump, hands, leader, seat)[1] <= 20_000:
        game, trump, hands, leader, seat = position(rng, (3, 8), (2, 5))
    value, nodes = c.solve_counted(game, trump, hands, leader, seat)
    for core in (c, p):
        assert core.solve_counted(game, trump, hands, leader, seat, nodes) == (value, nodes)
        assert core.solve(game, trump, hands, leader, seat, nodes) == value
        with pytest.raises(SolveBudgetExceeded) as err:
            core.solve_counted(game, trump, hands, leader, seat, nodes - 1)
        assert err.value.reason == "nodes" and err.value.nodes == nodes
        assert "budget" in str(err.value)


# ---------------------------------------------------------- public budgets
def test_solve_takes_a_node_limit() -> None:
    hands = [CardSet.from_mask(h) for h in HEAVY_DEAL]
    with pytest.raises(SolveBudgetExceeded, match="5,000 nodes") as err:
        solve("buckem", Suit.HEARTS, hands, leader=5, seat=7, node_limit=5_000)
    assert err.value.nodes == 5_001
    small = [parse_cards("AS KS"), parse_cards("AH KH")]
    assert solve("hucklebuck", Suit.SPADES, small, leader=1, seat=0, node_limit=50) == 2


def test_solve_takes_a_time_limit() -> None:
    hands = [CardSet.from_mask(h) for h in HEAVY_DEAL]
    t0 = time.process_time()
    with pytest.raises(SolveBudgetExceeded, match="time limit") as err:
        solve("buckem", Suit.HEARTS, hands, leader=5, seat=7, time_limit=0.05)
    assert err.value.reason == "time"
    # 0.05 s asked (of the clock: a busy machine gives the search less of it, never more); in CPU
    # seconds, which other jobs do not stretch, far less than the whole solve's second
    assert time.process_time() - t0 < 0.5


@pytest.mark.parametrize("bad", [0, -1, 2**63, 1.5, "10", True])
def test_bad_node_limits_are_refused(bad: object) -> None:
    with pytest.raises(OptionsError, match="node_limit"):
        solve("hucklebuck", Suit.SPADES, TINY, leader=0, seat=0, node_limit=cast(int, bad))


@pytest.mark.parametrize("bad", [0, -0.5, math.nan, math.inf, "1", False])
def test_bad_time_limits_are_refused(bad: object) -> None:
    with pytest.raises(OptionsError, match="time_limit"):
        solve("hucklebuck", Suit.SPADES, TINY, leader=0, seat=0, time_limit=cast(float, bad))


def test_evaluate_hand_inherits_the_node_limit() -> None:
    hand = parse_cards("AD KD 5D QC 3H")

    def run(node_limit: int | None) -> TrickDistribution:
        return evaluate_hand(
            "buckem",
            Suit.DIAMONDS,
            hand,
            players=5,
            seat=4,
            leader=2,
            samples=20,
            seed=3,
            method="solver",
            node_limit=node_limit,
        )

    with pytest.raises(SolveBudgetExceeded):
        run(1)
    full = run(None)
    assert run(10**9) == full and sum(full.counts) == 20
    with pytest.raises(OptionsError, match="node_limit"):
        run(-3)


# ------------------------------------------------------------------ Ctrl-C
_CHILD = textwrap.dedent(
    """
    import sys, time
    import hucklebuck
    from hucklebuck import CardSet, Suit
    from hucklebuck.evaluate import evaluate_hand, solve
    kind = sys.argv[2]
    with hucklebuck.using(sys.argv[1]):
        print("ready", flush=True)
        try:
            if kind == "solve":  # one long solve after another (each about a second in C)
                hands = [CardSet.from_mask(int(h)) for h in sys.argv[3].split(",")]
                while True:
                    solve("buckem", Suit.HEARTS, hands, leader=5, seat=7)
            else:
                evaluate_hand("buckem", Suit.SPADES, CardSet.from_mask(31 << 26), players=8,
                              samples=10**7, method="solver")
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(0)
    print("finished", flush=True)
    sys.exit(3)
    """
)


def _interrupt_latency(core: str, kind: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD, core, kind, ",".join(map(str, HEAVY_DEAL))],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=default_sigint,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        busy_for(proc, 0.5)  # inside the solves
        out, _, latency = interrupt(proc)  # CPU seconds after the signal: a busy machine only waits longer
    finally:  # never leave the solves running
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0 and out.strip() == "interrupted", (proc.returncode, out)
    return latency


@pytest.mark.single_core
@pytest.mark.parametrize(
    ("core", "kind"),
    [("c", "solve"), ("c", "evaluate"), ("python", "solve"), ("python", "evaluate")],
)
def test_ctrl_c_stops_a_long_solve_promptly(core: str, kind: str) -> None:
    if core not in hucklebuck.available():
        pytest.skip("C core not built")
    # The stop itself takes about 10 ms (measured with python -m hucklebuck.bench solver);
    # the bound, in CPU seconds, leaves room for interpreter shutdown.
    assert _interrupt_latency(core, kind) < 1.0


# ------------------------------------------------------------ the adapter
def test_the_adapter_answers_unsupported_for_a_position_past_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hucklebuck.conformance import protocol

    monkeypatch.setattr(protocol, "SOLVE_NODES", 20_000)  # the real budget takes seconds in Python
    heavy = [[str(c) for c in CardSet.from_mask(h)] for h in HEAVY_DEAL]
    req = {"id": 1, "op": "solve", "game": "buckem", "trump": "H", "hands": heavy, "leader": 5, "seat": 7}
    answer = protocol.handle(req)
    assert answer["ok"] is False and answer["error"]["code"] == "unsupported", answer
    assert "too large" in answer["error"]["message"]
    issue = [[str(c) for c in CardSet.from_mask(h)] for h in ISSUE_DEAL]
    req = {"id": 2, "op": "solve", "game": "buckem", "trump": "C", "hands": issue, "leader": 3, "seat": 4}
    assert protocol.handle(req) == {"id": 2, "ok": True, "result": get_core().solve(1, 0, ISSUE_DEAL, 3, 4)}
