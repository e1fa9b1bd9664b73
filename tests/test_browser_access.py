"""A table for everyone (issue 58, point 13), in Chromium against a real ``hucklebuck serve``:
axe-core (from npm, see ``tests/a11y/package.json``) finds no serious or critical problem on the
lobby and the table at 390 and 1280 px; the cards and moves have names a screen reader says
("play queen of hearts"), each move is announced in a live region; and a whole game is played
with the keyboard alone (Tab to a move, Enter or Space), the focus always visible, never trapped.

axe-core is installed by ``.ci/run``; elsewhere the first run installs it with npm (offline: the
axe checks skip, unless ``HUCKLEBUCK_TEST_REQUIRE_AXE`` is set).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
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
    Watch,
    chromium,
    click_move,
    page_state,
    wait_for_news,
)

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium package (CI installs it)"),
]

A11Y = Path(__file__).resolve().parent / "a11y"
AXE = A11Y / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = os.environ.get("HUCKLEBUCK_TABLE_SCREENSHOTS")


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists() and shutil.which("npm"):
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--prefix", str(A11Y)],
            capture_output=True,
            timeout=180,
            check=False,
        )
    if not AXE.exists():
        if os.environ.get("HUCKLEBUCK_TEST_REQUIRE_AXE"):
            pytest.fail(f"axe-core is not installed: npm ci --prefix {A11Y}")
        pytest.skip("axe-core is not installed and npm could not fetch it")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("access")
    s = Server(folder / "tables.sqlite", deal_pause=0.3, args=offer_for_five(folder)).start()
    yield s
    s.stop()


def offer_for_five(folder: Path) -> tuple[str, ...]:
    """``--learned dp5=PATH``: a small untrained Deer Park policy for five players, offered beside the
    shipped one for four (both need NumPy: without it the server offers neither)."""
    try:
        from hucklebuck.games import DeerParkGame
        from hucklebuck.learn import Network
    except ImportError:
        return ()
    from hucklebuck.packs import GameKind

    path = folder / "dp5.npz"
    actions = DeerParkGame(5, seed=0).num_distinct_actions()
    Network.new(GameKind.DEERPARK, 5, actions, hidden=(8, 8), seed=1).save(str(path))
    return ("--learned", f"dp5={path}")


def page_at(browser: Any, server: Server, width: int, *, motion: str = "reduce") -> tuple[Any, Watch]:
    """A page in its own context; axe is injected by the test itself (the page's own CSP allows only
    its own scripts, so the context bypasses it for the injected checker)."""
    height = 844 if width < 600 else 900
    context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion=motion,
                                  bypass_csp=True)  # fmt: skip
    watch = Watch(context, server.base)
    return watch.page(context.new_page()), watch


def shot(page: Any, tmp_path: Path, name: str) -> None:
    if not SHOTS:  # pictures for a person to look at, taken only when asked for: each costs Chromium
        return
    folder = Path(SHOTS)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def serious(page: Any, axe: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line each."""
    page.evaluate(axe)
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
             .filter((v) => v.impact === 'serious' || v.impact === 'critical')
             .map((v) => `${v.impact} ${v.id}: ${v.help} @ `
               + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '))"""
    )
    return list(found)


def seats(*kinds: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"kind": "human", "name": "Ann"}]
    return out + [{"kind": "computer", "player": k} for k in kinds]


def wait_connected(page: Any) -> None:
    page.wait_for_function(
        "document.body.dataset.conn === 'up' && Number(document.body.dataset.seq) >= 0", polling=POLL
    )


# ------------------------------------------------------------------ axe on the lobby and the table
@pytest.mark.parametrize("width", [390, 1280])
def test_axe_finds_nothing_serious_on_the_lobby(
    browser: Any, server: Server, axe_source: str, tmp_path: Path, width: int
) -> None:
    page, watch = page_at(browser, server, width)
    page.goto(server.base + "/")
    page.get_by_role("button", name="Create the table").wait_for()
    assert serious(page, axe_source) == []
    page.get_by_text("rule variants").click()  # the options open too
    page.get_by_role("radio", name="Buck 'Em").check()
    assert serious(page, axe_source) == []
    page.get_by_role("button", name="Create the table").click()
    page.get_by_role("heading", name="Your table is ready").wait_for()
    assert serious(page, axe_source) == []
    shot(page, tmp_path, f"lobby-ready-{width}")
    page.context.close()
    watch.check()


def trained_offered(page: Any, players: int) -> tuple[set[str], list[str]]:
    """The trained players the lobby offers now: the labels in every seat's "who plays" list (each
    seat must offer the same), and the legend's lines about them, as a person reads them."""
    lists = [
        page.get_by_role("combobox", name=f"Seat {i + 1}: who plays").locator("option").all_text_contents()
        for i in range(players)
    ]
    trained = [{o for o in options if o.startswith("computer: trained")} for options in lists]
    assert all(t == trained[0] for t in trained), trained
    legend = [line for line in page.locator("#seat-kinds li").all_inner_texts() if "trained" in line]
    return trained[0], legend


@pytest.mark.parametrize("width", [390, 1280])
def test_the_lobby_offers_a_trained_player_only_at_its_own_player_count(
    browser: Any, server: Server, axe_source: str, tmp_path: Path, width: int
) -> None:
    pytest.importorskip("numpy")  # the server offers trained players only where NumPy is installed
    from hucklebuck.words.people import SHIPPED_WORDS

    expected = {4: {f"computer: {SHIPPED_WORDS[0]}"}, 5: {"computer: trained (dp5)"}}  # learned-dp4, dp5
    page, watch = page_at(browser, server, width)
    page.goto(server.base + "/")
    page.get_by_role("button", name="Create the table").wait_for()
    game = page.get_by_role("radio", name="Deer Park")
    game.focus()  # by keyboard: Space picks the game,
    page.keyboard.press("Space")
    assert game.is_checked()
    count = page.get_by_label("Number of players")
    count.focus()
    page.keyboard.press("Home")  # Home, then the arrow keys, change the player count
    seen: dict[int, set[str]] = {}
    for step in range(5):  # Deer Park seats 3 to 7
        if step:
            page.keyboard.press("ArrowDown")
        n = 3 + step
        page.wait_for_function(f"document.querySelectorAll('#seats .seat-row').length === {n}", polling=POLL)
        assert count.input_value() == str(n)
        seen[n], legend = trained_offered(page, n)
        assert seen[n] == expected.get(n, set()), (n, seen[n])  # never a policy for another count
        assert len(legend) == len(seen[n]), legend
        if n in (4, 5):
            assert serious(page, axe_source) == []
            shot(page, tmp_path, f"lobby-trained-{n}-players-{width}")
    page.keyboard.press("ArrowUp")  # and back: the policy for four is offered again, the other goes
    page.wait_for_function("document.querySelectorAll('#seats .seat-row').length === 6", polling=POLL)
    assert trained_offered(page, 6)[0] == set()
    page.context.close()
    watch.check()


@pytest.mark.parametrize("width", [390, 1280])
def test_axe_finds_nothing_serious_at_the_table(
    browser: Any, server: Server, axe_source: str, tmp_path: Path, width: int
) -> None:
    table = server.post("/api/tables", {"game": "deerpark", "players": 3, "seats": seats("random", "random")})
    page, watch = page_at(browser, server, width)
    page.goto(server.base + table["seats"][0]["link"])
    wait_connected(page)
    rng = random.Random(width)
    checked = set()
    deadline = time.monotonic() + 480  # catches a hang only: the bidding turn can take several hands to come
    while len(checked) < 2 and time.monotonic() < deadline:  # a bidding turn and a card to play
        state = page_state(page)
        if not state["moves"]:
            wait_for_news(page, state["seq"])
            continue
        phase = "play" if page.locator("#hand [data-move]").count() else "call"
        if phase not in checked:
            checked.add(phase)
            found = serious(page, axe_source)
            assert found == [], "\n".join(found)
            shot(page, tmp_path, f"table-{phase}-{width}")
        click_move(page, rng.choice([n for n, _ in state["moves"]]), state)
    assert checked == {"call", "play"}
    page.context.close()
    watch.check()


# ------------------------------------------------------------------ names a screen reader says
def test_cards_and_moves_have_spoken_names_and_moves_are_announced(browser: Any, server: Server) -> None:
    from hucklebuck import cardart, parse_card

    body = {"game": "hucklebuck", "players": 3, "seats": seats("random", "random")}
    table = server.post("/api/tables", body)
    page, watch = page_at(browser, server, 1280)
    page.goto(server.base + table["seats"][0]["link"])
    wait_connected(page)
    codes = [r + s for r in "23456789TJQKA" for s in "CDHS"]
    names = page.evaluate("async (codes) => { const m = await import('/static/common.js');"
                          " return codes.map((c) => m.cardName(c)); }", codes)  # fmt: skip
    assert names == [cardart.spoken(parse_card(c)) for c in codes]  # one vocabulary: the pictures' own
    heard: list[str] = page.evaluate("""() => { window.heard = [];
        new MutationObserver(() => window.heard.push(document.getElementById('announce').textContent))
          .observe(document.getElementById('announce'),
                   {childList: true, characterData: true, subtree: true});
        return window.heard; }""")
    rng = random.Random(3)
    deadline = time.monotonic() + 480  # catches a hang only
    while time.monotonic() < deadline:
        state = page_state(page)
        cards = page.locator("#hand [data-move]")
        if cards.count():
            label = cards.first.get_attribute("aria-label") or ""
            # a card is a move: played in a trick, or thrown in Hucklebuck's exchange
            assert label.startswith(("play ", "discard ")) and " of " in label and "♥" not in label, label
            alts = page.locator("#hand img").evaluate_all("els => els.map((e) => e.alt)")
            assert all(a == "" or " of " in a for a in alts), alts  # a card in a button is named by it
            break
        if state["moves"]:
            click_move(page, rng.choice([n for n, _ in state["moves"]]), state)
        else:
            wait_for_news(page, state["seq"])
    else:
        raise AssertionError("no card to play came")
    heard = page.evaluate("window.heard")
    said = " ".join(heard)
    assert heard and not any(glyph in said for glyph in "♣♦♥♠"), heard  # cards said by name
    assert any(verb in said for verb in ("bids", "passes", "stays", "drops", "plays", "deals")), heard
    assert page.locator("#announce").get_attribute("aria-live") == "polite"
    page.context.close()
    watch.check()


# ------------------------------------------------------------------ a whole game, keyboard only
_FOCUS = """() => {
  """ + ACC_NAME + """
  const el = document.activeElement;
  if (!el || el === document.body) return {kind: 'none'};
  const style = getComputedStyle(el);
  const visible = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  const box = el.getBoundingClientRect();
  const base = {visible, shown: box.width > 0 && box.height > 0,
                name: accName(el)};
  if (el.matches('[data-move]:not([disabled])')) return {...base, kind: 'move'};
  if (el.matches('[data-card]')) return {...base, kind: 'card', pressed: el.getAttribute('aria-pressed')};
  if (el.matches('[data-confirm]:not([disabled])')) return {...base, kind: 'confirm'};
  if (el.matches('#moves details[data-group] > summary')) {
    return {...base, kind: 'group', open: el.parentElement.open};
  }
  return {...base, kind: 'other'};
}"""


@pytest.mark.parametrize("width", [1280])
def test_a_whole_game_with_the_keyboard_alone(
    browser: Any, server: Server, tmp_path: Path, width: int
) -> None:
    body = {"game": "buckem", "players": 5, "seats": seats(*["random"] * 4), "hands": 2}
    table = server.post("/api/tables", body)
    page, watch = page_at(browser, server, width)
    page.goto(server.base + table["seats"][0]["link"])
    wait_connected(page)
    rng = random.Random(7)
    moves = presses = 0
    kinds: set[str] = set()
    deadline = time.monotonic() + 480  # catches a hang only: a busy machine plays the session slowly
    while True:
        assert time.monotonic() < deadline, "the session did not end in time"
        state = page_state(page)
        if state["over"]:
            break
        if not state["moves"]:
            wait_for_news(page, state["seq"])
            continue
        offered = sorted(state["moves"], key=str)
        stay = [m for m in offered if m[0].startswith("stay")]  # stay, so Ann draws and plays cards too
        name, group = stay[0] if stay else rng.choice(offered)  # else any move, in a closed list too
        for _ in range(150):  # Tab through the page until that move has the focus; focus never sticks
            focus = page.evaluate(_FOCUS)
            if focus["kind"] != "none":
                assert focus["visible"] and focus["shown"], focus  # a visible focus ring, on something shown
            if focus["kind"] == "group" and not focus["open"] and group is not None and \
                    page.evaluate("(g) => document.activeElement.parentElement.dataset.group === g", group):
                page.keyboard.press("Enter")  # open the list of card choices it sits in
                kinds.add("group")
                group = None
                continue
            if focus["kind"] == "move" and focus["name"].strip() == name:
                break
            page.keyboard.press("Shift+Tab" if presses % 17 == 16 else "Tab")  # now and then back a step
            presses += 1
        else:
            raise AssertionError(f"Tab never reached {name!r}: " + json.dumps(page_state(page)))
        now = page_state(page)
        if not now["mine"] or now["seq"] != state["seq"]:
            continue  # the table moved on meanwhile (the page played a forced move): look again
        kinds.add(focus["kind"])
        page.keyboard.press("Enter" if moves % 2 else "Space")
        page.wait_for_function(
            f"Number(document.body.dataset.seq) > {now['seq']}"
            f" || Number(document.body.dataset.errors || 0) > {now['errors']}",
            timeout=HANG_MS,  # (the server answers at once; only a hang takes that long)
            polling=POLL,
        )
        moves += 1
    shot(page, tmp_path, f"keyboard-game-over-{width}")
    assert moves >= 4 and "move" in kinds, (moves, kinds)
    assert page.locator("#status").inner_text().startswith(("Game over", "The session"))
    page.context.close()
    watch.check()
