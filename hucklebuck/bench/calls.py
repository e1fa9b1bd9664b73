"""Benchmark section ``calls``: the public one-call functions on both cores, in one run.

Each function is timed on a fixed small input, the two cores interleaved
(round after round, best of the rounds), as microseconds of CPU time per call
(this process's, all its threads: the Python path runs an evaluation by the
solver in a worker thread), with the ratio Python/C; CPU time holds stiller
than wall time on a busy machine.  A slow call is timed fewer times (one
timing lasts about :data:`TIMING` seconds at most).  The targets: every
one-call function at least 2x faster on the C core, and
:func:`~hucklebuck.trick_winner` on the C core within 1 us of the bare core
call (``Core.trick_winner`` on the packed trick), which shows what the
argument handling costs.  On the C core a plain, valid call of
:func:`~hucklebuck.trick_winner`, :func:`~hucklebuck.legal_plays`,
:func:`~hucklebuck.parse_cards`, :func:`~hucklebuck.evaluate.solve` or
:func:`~hucklebuck.evaluate.evaluate_hand` runs in C from the arguments to the
result (the compiled module ``hucklebuck._hbcall``); anything else, errors
included, takes the Python path both cores share.  A solve there searches at
most 50,000 nodes, and so do all the solves of an evaluation by the solver
together; a longer one runs again where Ctrl-C and a time limit can stop it.

For a 4-player 5-card Deer Park solve the target is Python/C at least 30x, and
the rows below it show what the C call is made of: ``C path alone`` is the
compiled function on its own (reading the arguments, the search without the
GIL), ``cffi core call`` the C core's ``Core.solve`` on ready masks (Python-side
checks, cffi, the search).  For :func:`~hucklebuck.evaluate.evaluate_hand` the
target is at most 5 us above the bare core call (``bare mc_eval``:
``hb_mc_eval_limited`` called through cffi on ready buffers, C core only);
``core mc_eval call`` is the core's ``Core.mc_eval`` (its Python-side checks,
the table, cffi, the samples).  What the call adds is seen best at 1 sample,
where the samples cost almost nothing.  The advice functions make one
evaluation per suit they weigh (five for Hucklebuck, four for Deer Park, one
for Buck 'Em); their lines show what they add around those calls.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from .. import _fast, legal_plays, parse_cards, trick_winner
from .._core import available, get_core, using
from .._mc import Method
from ..cards import CardSet, Suit
from ..evaluate import buckem_advice, deerpark_advice, evaluate_hand, hucklebuck_advice, solve
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
_DP_HAND = CardSet(parse_cards("AS KS QS JH TD"))
_UPCARD = parse_cards("4C")[0]


def _mc_eval(samples: int, mode: int) -> Callable[[], object]:
    """The core's ``mc_eval`` of the bench's evaluation (4-player Hucklebuck, spades)."""
    return lambda: get_core().mc_eval(
        0, 3, [_EVAL.mask, 0, 0, 0], [5] * 4, _EVAL_POOL, 0, 0, 0, samples, mode, 0
    )


def _evaluate(samples: int, method: Method = "playout") -> Callable[[], object]:
    return lambda: evaluate_hand("hucklebuck", Suit.SPADES, _EVAL, players=4, samples=samples, method=method)


def _c_path_evaluate(samples: int) -> Callable[[], object]:
    """The compiled ``evaluate`` on its own (returns None off the C core)."""
    plain = (4, 0, 0, (), None, samples, 0, "playout", 1, False, None, None, None, None)
    ext = _fast.ext
    return lambda: None if ext is None else ext.evaluate("hucklebuck", Suit.SPADES, _EVAL, *plain)


def _bare_mc_eval(samples: int) -> Callable[[], object]:
    """``hb_mc_eval_limited`` through cffi on ready buffers (the C core only): the bare core call."""
    from .._hbc import ffi, lib  # only imported when the C core is there

    known = ffi.new("uint64_t[]", [_EVAL.mask, 0, 0, 0])
    hist = ffi.new("uint32_t[]", 6)
    sizes = bytes([5] * 4)
    null = ffi.NULL
    run = lib.hb_mc_eval_limited
    return lambda: run(0, 3, 4, known, sizes, _EVAL_POOL, 0, 0, 0, samples, 0, null, 0, 0, 0, null, hist)


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
    "evaluate_hand (20 samples)": (_evaluate(20), 2_000),
    "  core mc_eval call": (_mc_eval(20, 0), 2_000),
    "  bare mc_eval (C only)": (lambda: None, 2_000),  # _bare_mc_eval(20) where C is there
    "evaluate_hand (1 sample)": (_evaluate(1), 20_000),
    "  C path alone (1 sample)": (_c_path_evaluate(1), 20_000),
    "  bare mc_eval (1 sample)": (lambda: None, 20_000),  # _bare_mc_eval(1) where C is there
    "evaluate_hand (200 samples)": (_evaluate(200), 200),
    "  core mc_eval call (200)": (_mc_eval(200, 0), 200),
    "evaluate_hand (solver, 20)": (_evaluate(20, "solver"), 200),
    "  core mc_eval call (solver)": (_mc_eval(20, 1), 200),
    "hucklebuck_advice (20)": (lambda: hucklebuck_advice(_EVAL, players=4, samples=20), 100),
    "deerpark_advice (20)": (lambda: deerpark_advice(_DP_HAND, players=4, samples=20), 100),
    "buckem_advice (20)": (lambda: buckem_advice(_EVAL, _UPCARD, players=5, samples=20), 200),
}
"""Label -> (the call, calls per timing at scale 1)."""
TARGETS = [label for label in CALLS if not label.startswith(" ")]
"""The calls that must be at least 2x faster on the C core."""
C_ONLY = {"  bare mc_eval (C only)": 20, "  bare mc_eval (1 sample)": 1}
"""Rows timed on the C core only (a cffi function, the same whichever core is selected): their samples."""
#: Evaluations each advice function makes at the bench's arguments (one per suit it weighs).
ADVICE_CALLS = {"hucklebuck_advice (20)": 5, "deerpark_advice (20)": 4, "buckem_advice (20)": 1}


def _per_call(fn: Callable[[], object], number: int) -> float:
    """Microseconds of CPU time (this process, every thread) per call of ``fn``, over ``number`` calls."""
    t0 = time.process_time()
    for _ in range(number):
        fn()
    return (time.process_time() - t0) / number * 1e6


#: The longest one timing of a row runs (seconds): a slow call (the Python core's) is timed
#: fewer times, at least :data:`FEWEST`.
TIMING = 0.2
FEWEST = 5
#: Rows timed on the C core only: their Python-core figure would repeat a row above them.
C_ROWS = {"  core mc_eval call (200)", "  core mc_eval call (solver)"}


def measure(scale: float, repeat: int) -> dict[str, dict[str, float]]:
    """Microseconds per call of every entry of :data:`CALLS`, per core (best of ``repeat`` rounds)."""
    cores = available()
    out: dict[str, dict[str, float]] = {label: {} for label in CALLS}
    for label, (fn, number) in CALLS.items():
        if label in C_ONLY:
            if "c" not in cores:
                continue
            fn = _bare_mc_eval(C_ONLY[label])
        row = [c for c in cores if c == "c" or (label not in C_ONLY and label not in C_ROWS)]
        counts = {}
        for name in row:  # warm up (the C core's tables, the first solve's table); size the timing
            with using(name):
                warm = _per_call(fn, 5) / 1e6
            counts[name] = max(FEWEST, min(int(number * scale), int(TIMING / max(warm, 1e-9))))
        for _ in range(repeat):
            for name in row:
                with using(name):  # the C core's short timings in four parts: the best of more of them
                    parts = 4 if name == "c" else 1
                    t = min(_per_call(fn, max(1, counts[name] // parts)) for _ in range(parts))
                out[label][name] = min(out[label].get(name, float("inf")), t)
    return out


def run(args: argparse.Namespace) -> None:
    """Print the one-call timings, the ratios and the targets."""
    results = measure(args.scale, args.repeat)
    both = "c" in available()
    print(f"{'call':<30}{'C us':>10}{'Python us':>12}{'Py/C':>8}")
    for label, row in results.items():
        c = row.get("c")
        py = row.get("python")
        shown_c = f"{c:10.2f}" if c else f"{'-':>10}"
        shown_py = f"{py:12.2f}" if py else f"{'-':>12}"
        shown_ratio = f"{py / c:8.2f}" if c and py else f"{'-':>8}"
        print(f"{label:<30}{shown_c}{shown_py}{shown_ratio}")
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
    _evaluate_lines(results)


def _us(value: float) -> str:
    """A difference of two timings, or words for one below the noise."""
    return f"{value:.2f} us" if value > 0 else "no measurable time (below the noise)"


def _evaluate_lines(results: dict[str, dict[str, float]]) -> None:
    """The target for evaluate_hand on C, and what each evaluation call adds around its core call."""
    c = {label: row["c"] for label, row in results.items() if "c" in row}
    ev, core_ev, bare = (
        c[k] for k in ("evaluate_hand (20 samples)", "  core mc_eval call", "  bare mc_eval (C only)")
    )
    label = "evaluate_hand on C, us above the bare core call"
    print(targets.check("calls", label, ev - bare, 5, higher=False, ratio=False))
    one, alone, bare1 = (
        c[k] for k in ("evaluate_hand (1 sample)", "  C path alone (1 sample)", "  bare mc_eval (1 sample)")
    )
    print(
        f"evaluate_hand (20 samples) on C: {ev:.2f} us, the bare core call (hb_mc_eval_limited through cffi) "
        f"{bare:.2f} us, the core's mc_eval (its Python-side checks, cffi) {core_ev:.2f} us.  What the call "
        f"adds, seen best at 1 sample: {_us(one - bare1)} ({one:.2f} against {bare1:.2f} us), of which "
        f"{_us(one - alone)} is the Python function (a call with keywords) and {_us(alone - bare1)} the "
        f"C path reading and checking the arguments and building the answer"
    )
    for label, core in (
        ("evaluate_hand (200 samples)", "  core mc_eval call (200)"),
        ("evaluate_hand (solver, 20)", "  core mc_eval call (solver)"),
    ):
        print(f"{label} on C: {c[label]:.2f} us; the core's mc_eval {c[core]:.2f} us")
    for label, calls in ADVICE_CALLS.items():
        print(
            f"{label} on C: {c[label]:.2f} us, of which about {_us(c[label] - calls * ev)} is around its "
            f"{calls} evaluation(s) of 20 samples (its checks, the arguments of each evaluation, the choice)"
        )
