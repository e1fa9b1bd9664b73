"""Every Python example in the README and the docs passes ``mypy --strict``, as an
app developer's code would, checked from outside the checkout against the
installed package (so the install itself must be visible to a type checker:
the README's editable install uses ``editable_mode=compat`` for that).

The examples are the ``.. code-block:: python`` blocks (each its own program)
and the doctest sessions of each page (one program per page, as doctest runs
them); the README's ```python blocks likewise.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("mypy")

pytestmark = pytest.mark.single_core

ROOT = Path(__file__).resolve().parent.parent

# Untyped third-party libraries an example may use: an app would tell mypy the same.
MYPY_INI = """\
[mypy]
strict = True
python_version = 3.10
untyped_calls_exclude = distributed

[mypy-pyspiel.*,open_spiel.*,distributed.*,dask.*]
ignore_missing_imports = True
follow_untyped_imports = False
"""

APP = """\
import hucklebuck as hb
from hucklebuck.games import HucklebuckGame

game = HucklebuckGame(4, seed=1)
seat: int | None = game.to_act
winner: int = hb.trick_winner("hucklebuck", hb.Suit.SPADES, hb.parse_cards("AS KS"))
"""


def examples(path: Path) -> list[str]:
    """The Python programs shown on one page."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".md":
        return [m.group(1) for m in re.finditer(r"```python\n(.*?)```", text, re.S)]
    lines = text.splitlines()
    out: list[str] = []
    session: list[str] = []
    i = 0
    while i < len(lines):
        m = re.match(r"(\s*)\.\. code-block:: python\s*$", lines[i])
        if m:
            base, body = len(m.group(1)), []
            i += 1
            while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > base):
                body.append(lines[i])
                i += 1
            out.append(textwrap.dedent("\n".join(body)))
            continue
        s = lines[i].strip()
        if s.startswith((">>> ", "... ")) or s in (">>>", "..."):
            session.append(s[4:])
        i += 1
    return ([("\n".join(session))] if session else []) + out


def test_examples_are_found() -> None:
    """The extractor sees the examples this test is about (so it cannot pass on nothing)."""
    loop = "\n".join(examples(ROOT / "docs" / "rules" / "hucklebuck.rst"))
    assert "game.apply(bot.choose(game.observation(to_act)))" in loop
    assert any("defaultdict" in e for e in examples(ROOT / "docs" / "agents.rst"))
    assert examples(ROOT / "README.md")


def _mypy_cache(config: pytest.Config, tmp_path: Path) -> Path:
    """mypy's own incremental cache, kept between runs in pytest's cache folder (mypy re-checks
    whatever changed since, by content), or a fresh one without pytest's cache."""
    cache = getattr(config, "cache", None)
    return Path(cache.mkdir("mypy-docs-examples")) if cache is not None else tmp_path / ".mypy_cache"


def test_every_docs_example_passes_mypy_strict(tmp_path: Path, pytestconfig: pytest.Config) -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.rst"))]
    written: dict[str, str] = {}
    for page in pages:
        for k, code in enumerate(examples(page)):
            name = re.sub(r"\W", "_", page.relative_to(ROOT).as_posix()) + f"_{k}.py"
            (tmp_path / name).write_text(code + "\n", encoding="utf-8")
            written[name] = page.relative_to(ROOT).as_posix()
    assert len(written) >= 10, written
    (tmp_path / "app.py").write_text(APP, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text(MYPY_INI, encoding="utf-8")
    cache = str(_mypy_cache(pytestconfig, tmp_path))
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", cache, *written, "app.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    out = proc.stdout + proc.stderr
    if "app.py" in out and "hucklebuck" in out and "import" in out:
        pytest.fail(
            "mypy cannot find the installed hucklebuck from outside the checkout; an editable install "
            "needs: pip install -e . --config-settings editable_mode=compat\n" + out[-3000:]
        )
    errors = [line for line in out.splitlines() if ": error:" in line]
    shown = [f"{written.get(e.split(':')[0], e.split(':')[0])}: {e}" for e in errors]
    assert proc.returncode == 0 and not errors, "\n".join(shown) or out[-3000:]
