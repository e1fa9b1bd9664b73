"""A person plays whole games through the real entry point (``python -m
hucklebuck``): in a pseudo-terminal and over a plain pipe, answering by
number, by card text, once with an unreadable answer and once with an
illegal one; then save and resume, and a corrupt save file."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")
from pexpect.popen_spawn import PopenSpawn  # noqa: E402 - after the importorskip

PROMPT = r"move \((?:1-)?(\d+), or \? for help\):"
CMD = [sys.executable, "-m", "hucklebuck", "play"]
GAMES = {
    # Small targets and few hands keep these fast; the bots are the quick heuristic ones.
    "hucklebuck": [
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
    ],
    "deerpark": ["deerpark", "--players", "3", "--you", "1", "--seed", "2", "--bots", "heuristic"],
    "buckem": [
        "buckem",
        "--players",
        "5",
        "--you",
        "3",
        "--seed",
        "3",
        "--hands",
        "2",
        "--bots",
        "heuristic",
    ],
}
_LETTER = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
_ALL = [r + s for s in "cdhs" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "j", "q", "k", "a")]


def _env() -> dict[str, str]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", HUCKLEBUCK_BACKEND="python")
    env.pop("COLUMNS", None)
    return env


def _as_text(display: str) -> str:
    """``10♥`` as a person would type it: ``10h`` (``J♥*``, a marked left bower: ``jh``)."""
    display = display.rstrip("*")
    return display[:-1].lower() + _LETTER[display[-1]]


def _plain(text: str) -> str:
    """``text`` without colour codes (a terminal gets red hearts and diamonds)."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def _drive(child: Any, game: str) -> dict[str, str]:
    """Answer every prompt until the game ends; returns what was checked."""
    seen: dict[str, str] = {}
    screen = ""
    for _ in range(2000):
        i = child.expect([PROMPT, "Winner: ", "Leading: ", pexpect.EOF], timeout=120)
        if i == 3:
            raise AssertionError("the game ended without naming a winner:\n" + str(child.before)[-2000:])
        if i in (1, 2):
            child.expect(pexpect.EOF, timeout=120)
            seen["end"] = str(child.before).strip()
            return seen
        text = _plain(str(child.before))
        if "text" in seen and "text checked" not in seen:
            assert "I can't read" not in text and "Not allowed" not in text, text
            seen["text checked"] = "yes"
        if "Your moves:" in text:
            screen = text  # a refused answer is asked again without the table
        in_play = ", the play; " in screen  # the turn's header: "hand 2, the play; P3 deals"
        if "unreadable" not in seen:
            assert "Your moves:" in screen and " 1) " in screen
            child.sendline("xyzzy")
            child.expect(r"I can't read 'xyzzy'[^\n]*", timeout=120)
            seen["unreadable"] = str(child.after)
        elif in_play and "illegal" not in seen:
            hand = re.search(r"Your hand: ([^\r\n]*)", screen)
            assert hand is not None
            mine = {_as_text(c) for c in hand.group(1).split()}
            other = next(c for c in _ALL if c not in mine)
            child.sendline(other.upper())
            child.expect(r"Not allowed: [^\r\n]*", timeout=120)
            seen["illegal"] = str(child.after)
        elif in_play and "text" not in seen:
            first = re.search(r" 1\) (\S+)", screen)
            assert first is not None
            seen["text"] = _as_text(first.group(1))
            child.sendline(seen["text"])
        else:
            # Stay whenever offered (so the person plays tricks), else the first move.
            stay = re.search(r" (\d+)\) stay(, exchange 0)?\s", screen)
            child.sendline(stay.group(1) if stay and not in_play else "1")
    raise AssertionError("too many prompts")  # pragma: no cover


def _check(seen: dict[str, str], game: str) -> None:
    assert "I can't read 'xyzzy'" in seen["unreadable"]
    assert "Type a move's number" in seen["unreadable"]
    assert "is not in your hand" in seen["illegal"]
    assert seen["text checked"] == "yes"
    if game == "buckem":
        assert "with the biggest bankroll" in seen["end"]
    else:
        assert re.match(r"\S.*\. .*(reached|moon|last player|farthest|goal)", seen["end"]), seen["end"]


@pytest.mark.single_core
@pytest.mark.parametrize("game", sorted(GAMES))
def test_whole_game_in_a_pseudo_terminal(game: str) -> None:
    child = pexpect.spawn(CMD[0], CMD[1:] + GAMES[game], env=_env(), encoding="utf-8", timeout=120)
    try:
        seen = _drive(child, game)
    finally:
        child.close(force=True)
    _check(seen, game)


@pytest.mark.single_core
@pytest.mark.parametrize("game", sorted(GAMES))
def test_whole_game_over_a_pipe(game: str) -> None:
    child = PopenSpawn(CMD + GAMES[game], env=_env(), encoding="utf-8", timeout=120)
    seen = _drive(child, game)
    _check(seen, game)
    assert child.wait() == 0


def _run(args: list[str], answers: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        CMD + args, input="\n".join(answers) + "\n", capture_output=True, text=True, env=_env(), timeout=120
    )


@pytest.mark.single_core
def test_pipe_output_has_no_prompt_decorations() -> None:
    out = _run(GAMES["hucklebuck"], ["quit"]).stdout
    assert "Your move (1" in out and "\r" not in out and "\x1b" not in out
    prompt_line = next(line for line in out.splitlines() if "Your move (1" in line)
    assert prompt_line.endswith("for help):")
    assert "> quit" in out and out.rstrip().endswith("Leaving the game.")


@pytest.mark.single_core
def test_save_then_resume_gives_the_same_continuation(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    args = GAMES["hucklebuck"]
    first = _run(args, ["1"] * 2 + [f"save {saved}"] + ["1"] * 400)
    assert first.returncode == 0, first.stderr
    assert f"Saved to {saved}" in first.stdout
    tail = first.stdout.split(f"Saved to {saved}", 1)[1].split("\n", 1)[1]
    resumed = _run(["--resume", str(saved)], ["1"] * 400)
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed from" in resumed.stdout and "Winner: " in resumed.stdout
    # Everything from the first question after resuming is what the first run did after saving.
    start = resumed.stdout.index("Your move (1")
    cont = resumed.stdout[start:]
    assert cont == tail[tail.index("Your move (1") :]


@pytest.mark.single_core
@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not a saved game (it is not JSON)"),
        ('{"hello": 1}', "is not a saved game"),
        (
            '{"format": "hucklebuck-game", "version": 1, "game": "hucklebuck", "players": 3, '
            '"options": {}, "start": {}, "hands": [{"deal": {}, "actions": ["0 bid 9"]}], "rng": null}',
            "is not a valid saved game",
        ),
        ("SAVED", "its 'table' entry is damaged"),
    ],
)
def test_a_corrupt_save_file_is_refused(tmp_path: Path, content: str, message: str) -> None:
    bad = tmp_path / "bad.json"
    if content == "SAVED":  # a real save whose seat list was edited by hand
        saved = tmp_path / "good.json"
        _run(GAMES["deerpark"], [f"save {saved}", "quit"])
        data = json.loads(saved.read_text(encoding="utf-8"))
        data["table"]["you"] = ["zero"]
        content = json.dumps(data)
    bad.write_text(content, encoding="utf-8")
    result = _run(["--resume", str(bad)], [])
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.single_core
def test_simulate_shows_progress_on_a_terminal_only() -> None:
    args = ["simulate", "deerpark", "--players", "4", "--hands", "2500", "--chunk", "1000"]
    child = pexpect.spawn(
        sys.executable, ["-m", "hucklebuck", *args], env=_env(), encoding="utf-8", timeout=120
    )
    child.expect(r"1,000 of 2,500 hands")
    child.expect(r"2,500 of 2,500 hands \(100%\)")
    child.expect("stuck dealer")
    child.expect(pexpect.EOF)
    piped = subprocess.run(
        [sys.executable, "-m", "hucklebuck", *args], capture_output=True, text=True, env=_env(), timeout=120
    )
    assert piped.returncode == 0 and piped.stderr == "" and "stuck dealer" in piped.stdout


@pytest.mark.single_core
def test_hot_seat_in_a_terminal_hides_each_hand_until_its_owner_is_ready() -> None:
    args = ["deerpark", "--players", "3", "--you", "1", "--you", "2", "--seed", "8", "--bots", "heuristic"]
    child = pexpect.spawn(CMD[0], CMD[1:] + args, env=_env(), encoding="utf-8", timeout=120)
    try:
        people = set()
        for _ in range(4):
            child.expect(r"(P\d): your turn\. Press Enter when only you can see the screen")
            who = child.match.group(1)
            people.add(who)
            assert "Your hand:" not in str(child.before).split("has moved)")[-1]
            child.sendline("")
            child.expect(rf"--- {who}'s turn: .*?Your hand: .*?{PROMPT}", timeout=120)
            child.sendline("1")
            child.expect(rf"\({who} has moved\)")
        assert people == {"P1", "P2"}
        child.sendline("quit")
    finally:
        child.close(force=True)
