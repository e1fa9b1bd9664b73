"""The lobby lists the tables being played (from ``GET /api/tables``: with several servers on
one database, every server's), each with its watch link; a finished table is not listed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import CHROMIUM, Server, chromium, new_page

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium package (CI installs it)"),
]


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from chromium()


def test_the_lobby_lists_the_tables_being_played(browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.sqlite").start()
    try:
        page, watch = new_page(browser, server, 1280)
        page.goto(server.base + "/")
        page.get_by_role("button", name="Create the table").wait_for()
        assert page.locator("#playing").is_hidden()  # no table yet: no list
        seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "computer", "player": "random"}] * 3
        made = server.post("/api/tables", {"game": "deerpark", "players": 4, "seats": seats, "public": True})
        page.reload()
        link = page.get_by_role("link", name="Deer Park Euchre, 4 players: watch")
        link.wait_for()
        assert link.get_attribute("href") == f"/t/{made['id']}"
        watch.check()
    finally:
        server.stop()
