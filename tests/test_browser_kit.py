"""The browser tests' own kit: a condition a test waits for in a page waits while the page is still
being parsed, instead of failing.

Right after a click on a link, the new page can be read before its ``<body>`` exists.  A condition
such as ``document.body.dataset.conn === 'up'`` then threw (``document.body`` is null), and the
wait failed at once: CI saw ``Cannot read properties of null (reading 'dataset')`` in a test that
had just taken its seat from the lobby.  Here the page is held half-parsed on purpose, by a script
in its ``<head>`` that is not answered until the test says so."""

from __future__ import annotations

import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any, cast

import pytest
from browser_kit import CHROMIUM, HANG_MS, POLL, chromium, new_page

pytestmark = [
    pytest.mark.single_core,
    pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium package (CI installs it)"),
]

ORIGIN = "http://127.0.0.1:9"  # nothing listens here: the test answers every request itself
PAGE = (
    "<!doctype html><html><head><title>held</title><script src='/held.js'></script></head>"
    "<body data-ready='1'><p>here</p></body></html>"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def _held_page(browser: Any) -> tuple[Any, Any, list[Any]]:
    """A page stopped in its ``<head>``: its script's request is held, unanswered."""
    page, watch = new_page(browser, cast(Any, SimpleNamespace(base=ORIGIN)), 1280)
    held: list[Any] = []
    page.route(ORIGIN + "/held.js", lambda route: held.append(route))
    page.route(ORIGIN + "/page", lambda route: route.fulfill(content_type="text/html", body=PAGE))
    page.goto(ORIGIN + "/page", wait_until="commit")
    deadline = time.monotonic() + HANG_MS / 1000  # only a hang takes this long
    while not held:  # the route is handed to the test while it talks to the browser
        assert time.monotonic() < deadline, "the page never asked for its script"
        page.evaluate("0")
    assert page.evaluate("[document.readyState, document.body === null]") == ["loading", True]
    return page, watch, held


def test_a_condition_on_the_body_waits_while_the_page_is_parsed(browser: Any) -> None:
    """Before: the wait raised "Cannot read properties of null" at once; now it waits (here until
    its own short limit, since the page cannot go on), and then sees the page once it is parsed."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page, watch, held = _held_page(browser)
    with pytest.raises(PlaywrightTimeout):  # the page is held: the condition stays false, no error
        page.wait_for_function("document.body.dataset.ready === '1'", timeout=1_000, polling=POLL)
    held[0].fulfill(content_type="text/javascript", body="document.title = 'parsed';")
    page.wait_for_function("document.body.dataset.ready === '1'", polling=POLL)
    assert page.title() == "parsed"
    page.context.close()
    watch.check()


def test_a_condition_given_as_a_function_with_an_argument_waits_too(browser: Any) -> None:
    """The same for a condition written as a function of an argument (the kit passes it on)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page, watch, held = _held_page(browser)
    check = "(want) => document.getElementById('x') === null && document.body.dataset.ready === want"
    with pytest.raises(PlaywrightTimeout):
        page.wait_for_function(check, arg="1", timeout=1_000, polling=POLL)
    held[0].fulfill(content_type="text/javascript", body="")
    page.wait_for_function(check, arg="1", polling=POLL)
    assert page.evaluate("document.readyState") != "loading"
    page.context.close()
    watch.check()
