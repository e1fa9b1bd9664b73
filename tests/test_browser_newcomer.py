"""What a newcomer met at the browser table (issue 39, points 6-9), looked at as a person would.

Debian's Chromium driven by Playwright against a real ``hucklebuck serve`` on a loopback port:
the fifth trick stays on the felt when the hand ends, beside the dealer of the hand that ended;
a club turned up in Deer Park Euchre shows in the log; a bad link says so once and leads back to
the lobby; a move that is your only legal one is played for you (as in the terminal); seats count
from 0 (as in the terminal); one name limit; the lobby speaks plainly and offers friends no
research player; and everyone sees the countdown while a dropped person's seat waits.
Screenshots at 390 and 1280 px go to the test's tmp dir (or ``HUCKLEBUCK_TABLE_SCREENSHOTS``).
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("starlette")

from browser_kit import (
    ACC_NAME,
    CHROMIUM,
    HANG_MS,
    POLL,
    Server,
    check_layout,
    chromium,
    click_move,
    new_page,
    wait_for_news,
)

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium package (CI installs it)"),
]

ROOT = Path(__file__).resolve().parent.parent
SHOTS = os.environ.get("HUCKLEBUCK_TABLE_SCREENSHOTS")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module's tests (a start costs half a second of CPU): each test makes its own
    table and reads only that table, so none sees another's.  A long grace: the computer does not
    take over the seats of a test that has ended and play its table on while later tests run."""
    folder = tmp_path_factory.mktemp("newcomer")
    # (the deal pause: time to look at a finished hand)
    s = Server(folder / "tables.sqlite", deal_pause=4.0, grace=3600).start()
    yield s
    s.stop()


def shot(page: Any, tmp_path: Path, name: str) -> None:
    if not SHOTS:  # pictures for a person to look at, taken only when asked for: each costs Chromium
        return
    folder = Path(SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def make_table(
    server: Server, game: str, players: int, people: list[str], bot: str = "heuristic"
) -> dict[str, Any]:
    seats = [{"kind": "human", "name": n} for n in people]
    seats += [{"kind": "computer", "player": bot} for _ in range(len(people), players)]  # default names
    table: dict[str, Any] = server.post("/api/tables", {"game": game, "players": players, "seats": seats})
    return table


def seat_page(browser: Any, server: Server, table: dict[str, Any], seat: int, width: int) -> tuple[Any, Any]:
    page, watch = new_page(browser, server, width)
    page.goto(server.base + table["seats"][seat]["link"])
    page.get_by_text("connected", exact=True).wait_for()
    page.wait_for_function("Number(document.body.dataset.seq) >= 0", polling=POLL)
    return page, watch


def dealer_shown(page: Any) -> str:
    return str(page.locator("#facts .fact").filter(has_text="Dealer:").locator("b").inner_text())


# ------------------------------------------------------------------ points 6 and 7: a hand's end
_HAND_STATE = """() => {
  """ + ACC_NAME + """
  const text = (sel) => document.querySelector(sel).innerText;
  const notice = document.querySelector('#banner-notice');
  const b = document.body.dataset;
  return {
    seq: Number(b.seq ?? -1),
    caption: text('#trick-caption'),
    cards: document.querySelectorAll('#hand .card-slot').length,
    status: text('#status'),
    notice: notice.getClientRects().length && getComputedStyle(notice).visibility !== 'hidden'
      ? notice.innerText : '',
    mine: b.turn === 'you' && b.conn === 'up',
    moves: [...document.querySelectorAll('[data-move]:not([disabled])')]
      .map(accName),
  };
}"""
"""What the loop below looks at, read in one script: one rendered state, never the status of one
state beside the buttons of the next, and one round trip to the browser rather than seven."""


@pytest.mark.parametrize("width", [390, 1280])
def test_the_fifth_trick_stays_beside_its_own_dealer_and_forced_cards_play_themselves(
    browser: Any, server: Server, tmp_path: Path, width: int
) -> None:
    table = make_table(server, "deerpark", 3, ["Ann"])  # in Deer Park Euchre everyone plays every trick
    page, watch = seat_page(browser, server, table, 0, width)
    rng = random.Random(width)
    dealer_during = dealer_shown(page)
    forced_seen = clicked_last_card = noticed = False
    deadline = time.monotonic() + 480  # catches a hang only: a busy machine plays the hand slowly
    while True:
        assert time.monotonic() < deadline, "the hand did not end in time"
        now = page.evaluate(_HAND_STATE)
        if "won the last trick" in now["caption"] and not now["cards"]:
            break
        noticed = noticed or "only legal move was played for you" in now["notice"]
        if now["status"].startswith("Your only legal move"):
            forced_seen = True
            assert now["moves"] == []  # nothing to click: the page plays it
        elif now["mine"] and now["moves"]:
            if now["cards"] == 1:
                clicked_last_card = True
            click_move(page, rng.choice(now["moves"]))
            continue
        wait_for_news(page, now["seq"])
    # the hand is over (the next deal waits 4 s): the felt still shows the fifth trick and its winner
    page.wait_for_function("document.querySelectorAll('#trick .played').length === 3", polling=POLL)
    caption = page.locator("#trick-caption").inner_text()
    assert re.match(r"^\S.* won the last trick with \S+\.$", caption), caption
    assert page.locator("#trick .played.win").count() == 1
    assert "No trick yet" not in page.locator("#trick").inner_text()
    # ... beside the dealer of the hand that ended, not the next one's
    assert dealer_shown(page) == dealer_during
    dealer_tag = (
        page.locator("#seats article").filter(has=page.locator(".tag.dealer")).locator(".name").inner_text()
    )
    assert dealer_tag.endswith(dealer_during)
    shot(page, tmp_path, f"hand-over-{width}")
    # the person's last card is their only legal move: the page played it for them and said so
    assert forced_seen and not clicked_last_card
    notice = page.locator("#banner-notice")
    assert noticed or "only legal move was played for you" in notice.inner_text()
    # once the next hand is dealt, its dealer is the next seat
    page.wait_for_function(
        "document.getElementById('hand-no').textContent === 'Hand 2'", timeout=HANG_MS, polling=POLL
    )
    assert dealer_shown(page) != dealer_during
    watch.check()


# ------------------------------------------------------------------ point 7: a club turned up
def test_a_club_turned_up_in_deer_park_shows_in_the_log(browser: Any, server: Server, tmp_path: Path) -> None:
    for _attempt in range(40):  # a club is turned a quarter of the time; each table is a fresh deal
        table = make_table(server, "deerpark", 3, ["Ann"])
        page, watch = seat_page(browser, server, table, 0, 1280)
        turned = page.locator("#faceup img").first.get_attribute("alt") or ""
        if turned.endswith("of clubs"):  # the picture's name, as a screen reader says it
            log = page.locator("#log").inner_text()
            card = turned.split(": ")[-1]
            assert f"{card} is turned: clubs are trump without calling" in log, log
            assert page.locator(".trump-badge").inner_text() == "♣ clubs"
            shot(page, tmp_path, "deerpark-club-turned-1280")
            page.context.close()
            watch.check()
            return
        page.context.close()
    raise AssertionError("no club was turned in 40 deals")


# ------------------------------------------------------------------ point 7: a bad link
@pytest.mark.parametrize("width", [390, 1280])
def test_a_bad_link_says_so_once_and_leads_back_to_the_lobby(
    browser: Any, server: Server, tmp_path: Path, width: int
) -> None:
    page, watch = new_page(browser, server, width)
    page.goto(server.base + "/t/no-such-table#not-a-token")
    back = page.get_by_role("link", name="Back to the lobby")
    back.wait_for()
    page.wait_for_timeout(1500)  # long enough for a reconnect attempt or a second message
    text = page.locator("body").inner_text()
    assert text.count("there is no such table") == 1, text
    assert "onnecting" not in text  # neither "Connecting…" nor "connecting…", anywhere
    assert page.locator("#conn").inner_text() == "not connected"
    assert page.locator("#banner-error").is_hidden()
    assert page.locator("#hand-area").is_hidden() and page.locator("#trick").is_hidden()
    shot(page, tmp_path, f"bad-link-{width}")
    back.click()
    page.get_by_role("button", name="Create the table").wait_for()
    page.context.close()
    watch.check()


# ------------------------------------------------------------------ point 8: seats, names, lobby words
def test_seats_count_from_one_for_people(browser: Any, server: Server) -> None:
    table = make_table(server, "hucklebuck", 4, ["Ann", "Ben"])
    page, watch = seat_page(browser, server, table, 1, 1280)
    names = page.locator("#seats .name").all_inner_texts()
    assert names == ["1. Ann", "2. Ben", "3. Computer 3", "4. Computer 4"]  # the API's seats 0 to 3
    labels = [page.locator("#seats article").nth(i).get_attribute("aria-label") or "" for i in range(4)]
    assert [label.split(",")[0] for label in labels] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    page.context.close()
    watch.check()


def test_the_terminal_numbers_seats_from_one_too(capsys: pytest.CaptureFixture[str]) -> None:
    from hucklebuck.cli import main

    assert main(["play", "hucklebuck", "--players", "4", "--seed", "3", "--bots", "random"]) == 0
    out = capsys.readouterr().out
    assert "Seats are numbered 1 to 4 going left" in " ".join(out.split())


def test_one_name_limit_everywhere(browser: Any, server: Server) -> None:
    from hucklebuck.server.config import ServerConfig

    limit = ServerConfig().max_name
    schema = json.loads((ROOT / "hucklebuck/server/schemas/state.schema.json").read_text())
    name_schema = schema["$defs"]["view"]["properties"]["seats"]["items"]["properties"]["name"]
    assert name_schema["maxLength"] == limit == 24
    page, watch = new_page(browser, server, 390)
    page.goto(server.base + "/")
    field = page.get_by_label("Seat 1: name")
    field.fill("")
    assert page.locator("#seat-0-name-note").inner_text() == ""
    field.press_sequentially("A" * (limit + 10))
    assert field.input_value() == "A" * limit  # the lobby stops where the server would cut
    assert f"up to {limit} characters" in page.locator("#seats").inner_text()
    # ... and says so at the field, where the typing stopped (issue 58, point 8)
    assert page.locator("#seat-0-name-note").inner_text() == f"Names stop at {limit} characters."
    page.context.close()
    watch.check()


CODE_LIKE = re.compile(r"\*\*|floor\(|ceil\(|\w_\w|DEF|\(S\d|\+5 - t|\bnone\b: ")


def test_the_lobby_speaks_plainly_and_offers_friends_no_research_player(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    games = server.get("/api/games")["games"]
    for width in (390, 1280):
        page, watch = new_page(browser, server, width)
        page.goto(server.base + "/")
        page.get_by_role("button", name="Create the table").wait_for()
        for g in games:
            page.get_by_role("radio", name=g["title"]).check()
            kinds = page.get_by_label("Seat 2: who plays").locator("option").all_inner_texts()
            assert not any("no inference" in k or "mc-blind" in k for k in kinds), kinds
            assert "mc-blind" not in page.locator("#seat-kinds").inner_text()
            assert len(kinds) == len(g["computer_players"])  # a person, and every kind but mc-blind
            page.get_by_text("rule variants").click() if page.locator("#options").is_hidden() else None
            for o in g["options"]:
                control = page.locator(f"#opt-{o['name']}")
                values = control.locator("option").evaluate_all("els => els.map((e) => e.value)") or [None]
                for value in values:
                    if value is not None:
                        control.select_option(value)
                    desc = page.locator(f"#opt-{o['name']}-desc").inner_text()
                    assert not CODE_LIKE.search(desc), (o["name"], value, desc)
        if width == 1280:
            page.get_by_role("radio", name="Buck 'Em").check()
            shot(page, tmp_path, "lobby-buckem-options-1280")
        else:
            shot(page, tmp_path, "lobby-plain-words-390")
        page.context.close()
        watch.check()


# ------------------------------------------------------------------ point 9: the grace countdown
WAIT = r"(?:\d+ min \d+ s|\d+ min|\d+ s)"  # a wait in words, as the page writes it


def _seconds(wait: str) -> int:
    """Seconds in a wait the page wrote ("2 min", "1 min 59 s", "45 s")."""
    m = re.fullmatch(r"(?:(\d+) min)? ?(?:(\d+) s)?", wait.strip())
    assert m and (m.group(1) or m.group(2)), wait
    return 60 * int(m.group(1) or 0) + int(m.group(2) or 0)


def test_everyone_sees_the_countdown_of_a_dropped_person(browser: Any, tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.sqlite", grace=120).start()  # (long: a busy machine is slow to look)
    try:
        table = make_table(server, "hucklebuck", 4, ["Ann", "Ben"])
        ann, w0 = seat_page(browser, server, table, 0, 390)
        watcher, w2 = new_page(browser, server, 1280)
        watcher.goto(server.base + table["spectator_link"])
        watcher.get_by_text("watching", exact=True).wait_for()
        ben, w1 = seat_page(browser, server, table, 1, 1280)
        ben.context.close()  # Ben's page goes away: his seat waits 120 s for him
        w1.check()
        seen = {}
        for name, page in (("ann", ann), ("watcher", watcher)):
            line = page.locator("#grace-line")
            line.wait_for(state="visible", timeout=HANG_MS)
            text = line.inner_text()
            m = re.search(rf"Ben's connection dropped: .* the computer plays for them in ({WAIT})", text)
            assert m, text
            seen[name] = _seconds(m.group(1))
            tag = page.locator("#seats article").nth(1).locator(".tag.off").inner_text()
            assert re.fullmatch(rf"not connected · {WAIT}", tag), tag
            check_layout(page)  # nothing wider than a phone's window
            assert 60 <= seen[name] <= 120
        shot(ann, tmp_path, "grace-countdown-390")
        shot(watcher, tmp_path, "grace-countdown-1280")
        # it counts down between states, with no message from the server: two seconds less within
        # ten (a loaded machine may run the page's once-a-second tick late, never not at all)
        ann.wait_for_function(
            "(target) => { const m = /in (?:(\\d+) min(?: (\\d+) s)?|(\\d+) s)/.exec("
            "document.querySelector('#grace-line').innerText);"
            " return m !== null && 60 * Number(m[1] || 0) + Number(m[2] || m[3] || 0) <= target; }",
            arg=seen["ann"] - 2,
            timeout=HANG_MS,
            polling=250,
        )
        later = _seconds(re.findall(rf"in ({WAIT})", ann.locator("#grace-line").inner_text())[0])
        assert later <= seen["ann"] - 2, (seen, later)
        ben2, w3 = seat_page(browser, server, table, 1, 1280)  # Ben comes back: the countdown goes
        for page in (ann, watcher):
            page.locator("#grace-line").wait_for(state="hidden", timeout=HANG_MS)
        for page, w in ((ann, w0), (watcher, w2), (ben2, w3)):
            page.context.close()
            w.check()
    finally:
        server.stop()
