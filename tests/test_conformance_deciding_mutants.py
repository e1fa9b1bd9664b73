"""The deciding cases added for the situations the mutation study found undecided
catch a mutant of each situation that the rest of the suite lets through.

Each mutant is loaded over its rule module in this process, the game's cases
are run without the new cases (nothing fails: the gap) and then the new cases
(the named one fails), and the module is put back."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from hucklebuck.conformance import InProcessAdapter, load_cases, run_cases

ROOT = Path(__file__).resolve().parents[1]

#: (module, what, old, new, the new case that catches it)
MUTANTS = [
    (
        "hucklebuck.games._deerpark_scoring",
        "a score of exactly 0 is not past the low goal when distances are compared (a 50 wins outright)",
        "return _dp.LOW_GOAL - sc if sc <= _dp.LOW_GOAL else sc - _dp.HIGH_GOAL",
        "return _dp.LOW_GOAL - sc if sc < _dp.LOW_GOAL else sc - _dp.HIGH_GOAL",
        "deerpark/end/zero-and-fifty-play-on",
    ),
    (
        "hucklebuck.games._deerpark_scoring",
        "a maker needs one trick more than the requirement",
        "requirement if s == maker else 1",
        "requirement + 1 if s == maker else 1",
        "deerpark/scoring/maker-exactly-three",
    ),
    (
        "hucklebuck.games._hucklebuck_scoring",
        "a stayer with exactly one trick loses 5",
        "            if t >= 1:",
        "            if t > 1:",
        "hucklebuck/scoring/stayer-exactly-one-trick",
    ),
    (
        "hucklebuck.games._hucklebuck_scoring",
        "a moon from a score of exactly 1 does not win",
        "if prior > 0 or (prior == 0",
        "if prior > 1 or (prior == 0",
        "hucklebuck/moon/wins-from-exactly-one",
    ),
    (
        "hucklebuck.games._buckem_settle",
        "first_left_of_dealer counts from the dealer, not from the dealer's left",
        "odd_to = min(winners, key=lambda s: (s - game._dealer - 1) % game._n)",
        "odd_to = min(winners, key=lambda s: (s - game._dealer) % game._n)",
        "buckem/settle/odd-chip-first-left-of-dealer",
    ),
    (
        "hucklebuck.games._hucklebuck_bidding",
        "a second new stock takes again the cards of the first",
        "        pool = list(set_aside)\n        set_aside.clear()\n",
        "        pool = list(set_aside)\n",
        "hucklebuck/exchange/stock-re-formed-twice",
    ),
]

#: The cases added for these situations (conformance/tools/cases/deciding_cases.py).
NEW = {
    "deerpark/end/zero-and-fifty-play-on",
    "deerpark/end/fifty-and-minus-one",
    "deerpark/end/forty-nine-and-zero",
    "deerpark/end/maker-zero-and-fifty",
    "deerpark/end/fifty-one-and-maker-zero",
    "deerpark/scoring/maker-exactly-three",
    "hucklebuck/scoring/stayer-exactly-one-trick",
    "hucklebuck/scoring/bid-3-with-three",
    "hucklebuck/scoring/bid-4-with-three",
    "hucklebuck/moon/wins-from-exactly-one",
    "hucklebuck/exchange/stock-re-formed-twice",
    "hucklebuck/exchange/stock-re-formed-twice-own-discard",
    "buckem/settle/odd-chip-first-left-of-dealer",
    "buckem/settle/odd-chip-buckup-dealer-1",
}
#: Cases added after these (issue 61's ties and missed moons), which catch some of the same
#: mutants: they are not among "the rest of the suite" the new cases were measured against.
LATER = ("hucklebuck/end/tie-bidder-", "hucklebuck/end/tie-lone-bidder-", "hucklebuck/moon/missed-with-")


def mutated(module: str, old: str, new: str) -> Iterator[None]:
    mod = importlib.import_module(module)
    assert mod.__file__ is not None
    path = Path(mod.__file__)
    source = path.read_text(encoding="utf-8")
    assert source.count(old) == 1, old
    try:
        exec(compile(source.replace(old, new), str(path), "exec"), mod.__dict__)
        yield
    finally:
        exec(compile(source, str(path), "exec"), mod.__dict__)


def test_the_new_cases_are_in_the_suite() -> None:
    assert NEW <= {c.id for c in load_cases()}


@pytest.mark.parametrize(("module", "what", "old", "new", "catcher"), MUTANTS, ids=[m[4] for m in MUTANTS])
def test_a_new_deciding_case_catches_what_the_rest_of_the_suite_misses(
    core_name: str, module: str, what: str, old: str, new: str, catcher: str
) -> None:
    game = catcher.split("/")[0]
    cases = [c for c in load_cases() if c.group == game]
    before = [c for c in cases if c.id not in NEW and not c.id.startswith(LATER)]
    added = [c for c in cases if c.id in NEW]
    for _ in mutated(module, old, new):
        missed = run_cases(before, InProcessAdapter(core_name))
        caught = run_cases(added, InProcessAdapter(core_name))
    assert missed.failed == [], f"the older cases already catch: {what}"
    assert catcher in dict(caught.failed), f"{catcher} does not catch: {what}"
    assert run_cases(added, InProcessAdapter(core_name)).failed == []  # put back
