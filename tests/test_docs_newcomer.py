"""What the README and the docs tell a newcomer (issue 39, points 13 and 14), and ``serve``'s restart line.

One ``.venv/bin/python`` form in the README; the server install line keeps the package visible to
type checkers; the test command's duration is said; the landing page gives the two first steps; the
contributing page says how to build the docs with the ``docs`` extra, which is enough to build them;
the server page puts the part for people before its protocol; the players page plays a whole game
and restores it; ``serve``'s database is ignored by git, and a restart says how many tables it resumed.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.single_core

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_runs_python_one_way() -> None:
    plain = re.findall(r"(?<![/\w.])python3? -m (?!venv)", README)
    assert plain == [], plain  # every module run is `.venv/bin/python -m ...`
    assert ".venv/bin/python -m hucklebuck options GAME" in README


def test_the_server_install_keeps_the_package_visible_to_type_checkers() -> None:
    for text in (README, (ROOT / "docs/server.rst").read_text(encoding="utf-8")):
        installs = [line for line in text.splitlines() if "pip install" in line and "[server]" in line]
        assert installs and all("--config-settings editable_mode=compat" in line for line in installs), (
            installs
        )


def test_the_readme_says_how_long_the_tests_take_and_where_serve_keeps_its_tables() -> None:
    words = " ".join(README.split())
    assert re.search(r"the whole run \([\d,]+ tests\) takes about [\w ]+ minutes", words), words[:2000]
    assert "hucklebuck-tables.sqlite" in words and "how many tables it resumed" in words


def test_git_ignores_the_table_database() -> None:
    from hucklebuck.server.config import DEFAULT_DB

    for name in (DEFAULT_DB, f"{DEFAULT_DB}-wal", f"{DEFAULT_DB}-shm"):
        done = subprocess.run(
            ["git", "check-ignore", "-q", name],
            cwd=ROOT,
            timeout=30,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, (name, done.stderr)


def test_the_landing_page_gives_the_two_first_steps() -> None:
    text = (ROOT / "docs/index.rst").read_text(encoding="utf-8")
    first = text.index("First steps")
    toc = text.index(".. toctree::")
    steps = text[first:toc]
    assert first < toc
    assert (
        "Play a game in the terminal" in steps
        and "-m hucklebuck play hucklebuck --players 4 --you 1" in steps
    )
    assert "Start a table for friends" in steps and "hucklebuck serve" in steps


def test_the_contributing_page_says_how_to_build_the_docs_with_the_docs_extra() -> None:
    text = " ".join((ROOT / "docs/contributing.rst").read_text(encoding="utf-8").split())
    assert "pip install -q -e '.[docs]'" in text and "-m sphinx -W -b html docs" in text
    line = next(x for x in (ROOT / "pyproject.toml").read_text().splitlines() if x.startswith("docs = ["))
    docs = {re.split(r"[<>=;\s]", d)[0] for d in re.findall(r'"([^"]+)"', line)}
    # the API pages import the server's modules: their packages are part of what the docs need
    assert {"sphinx", "furo", "matplotlib", "starlette", "uvicorn", "websockets"} <= docs
    assert "docs again from the docs extra alone" in (ROOT / ".ci/run").read_text()


def test_the_server_page_puts_the_part_for_people_before_the_protocol() -> None:
    text = (ROOT / "docs/server.rst").read_text(encoding="utf-8")
    assert (
        text.index("\nThe browser table\n")
        < text.index("\nHow a table works\n")
        < text.index("\nThe HTTP API\n")
    )


def test_the_players_page_plays_a_whole_game_and_restores_it() -> None:
    text = (ROOT / "docs/players.rst").read_text(encoding="utf-8")
    part = text[text.index("A whole game, saved and restored") :]
    for needed in ("while not game.is_over", "game.next_hand()", "to_json()", "from_json(saved)", "== game"):
        assert needed in part, needed  # the doctest itself runs with the docs (pytest docs/players.rst)


@pytest.mark.skipif(sys.platform == "win32", reason="the server test uses POSIX signals")
def test_a_restart_says_how_many_tables_it_resumed(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    sys.path.insert(0, str(ROOT / "tests"))
    from browser_kit import Server

    db = tmp_path / "tables.sqlite"
    server = Server(db).start()
    try:
        assert f"no stored tables to resume in {db}" in server.output()
        for _ in range(2):
            server.post("/api/tables", {"game": "hucklebuck", "players": 3})
    finally:
        server.stop()
    server = Server(db).start()
    try:
        assert f"resumed 2 tables from {db}" in server.output()
    finally:
        server.stop()
