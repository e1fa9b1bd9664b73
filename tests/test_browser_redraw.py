"""The table page redraws only what changed, in Chromium against a real ``hucklebuck serve``.

Each state the server sends is drawn in full in memory, but a part of the page whose content is the
same as shown keeps its nodes: nothing in it is replaced, so a focused button keeps the focus, a
screen reader keeps its place, a live region does not say its line again, and the browser has nothing
to lay out or draw again there.  Before, every part was replaced at every state.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("starlette")

from browser_kit import (
    CHROMIUM,
    HANG_MS,
    POLL,
    Server,
    chromium,
    new_page,
    page_state,
    play_turn,
    wait_for_news,
)

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium package (CI installs it)"),
]

PARTS = ("hand", "moves", "facts", "seats", "trick", "log", "status", "scoring")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("redraw") / "tables.sqlite").start()
    yield s
    s.stop()


def open_table(browser: Any, server: Server) -> tuple[Any, Any]:
    """Ann at a four-seat Hucklebuck table with three quick computer players, her page connected."""
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "computer", "player": "random"}] * 3
    table = server.post("/api/tables", {"game": "hucklebuck", "players": 4, "seats": seats})
    page, watch = new_page(browser, server, 1280)
    page.goto(server.base + table["seats"][0]["link"])
    page.wait_for_function(
        "document.body.dataset.conn === 'up' && Number(document.body.dataset.seq) >= 0", polling=POLL
    )
    return page, watch


# Records, for every state drawn (a change of the body's data-seq), each part's markup after it and
# whether anything in the part was touched (a node added, removed, an attribute or a text written).
_WATCH = """(parts) => {
  const el = (p) => document.getElementById(p);
  window.drawn = [];
  let before = Object.fromEntries(parts.map((p) => [p, el(p).outerHTML]));
  new MutationObserver((records) => {
    if (!records.some((r) => r.target === document.body && r.attributeName === 'data-seq')) return;
    const touched = Object.fromEntries(parts.map((p) => [p, records.some((r) => el(p).contains(r.target))]));
    const now = Object.fromEntries(parts.map((p) => [p, el(p).outerHTML]));
    window.drawn.push({seq: document.body.dataset.seq, before, now, touched});
    before = now;
  }).observe(document.body, {attributes: true, childList: true, characterData: true, subtree: true});
}"""


def test_a_state_leaves_every_part_it_does_not_change_untouched(browser: Any, server: Server) -> None:
    """Before: every part was replaced at every state (the hand too, while other seats played)."""
    page, watch = open_table(browser, server)
    page.evaluate(_WATCH, list(PARTS))
    rng = random.Random(5)
    deadline = time.monotonic() + 300  # catches a hang only
    while True:
        assert time.monotonic() < deadline, "too few states came"
        drawn = page.evaluate("window.drawn")
        same = [(d["seq"], p) for d in drawn for p in PARTS if d["before"][p] == d["now"][p]]
        changed = [(d["seq"], p) for d in drawn for p in PARTS if d["before"][p] != d["now"][p]]
        if len({p for _, p in same} & {"hand", "facts", "status"}) == 3 and len(drawn) >= 12:
            break
        state = page_state(page)
        if state["over"]:
            break
        if play_turn(page, rng, state) is None:
            wait_for_news(page, state["seq"])
    touched_same = [
        (d["seq"], p) for d in drawn for p in PARTS if d["before"][p] == d["now"][p] and d["touched"][p]
    ]
    assert not touched_same, touched_same  # an unchanged part: not one node replaced, no text rewritten
    assert {"hand", "facts", "status"} <= {p for _, p in same}, same  # (the test saw such states)
    assert all(d["touched"][p] for d in drawn for p in PARTS if d["before"][p] != d["now"][p]), changed
    page.context.close()
    watch.check()


def test_a_focused_card_keeps_the_focus_and_its_node_across_a_redraw(browser: Any, server: Server) -> None:
    """A refused move redraws the page with the hand unchanged: the very card button that had the
    focus keeps it.  Before, the hand was rebuilt and the focus put on a new, equal button."""
    page, watch = open_table(browser, server)
    rng = random.Random(11)
    deadline = time.monotonic() + 300  # catches a hang only
    while not page.locator("#hand button[data-move]:not([disabled])").count():
        assert time.monotonic() < deadline, "no card to play came"
        state = page_state(page)
        assert not state["over"], "the game ended without a card to play"
        if play_turn(page, rng, state) is None:
            wait_for_news(page, state["seq"])
    errors = int(page.evaluate("document.body.dataset.errors || '0'"))
    page.evaluate(
        """() => { const b = document.querySelector('#hand button[data-move]:not([disabled])');
                   b.focus(); window.kept = b; window.keptHtml = document.getElementById('hand').innerHTML;
                   window.hucklebuckTable.send({type: 'act', action: 'no such move',
                                                seq: window.hucklebuckTable.seq}); }"""
    )
    page.wait_for_function(
        f"Number(document.body.dataset.errors || 0) > {errors}", timeout=HANG_MS, polling=POLL
    )
    assert page.evaluate("document.getElementById('hand').innerHTML === window.keptHtml")
    assert page.evaluate("window.kept.isConnected && document.activeElement === window.kept")
    page.context.close()
    watch.check()
