"""The fuzz harnesses of tests/fuzz/ replayed over their checked-in seed corpus.

A regression net between fuzzing runs: every seed (and any input saved there
after a fuzzer found a fault) must pass its harness's checks, which compare the
C and Python cores themselves.  The fuzzing itself runs in ``.ci/run`` and by
the soak command in tests/fuzz/README.md.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent / "fuzz"
HARNESSES = ("adapter", "play", "from_json", "actions", "evaluate")

pytestmark = pytest.mark.single_core


@pytest.mark.parametrize("name", HARNESSES)
def test_every_seed_passes_its_harness(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(FUZZ))
    harness = importlib.import_module(f"fuzz_{name}")
    seeds = sorted((FUZZ / "corpus" / name).iterdir())
    assert len(seeds) >= 5, f"the {name} seed corpus is missing"
    for seed in seeds:
        try:
            harness.TestOneInput(seed.read_bytes())
        except Exception as exc:
            raise AssertionError(f"{name} seed {seed.name} fails: {exc!r}") from exc
    sys.modules.pop(f"fuzz_{name}", None)


def test_the_corpus_is_small() -> None:
    total = sum(f.stat().st_size for f in (FUZZ / "corpus").rglob("*") if f.is_file())
    assert total < 200_000, f"the checked-in seed corpus is {total} bytes; keep it small"
