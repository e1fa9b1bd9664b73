"""The bench's targets (issue 40): met and missed figures, wide misses, the quiet/loaded
verdict and what ``--guard`` does with each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hucklebuck.bench import targets
from hucklebuck.bench.targets import Load, Target

pytestmark = pytest.mark.single_core
QUIET = Load(0.3, 0.5, 0.5, 2)
LOADED = Load(9.7, 10.0, 10.0, 2)


def test_met_missed_and_wide() -> None:
    assert Target("s", "a", 0.6, 0.6, True, True).met
    near = Target("s", "a", 0.55, 0.6, True, True)
    assert not near.met and not near.wide and "*** MISS" in near.line()
    far = Target("s", "a", 0.4, 0.6, True, True)
    assert far.wide and "WIDE MISS: 33% short" in far.line()
    slow = Target("s", "us", 3.0, 1.0, False, False)  # an absolute figure: shown, never wide
    assert not slow.met and not slow.wide and "not guarded" in slow.line()
    assert Target("s", "us", 0.5, 1.0, False, True).met


def test_quiet_means_half_the_cpus_before_and_that_plus_one_after() -> None:
    assert targets.quiet(QUIET, Load(1.9, 1, 1, 2))
    assert not targets.quiet(QUIET, Load(2.1, 1, 1, 2))
    assert not targets.quiet(Load(1.1, 1, 1, 2), QUIET)
    assert not targets.quiet(LOADED, LOADED)


@pytest.mark.parametrize(
    ("value", "before", "guard", "status"),
    [
        (0.4, QUIET, True, 1),  # a wide miss on a quiet machine fails the guard
        (0.4, LOADED, True, 0),  # ... and is only recorded on a loaded one
        (0.4, QUIET, False, 0),  # without --guard nothing fails
        (0.55, QUIET, True, 0),  # a narrow miss is marked, never failed
        (0.7, QUIET, True, 0),
    ],
)
def test_summary_status(
    value: float, before: Load, guard: bool, status: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    targets.reset()
    try:
        targets.check("games", "hands/s ids / OpenSpiel", value, 0.6)
        record = tmp_path / "targets.jsonl"
        assert targets.summary(before, before, guard, str(record)) == status
        row = json.loads(record.read_text().splitlines()[0])
        assert row["value"] == value and row["met"] == (value >= 0.6) and row["quiet"] == (before is QUIET)
    finally:
        targets.reset()
    out = capsys.readouterr().out
    assert "load average" in out and ("LOADED" in out) == (before is LOADED)
