"""Benchmark section ``calls``: the public one-call functions on both cores, in one run.

Each function is timed on a fixed small input, the two cores interleaved
(round after round, best of the rounds), as microseconds per call, with the
ratio Python/C.  The targets: every one-call function at least 2x faster on
the C core, and :func:`~hucklebuck.trick_winner` on the C core within 1 us of
the bare core call (``Core.trick_winner`` on the packed trick), which shows
what the argument handling costs.  On the C core a plain, valid call of
:func:`~hucklebuck.trick_winner`, :func:`~hucklebuck.legal_plays` or
:func:`~hucklebuck.parse_cards` runs in C from the arguments to the result
(the compiled module ``hucklebuck._hbcall``); anything else, errors included,
takes the Python path both cores share; so does a plain, short
:func:`~hucklebuck.solve` (at most 50,000 nodes: a longer one runs again where
Ctrl-C and a time limit can stop it).  For a 4-player 5-card Deer Park solve
the target is Python/C at least 30x, and the rows below it show what the C
call is made of: ``C path alone`` is the compiled function on its own
(reading the arguments, the search without the GIL), ``cffi core call`` the
C core's ``Core.solve`` on ready masks (Python-side checks, cffi, the search).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from .. import _fast, legal_plays, parse_cards, trick_winner
from .._core import available, get_core, using
from ..cards import CardSet, Suit
from ..evaluate import evaluate_hand, solve
from ..packs import GameKind, pack
from . import targets

__all__ = ["run"]

_TRICK = parse_cards("AH JD KH")
_HAND = CardSet(parse_cards("2H 3H AS 9C KD"))
_LED = parse_cards("KH")
_SOLVE = [CardSet(parse_cards("AS KS")), CardSet(parse_cards("AH KH")), CardSet(parse_cards("QS 2C"))]
_EVAL = CardSet(parse_cards("AS KS QS 2H 3D"))
# A 4-player 5-card Deer Park deal (a few dozen nodes: the search itself takes about a µs)
_SOLVE4 = [
    CardSet(parse_cards(h)) for h in ("9D QD KH AH AS", "TC JC 9H TH TS", "QC KC 9S JS QS", "9C AC TD JD JH")
]
_SOLVE4_MASKS = [h.mask for h in _SOLVE4]
_EVAL_POOL = (pack(GameKind.HUCKLEBUCK, 4) - _EVAL).mask


def _c_path_solve() -> object:
    ext = _fast.ext
    return None if ext is None else ext.solve("deerpark", Suit.HEARTS, _SOLVE4, 0, 1)


def _bare_trick_winner() -> object:
    return get_core().trick_winner(2, 2, b"\x27\x16\x25")


CALLS: dict[str, tuple[Callable[[], object], int]] = {
    "trick_winner": (lambda: trick_winner("deerpark", Suit.HEARTS, _TRICK), 20_000),
    "  bare core call": (_bare_trick_winner, 20_000),
    "legal_plays": (lambda: legal_plays("hucklebuck", Suit.SPADES, _HAND, _LED), 20_000),
    "solve (3 seats, 2 cards)": (
        lambda: solve("hucklebuck", Suit.SPADES, _SOLVE, leader=1, seat=0),
        2_000,
    ),
    "solve (4 seats, 5 cards)": (
        lambda: solve("deerpark", Suit.HEARTS, _SOLVE4, leader=0, seat=1),
        5_000,
    ),
    "  C path alone": (_c_path_solve, 5_000),
    "  cffi core call": (lambda: get_core().solve(2, 2, _SOLVE4_MASKS, 0, 1), 5_000),
    "parse_cards (3 cards)": (lambda: parse_cards("10h AS jd"), 20_000),
    "evaluate_hand (20 samples)": (
        lambda: evaluate_hand("hucklebuck", Suit.SPADES, _EVAL, players=4, samples=20),
        300,
    ),
    "  core mc_eval call": (
        lambda: get_core().mc_eval(0, 3, [_EVAL.mask, 0, 0, 0], [5] * 4, _EVAL_POOL, 0, 0, 0, 20, 0, 0),
        300,
    ),
}
"""Label -> (the call, calls per timing at scale 1)."""
TARGETS = [label for label in CALLS if not label.startswith(" ")]
"""The calls that must be at least 2x faster on the C core."""


def _per_call(fn: Callable[[], object], number: int) -> float:
    t0 = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - t0) / number * 1e6


def measure(scale: float, repeat: int) -> dict[str, dict[str, float]]:
    """Microseconds per call of every entry of :data:`CALLS`, per core (best of ``repeat`` rounds)."""
    cores = available()
    out: dict[str, dict[str, float]] = {label: {} for label in CALLS}
    for label, (fn, number) in CALLS.items():
        n = max(10, int(number * scale))
        for name in cores:  # warm up (the C core's tables, the first solve's table)
            with using(name):
                _per_call(fn, 5)
        for _ in range(repeat):
            for name in cores:
                with using(name):
                    t = _per_call(fn, n)
                out[label][name] = min(out[label].get(name, float("inf")), t)
    return out


def run(args: argparse.Namespace) -> None:
    """Print the one-call timings, the ratios and the targets."""
    results = measure(args.scale, args.repeat)
    both = "c" in available()
    print(f"{'call':<28}{'C us':>10}{'Python us':>12}{'Py/C':>8}")
    for label, row in results.items():
        c = row.get("c")
        py = row["python"]
        shown_c = f"{c:10.2f}" if c else f"{'-':>10}"
        shown_ratio = f"{py / c:8.2f}" if c else f"{'-':>8}"
        print(f"{label:<28}{shown_c}{py:12.2f}{shown_ratio}")
    if not both:
        print("(the C core is not available here: targets not checked)")
        return
    gap = results["trick_winner"]["c"] - results["  bare core call"]["c"]
    print(
        targets.check(
            "calls", "trick_winner on C, us above the bare core call", gap, 1, higher=False, ratio=False
        )
    )
    for label in TARGETS:
        row = results[label]
        want = 30 if label == "solve (4 seats, 5 cards)" else 2
        print(targets.check("calls", f"{label}: Python/C", row["python"] / row["c"], want))
    public = results["solve (4 seats, 5 cards)"]["c"]
    alone = results["  C path alone"]["c"]
    extra = f"{public - alone:.2f} us" if public >= alone else "no measurable time (below the noise)"
    print(
        f"solve (4 seats, 5 cards) on C: {public:.2f} us, of which {extra} is the Python "
        f"function around the C path (a call with keywords and the checks for a budget); the C path "
        f"alone ({alone:.2f} us) reads the arguments, takes this thread's table and searches without "
        f"the GIL; the cffi core call takes {results['  cffi core call']['c']:.2f} us"
    )
    ev, core_ev = results["evaluate_hand (20 samples)"]["c"], results["  core mc_eval call"]["c"]
    print(
        f"evaluate_hand (20 samples) on C: {ev:.2f} us, the core's mc_eval call {core_ev:.2f} us: "
        f"{ev - core_ev:.2f} us is the Python around it (its argument checks, the pack, the sample "
        f"plan and the merge of the chunks' counts), not yet in C"
    )
