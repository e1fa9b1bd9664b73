"""The command line: every subcommand's output, and bad input that exits with
status 2 and one clear line (never a traceback)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hucklebuck.cli import main
from hucklebuck.cli.common import Output
from hucklebuck.errors import OptionsError, UnsupportedOption
from hucklebuck.games import BuckEmOptions, DeerParkOptions, HucklebuckOptions
from hucklebuck.words.people import option_label

pytestmark = pytest.mark.single_core


def cli(capsys: pytest.CaptureFixture[str], *args: str, stdin: str = "") -> tuple[int, str, str]:
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


BAD = [
    (["play", "chess"], "unknown game 'chess'"),
    (["play", "hucklebuck", "--option", "nosuch=1"], "no option 'nosuch'"),
    (["play", "hucklebuck", "--option", "target=12"], "valid values: 11 | 15"),
    (["play", "hucklebuck", "--option", "target"], "NAME=VALUE"),
    (["play", "buckem", "--option", "deuce_swap=maybe"], "valid values: true | false"),
    (["play", "hucklebuck", "--players", "4", "--you", "5"], "no such seat; seats are 1 to 4"),
    (["play", "hucklebuck", "--players", "4", "--you", "0"], "no such seat"),
    (["play", "hucklebuck", "--you", "1", "--you", "1"], "--you 1 is given twice"),
    (["play", "hucklebuck", "--you", "x"], "'x' is not a seat number"),
    (["play", "hucklebuck", "--players", "9"], "Hucklebuck is for 3 to 7 players, not 9"),
    (["play", "buckem", "--players", "4"], "Buck 'Em is for 5 to 8 players, not 4"),
    (["play", "deerpark", "--hands", "0"], "must be 1 or more, not 0"),
    (["play", "deerpark", "--hands", "-3"], "must be 1 or more"),
    (["play", "hucklebuck", "--bots", "genius"], "unknown player kind 'genius'"),
    (["play"], "say which game"),
    (["play", "hucklebuck", "--resume", "/nonexistent/save.json"], "cannot read /nonexistent/save.json"),
    (["options", "poker"], "unknown game 'poker'"),
    (["evaluate", "chess", "--hand", "AS KS QS 2H 3D", "--players", "4"], "unknown game"),
    (["evaluate", "hucklebuck", "--hand", "AS KS QS 2H", "--players", "4"], "a hand has 5 cards, not 4"),
    (["evaluate", "hucklebuck", "--hand", "AS KS QS 2H 3D 4D", "--players", "4"], "not 6"),
    (["evaluate", "hucklebuck", "--hand", "AS KS QS 2H 1X", "--players", "4"], "'1X' is not a card"),
    (["evaluate", "hucklebuck", "--hand", "AS AS QS 2H 3D", "--players", "4"], "listed twice"),
    (["evaluate", "hucklebuck", "--hand", "AS KS QS 2H 3D", "--players", "4", "--trump", "X"], "not a suit"),
    (["evaluate", "hucklebuck", "--hand", "AS KS QS 2H 3D", "--players", "2"], "for 3 to 7 players, not 2"),
    (["evaluate", "hucklebuck", "--hand", "AS KS QS 2H 3D", "--players", "4", "-o", "target=11"], "target"),
    (
        ["evaluate", "buckem", "--hand", "AS KS QS 2H 3D", "--players", "5", "--upcard", "AS"],
        "also in --hand",
    ),
    (
        ["evaluate", "deerpark", "--hand", "AS KS QS 2H 3D", "--players", "4"],
        "2♥ 3♦ not in the Deer Park Euchre pack for 4 players (9 to A in each suit)",
    ),
    (["solve", "hucklebuck", "--trump", "S", "--hands", "AS KS", "AH"], "same number of cards"),
    (["solve", "hucklebuck", "--trump", "S", "--hands", "AS KS", "AS QH"], "AS is in two hands"),
    (["solve", "hucklebuck", "--trump", "S", "--hands", "AS KS", "zz"], "'zz' is not a card"),
    (["solve", "hucklebuck", "--trump", "S", "--hands", "AS KS", "AH KH", "--leader", "3"], "--leader 3"),
    (["solve", "hucklebuck", "--trump", "Q", "--hands", "AS", "AH"], "not a suit"),
    (["solve", "nim", "--trump", "S", "--hands", "AS", "AH"], "unknown game"),
    (["simulate", "hucklebuck", "--players", "4", "--hands", "0"], "must be 1 or more"),
    (["simulate", "hucklebuck", "--players", "4", "-o", "target=11"], "does not support option target"),
    (["simulate", "buckem", "--players", "5", "-o", "ante=0"], "at least 1"),
    (["simulate", "deerpark", "--players", "8"], "for 3 to 7 players, not 8"),
    (["simulate", "hucklebuck", "--players", "x"], "--players"),  # without it: 4 players (issue 39)
    (["frobnicate"], "invalid choice"),
    (["play", "hucklebuck", "--games", "5"], "play: error: unrecognized arguments: --games 5 (see"),
    (["tournament", "hucklebuck", "--frob"], "tournament: error: unrecognized arguments: --frob"),
    (["tournament", "hucklebuck", "--bots", "mc,,genius"], "unknown player kind 'genius' for --bots"),
    (["tournament", "hucklebuck", "--bots", " , "], "--bots needs at least one kind"),
    (["tournament", "hucklebuck", "--rounds", "3"], "--rounds is for Buck 'Em sessions"),
]


@pytest.mark.parametrize(("args", "message"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_exits_2_with_one_clear_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = cli(capsys, *args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert message in lines[0]
    assert "Traceback" not in err and "error:" in lines[0]
    assert out == ""


def test_bad_input_through_the_real_entry_point() -> None:
    for args in (
        ["play", "hucklebuck", "--you", "1", "--you", "1"],
        ["evaluate", "x", "--hand", "AS", "-n", "4"],
    ):
        r = subprocess.run(
            [sys.executable, "-m", "hucklebuck", *args], capture_output=True, text=True, timeout=60
        )
        assert r.returncode == 2
        assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
        assert r.stderr.startswith("python -m hucklebuck ")


def test_help_names_the_program_and_has_no_markup() -> None:
    script = Path(sys.executable).with_name("hucklebuck")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "hucklebuck"]
    name = "hucklebuck" if script.exists() else "python -m hucklebuck"
    for sub in ([], ["play"], ["options"], ["evaluate"], ["solve"], ["simulate"], ["tournament"]):
        r = subprocess.run([*cmd, *sub, "--help"], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith(f"usage: {name} ")
        assert "``" not in r.stdout and ":class:" not in r.stdout and ":mod:" not in r.stdout


# ------------------------------------------------------------------ options
def test_option_assignments_are_typed_and_checked() -> None:
    o = BuckEmOptions.from_assignments(["ante=3", "pot_limit=none", "deuce_swap=YES", "odd-chip=Carry"])
    assert (o.ante, o.pot_limit, o.deuce_swap, o.odd_chip.value) == (3, None, True, "carry")
    assert HucklebuckOptions.from_assignments([]) == HucklebuckOptions()
    with pytest.raises(UnsupportedOption, match="its options are: target, all_pass"):
        HucklebuckOptions.from_assignments(["targt=11"])
    with pytest.raises(UnsupportedOption, match=r"valid values: eldest \| maker"):
        DeerParkOptions.from_assignments(["first_lead=dealer"])
    with pytest.raises(OptionsError, match="given twice"):
        HucklebuckOptions.from_assignments(["target=11", "target=15"])
    with pytest.raises(OptionsError, match="needs short_handed=true"):
        BuckEmOptions.from_assignments(["short_handed_trump=removed_card"])


def test_every_option_is_described_with_default_values_and_source() -> None:
    for cls in (HucklebuckOptions, BuckEmOptions, DeerParkOptions):
        infos = cls.describe()
        assert [i.name for i in infos] == list(cls().to_dict())
        for info in infos:
            assert re.search(r"\b(S[0-4]|DEF #\d+)", info.doc), (cls.__name__, info.name, info.doc)
            assert info.values
            assert cls.from_assignments([f"{info.name}={info.default}"]) == cls()
            for value in info.choices:
                if value != "none" or info.name == "pot_limit":
                    cls.from_assignments(
                        [f"{info.name}={value}"] + (["short_handed=true"] if value == "removed_card" else [])
                    )


def test_options_command_lists_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "options", "hucklebuck")
    assert code == 0
    for info in HucklebuckOptions.describe():
        assert f"  {info.name}   ({option_label(info.name)})   default: {info.default}" in out
    assert "values: 11 | 15" in out and "DEF #4" in out and "dealer_must_bid: The dealer may not pass" in out


# ----------------------------------------------------------------- watching
def test_watched_game_reads_like_a_card_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "play", "hucklebuck", "--players", "4", "--seed", "7", "--bots", "heuristic")
    assert code == 0
    head = out.split("=== Hand 1")[0]
    assert "First to 15 points wins" in head
    assert "Players:\n  P1  computer: quick (heuristic)\n" in head and "Seats are numbered 1 to 4" in head
    assert re.search(r"\n  P\d: \S+ \S+ \S+ \S+ \S+\n", out)  # every hand shown when watching bots
    assert re.search(r"\n  P\d discards \S+( \S+)*\n  P\d gets ", out)  # what each player drew
    assert "--- Scoring of hand 1 ---" in out
    assert re.search(r"Winner: P\d\. P\d reached \d+, at or past the target of 15\.", out)
    # Rule citations only on request, and then explained once.
    assert not re.search(r"\bS[0-4]\b|DEF #", out), re.findall(r".{30}(?:\bS[0-4]\b|DEF #).{5}", out)
    code, cited, _ = cli(
        capsys, "play", "hucklebuck", "--players", "4", "--seed", "7", "--bots", "heuristic", "--cite"
    )
    assert code == 0 and "(S0, S2" in cited.split("--- Scoring of hand 1 ---")[1]
    assert cited.count("S0-S4 name the rule sources and DEF #n the library's rule decisions") == 1


def test_going_out_is_announced(capsys: pytest.CaptureFixture[str]) -> None:
    for seed in range(40):
        _, out, _ = cli(capsys, "play", "hucklebuck", "-n", "3", "--seed", str(seed), "--bots", "random")
        if "is out of the game" in out:
            assert re.search(r"P\d is out of the game \(score -\d+, at or below -25\)", out)
            return
    raise AssertionError("no random game had a player go out")  # pragma: no cover


def test_hands_counts_hands_in_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    for game, n in (("hucklebuck", 4), ("deerpark", 4), ("buckem", 5)):
        code, out, _ = cli(
            capsys, "play", game, "-n", str(n), "--seed", "1", "--hands", "2", "--bots", "heuristic"
        )
        assert code == 0
        assert "=== Hand 2:" in out and "=== Hand 3:" not in out
        assert "rounds" not in out
        assert "Stopped after 2 hands" in out or "Game over after" in out


def test_buckem_watch_shows_trump_and_pot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys, "play", "buckem", "-n", "5", "--seed", "1", "--hands", "8", "--bots", "heuristic"
    )
    assert code == 0
    assert "trump ?" not in out
    assert re.search(r"Upcard: \S+, so trump is . (clubs|diamonds|hearts|spades)", out)
    assert "Leading: " in out and "pot " in out


def test_ascii_fallback(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys, "play", "deerpark", "-n", "3", "--seed", "5", "--hands", "1", "--ascii", "--bots", "heuristic"
    )
    assert code == 0
    assert not re.search("[♣♦♥♠]", out)
    assert re.search(r"\b(10|[2-9JQKA])[CDHS]\b", out)


def test_ascii_when_stdout_cannot_encode_suits() -> None:
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "hucklebuck",
            "play",
            "hucklebuck",
            "-n",
            "3",
            "--seed",
            "2",
            "--bots",
            "heuristic",
        ],
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    r.stdout.decode("ascii")  # plain ASCII, never a UnicodeEncodeError
    assert b"Winner:" in r.stdout and b"Traceback" not in r.stderr


def test_output_never_raises_on_unencodable_text() -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")
    say = Output(stream, ascii_only=True)
    say("A♠ 10♥ — café")
    stream.flush()
    assert raw.getvalue() == b"AS 10H - caf?\n"


def test_hot_seat_shows_each_person_only_their_own_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys,
        "play",
        "deerpark",
        "-n",
        "3",
        "--you",
        "1",
        "--you",
        "3",
        "--seed",
        "3",
        "--bots",
        "heuristic",
        stdin="quit\n",
    )
    assert code == 0
    assert "  P1  a person\n  P2  computer: quick (heuristic)\n  P3  a person\n" in out
    before_prompt = out.split("Your hand:")[0]
    assert not re.search(r"\n  P\d: ", before_prompt)  # nobody's hand is dealt face up on the screen
    assert "Leaving the game." in out


# ------------------------------------------------------- evaluate/solve/sim
def test_evaluate_prints_the_distribution_and_advice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys,
        "evaluate",
        "hucklebuck",
        "--hand",
        "as ks qs 2h 3d",
        "--trump",
        "S",
        "-n",
        "4",
        "--samples",
        "400",
    )
    assert code == 0
    assert re.search(r"P\(0\)\s+P\(1\)\s+P\(2\)\s+P\(3\)\s+P\(4\)\s+P\(5\)\s+mean\s+s\.e\.", out)
    row = re.search(r"♠ spades((\s+[01]\.\d{3}){6})\s+(\d\.\d{3})\s+(\d\.\d{3})", out)
    assert row is not None
    probs = [float(x) for x in row.group(1).split()]
    assert abs(sum(probs) - 1) < 0.01 and float(row.group(3)) > 1.5
    assert "bid: " in out and "best trump as bidder" in out and "exchange:" in out


def test_evaluate_buckem_and_deerpark_advice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys,
        "evaluate",
        "buckem",
        "--hand",
        "AH KH 5C 7D 9S",
        "--upcard",
        "4H",
        "-n",
        "6",
        "--samples",
        "300",
    )
    assert code == 0 and "rake test" in out and "this hand rakes" in out and "P(burned)" in out
    code, out, _ = cli(
        capsys,
        "evaluate",
        "deerpark",
        "--hand",
        "JH JD AH KD QS",
        "--upcard",
        "9H",
        "-n",
        "4",
        "--samples",
        "300",
    )
    assert code == 0 and "P(3+)" in out and "turned 9♥: order it up" in out


def test_solve_gives_each_seat_its_sure_tricks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys, "solve", "hucklebuck", "--trump", "S", "--hands", "AS KS", "AH KH", "2C 3C", "--leader", "2"
    )
    assert code == 0
    rows = dict(re.findall(r"^(\d)\s+.*?\s(\d)$", out, re.M))
    assert rows == {"1": "2", "2": "0", "3": "0"}  # seats counted from 1, as people do
    assert "seat 2 leads" in out


def test_simulate_table_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "simulate", "hucklebuck", "-n", "4", "--hands", "3000")
    assert code == 0 and "hands played" in out and "bid 2: made / set" in out
    code, out, _ = cli(capsys, "simulate", "buckem", "-n", "6", "--hands", "3000", "-o", "ante=2", "--json")
    data = json.loads(out)
    assert data["stats"]["hands"] == 3000 and data["ante"] == 2
    code, again, _ = cli(
        capsys, "simulate", "buckem", "-n", "6", "--hands", "3000", "-o", "ante=2", "--json", "--workers", "2"
    )
    assert json.loads(again) == data  # the same numbers whatever --workers is


@pytest.mark.parametrize(("game", "players"), [("hucklebuck", 4), ("buckem", 6), ("deerpark", 4)])
def test_every_option_value_plays_from_the_command_line(
    capsys: pytest.CaptureFixture[str], game: str, players: int
) -> None:
    cls = {"hucklebuck": HucklebuckOptions, "buckem": BuckEmOptions, "deerpark": DeerParkOptions}[game]
    for info in cls.describe():
        for value in info.choices or (str(int(info.default) + 1) if info.default.isdigit() else "3",):
            extra = ["-o", "short_handed=true"] if value == "removed_card" else []
            n = 8 if value == "dealer_last_card" else players
            args = ["play", game, "-n", str(n), "--seed", "3", "--hands", "1", "--bots", "heuristic"]
            code, out, err = cli(capsys, *args, "-o", f"{info.name}={value}", *extra)
            assert code == 0, (info.name, value, err)
            assert "=== Hand 1:" in out and (
                "Stopped after 1 hand." in out or "Game over after 1 hand." in out
            )


def test_hint_rates_every_legal_move(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["play", "deerpark", "-n", "3", "--you", "2", "--seed", "9", "--bots", "heuristic"]
    code, out, _ = cli(capsys, *args, stdin="hint\nquit\n")
    assert code == 0
    moves = re.search(r"Your moves:\n((?:  .*\n)+)", out)
    assert moves is not None
    count = len(re.findall(r"\d+\) ", moves.group(1)))
    rated = out.split("Hint (chance of winning the game, over 400 sampled deals")[1].split("Your move")[0]
    assert len(re.findall(r"^  \S.*  \d+% to win$", rated, re.M)) == count
    assert re.search(r"^Playing for (0|50).*the best move gives you \d+% to win", rated, re.M | re.S)


def test_simultaneous_declaring_hides_earlier_decisions_from_a_person(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["play", "buckem", "-n", "5", "--you", "3", "--seed", "4", "--bots", "heuristic"]
    code, out, _ = cli(capsys, *args, "-o", "simultaneous_declare=true", stdin="1\nquit\n")
    assert code == 0
    before, after = out.split("> 1\n", 1)
    assert not re.search(r"P2 (stays|folds)", before)  # P2 spoke first, unseen
    assert re.search(r"Everyone has declared:\n  P2 (stays|folds)", after)
    code, out, _ = cli(capsys, *args, stdin="1\nquit\n")
    assert re.search(r"P2 (stays|folds)", out.split("> 1\n", 1)[0])  # the default: decisions in turn, seen


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from hucklebuck import __version__

    code, out, _ = cli(capsys, "--version")
    assert code == 0 and out.split()[-1] == __version__


def test_tournament_bots_read_as_play_reads_them(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "tournament", "hucklebuck", "--bots", "Heuristic,,RANDOM", "--games", "8")
    assert code == 0, err
    kinds = [line.split()[0] for line in out.splitlines() if line.split()[:1] in (["heuristic"], ["random"])]
    assert kinds == ["heuristic", "random"]
