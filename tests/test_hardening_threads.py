"""Issue 16 item 9: ``using()`` is safe under threads.

Each thread's ``with using(...)`` block sets the core for that thread only, so
blocks in several threads never undo each other and the process default is
unchanged once every block has exited.
"""

from __future__ import annotations

import threading

import pytest

import hucklebuck as hb
from hucklebuck import Suit, parse_cards
from hucklebuck._core import get_core

pytestmark = pytest.mark.single_core


def _names() -> list[str]:
    cores = list(hb.available())
    return cores if len(cores) > 1 else cores * 2


def test_four_threads_by_200_blocks_leave_every_thread_on_its_own_core() -> None:
    names = _names()
    before = hb.backend()
    wrong: list[str] = []
    start = threading.Barrier(4)

    def worker(k: int) -> None:
        mine = hb.backend()  # a new thread starts on the process default
        start.wait()
        for i in range(200):
            want = names[(k + i) % 2]
            with hb.using(want):
                # other threads switch at the same time; this block still sees its own core
                if hb.backend() != want or get_core().name != want:
                    wrong.append(f"thread {k} block {i}: {hb.backend()} inside using({want!r})")
                hb.trick_winner("deerpark", Suit.HEARTS, parse_cards("AH JD KH"))
            if hb.backend() != mine:
                wrong.append(f"thread {k} block {i}: {hb.backend()} after the block")

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == []
    assert hb.backend() == before


def test_a_block_does_not_leak_into_a_new_thread_or_the_default() -> None:
    names = _names()
    seen: list[str] = []
    t = threading.Thread(target=lambda: seen.append(hb.backend()))
    t.start()
    t.join()
    default = seen.pop()
    other = names[1] if names[0] == default else names[0]
    mine = hb.backend()
    with hb.using(other):
        assert hb.backend() == other
        t = threading.Thread(target=lambda: seen.append(hb.backend()))
        t.start()
        t.join()
    assert seen == [default]
    assert hb.backend() == mine


def test_set_backend_inside_a_block_switches_only_the_block() -> None:
    names = _names()
    default = hb.backend()
    with hb.using(names[0]):
        hb.set_backend(names[1])
        assert hb.backend() == names[1]
    assert hb.backend() == default


def test_nested_blocks_restore_in_order() -> None:
    names = _names()
    outer = hb.backend()
    with hb.using(names[0]):
        with hb.using(names[1]):
            assert hb.backend() == names[1]
        assert hb.backend() == names[0]
    assert hb.backend() == outer


@pytest.mark.parametrize("bad", [None, 3, b"c"])
def test_a_core_name_that_is_not_a_string_is_a_backend_error(bad: object) -> None:
    with pytest.raises(hb.BackendError, match="must be a string"):
        with hb.using(bad):  # type: ignore[arg-type]
            pass
    with pytest.raises(hb.BackendError, match="must be a string"):
        hb.set_backend(bad)  # type: ignore[arg-type]
