"""The case files are what the authoring scripts write: regenerating the suite
from ``conformance/tools/build_cases.py`` gives the committed JSON byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "conformance" / "tools"
CASES = ROOT / "conformance" / "cases"

pytestmark = pytest.mark.skipif(not TOOLS.is_dir(), reason="needs a source checkout (conformance/tools)")


@pytest.mark.single_core
def test_regenerated_suite_is_byte_identical(tmp_path: Path) -> None:
    out = tmp_path / "cases"
    subprocess.run(
        [sys.executable, str(TOOLS / "build_cases.py"), "--out", str(out)],
        check=True,
        capture_output=True,
        text=True,
    )
    committed = sorted(p.relative_to(CASES) for p in CASES.rglob("*.json"))
    written = sorted(p.relative_to(out) for p in out.rglob("*.json"))
    assert written == committed, "the scripts write other files than conformance/cases holds"
    differ = [str(p) for p in committed if (out / p).read_bytes() != (CASES / p).read_bytes()]
    assert differ == [], f"these files differ from what conformance/tools/build_cases.py writes: {differ}"
