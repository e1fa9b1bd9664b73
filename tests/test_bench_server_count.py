"""How ``python -m hucklebuck.bench server`` counts a run's table changes and the server's CPU:
the figure it prints is CPU divided by changes, so each must cover the same window whole."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from hucklebuck.bench.server import _cpu_seconds, changes_between


def test_a_window_counts_the_change_that_brought_its_first_state() -> None:
    seen = [(0.0, 3), (1.0, 4), (2.0, 5), (3.0, 6), (4.0, 7)]
    # the table was at seq 3 as the window opened and at seq 6 as it closed: three changes
    # (counting from the first state received inside it would say two)
    assert changes_between(seen, 0.5, 3.5) == 3
    assert changes_between(seen, 1.0, 3.0) == 2  # (a state received at the very start was made before it)
    assert changes_between(seen, 0.0, 4.0) == 4


def test_changes_stored_together_count_each() -> None:
    # two changes of one table committed in one batch reach its person as one state (seq 4 to 6)
    assert changes_between([(0.0, 4), (1.0, 6), (2.0, 7)], 0.5, 2.5) == 3


def test_a_table_quiet_in_the_window_counts_nothing() -> None:
    assert changes_between([(0.0, 4), (5.0, 5)], 1.0, 4.0) == 0
    assert changes_between([(0.0, 4)], 1.0, 4.0) == 0
    assert changes_between([], 1.0, 4.0) == 0
    assert changes_between([(2.0, 9), (3.0, 10)], 1.0, 4.0) == 1  # (joined late: from its first state)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads another process's CPU (Linux)")
def test_the_servers_cpu_counts_threads_that_have_ended() -> None:
    script = textwrap.dedent(
        """
        import sys, threading, time
        def burn():
            while time.thread_time() < 0.2:
                pass
        t = threading.Thread(target=burn)
        t.start()
        t.join()
        print("ended", flush=True)
        sys.stdin.readline()
        """
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "ended\n"  # (its thread is gone)
        assert _cpu_seconds(proc.pid) >= 0.19
    finally:
        proc.communicate("\n", timeout=60)
