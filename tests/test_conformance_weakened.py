"""The suite notices each deliberately weakened copy of our adapter
(conformance/tools/weakened.py): every weakening the differential fuzz tells
apart from the reference fails at least one case, the rule that players go out
in the hand that ends the game included."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance" / "tools"))
import weakened

pytestmark = pytest.mark.single_core


@pytest.mark.parametrize("name", sorted(weakened.WEAKENINGS))
def test_the_suite_fails_each_weakened_copy(name: str) -> None:
    failed = weakened.suite_failures(name)
    assert failed, f"no case fails against the weakening {name}"


def test_players_go_out_in_the_hand_that_ends_the_game() -> None:
    failed = set(weakened.suite_failures("out-not-at-game-end"))
    assert failed == {"hucklebuck/end/out-in-the-hand-reaching-the-target",
                      "hucklebuck/moon/out-in-the-hand-of-a-winning-moon"}  # fmt: skip


def test_the_fuzz_tells_the_weakening_apart_and_leaves_the_library_whole() -> None:
    differ, first = weakened.fuzz("out-not-at-game-end", 60, seed=1)
    assert differ > 0 and first is not None and first["game"] == "hucklebuck"
    from hucklebuck.conformance import InProcessAdapter, load_cases, run_cases

    assert weakened.suite_failures("out-below-minus-25")
    cases = [c for c in load_cases() if c.group == "hucklebuck"]
    assert run_cases(cases, InProcessAdapter()).failed == []  # each weakening is undone after use
