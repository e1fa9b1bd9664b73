"""``hucklebuck play`` through the real entry point, for what only a terminal or a
pipe shows: red suits on a terminal only (and never with --no-color or
NO_COLOR), the hot seat clearing the screen and its scrollback, odd answers and
file names refused in one line, ``--resume`` read by the library's one loader
with a size cap, and the recap of a resumed hand told in order."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.single_core

CMD = [sys.executable, "-m", "hucklebuck", "play"]
DEERPARK = ["deerpark", "--players", "3", "--you", "1", "--seed", "2", "--bots", "heuristic"]
RED = "\x1b[31m"


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", HUCKLEBUCK_BACKEND="python", **extra)
    for name in ("COLUMNS", "NO_COLOR"):
        if name not in extra:
            env.pop(name, None)
    return env


def _run(args: list[str], answers: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        CMD + args,
        input="\n".join(answers) + "\n",
        capture_output=True,
        text=True,
        env=_env(**env),
        timeout=120,
    )


def _screen(args: list[str], **env: str) -> str:
    """What a terminal shows up to the first question."""
    child = pexpect.spawn(CMD[0], CMD[1:] + args, env=_env(**env), encoding="utf-8", timeout=120)
    try:
        child.expect(r"or \? for help\):")
        return str(child.before)
    finally:
        child.close(force=True)


def test_red_suits_in_red_on_a_terminal_only() -> None:
    shown = _screen(DEERPARK)
    assert RED in shown and re.search(r"\x1b\[31m(10|[2-9JQKA])[♥♦]\*?\x1b\[0m", shown), shown
    assert "♥" in re.sub(r"\x1b\[[0-9;]*m", "", shown) or "♦" in shown  # the symbols stay
    assert RED not in _screen([*DEERPARK, "--no-color"])
    assert RED not in _screen(DEERPARK, NO_COLOR="1")
    piped = _run(DEERPARK, ["quit", ""])
    assert "\x1b" not in piped.stdout and ("♥" in piped.stdout or "♦" in piped.stdout)


def test_hot_seat_clears_the_screen_and_the_scrollback() -> None:
    args = ["deerpark", "--players", "3", "--you", "1", "--you", "2", "--seed", "8", "--bots", "heuristic"]
    child = pexpect.spawn(CMD[0], CMD[1:] + args, env=_env(), encoding="utf-8", timeout=120)
    try:
        child.expect(r"(P\d): your turn\. Press Enter")
        who = child.match.group(1)
        child.sendline("")
        child.expect(r"or \? for help\):")
        child.sendline("1")
        child.expect(rf"\({who} has moved\)")
        assert str(child.before).endswith("\x1b[H\x1b[2J\x1b[3J"), repr(str(child.before)[-40:])
        child.sendline("quit")
    finally:
        child.close(force=True)


def test_a_unicode_digit_answer_is_refused_not_a_crash() -> None:
    result = _run(["hucklebuck", "--you", "1", "--seed", "1", "--bots", "random"], ["²", "quit", ""])
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "There is no move ²" in result.stdout


def test_save_with_a_nul_in_the_name_is_refused_in_one_line(tmp_path: Path) -> None:
    result = _run(DEERPARK, [f"save {tmp_path}/a\0b.json", "quit", ""])
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "Could not save to " in result.stdout
    assert "a file name cannot hold a NUL character" in result.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "is not a saved game (it is not JSON)"),
        (b"[" * 200_000 + b"]" * 200_000, "is not a saved game (it is not JSON)"),
        (b" " * (16 * 1024 * 1024 + 1), "is not a saved game (it is over 16 MB)"),
    ],
    ids=["binary", "nested", "huge"],
)
def test_resume_refuses_files_that_are_not_saves(tmp_path: Path, content: bytes, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    result = _run(["--resume", str(bad)], [])
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_resume_of_an_endless_file_stops_at_the_cap() -> None:
    result = _run(["--resume", "/dev/zero"], [])
    assert result.returncode == 2 and "over 16 MB" in result.stderr, result.stderr


def test_resume_recaps_the_hand_in_order_and_quit_offers_to_save(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    args = [
        "hucklebuck",
        "--players",
        "3",
        "--you",
        "2",
        "--seed",
        "4",
        "-o",
        "target=11",
        "--bots",
        "heuristic",
    ]
    first = _run(args, ["1"] * 4 + ["quit", str(saved)])  # quit mid-hand, after the auction
    assert f"Saved to {saved}" in first.stdout and "Save the game first?" in first.stdout, first.stdout
    hand = first.stdout.split("=== Hand ")[-1]
    resumed = _run(["--resume", str(saved)], ["quit", ""])
    assert resumed.returncode == 0, resumed.stderr
    recap = resumed.stdout.split("(the game continues from here)")[0]
    recap = recap[recap.index("=== Hand ") :]
    # The recap tells this hand's moves as they were first told, the auction included.
    told = [line for line in hand.splitlines() if re.match(r"  \S", line) and "only legal move" not in line]
    again = [line for line in recap.splitlines() if re.match(r"  \S", line)]
    assert len(again) >= 4 and again == told[: len(again)], (again, told)
    assert re.search(r"\n  \S+ (bids|passes|pass|bid)", recap)
    if "Trick 1" in recap:
        assert recap.index("Play begins") < recap.index("Trick 1")
