"""The pages in Chromium under the server's page headers: they work under the
Content-Security-Policy with no violation, no other page can frame them, the seat's secret
never appears in any address the page requests (it goes in the WebSocket's subprotocol
header), and a table is private unless its host opens it to everyone."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser_kit import CHROMIUM, Server, chromium, new_page, play_turn, wait_my_turn

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium package (CI installs it)"),
]

HEADERS = {
    "content-security-policy": "default-src 'self'; frame-ancestors 'none'",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
}


@pytest.fixture(scope="module")  # one Chromium for the module; each test opens its own contexts
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "tables.sqlite").start()
    try:
        yield s
    finally:
        s.stop()


def test_the_pages_work_under_their_headers_and_the_seat_secret_stays_out_of_every_address(
    browser: Any, server: Server
) -> None:
    """A person sets up a private table in the lobby, takes their seat and plays a move; every
    page and file carried the headers; no console error (a CSP violation is one); and the seat
    token was in no address the page requested, the WebSocket's included."""
    page, watch = new_page(browser, server, 1280)
    requested: list[str] = []
    page.context.on("request", lambda r: requested.append(r.url))
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    answers: list[Any] = []
    page.on("response", lambda r: answers.append(r))
    page.goto(server.base + "/")
    page.get_by_role("button", name="Create the table").click()
    page.locator("#created").wait_for()
    assert "private" in page.locator("#privacy").inner_text()
    go = page.locator("#go").get_attribute("href") or ""
    token = go.split("#", 1)[1]
    assert re.fullmatch(r"[A-Za-z0-9_-]{20,}", token), go
    page.locator("#go").click()
    wait_my_turn(page)
    assert play_turn(page, random.Random(1)) is not None  # the table page works: a move is made
    page.wait_for_function("document.body.dataset.conn === 'up'")
    assert sockets and all(token not in ws.url for ws in sockets)
    sent = [urlsplit(u)._replace(fragment="").geturl() for u in requested]  # a fragment is never sent
    assert sent and not [u for u in sent if token in u], [u for u in sent if token in u]
    served = [a for a in answers if a.url.startswith(server.base) and a.status < 400]
    kinds = {urlsplit(a.url).path.rsplit(".", 1)[-1] for a in served}
    assert {"js", "css", "svg"} <= kinds and len(served) >= 6, kinds
    for a in served:
        got = {k: v for k, v in a.all_headers().items() if k in HEADERS}
        assert got == HEADERS, (a.url, got)
    table_id = urlsplit(page.url).path.rsplit("/", 1)[-1]
    assert table_id not in {t["id"] for t in server.get("/api/tables")["tables"]}  # private: not listed
    watch.check()


def test_no_other_page_can_frame_the_lobby(browser: Any, server: Server) -> None:
    """Another page frames the lobby (to have someone click *Create the table* in it): Chromium
    refuses to show it (frame-ancestors 'none'), and says so on the console (before: the lobby
    showed inside the other page)."""
    page, watch = new_page(browser, server, 1280)
    said = "Framing 'http://127.0.0.1:"
    watch.expect(said)
    with page.expect_event("console", lambda m: m.text.startswith(said), timeout=30_000) as told:
        page.set_content(f'<iframe id="f" src="{server.base}/" width="800" height="600"></iframe>')
    assert "frame-ancestors 'none'" in told.value.text
    frame = next(f for f in page.frames if f is not page.main_frame)
    frame.wait_for_url(re.compile(r"^chrome-error:"), timeout=30_000)  # Chromium's error page, not the lobby
    assert page.frame_locator("#f").get_by_role("button", name="Create the table").count() == 0
    watch.check()


def test_a_table_opened_to_everyone_is_listed_in_the_lobby(browser: Any, server: Server) -> None:
    page, watch = new_page(browser, server, 1280)
    page.goto(server.base + "/")
    page.get_by_label("Open to everyone").check()
    page.get_by_role("button", name="Create the table").click()
    page.locator("#created").wait_for()
    assert "open to everyone" in page.locator("#privacy").inner_text()
    go = page.locator("#go").get_attribute("href") or ""
    table_id = go.split("#", 1)[0].rsplit("/", 1)[-1]
    assert [t["id"] for t in server.get("/api/tables")["tables"]] == [table_id]
    page.goto(server.base + "/")
    page.get_by_role("link", name=re.compile(r"players: watch")).wait_for()
    watch.check()
