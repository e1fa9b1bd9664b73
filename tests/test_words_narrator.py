"""One narrator below the terminal and the browser (issue 58, point 12), and the words it keeps
once for every surface: seats counted from 1 for people, one default-name rule, one friendly
name per computer player kind and per variant option."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from hucklebuck.cli.common import GAMES
from hucklebuck.players import PLAYER_KINDS
from hucklebuck.words.people import (
    COMPUTER_KINDS,
    OPTION_LABELS,
    computer_label,
    default_name,
    seat_label,
    short_name,
)

_IMPORTED = """
import json, sys
import hucklebuck.server.app, hucklebuck.server.views, hucklebuck.server.tables, hucklebuck.server.hints
print(json.dumps(sorted(m for m in sys.modules if m.startswith(("hucklebuck.cli.", "hucklebuck.words")))))
"""


def test_the_server_reads_its_words_from_the_narrator_not_from_the_terminal() -> None:
    pytest.importorskip("starlette", reason="the server's app needs the 'server' extra")
    out = subprocess.run([sys.executable, "-c", _IMPORTED], capture_output=True, text=True, check=True).stdout
    loaded = set(json.loads(out))
    assert "hucklebuck.words.narrator" in loaded and "hucklebuck.words.moves" in loaded
    assert not loaded & {"hucklebuck.cli.table", "hucklebuck.cli.human"}, loaded


def test_the_terminal_and_the_server_share_one_narrator() -> None:
    from hucklebuck.cli import human, table
    from hucklebuck.server import listing, moves, tables, views
    from hucklebuck.words import lines, narrator
    from hucklebuck.words import moves as word_moves

    assert table.Table is narrator.Narrator is tables.Narrator is views.Narrator
    assert human.move_text is word_moves.move_text is listing.move_text is moves.move_text
    assert human.parse_answer is word_moves.parse_answer is moves.parse_answer
    assert table.describe_action is lines.describe_action is views.describe_action
    assert table.trick_line is lines.trick_line is views.trick_line


def test_people_count_seats_from_one_and_every_default_name_follows_one_rule() -> None:
    assert seat_label(0) == "seat 1" and seat_label(3, capital=True) == "Seat 4"
    assert default_name(0) == "Player 1" and default_name(2, "computer") == "Computer 3"
    assert short_name(0) == "P1"
    from hucklebuck.server.catalog import games_listing, read_table_request

    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer"}]
    req = read_table_request({"game": "hucklebuck", "players": 3, "seats": seats}, 24)
    assert [s.name for s in req.seats] == ["Player 1", "Player 2", "Computer 3"]
    names = games_listing()["default_names"]
    assert names["human"][:3] == ["Player 1", "Player 2", "Player 3"]
    assert names["computer"][2] == "Computer 3"


def test_every_computer_kind_and_option_has_one_friendly_name() -> None:
    assert set(COMPUTER_KINDS) == set(PLAYER_KINDS)
    labels = [words[0] for words in COMPUTER_KINDS.values()]
    assert len(set(labels)) == len(labels)
    assert all("monte carlo" not in " ".join(w).lower() for w in COMPUTER_KINDS.values())
    assert computer_label("heuristic") == "computer: quick"
    from hucklebuck.server.catalog import games_listing

    for game in games_listing()["games"]:
        assert [c["label"] for c in game["computer_players"]] == [COMPUTER_KINDS[k][0] for k in PLAYER_KINDS]
        for option in game["options"]:
            assert option["label"] == OPTION_LABELS[option["name"]], option["name"]
            assert "_" not in option["label"]
    every = {info.name for spec in GAMES.values() for info in spec.options_type.describe()}
    assert every == set(OPTION_LABELS)


# ------------------------------------------------------------------ point 9: the terminal in one voice
def _person(game: object, seat: int, answers: list[str]) -> tuple[object, io.StringIO]:
    from hucklebuck.cli.common import Output
    from hucklebuck.cli.human import Human
    from hucklebuck.cli.table import Table

    buf = io.StringIO()
    say = Output(buf, ascii_only=False)
    names = ["You" if s == seat else f"P{s + 1}" for s in range(game.players)]  # type: ignore[attr-defined]
    queue = list(answers)

    def read(prompt: str) -> str | None:
        say(prompt + ":")
        return queue.pop(0) if queue else None

    table = Table(game, names, say, show_all=False, private=[seat])  # type: ignore[arg-type]
    return Human(table, say, read, save=lambda path: ""), buf


def test_a_card_typed_in_the_auction_was_understood_and_is_not_now() -> None:
    from hucklebuck.cli.human import Quit
    from hucklebuck.games import HucklebuckGame

    game = HucklebuckGame(4, seed=2)
    seat = game.to_act
    person, buf = _person(game, seat, ["QH", "?"])
    try:
        person.ask(seat)  # type: ignore[attr-defined]
    except Quit:
        pass
    out = buf.getvalue()
    assert "Not now: no card is played now, during the auction" in out
    assert "I can't read 'QH'" not in out
    dealer = "you deal" if game.dealer == seat else f"P{game.dealer + 1} deals"
    assert f"hand 1, the auction; {dealer} ---" in out  # the turn's header names the dealer
    assert "'bid 3'" in out  # Hucklebuck has bids: its help shows one


@pytest.mark.parametrize("game_name", ["deerpark", "buckem"])
def test_the_help_shows_no_bid_in_a_game_without_bids(game_name: str) -> None:
    from hucklebuck.cli.human import Quit

    spec = GAMES[game_name]
    game = spec.game_type(5, seed=3)
    seat = game.to_act
    person, buf = _person(game, seat, ["?"])
    try:
        person.ask(seat)  # type: ignore[attr-defined]
    except Quit:
        pass
    out = buf.getvalue()
    assert "Answer with a move's number" in out and "'bid 3'" not in out


def test_scoring_lines_say_tricks_in_one_voice() -> None:
    from hucklebuck.words.lines import score_reason

    assert score_reason("took 0: burned, pays 3 (S3)") == "took no trick: burned, pays 3 (S3)"
    assert score_reason("took 1 tricks: wins 4 (S3)") == "took 1 trick: wins 4 (S3)"
    assert score_reason("set: bid 3, took 2: -3") == "set: bid 3, took 2 tricks: -3"
    assert score_reason("the maker needed 3 and took 0: +5") == "the maker needed 3 and took no trick: +5"
    assert score_reason("stayed and took no trick: -5") == "stayed and took no trick: -5"


def test_the_options_command_gives_each_option_its_friendly_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from hucklebuck.cli import main

    assert main(["options", "deerpark"]) == 0
    out = capsys.readouterr().out
    assert "round2_excludes_turned_suit   (Round 2 may not call the turned suit)" in out


# ------------------------------------------------------------------ point 10: simulate names its policy
@pytest.mark.parametrize("game", ["hucklebuck", "deerpark", "buckem"])
def test_simulate_names_the_fixed_policy_behind_its_numbers(
    capsys: pytest.CaptureFixture[str], game: str
) -> None:
    from hucklebuck.cli import main

    assert main(["simulate", game, "--hands", "50"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "These numbers describe the fixed simulation policy, not the game:" in out
    assert "playout policy" in out


def test_a_tournament_by_default_is_a_first_look_of_about_two_minutes() -> None:
    import argparse

    from hucklebuck.cli import tournament

    parser = argparse.ArgumentParser()
    tournament.register(parser.add_subparsers())
    args = parser.parse_args(["tournament", "hucklebuck"])
    assert args.games == tournament.DEFAULT_GAMES == 240  # 0.47 s of CPU a Hucklebuck game: ~2 min
    assert "about two minutes" in tournament.DESCRIPTION


def test_ctrl_c_in_a_tournament_prints_the_table_of_the_deals_finished(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from hucklebuck import tournament
    from hucklebuck.cli import main

    real = tournament._deal_scores

    def deal(spec: object, index: int) -> object:
        if index == 8:  # the third chunk of four deals: Ctrl-C comes in the middle of the run
            raise KeyboardInterrupt
        return real(spec, index)  # type: ignore[arg-type]

    monkeypatch.setattr(tournament, "_deal_scores", deal)
    with pytest.raises(tournament.TournamentStopped) as stop:
        tournament.run_tournament("hucklebuck", players=3, bots=("heuristic", "random"), games=600)
    assert stop.value.result.deals == 8 and isinstance(stop.value, KeyboardInterrupt)
    code = main(["tournament", "hucklebuck", "-n", "3", "--bots", "heuristic,random", "--games", "600"])
    out, err = capsys.readouterr()
    assert code == 130
    assert "Stopped (Ctrl-C) after 8 deals" in err
    assert "share of games won" in out and "8 deals" in out


def test_ctrl_c_in_a_board_match_prints_the_table_of_the_deals_finished(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from hucklebuck import boards
    from hucklebuck.cli import main

    real = boards.deal_boards

    def deal(spec: object, index: int) -> object:
        if index == 4:  # the second chunk of four deals
            raise KeyboardInterrupt
        return real(spec, index)  # type: ignore[arg-type]

    monkeypatch.setattr(boards, "deal_boards", deal)
    args = ["tournament", "deerpark", "-n", "3", "--bots", "heuristic,random", "--games", "600", "--boards"]
    assert main(args) == 130
    out, err = capsys.readouterr()
    assert "Stopped (Ctrl-C) after 4 deals" in err and "a board match" in out


def test_a_deer_park_hint_to_make_trump_states_the_goal_once_with_its_risk() -> None:
    from hucklebuck.actions import Order
    from hucklebuck.games import DeerParkGame
    from hucklebuck.packs import GameKind
    from hucklebuck.players.hints import _why

    game = DeerParkGame(4, seed=5)
    obs = game.observation(game.to_act)
    text = _why(obs, GameKind.DEERPARK, Order(obs.seat))
    assert text.count("playing for") == 1  # the goal, once
    assert "ordering up and missing your three tricks moves you 5 toward it" in text or (
        "ordering up means taking three tricks" in text and "5 further from it" in text
    ), text


def test_every_named_option_value_has_a_friendly_name_the_lobby_gets() -> None:
    from hucklebuck.server.catalog import games_listing
    from hucklebuck.words.people import CHOICE_LABELS

    named = {
        (info.name, v)
        for spec in GAMES.values()
        for info in spec.options_type.describe()
        if info.value_docs
        for v in info.choices
    }
    assert named == set(CHOICE_LABELS)
    for game in games_listing()["games"]:
        for option in game["options"]:
            for value, label in (option.get("choice_labels") or {}).items():
                assert label == CHOICE_LABELS[(option["name"], value)] and "_" not in label
