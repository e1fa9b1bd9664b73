"""The command line as a newcomer meets it (issue 39, point 15).

``evaluate`` and ``simulate`` default ``--players`` as ``play`` and ``tournament`` do;
a tournament's progress line says how much is left and how long that will take; the
benchmark marks a missed target and prints the machine's load.
"""

from __future__ import annotations

import io

import pytest

from hucklebuck._progress import ProgressLine, duration
from hucklebuck.bench import load_line, mark
from hucklebuck.cli import main


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.single_core
@pytest.mark.parametrize(
    ("args", "players"),
    [
        (("evaluate", "hucklebuck", "--hand", "AS KS QS 2H 3D", "--samples", "50", "--trump", "S"), 4),
        (("evaluate", "deerpark", "--hand", "AS KS QS 9H TD", "--samples", "50", "--trump", "S"), 4),
        (("simulate", "buckem", "--hands", "200"), 5),
        (("simulate", "hucklebuck", "--hands", "200"), 4),
    ],
)
def test_evaluate_and_simulate_default_the_player_count(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], players: int
) -> None:
    status, out, err = _run(capsys, *args)
    assert status == 0, err
    assert f", {players} players" in out.splitlines()[0]


@pytest.mark.single_core
def test_a_player_count_outside_the_game_is_still_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "simulate", "buckem", "--players", "3", "--hands", "10")
    assert status == 2 and out == ""
    assert err.strip().endswith("error: Buck 'Em is for 5 to 8 players, not 3")


@pytest.mark.single_core
@pytest.mark.parametrize("command", ["evaluate", "simulate", "play", "tournament"])
def test_every_command_says_the_same_default(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "(default 4; Buck 'Em 5)" in " ".join(capsys.readouterr().out.split())


# ------------------------------------------------------------------ the progress line
class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_progress_line_opens_with_the_work_then_shows_the_time_left() -> None:
    out, clock = io.StringIO(), _Clock()
    line = ProgressLine("tournament", 500, stream=out, clock=clock)
    assert out.getvalue() == "\rtournament: 500 deals to play; the time left shows after the first ones\x1b[K"
    clock.now += 20  # 4 deals in 20 s: 496 left at 5 s each
    line(4, 500)
    assert out.getvalue().endswith("\rtournament: 4/500 deals (0%), about 41 min left\x1b[K")
    clock.now += 480  # 100 deals in 500 s: 400 left at 5 s each
    line(100, 500)
    assert out.getvalue().endswith("\rtournament: 100/500 deals (20%), about 33 min left\x1b[K")
    clock.now += 2000
    line(500, 500)
    assert out.getvalue().endswith("\rtournament: 500/500 deals in 42 min\n")


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(0.4, "0 s"), (59, "59 s"), (60, "1 min"), (150, "2 min 30 s"), (2500, "42 min"), (4500, "1 h 15 min"),
     (7200, "2 h")],
)  # fmt: skip
def test_durations_read_plainly(seconds: float, words: str) -> None:
    assert duration(seconds) == words


# ------------------------------------------------------------------ the benchmark's marks
def test_a_missed_target_is_marked() -> None:
    assert mark(12.0, ">= 10") == "[>= 10]"
    assert mark(8.0, ">= 10") == "[>= 10]  MISSED"
    assert mark(4.0, "<= 5") == "[<= 5]"
    assert mark(6.0, "<= 5") == "[<= 5]  MISSED"
    assert mark(6.0, "-") == "[-]"


def test_the_load_line_names_the_load_and_the_cpus() -> None:
    text = load_line()
    assert text.startswith("load: ") and ("(1, 5, 15 min) on " in text or text == "load: not available here")
