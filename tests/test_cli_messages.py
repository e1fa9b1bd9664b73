"""What a newcomer met on the command line and in the API: options refused or
accepted alike everywhere, messages in the user's terms (the game's name, the
option as typed, no internal source tags), ``evaluate`` and ``solve`` checking
their input the same way, and the library saying where integer actions and
parsed saves go."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from hucklebuck.cli import main
from hucklebuck.errors import HucklebuckError, IllegalAction, OptionsError, RestoreError
from hucklebuck.games import (
    BuckEmOptions,
    DeerParkGame,
    DeerParkOptions,
    HucklebuckGame,
    HucklebuckOptions,
)

pytestmark = pytest.mark.single_core

INTERNAL = re.compile(r"\bR\d{1,2}\b|Options\b|\b(DeerPark|BuckEm)\b")


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    old = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: BuckEmOptions(ante=0), "Buck 'Em option ante must be at least 1, not 0"),
        (lambda: DeerParkOptions.from_assignments(["lock_at=abc"]), "Deer Park Euchre option lock_at cannot"),
        (lambda: HucklebuckOptions.from_dict({"nosuch": 1}), "Hucklebuck has no option 'nosuch'"),
        (lambda: HucklebuckGame(4, options={"auction_reentry": 1}), "auction_reentry must be true or false"),
        (lambda: DeerParkGame(4, options={"lock_at": 4.5}), "lock_at must be an integer"),
    ],
)
def test_option_messages_use_the_games_name(make: object, words: str) -> None:
    with pytest.raises(HucklebuckError) as info:
        make()  # type: ignore[operator]
    assert words in str(info.value)
    assert not INTERNAL.search(str(info.value)), str(info.value)


def test_option_text_in_the_api_names_the_wanted_type_and_the_text_reader() -> None:
    """Options in the API are typed values (the protocol refuses "15" for 15); a string
    gets a message naming the type wanted and the reader for command-line text."""
    with pytest.raises(OptionsError) as info:
        HucklebuckGame(4, options={"auction_reentry": "true"})
    text = str(info.value)
    assert "must be true or false (a bool), not 'true'" in text
    assert "from_assignments(['auction_reentry=true'])" in text
    with pytest.raises(OptionsError, match="must be an integer or None, not '3'"):
        BuckEmOptions(pot_limit="3")  # type: ignore[arg-type]
    opts = HucklebuckOptions.from_assignments(["auction_reentry=true", "target=11"])
    assert HucklebuckGame(4, options=opts).options.auction_reentry is True


@pytest.mark.parametrize("game", ["hucklebuck", "buckem", "deerpark"])
def test_options_listing_cites_only_sources_and_decisions(
    capsys: pytest.CaptureFixture[str], game: str
) -> None:
    code, out, _ = cli(capsys, "options", game)
    assert code == 0 and out
    assert not re.search(r"\bR\d{1,2}\b", out), re.findall(r".{40}\bR\d{1,2}\b.{5}", out)


def test_integer_actions_are_sent_to_apply_id() -> None:
    game = HucklebuckGame(4, seed=1)
    legal = game.legal_action_ids()[0]
    before = game.to_json()
    with pytest.raises(IllegalAction, match=rf"apply_id\({legal}\)"):
        game.apply(legal)  # type: ignore[arg-type]
    assert game.to_json() == before


def test_from_json_of_a_dict_says_where_dicts_go() -> None:
    game = DeerParkGame(3, seed=1)
    with pytest.raises(RestoreError, match=r"from_dict\(\)"):
        DeerParkGame.from_json(game.to_dict())  # type: ignore[arg-type]
    assert DeerParkGame.from_json(game.to_json().encode()) == game  # bytes are JSON text too
    with pytest.raises(RestoreError, match="not UTF-8"):
        DeerParkGame.from_json(b'{"a": "\x89PNG"}')


def test_evaluate_refuses_an_upcard_for_hucklebuck(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(
        capsys, "evaluate", "hucklebuck", "--hand", "AS KS QS 2H 3D", "-n", "4", "--upcard", "4H"
    )
    assert code == 2 and "--upcard" in err and "Hucklebuck turns no card up" in err and not out


@pytest.mark.parametrize(
    ("game", "args"),
    [
        ("hucklebuck", ["--trump", "S"]),
        ("buckem", ["--upcard", "4H"]),
        ("deerpark", ["--trump", "H"]),
    ],
)
def test_evaluate_advice_names_the_method_used(
    capsys: pytest.CaptureFixture[str], game: str, args: list[str]
) -> None:
    hand = "JH JD AH KC QS" if game == "deerpark" else "AH KH 5C 7D 9S"
    n = "5" if game == "buckem" else "4"
    code, out, _ = cli(
        capsys, "evaluate", game, "--hand", hand, "-n", n, "--method", "solver", "--samples", "8", *args
    )
    assert code == 0
    advice = [line for line in out.splitlines() if line.startswith("Advice")]
    assert advice and all("solver" in line and "playout" not in line for line in advice), advice


def test_solve_refuses_cards_outside_the_pack(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "solve", "deerpark", "--trump", "S", "--hands", "2H", "AH", "KH")
    assert code == 2 and "2♥ not in the Deer Park Euchre pack for 3 players (10 to A" in err


def test_solve_names_a_leader_whose_seat_is_not_in_play(capsys: pytest.CaptureFixture[str]) -> None:
    solve = ["solve", "deerpark", "--trump", "S", "--hands", "QH", "-", "KH", "--leader"]
    code, _, err = cli(capsys, *solve, "2")  # seats count from 1 (issue 58)
    assert code == 2 and "that seat is not in play (its hand is '-')" in err and "seats 1 to" not in err
    code, _, err = cli(capsys, *solve, "5")
    assert code == 2 and "no such seat (seats 1 to 3)" in err


def test_bench_help_is_plain_text() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "hucklebuck.bench", "--help"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0 and "SECTION" in proc.stdout
    assert "``" not in proc.stdout and ":data:" not in proc.stdout, proc.stdout
