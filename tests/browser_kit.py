"""Helpers for the browser-table tests: a real ``hucklebuck serve`` process, Chromium pages that are
watched for console errors and for requests leaving the server's origin, and a person who plays by
clicking only the buttons the page offers."""

from __future__ import annotations

import json
import random
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

# Chromium's headless shell (Debian's chromium-headless-shell: the same engine without the browser
# around it) when it is installed, else the whole chromium run headless.  The shell took a third less
# CPU time for the same browser tests (40 s against 61 s, and 81 s against 121 s of wall clock on two
# workers), which the README's test command feels on a two-core machine.
CHROMIUM = shutil.which("chromium-headless-shell") or shutil.which("chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium() -> Iterator[Any]:
    """The browser for a module's ``browser`` fixture (``yield from chromium()``): Playwright driving
    :data:`CHROMIUM` headless, closed after the module; the module is skipped without Playwright."""
    pytest.importorskip("playwright")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()


# Chromium itself reports a WebSocket that cannot connect as a console error; a page cannot prevent it.
# So is a request the server dies in the middle of (reset, or no response), which a loaded machine
# makes likelier.  Only the tests that stop the server on purpose accept exactly these lines.
SERVER_DOWN_NOISE = (
    "WebSocket connection to",
    "Failed to load resource: net::ERR_CONNECTION_REFUSED",
    "Failed to load resource: net::ERR_CONNECTION_RESET",
    "Failed to load resource: net::ERR_EMPTY_RESPONSE",
)


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``hucklebuck serve`` on a loopback port, with computer pauses near zero."""

    def __init__(
        self,
        db: Path,
        port: int | None = None,
        deal_pause: float = 0.3,
        grace: float = 60,
        args: tuple[str, ...] = (),
    ) -> None:
        self.db = db
        self.args = args
        """More options of ``hucklebuck serve`` (``--learned NAME=PATH``, ...)."""
        self.deal_pause = deal_pause
        self.grace = grace
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_name(db.stem + "-serve.log")
        """The server's output goes to a file: a pipe nobody reads would stall the server once full."""

    def start(self) -> Server:
        cmd = [sys.executable, "-m", "hucklebuck", "serve", "--port", str(self.port), "--db", str(self.db),
               "--bot-pause", "0.01", "--deal-pause", str(self.deal_pause),
               "--grace", str(self.grace), *self.args]  # fmt: skip
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + HANG_MS / 1000
        while True:
            try:
                self.get("/api/games")
                return self
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"hucklebuck serve did not start:\n{self.output()}") from None
                time.sleep(0.1)

    def output(self) -> str:
        """What the server has printed so far (its last 4,000 characters)."""
        return self.log.read_text(encoding="utf-8", errors="replace")[-4000:] if self.log.exists() else ""

    def kill(self) -> None:
        """``kill -9``: no chance to finish anything."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
            self.proc = None

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=60) as r:
            return json.loads(r.read())

    def post(self, path: str, body: Any) -> Any:
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})  # fmt: skip
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())


class Watch:
    """Collects a context's console errors, page errors and requests to other origins (which it blocks)."""

    def __init__(self, context: Any, origin: str, allow_down: bool = False) -> None:
        self.origin = origin
        self.allow_down = allow_down
        self.problems: list[str] = []
        self.expected: list[str] = []
        self.loading: dict[Any, str] = {}  # the requests under way: a kill then would cut one short
        self.failed: list[str] = []  # each request that failed, named (a console error names none)
        context.route("**/*", self._route)

    def expect(self, console_error: str) -> None:
        """One console error the test provokes on purpose (Chromium logs every refused request)."""
        self.expected.append(console_error)

    def _route(self, route: Any) -> None:
        url = route.request.url
        if self._same_origin(url):
            route.continue_()
        else:
            self.problems.append(f"request left the origin: {url}")
            route.abort()

    def _same_origin(self, url: str) -> bool:
        u, o = urlsplit(url), urlsplit(self.origin)
        return u.scheme in ("http", "ws") and u.netloc == o.netloc

    def page(self, page: Any) -> Any:
        under_csp(page)
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))
        page.on("websocket", self._websocket)
        page.on("request", lambda r: self.loading.__setitem__(r, r.url))
        page.on("requestfinished", lambda r: self.loading.pop(r, None))
        page.on("requestfailed", self._failed)
        return page

    def _failed(self, request: Any) -> None:
        self.loading.pop(request, None)
        self.failed.append(f"{request.url}: {request.failure}")

    def wait_loaded(self, page: Any) -> None:
        """Wait until none of this context's requests (a page, a script, a card picture) is under
        way: a server killed then cuts no answer short."""
        page.wait_for_function("document.readyState === 'complete'")
        deadline = time.monotonic() + HANG_MS / 1000  # (only a hang takes that long)
        while self.loading:
            assert time.monotonic() < deadline, f"requests never ended: {sorted(self.loading.values())}"
            page.wait_for_timeout(20)  # (lets Playwright deliver the requests' events)

    def _console(self, msg: Any) -> None:
        if msg.type != "error":
            return
        if self.allow_down and msg.text.startswith(SERVER_DOWN_NOISE):
            return
        for i, text in enumerate(self.expected):
            if msg.text.startswith(text):
                del self.expected[i]
                return
        self.problems.append(f"console error: {msg.text}")

    def _websocket(self, ws: Any) -> None:
        if not self._same_origin(ws.url):
            self.problems.append(f"websocket left the origin: {ws.url}")

    def check(self) -> None:
        assert not self.problems, "\n".join(self.problems + ["failed requests:", *self.failed])
        assert not self.expected, f"expected console errors that never came: {self.expected}"


def under_csp(page: Any) -> Any:
    """Let ``page.wait_for_function`` take a bare expression on pages under the server's
    Content-Security-Policy: Playwright evaluates an expression string with ``eval``, which the
    policy forbids (as it should), and a function without it; so an expression is made one.

    And a condition waits while the page is still being parsed, rather than failing: right after
    a click on a link, the new document can be read before its ``<body>`` exists, and a condition
    such as ``document.body.dataset.conn === 'up'`` would throw (``document.body`` is null) instead
    of being false until the page is there.  A condition is checked only once the document is
    parsed (``readyState`` is past ``loading``)."""
    wait = page.wait_for_function

    def wait_for_function(expression: str, *args: Any, **kwargs: Any) -> Any:
        text = expression.strip()
        if not text.startswith(("(", "function", "async")):
            text = f"() => ({text})"
        expression = f"(arg) => document.readyState === 'loading' ? false : ({text})(arg)"
        return wait(expression, *args, **kwargs)

    page.wait_for_function = wait_for_function
    return page


def new_page(browser: Any, server: Server, width: int, allow_down: bool = False) -> tuple[Any, Watch]:
    """A fresh browser context (its own storage, like another person's browser) and one page in it."""
    height = 844 if width < 600 else 900
    # Reduced motion: no card-raising animation for Playwright to wait out before each click.
    context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce")
    context.set_default_timeout(HANG_MS)  # (a wait for a state: long, so that only a hang ends it)
    watch = Watch(context, server.base, allow_down)
    return watch.page(context.new_page()), watch


def seq(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.seq || '-1'"))


ACC_NAME = """function accName(el) {
  const label = el.getAttribute && el.getAttribute('aria-label');
  if (label) return label;
  let out = '';
  for (const n of el.childNodes) {
    if (n.nodeType === 3) out += n.textContent;
    else if (n.nodeType === 1 && n.getAttribute('aria-hidden') !== 'true') out += accName(n);
  }
  return out;
}"""
"""A script defining ``accName(el)``: an element's accessible name as a screen reader gets it (its
``aria-label``, else its text without the parts hidden from screen readers)."""


def offered_moves(page: Any) -> list[str]:
    """The accessible names of the move buttons the page offers now."""
    names: list[str] = page.evaluate(
        "() => { " + ACC_NAME + " return [...document.querySelectorAll('[data-move]:not([disabled])')]"
        ".map(accName); }"
    )
    return names


def errors_shown(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.errors || '0'"))


_PAGE_STATE = """() => {
  """ + ACC_NAME + """
  const b = document.body.dataset;
  const mine = b.turn === 'you' && b.conn === 'up';
  const moves = mine ? [...document.querySelectorAll('[data-move]:not([disabled])')].map((el) => {
    const d = el.closest('details:not([open])');
    return [accName(el), d ? d.dataset.group : null];
  }) : [];
  return {seq: Number(b.seq ?? -1), errors: Number(b.errors || 0), over: b.over === '1', mine, moves};
}"""
POLL = 40
HANG_MS = 120_000
"""A wait in a page gives up after this many milliseconds: only a hang takes that long, however busy
the machine (every wait is for a state: a page's default too, see :func:`new_page`)."""
"""How often (ms) a page checks a condition the test waits for.  Playwright's default checks at
every animation frame, which keeps Chromium drawing frames the whole time a test waits."""


def page_state(page: Any) -> dict[str, Any]:
    """What the page shows now, read in one script: ``seq``, ``errors``, ``over``, ``mine`` (this
    person's turn, connected) and ``moves`` (each offered move's name and its closed group)."""
    state: dict[str, Any] = page.evaluate(_PAGE_STATE)
    return state


def wait_my_turn(page: Any, timeout: float = HANG_MS) -> None:
    """Wait until it is this person's turn and the page is connected."""
    turn = "document.body.dataset.turn === 'you' && document.body.dataset.conn === 'up'"
    page.wait_for_function(turn, timeout=timeout, polling=POLL)


def click_move(page: Any, name: str, state: dict[str, Any] | None = None) -> None:
    """Click the ``role=button`` named ``name``, opening its group first if it sits in a closed list;
    then wait until the server answers (a new state, or an error shown)."""
    state = state or page_state(page)
    group = next((g for n, g in state["moves"] if n == name), None)
    if group is not None:
        page.locator(f"#moves details[data-group={json.dumps(group)}] > summary").click()
    try:
        page.get_by_role("button", name=name, exact=True).click(timeout=HANG_MS)
    except Exception as exc:
        raise AssertionError(f"{name!r} not clickable in {page.locator('#moves').inner_html()}") from exc
    page.wait_for_function(
        f"Number(document.body.dataset.seq) > {state['seq']}"
        f" || Number(document.body.dataset.errors || 0) > {state['errors']}",
        timeout=HANG_MS,
        polling=POLL,
    )


CARD = re.compile(
    r"(?:10|[2-9JQKA])[♣♦♥♠]"
    r"|(?:two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace)"
    r" of (?:clubs|diamonds|hearts|spades)"
)
"""A card in a button's name: as it is shown (``10♥``) or as a screen reader says it (``ten of hearts``)."""


def play_turn(page: Any, rng: random.Random, state: dict[str, Any] | None = None) -> str | None:
    """If it is this person's turn, pick one offered move at random and click it; the move's name
    (``state``: the page's state just read, else it is read here).

    A choice of several cards is made half the time the other way the page offers: picking the
    cards in the hand ("select 8♣" ...) and pressing "Confirm: <the move>".
    """
    state = state or page_state(page)
    if not state["moves"]:
        return None
    name: str = rng.choice(sorted(n for n, _ in state["moves"]))
    cards = CARD.findall(name)
    if len(cards) >= 2 and rng.random() < 0.5 and page.locator("#hand [aria-pressed]").count():
        for card in cards:
            page.get_by_role("button", name=f"select {card}", exact=True).click()
        name = f"Confirm: {name}"
        state["moves"].append((name, None))
    click_move(page, name, state)
    return name


def play_until(
    pages: list[Any], rng: random.Random, done: Any, limit: float = 600.0, on_move: Any = None
) -> int:
    """Both people play whatever their page offers until ``done(states)`` (the pages' states, as
    :func:`page_state` reads them, read again after every move); returns the number of moves made.
    ``on_move(i, page, state)`` sees each page's state before its person may move.

    Each round reads each page once, in one script, and when nobody could move it waits in the first
    page for its next state: every read is a round trip through Playwright's driver and Chromium,
    and reading each page a few times a round was the browser tests' largest cost."""
    moves = 0
    deadline = time.monotonic() + limit
    while True:
        states = [page_state(page) for page in pages]
        if done(states):
            return moves
        assert time.monotonic() < deadline, "the game did not finish in time"
        for i, (page, state) in enumerate(zip(pages, states, strict=True)):
            if on_move is not None:
                on_move(i, page, state)
            if play_turn(page, rng, state) is not None:
                moves += 1
                break
        else:
            wait_for_news(pages[0], states[0]["seq"])


_NEWS = """([now, ms]) => new Promise((resolve) => {
  const body = document.body;
  const fresh = () => Number(body.dataset.seq ?? -1) !== now;
  if (fresh()) { resolve(true); return; }
  let timer = 0;
  const seen = new MutationObserver(() => {
    if (fresh()) { seen.disconnect(); clearTimeout(timer); resolve(true); }
  });
  seen.observe(body, {attributes: true, attributeFilter: ['data-seq']});
  timer = setTimeout(() => { seen.disconnect(); resolve(false); }, ms);
})"""


def wait_for_news(page: Any, now: int | None = None, seconds: float = 0.5) -> None:
    """Wait until the page shows a state other than ``now`` (default: the one it shows), or
    ``seconds`` pass: the page itself watches for the change, in one round trip."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        page.evaluate(_NEWS, [seq(page) if now is None else now, int(seconds * 1000)])
    except PlaywrightError:
        pass  # the page was reloaded or closed while it waited: the caller reads it again


_LAYOUT = """() => {
  const wide = document.documentElement.scrollWidth > window.innerWidth + 1;
  const small = [...document.querySelectorAll('[data-move]:not([disabled]), #hand button')]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && (r.width < 44 || r.height < 44))
    .map((r) => `${Math.round(r.width)}x${Math.round(r.height)}`);
  return {wide, small};
}"""


def check_layout(page: Any) -> None:
    """Nothing wider than the window (no sideways scrolling on a phone), every move at least 44 px a side."""
    got = page.evaluate(_LAYOUT)
    assert not got["wide"], f"the page is wider than its {page.viewport_size['width']} px window"
    assert not got["small"], f"buttons too small to tap: {got['small']}"
