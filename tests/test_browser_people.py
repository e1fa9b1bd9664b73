"""People at the browser table (issue 58, points 3-6), in Chromium at 390 and 1280 px against a
real ``hucklebuck serve``: a friend who never opened their link is "not here yet" (never "their
connection dropped") with their own, longer wait; the lobby counts seats from 1 and leaves unnamed
seats to the one default-name rule; and a page changes hands at once: a notice about one hand
("your only legal move was played for you") goes when the next hand is dealt.
Screenshots go to the test's tmp dir (or ``HUCKLEBUCK_TABLE_SCREENSHOTS``).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("starlette")

from browser_kit import CHROMIUM, POLL, Server, chromium, click_move, new_page, page_state, wait_for_news

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium package (CI installs it)"),
]

SHOTS = os.environ.get("HUCKLEBUCK_TABLE_SCREENSHOTS")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("people") / "tables.sqlite", deal_pause=1.0).start()
    yield s
    s.stop()


def shot(page: Any, tmp_path: Path, name: str) -> None:
    if not SHOTS:  # pictures for a person to look at, taken only when asked for: each costs Chromium
        return
    folder = Path(SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def open_seat(browser: Any, server: Server, link: str, width: int) -> tuple[Any, Any]:
    page, watch = new_page(browser, server, width)
    page.goto(server.base + link)
    page.wait_for_function(
        "document.body.dataset.conn === 'up' && Number(document.body.dataset.seq) >= 0", polling=POLL
    )
    return page, watch


# ------------------------------------------------------------------ point 3: not here yet
@pytest.mark.parametrize("width", [390, 1280])
def test_a_friend_who_never_opened_their_link_is_not_here_yet(
    browser: Any, server: Server, tmp_path: Path, width: int
) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]
    seats += [{"kind": "computer", "player": "heuristic"}] * 2
    table = server.post(
        "/api/tables", {"game": "hucklebuck", "players": 4, "seats": seats, "first_wait": 1800}
    )
    page, watch = open_seat(browser, server, table["seats"][0]["link"], width)
    ben = page.locator("#seats article").nth(1)
    ben.get_by_text("not here yet", exact=False).first.wait_for()
    line = page.locator("#grace-line").inner_text()
    assert "Ben is not here yet" in line and "dropped" not in line
    assert "in 29 min" in line or "in 30 min" in line  # the table's own wait, not the 60 s grace
    assert "not here yet" in (ben.get_attribute("aria-label") or "")
    assert "dropped" not in page.locator("main").inner_text()
    # point 7: a computer's kind by its one friendly name, as the lobby offered it
    assert page.locator("#seats article").nth(2).get_by_text("computer: quick").count() == 1
    shot(page, tmp_path, f"not-here-yet-{width}")
    page.context.close()
    watch.check()


def test_the_lobby_offers_the_first_wait_and_sends_it(browser: Any, server: Server) -> None:
    page, watch = new_page(browser, server, 390)
    page.goto(server.base + "/")
    page.get_by_label("Seat 2: who plays").select_option("human")
    page.get_by_label("Friends not here yet").select_option("1800")
    page.get_by_role("button", name="Create the table").click()
    page.get_by_role("heading", name="Your table is ready").wait_for()
    links = page.locator("#links").inner_text()
    assert "Seat 1: Player 1 (you)" in links and "Seat 2: Player 2" in links  # one default-name rule
    page.get_by_role("link", name="Take your seat (seat 1)").click()
    page.locator("#grace-line").get_by_text("Player 2 is not here yet", exact=False).wait_for()
    line = page.locator("#grace-line").inner_text()
    assert "in 29 min" in line or "in 30 min" in line
    names = page.locator("#seats .name").all_inner_texts()
    assert names == ["1. Player 1", "2. Player 2", "3. Computer 3", "4. Computer 4"]
    page.context.close()
    watch.check()


# ------------------------------------------------------------------ point 6: a hand changes at once
_HAND = """() => ({
  hand: document.getElementById('hand-no').textContent,
  notice: document.getElementById('banner-notice').classList.contains('hidden')
    ? '' : document.getElementById('banner-notice').textContent,
  status: document.getElementById('status').textContent,
})"""


@pytest.mark.parametrize("width", [390, 1280])
def test_a_notice_about_one_hand_goes_when_the_next_is_dealt(
    browser: Any, server: Server, tmp_path: Path, width: int
) -> None:
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "computer", "player": "heuristic"}] * 2
    table = server.post("/api/tables", {"game": "hucklebuck", "players": 3, "seats": seats})
    page, watch = open_seat(browser, server, table["seats"][0]["link"], width)
    rng = random.Random(width)
    forced_in: int | None = None
    deadline = time.monotonic() + 480  # catches a hang only: a busy machine plays these hands slowly
    while True:
        assert time.monotonic() < deadline, "no forced move was played and followed by a new hand"
        now = page.evaluate(_HAND)
        hand = int(now["hand"].split()[-1])
        if "only legal move was played" in now["notice"] and forced_in is None:
            forced_in = hand
            shot(page, tmp_path, f"forced-notice-{width}")
        if forced_in is not None and hand > forced_in:
            # the first look at the next hand: the notice about the last one is gone with it
            assert "only legal move" not in now["notice"], now
            assert f"Hand {hand}" == now["hand"]
            break
        state = page_state(page)
        moves = [n for n, _ in state["moves"]]
        if state["over"]:  # the game ended before a forced move and a next hand: play again
            forced_in = None
            page.get_by_role("button", name="Play again (same seats)").click()
            wait_for_news(page, state["seq"])
        elif moves:
            stay = [n for n in moves if n.startswith("stay")]  # stay, so Ann plays tricks to the last card
            click_move(page, stay[0] if stay else rng.choice(moves), state)
        else:
            wait_for_news(page, state["seq"])
    page.context.close()
    watch.check()


# ------------------------------------------------------------------ point 7: plain names
@pytest.mark.parametrize("width", [390, 1280])
def test_the_lobby_names_options_and_computer_kinds_in_plain_words(
    browser: Any, server: Server, tmp_path: Path, width: int
) -> None:
    from hucklebuck.words.people import COMPUTER_KINDS, OPTION_LABELS

    page, watch = new_page(browser, server, width)
    page.goto(server.base + "/")
    page.get_by_role("radio", name="Deer Park Euchre").check()
    page.get_by_text("rule variants").click()
    label = page.locator("label[for=opt-round2_excludes_turned_suit]").inner_text()
    assert label == OPTION_LABELS["round2_excludes_turned_suit"] == "Round 2 may not call the turned suit"
    labels = page.locator("#options label").all_inner_texts()
    assert labels and not any("_" in t or t[:1].islower() for t in labels), labels
    kinds = page.get_by_label("Seat 2: who plays").locator("option").all_inner_texts()
    offered = ("mc", "mc-solver", "heuristic", "random")
    shipped = ["computer: trained"]  # the weights shipped for Deer Park Euchre at four players
    assert kinds[1:] == [f"computer: {COMPUTER_KINDS[k][0]}" for k in offered] + shipped
    legend = page.locator("#seat-kinds").inner_text()
    assert "Monte Carlo" not in legend
    shot(page, tmp_path, f"lobby-options-{width}")
    page.context.close()
    watch.check()


# ------------------------------------------------------------------ point 8: a link that leads nowhere
@pytest.mark.parametrize("width", [390, 1280])
def test_a_bad_seat_link_says_to_ask_the_host(
    browser: Any, server: Server, tmp_path: Path, width: int
) -> None:
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "computer", "player": "random"}] * 2
    table = server.post("/api/tables", {"game": "deerpark", "players": 3, "seats": seats})
    page, watch = new_page(browser, server, width)
    page.goto(f"{server.base}/t/{table['id']}#not-the-right-secret")
    page.get_by_role("link", name="Back to the lobby").wait_for()
    banner = page.locator("#banner-conn").inner_text()
    assert "does not open a seat at this table" in banner
    assert "Ask the person who set up the table to send you your seat's link again" in banner
    shot(page, tmp_path, f"bad-seat-link-{width}")
    page.goto(server.base + "/t/no-such-table")
    page.reload()
    page.get_by_role("link", name="Back to the lobby").wait_for()
    banner = page.locator("#banner-conn").inner_text()
    assert "there is no such table" in banner and "ask them for it again" in banner
    page.context.close()
    watch.check()
