"""What the README and the docs tell people (issue 58, points 4 and 11): seats counted from 1 in
prose and the terminal's examples, where each numbering is used, a short test paragraph whose
details live in docs/contributing.rst, how to build the docs, and the PostgreSQL start-up line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_test_paragraph_is_short_and_points_to_the_details() -> None:
    before = README[: README.index("<!-- test-command -->")]
    paragraph = before.rstrip().split("\n\n")[-1]
    assert len(paragraph.split()) <= 40, paragraph
    assert "docs/contributing.rst" in paragraph
    contributing = (ROOT / "docs/contributing.rst").read_text(encoding="utf-8")
    for detail in ("chromium-headless-shell", "quarter of their examples", "axe-core"):
        assert detail in contributing


def test_the_readme_says_how_to_build_and_open_the_docs() -> None:
    words = " ".join(README.split())
    assert "-m sphinx -b html docs docs/_build/html" in words
    assert "open `docs/_build/html/index.html`" in words


def test_people_read_seats_from_one_and_the_docs_say_where_each_numbering_is_used() -> None:
    texts = {p: p.read_text(encoding="utf-8") for p in (ROOT / "README.md", ROOT / "docs/index.rst")}
    texts[ROOT / "docs/server.rst"] = (ROOT / "docs/server.rst").read_text(encoding="utf-8")
    for path, text in texts.items():
        assert not re.search(r"--you 0\b", text), path
    server = " ".join(texts[ROOT / "docs/server.rst"].split())
    assert "Everything a person reads or types counts seats from 1" in server
    assert "Everything a program reads counts them from 0" in server
    assert "Take your seat (seat 1)" in server


def test_the_postgresql_start_up_line_shows_the_address_not_a_path() -> None:
    pytest.importorskip("psycopg")
    from types import SimpleNamespace

    from hucklebuck.cli.serve import _resumed_line

    app = SimpleNamespace(state=SimpleNamespace(manager=SimpleNamespace(tables={"a": 1})))
    line = _resumed_line(app, "postgresql://ann:secret@db.example:5433/cards")
    assert line == "resumed 1 table from the PostgreSQL database cards on db.example:5433"
    assert "secret" not in line and "/" not in line


def test_the_landing_pages_first_install_lines_fit_a_phone() -> None:
    text = (ROOT / "docs/index.rst").read_text(encoding="utf-8")
    block = text[text.index(".. code-block:: sh") :].split("\n\n")[1]
    install = [line.strip() for line in block.splitlines() if "venv" in line and "play" not in line]
    install += [line.strip() for line in block.splitlines() if line.strip().startswith("--config")]
    # at most 48 characters: about 340 px of monospace, inside the code box at 390 px
    assert len(install) == 3 and max(len(line) for line in install) <= 48, block


def test_the_several_servers_example_shows_host_and_hostname_and_the_docs_install_line() -> None:
    text = " ".join((ROOT / "docs/server.rst").read_text(encoding="utf-8").split())
    start = text.index("**PostgreSQL.**")
    example = text[start : start + 1500]
    line = ".venv/bin/pip install -q -e '.[server,postgres]' --config-settings editable_mode=compat"
    assert line in example
    assert "--host 10.0.0.11 --port 8000 --hostname cards.example.org" in example
    cfg = (ROOT / "deploy/haproxy.cfg").read_text(encoding="utf-8")
    assert "server s1 10.0.0.11:8000" in cfg  # the example's address is the shipped proxy's first server
