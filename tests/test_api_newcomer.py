"""What a downstream developer met in the API (issue 39, point 16), pinned.

``is_legal`` takes the text ``apply`` takes; ``tensors.layout`` names a bad game or
player count; ``boards.ratio_ci`` is ``nan`` with no observations; a saved game with a
field missing says which; Deer Park's locked seats read the same way on the game and
on an observation; ``make_player`` is typed for the game it is made for; internal
members stay off the API pages; ``schemas | head`` stops quietly; every ``MANIFEST.in``
pattern matches a file.
"""

from __future__ import annotations

import math
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hucklebuck import OptionsError, PlayerCountError, RestoreError
from hucklebuck.boards import ratio_ci
from hucklebuck.games import DeerParkGame, HucklebuckGame, tensors

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ is_legal takes text
def test_is_legal_takes_the_text_apply_takes() -> None:
    game = HucklebuckGame(4, seed=1)
    seat = game.to_act
    assert seat is not None
    other = (seat + 1) % 4
    assert game.is_legal(f"{seat} pass") and game.is_legal(f"{seat} bid 2")
    assert not game.is_legal(f"{other} pass")  # not that seat's turn
    assert not game.is_legal("nonsense") and not game.is_legal("")  # text that is no action
    assert not game.is_legal(5)  # type: ignore[arg-type]  # still False for non-actions
    before = game.to_json()
    game.apply(f"{seat} pass")  # what is_legal said yes to, apply takes
    assert game.to_json() != before


# ------------------------------------------------------------------ tensors.layout
def test_layout_takes_a_game_name_and_refuses_what_the_game_does_not_seat() -> None:
    assert tensors.layout("deerpark", 4) is tensors.layout(DeerParkGame(4, seed=1).kind, 4)
    with pytest.raises(
        PlayerCountError, match=r"^Deer Park Euchre is for 3 to 7 players \(8 with a variant\), not 2$"
    ):
        tensors.layout("deerpark", 2)
    with pytest.raises(PlayerCountError, match=r"^Buck 'Em is for 5 to 8 players, not 4$"):
        tensors.layout("buckem", 4)
    with pytest.raises(OptionsError, match=r"^game: 'poker' is not a game"):
        tensors.layout("poker", 4)
    assert tensors.layout("deerpark", 8).n == 8
    with pytest.raises(PlayerCountError, match=r"^Hucklebuck is for 3 to 7 players, not 4.0$"):
        tensors.layout("hucklebuck", 4.0)  # type: ignore[arg-type]


# ------------------------------------------------------------------ boards.ratio_ci
def test_ratio_ci_is_nan_without_observations() -> None:
    assert all(math.isnan(x) for x in ratio_ci([], []))
    assert all(math.isnan(x) for x in ratio_ci([0.0, 0.0], [0, 0]))  # counts summing to 0
    r, lo, hi = ratio_ci([3.0], [4])
    assert r == 0.75 and math.isnan(lo) and math.isnan(hi)
    r, lo, hi = ratio_ci([1.0, 3.0, 2.0], [2, 4, 2])
    assert r == 0.75 and lo < r < hi


# ------------------------------------------------------------------ RestoreError names the field
@pytest.mark.parametrize("field", ["players", "options", "start", "rng", "hands"])
def test_a_saved_game_without_a_field_names_it(field: str) -> None:
    game = HucklebuckGame(4, seed=3)
    game.apply(game.legal_actions()[0])
    saved = game.to_dict()
    del saved[field]
    with pytest.raises(RestoreError) as info:
        HucklebuckGame.from_dict(saved)
    assert f"'{field}'" in str(info.value) and "missing" in str(info.value)
    assert "KeyError" not in str(info.value) and "Error" not in str(info.value)


def test_a_saved_game_with_a_wrong_value_has_no_class_names() -> None:
    saved = HucklebuckGame(4, seed=3).to_dict()
    saved["players"] = "four"
    with pytest.raises(RestoreError) as info:
        HucklebuckGame.from_dict(saved)
    assert str(info.value) == (
        "the saved game is not valid: players (the player count) must be an integer, not 'four'"
    )


# ------------------------------------------------------------------ Deer Park's locked seats
def test_locked_seats_read_the_same_on_the_game_and_the_observation() -> None:
    game = DeerParkGame(4, seed=2, scores=[46, 20, 45, 10])
    obs = game.observation(0)
    assert game.locked_seats == obs.locked == (0, 2)
    for seat in range(4):
        assert game.is_locked(seat) == obs.is_locked(seat) == game.locked(seat) == (seat in (0, 2))


# ------------------------------------------------------------------ make_player's type
@pytest.mark.single_core
def test_make_player_is_typed_for_its_game(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    program = textwrap.dedent(
        """\
        from hucklebuck.games import DeerParkGame, HucklebuckGame
        from hucklebuck.players import make_player

        hb = make_player("mc", "hucklebuck")
        reveal_type(hb)
        hb.choose(HucklebuckGame(4, seed=1).observation(0))
        hb.choose(DeerParkGame(4, seed=1).observation(0))  # the wrong game's observation: an error
        """
    )
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\n")  # checked as an app outside the checkout
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "-c", program],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    out, status = done.stdout, done.returncode
    assert (
        'Revealed type is "hucklebuck.players.base.Player[hucklebuck.games.hucklebuck.HucklebuckObservation]"'
        in out
    )
    assert status == 1 and out.count("error:") == 1 and ":7: error:" in out, out


# ------------------------------------------------------------------ the API pages
def test_internal_members_are_marked_private_for_the_api_pages() -> None:
    from hucklebuck.games.engine import TrickGame

    source = (ROOT / "hucklebuck/games/engine.py").read_text()
    for name in ("mutable_state", "phase_actions", "shared_until_written", "seat_private_actions"):
        assert hasattr(TrickGame, name) or name == "phase_actions"
        at = source.index(f"    {name}: ClassVar")
        doc = source[at : source.index('"""', source.index('"""', at) + 3)]
        assert ":meta private:" in doc, name


# ------------------------------------------------------------------ schemas piped to head
@pytest.mark.single_core
def test_schemas_piped_to_a_reader_that_goes_away_is_quiet() -> None:
    script = f"{sys.executable} -m hucklebuck.conformance schemas; echo status=$? >&2"  # head reads nothing
    done = subprocess.run(
        ["bash", "-c", f"({script}) | head -c 0"], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert done.stderr.strip() == "status=0", done.stderr


# ------------------------------------------------------------------ MANIFEST.in
@pytest.mark.single_core
def test_every_manifest_pattern_matches_a_file() -> None:
    import fnmatch

    files = [
        p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*") if p.is_file() and ".venv" not in p.parts
    ]
    for line in (ROOT / "MANIFEST.in").read_text().splitlines():
        words = line.split()
        if not words or words[0] == "prune":
            continue
        if words[0] == "include":
            pats = words[1:]
        elif words[0] == "recursive-include":
            pats = [f"{words[1]}/*{p}" if p.startswith("*") else f"{words[1]}/*/{p}" for p in words[2:]]
        elif words[0] == "graft":
            pats = [f"{words[1]}/*"]
        else:
            raise AssertionError(f"unknown MANIFEST.in command {words[0]}")
        for pat in pats:
            assert any(fnmatch.fnmatch(f, pat) for f in files), f"{line!r}: {pat} matches nothing"
