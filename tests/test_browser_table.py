"""The browser table in a real browser: Debian's Chromium driven by Playwright against a real
``hucklebuck serve`` process on a loopback port.

Two people (two browser contexts, one per seat link, one at phone width and one at desktop width) sit
with computer players; they play whole games by clicking only the buttons their pages offer, and the
result the pages show is checked against the game the server stored.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("starlette")

from browser_kit import (
    CHROMIUM,
    HANG_MS,
    POLL,
    Server,
    check_layout,
    chromium,
    new_page,
    offered_moves,
    play_turn,
    play_until,
    seq,
    wait_my_turn,
)

from hucklebuck.cli.common import GAMES

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium package (CI installs it)"),
]

SHOTS = os.environ.get("HUCKLEBUCK_TABLE_SCREENSHOTS")
"""A folder to keep the screenshots in (the docs images); without it no screenshot is taken."""


@pytest.fixture(autouse=True)
def _never_hang() -> Iterator[None]:
    """A browser or server that stops answering fails the test after 5 minutes instead of stalling the run."""

    def give_up(signum: int, frame: Any) -> None:
        raise TimeoutError("the browser test stalled for 5 minutes (a page or the server stopped answering)")

    if not hasattr(signal, "SIGALRM"):  # not on Windows
        yield
        return
    old = signal.signal(signal.SIGALRM, give_up)
    signal.alarm(300)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module's tests (a start costs half a second of CPU): each test makes its own
    table and reads only that table, so none sees another's.  A long grace: the computer does not
    take over the seats of a test that has ended and play its table on while later tests run."""
    s = Server(tmp_path_factory.mktemp("table") / "tables.sqlite", grace=3600).start()
    yield s
    s.stop()


def shot(page: Any, tmp_path: Path, name: str, scroll_to: str | None = None) -> None:
    """A screenshot: the whole page on a desktop, one screenful on a phone (at ``scroll_to``, or the top)."""
    if not SHOTS:  # pictures for a person to look at, taken only when asked for: each costs Chromium
        return
    folder = Path(SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    page.mouse.move(1, 1)
    phone = page.viewport_size["width"] < 600
    if phone:
        page.evaluate(
            "(sel) => sel ? document.querySelector(sel).scrollIntoView({block: 'end'}) : scrollTo(0, 0)",
            scroll_to,
        )
    page.screenshot(path=str(folder / f"{name}.png"), full_page=not phone)
    page.evaluate("scrollTo(0, 0)")


GAME_TITLES = {"hucklebuck": "Hucklebuck", "buckem": "Buck 'Em", "deerpark": "Deer Park Euchre"}


def create_in_lobby(
    page: Any, server: Server, game: str, players: int, options: dict[str, str], hands: str | None = None
) -> list[str]:
    """Set up a table in the lobby: seats 1 and 2 people (Ann, Ben), the rest quick computer players.

    Returns the two seat links the lobby shows; the page is left on the "table ready" panel.
    """
    page.goto(server.base + "/")
    page.get_by_role("radio", name=GAME_TITLES[game]).check()
    page.get_by_label("Number of players").select_option(str(players))
    if hands is not None:
        page.get_by_label("Session length").select_option(hands)
    page.get_by_label("Seat 1: name").fill("Ann")  # people count seats from 1 (issue 58; the API from 0)
    page.get_by_label("Seat 2: who plays").select_option("human")
    page.get_by_label("Seat 2: name").fill("Ben")
    for i in range(3, players + 1):
        page.get_by_label(f"Seat {i}: who plays").select_option("heuristic")
    page.get_by_text("rule variants").click()
    for name, value in options.items():
        page.locator(f"#opt-{name}").select_option(value)
    page.get_by_role("button", name="Create the table").click()
    page.get_by_role("heading", name="Your table is ready").wait_for()
    return [page.get_by_label(f"Seat {n}: {who}{me}: link").input_value()
            for n, who, me in ((1, "Ann", " (you)"), (2, "Ben", ""))]  # fmt: skip


def stored_game(server: Server, table_id: str) -> Any:
    """The game exactly as the server stored it (the engine's own save format), rebuilt by the engine."""
    db = sqlite3.connect(f"file:{server.db}?mode=ro", uri=True)
    try:
        (text,) = db.execute("SELECT game FROM tables WHERE id = ?", (table_id,)).fetchone()
    finally:
        db.close()
    return GAMES[json.loads(text)["game"]].game_type.from_json(text)


def shown_scores(page: Any) -> list[int]:
    return [int(t.split()[0]) for t in page.locator("#seats .score").all_inner_texts()]


CASES = [
    ("hucklebuck", 4, {"target": "11"}, {}),
    ("deerpark", 6, {}, {}),  # more players: someone takes no trick more often, the game ends sooner
    ("buckem", 5, {}, {"hands": "3"}),
]


def two_people_play_a_whole_game_by_clicking(
    browser: Any, server: Server, tmp_path: Path, game: str, players: int, options: dict[str, str],
    extra: dict[str, str],
) -> None:  # fmt: skip
    lobby, w0 = new_page(browser, server, 1280)
    links = create_in_lobby(lobby, server, game, players, options, extra.get("hands"))
    if game == "hucklebuck":
        shot(lobby, tmp_path, "lobby-ready-1280")
    lobby.get_by_role("link", name="Take your seat (seat 1)").click()
    ann = lobby
    ben, w1 = new_page(browser, server, 390)
    ben.goto(links[1])
    ann.wait_for_url(links[0])
    table_id = links[0].split("/t/")[1].split("#")[0]
    for page in (ann, ben):
        page.get_by_text("connected", exact=True).wait_for()
    rng = random.Random(f"{game}-21")
    taken = set()

    def screenshots(i: int, page: Any, state: dict[str, Any]) -> None:
        width = 1280 if i == 0 else 390
        if not state["mine"]:
            return
        if rng.random() < 0.2:
            check_layout(page)
        if game != "hucklebuck" or len(taken) == 4:
            return
        caption = page.locator("#trick-caption").inner_text()
        if f"trick-{width}" not in taken and caption.startswith("Trick in progress"):
            if page.locator("#trick .played").count() >= 2 and page.locator("#hand button.card-slot").count():
                shot(page, tmp_path, f"table-trick-{width}")
                taken.add(f"trick-{width}")
        if f"score-{width}" not in taken and page.locator("#last-hand-line").is_visible():
            if page.locator("#scoring tbody tr").count() >= 2:
                shot(page, tmp_path, f"table-scoring-{width}", scroll_to="#scoring-panel")
                taken.add(f"score-{width}")

    moves = play_until([ann, ben], rng, lambda s: s[0]["over"] and s[1]["over"], on_move=screenshots)
    # each person decides at least once a hand (Buck 'Em: three rounds, where a fold is one decision)
    assert moves >= (6 if game == "buckem" else 10)

    summary = server.get(f"/api/tables/{table_id}")
    assert summary["over"] and summary["winners"]
    stored = stored_game(server, table_id)
    assert list(stored.standings) == summary["standings"]
    if game != "buckem":  # Buck 'Em has no natural end: the table ends the session after its hands
        assert stored.is_over and sorted(stored.winners) == sorted(summary["winners"])
    else:
        assert stored.hand_number == 3
    for page in (ann, ben):
        assert shown_scores(page) == summary["standings"]
        status = page.locator("#status").inner_text()
        assert status.startswith("Game over.")
        for w in summary["winners"]:
            assert summary["seats"][w]["name"] in status
        assert page.get_by_role("button", name="Play again (same seats)").is_visible()
        assert offered_moves(page) == []
    # Play again: a new game at the same table, for both.
    ann.get_by_role("button", name="Play again (same seats)").click()
    for page in (ann, ben):
        page.wait_for_function("document.body.dataset.over === ''", polling=POLL)
        assert page.locator("#hand-no").inner_text() == "Hand 1"
    w0.check()
    w1.check()


# One class per game: each whole game is its own unit of work, so that parallel runs
# (pytest -n, one module or class per worker at a time) spread the three games over the workers.
class TestHucklebuck:
    def test_two_people_play_a_whole_game_by_clicking(
        self, browser: Any, server: Server, tmp_path: Path
    ) -> None:
        two_people_play_a_whole_game_by_clicking(browser, server, tmp_path, *CASES[0])


class TestDeerPark:
    def test_two_people_play_a_whole_game_by_clicking(
        self, browser: Any, server: Server, tmp_path: Path
    ) -> None:
        two_people_play_a_whole_game_by_clicking(browser, server, tmp_path, *CASES[1])


class TestBuckEm:
    def test_two_people_play_a_whole_game_by_clicking(
        self, browser: Any, server: Server, tmp_path: Path
    ) -> None:
        two_people_play_a_whole_game_by_clicking(browser, server, tmp_path, *CASES[2])


def test_lobby_offers_every_game_option_and_seat(browser: Any, server: Server, tmp_path: Path) -> None:
    games = server.get("/api/games")["games"]
    for width in (390, 1280):
        page, watch = new_page(browser, server, width)
        page.goto(server.base + "/")
        page.get_by_role("button", name="Create the table").wait_for()
        shot(page, tmp_path, f"lobby-{width}")
        for g in games:
            page.get_by_role("radio", name=g["title"]).check()
            counts = page.get_by_label("Number of players").locator("option").all_inner_texts()
            lo, hi = g["players"]["min"], g["players"]["max"]
            assert counts == [f"{n} players" for n in range(lo, hi + 1)]
            assert page.get_by_label("Number of players").input_value() == str(g["players"]["default"])
            kinds = page.get_by_label("Seat 2: who plays").locator("option").all_inner_texts()
            research = {"mc-blind"}  # for measuring the computer players, not offered to friends
            offered = [c for c in g["computer_players"] if c["name"] not in research]
            assert kinds[0] == "a person" and len(kinds) == 1 + len(offered)
            for o in g["options"]:
                control = page.locator(f"#opt-{o['name']}")
                assert control.count() == 1, o["name"]
                desc = page.locator(f"#opt-{o['name']}-desc").text_content() or ""
                assert "Usual:" in desc and "DEF #" not in desc
        if width == 1280:
            page.get_by_role("radio", name="Hucklebuck").check()
            page.get_by_text("rule variants").click()
            shot(page, tmp_path, "lobby-options-1280")
            # A combination the engine refuses: the lobby shows the server's words and creates nothing.
            page.get_by_role("radio", name="Buck 'Em").check()
            page.locator("#opt-short_handed_trump").select_option("removed_card")
            watch.expect("Failed to load resource: the server responded with a status of 400")
            page.get_by_role("button", name="Create the table").click()
            error = page.locator("#form-error")
            error.get_by_text("The table was not created").wait_for()
            assert "short" in error.inner_text()
            assert page.locator("#created").is_hidden()
        page.context.close()
        watch.check()


def test_reconnect_after_closing_the_page_and_after_a_server_kill(browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.sqlite").start()
    try:
        table = server.post("/api/tables", {
            "game": "hucklebuck", "players": 3, "options": {"target": 11},
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"},
                      {"kind": "computer", "player": "heuristic"}]})  # fmt: skip
        links = [server.base + s["link"] for s in table["seats"][:2]]
        ann, wa = new_page(browser, server, 1280, allow_down=True)
        ben, wb = new_page(browser, server, 390, allow_down=True)
        ann.goto(links[0])
        ben.goto(links[1])
        rng = random.Random(7)
        # Play into the first hand until it is Ben's turn: nothing changes until Ben moves.
        play_until([ann, ben], rng, lambda s: s[0]["seq"] >= 6 and s[1]["mine"] and not s[0]["over"])
        # Close Ben's page mid-hand and open the link again: the same state.
        before, seq_before = ben.locator("#main").inner_text(), seq(ben)
        hand_before = ben.locator("#hand").inner_html()
        ben.context.close()
        ben, wb2 = new_page(browser, server, 390, allow_down=True)
        ben.goto(links[1])
        ben.wait_for_function(
            "document.body.dataset.conn === 'up' && document.body.dataset.turn === 'you'", polling=POLL
        )
        assert seq(ben) == seq_before
        assert ben.locator("#hand").inner_html() == hand_before
        assert _without_presence(ben.locator("#main").inner_text()) == _without_presence(before)
        # Kill the server mid-hand; both pages say so, and recover when it is back on the same db.
        seq_kill = seq(ann)
        hand = ann.locator("#hand").inner_html()
        for page, watch in ((ann, wa), (ben, wb2)):
            watch.wait_loaded(page)  # the kill lands on the pages at rest, as a crash mid-hand would
        server.kill()
        for page in (ann, ben):
            page.locator("#banner-conn").get_by_text("Connection to the table lost").wait_for()
            assert offered_moves(page) == []
        server.start()
        for page in (ann, ben):
            page.wait_for_function("document.body.dataset.conn === 'up'", timeout=HANG_MS, polling=POLL)
        assert seq(ann) == seq_kill and ann.locator("#hand").inner_html() == hand
        play_until([ann, ben], rng, lambda s: s[0]["over"] and s[1]["over"])
        assert server.get(f"/api/tables/{table['id']}")["over"]
        for w in (wa, wb2):
            w.check()
        del wb
    finally:
        server.stop()


def _without_presence(text: str) -> str:
    """Page text without the words that change when a person's connection comes and goes."""
    for word in ("not connected", "connecting…", "connected"):
        text = text.replace(word, "")
    return text


def test_a_refused_move_shows_its_message_and_changes_nothing(browser: Any, server: Server) -> None:
    table = server.post("/api/tables", {
        "game": "deerpark", "players": 3,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "player": "heuristic"},
                  {"kind": "computer", "player": "heuristic"}]})  # fmt: skip
    page, watch = new_page(browser, server, 1280)
    page.goto(server.base + table["seats"][0]["link"])
    page.wait_for_function("document.body.dataset.conn === 'up' && document.body.dataset.seq", polling=POLL)
    rng = random.Random(3)
    wait_my_turn(page)
    play_turn(page, rng)
    wait_my_turn(page)
    before = page.locator("#main").inner_text()
    n = seq(page)
    # A move that is not legal now, forced through the page's own socket.
    page.evaluate("(n) => window.hucklebuckTable.send({type: 'act', action: 'bid 9', seq: n})", n)
    error = page.locator("#banner-error")
    error.wait_for(state="visible")
    assert error.inner_text().strip()
    assert seq(page) == n
    assert page.locator("#main").inner_text().replace(error.inner_text(), "").strip() == before.strip()
    # A stale seq is refused too, with its own message.
    page.evaluate("(n) => window.hucklebuckTable.send({type: 'act', action: 0, seq: n - 1})", n)
    page.wait_for_function("Number(document.body.dataset.errors) >= 2", polling=POLL)
    assert seq(page) == n and offered_moves(page)
    watch.check()


def test_the_hint_button_shows_the_computers_ranking(browser: Any, server: Server) -> None:
    table = server.post("/api/tables", {
        "game": "hucklebuck", "players": 3,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "player": "heuristic"},
                  {"kind": "computer", "player": "heuristic"}]})  # fmt: skip
    page, watch = new_page(browser, server, 390)
    page.goto(server.base + table["seats"][0]["link"])
    page.wait_for_function("document.body.dataset.conn === 'up' && document.body.dataset.seq", polling=POLL)
    wait_my_turn(page)
    offered = sorted(offered_moves(page))
    page.get_by_role("button", name="Hint").click()
    items = page.locator("#hint .hint-list li")
    items.first.wait_for(timeout=HANG_MS)
    texts = items.all_inner_texts()
    assert sorted(t.split(":")[0] for t in texts) == offered
    best = page.locator("#hint .hint-list li.best").inner_text()
    assert best.endswith("(best)")
    assert page.locator(".btn.best, #hand .card-slot .cap").count() == 1
    assert "sampled deals" in page.locator("#hint").inner_text()
    watch.check()


def test_a_second_tab_takes_over_the_seat(browser: Any, server: Server) -> None:
    table = server.post("/api/tables", {
        "game": "hucklebuck", "players": 3,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "player": "heuristic"},
                  {"kind": "computer", "player": "heuristic"}]})  # fmt: skip
    link = server.base + table["seats"][0]["link"]
    first, watch = new_page(browser, server, 1280)
    first.goto(link)
    first.wait_for_function("document.body.dataset.conn === 'up'", polling=POLL)
    second = watch.page(first.context.new_page())
    second.goto(link)
    second.wait_for_function("document.body.dataset.conn === 'up'", polling=POLL)
    first.get_by_text("This seat is now open in another tab or window").wait_for()
    assert first.evaluate("document.body.dataset.conn") == "gone"
    assert offered_moves(first) == []
    rng = random.Random(5)
    play_until([second], rng, lambda s: s[0]["seq"] >= 4)
    assert first.evaluate("document.body.dataset.conn") == "gone"
    watch.check()


def test_keyboard_play_and_a_spectator_who_sees_no_hand(browser: Any, server: Server) -> None:
    table = server.post("/api/tables", {
        "game": "hucklebuck", "players": 3,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "player": "heuristic"},
                  {"kind": "computer", "player": "heuristic"}]})  # fmt: skip
    page, watch = new_page(browser, server, 1280)
    page.goto(server.base + table["seats"][0]["link"])
    spectator, watch2 = new_page(browser, server, 390)
    spectator.goto(server.base + table["spectator_link"])
    for _ in range(3):  # three moves, each reached with Tab and made with Enter
        wait_my_turn(page)
        assert page.locator("#status").get_attribute("aria-live") == "polite"
        assert page.locator("#status").inner_text().startswith("Your turn")
        before = seq(page)
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement && 'move' in document.activeElement.dataset"):
                break
        else:
            raise AssertionError("Tab never reached a move")
        page.keyboard.press("Enter")
        page.wait_for_function(f"Number(document.body.dataset.seq) > {before}", polling=POLL)
    spectator.wait_for_function(f"Number(document.body.dataset.seq) >= {seq(page) - 1}", polling=POLL)
    assert spectator.locator("#hand-title").inner_text() == "Watching"
    assert spectator.locator("#hand img").count() == 0
    assert offered_moves(spectator) == []
    assert spectator.get_by_role("button", name="Hint").count() == 0
    assert "Trump:" in spectator.locator("#facts").inner_text()
    # A link with a wrong secret, and a table that does not exist: the page says so and stops trying.
    for path in (f"/t/{table['id']}#not-a-seat-token", "/t/no-such-table"):
        spectator.goto(server.base + path)
        spectator.wait_for_function("document.body.dataset.conn === 'gone'", polling=POLL)
        assert spectator.locator("#banner-conn").inner_text().strip()
        assert offered_moves(spectator) == []
    watch.check()
    watch2.check()
