"""Trained policies at the table server: the host offers checkpoints by name (``serve --learned
NAME=PATH``), clients pick a name, the seat plays the network, and a restart keeps it."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("starlette")
np = pytest.importorskip("numpy")

import server_kit as kit  # noqa: E402

from hucklebuck.games import DeerParkGame, HucklebuckGame  # noqa: E402
from hucklebuck.learn import Network  # noqa: E402
from hucklebuck.learn.player import LearnedPlayer  # noqa: E402
from hucklebuck.packs import GameKind  # noqa: E402
from hucklebuck.server import bots  # noqa: E402
from hucklebuck.server.app import create_app  # noqa: E402
from hucklebuck.server.learned import LearnedOfferError, load_offers  # noqa: E402
from hucklebuck.words.people import computer_label  # noqa: E402

pytestmark = pytest.mark.single_core

PATIENT = 60.0
"""A person's grace in the restart test: no takeover between leaving and the restart."""


def _save(path: str, kind: GameKind, players: int, seed: int = 1) -> str:
    game = (DeerParkGame if kind is GameKind.DEERPARK else HucklebuckGame)(players, seed=0)
    Network.new(kind, players, game.num_distinct_actions(), hidden=(8, 8), seed=seed).save(path)
    return path


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A small, untrained Deer Park network for four players (cheap: what is tested is the seating)."""
    return _save(str(tmp_path_factory.mktemp("policy") / "dp4.npz"), GameKind.DEERPARK, 4)


def _offered(policy: str, **changes: Any) -> Any:
    return kit.config(learned=(("dp4", policy),), **changes)


def _notices(m: dict[str, Any]) -> list[str]:
    return list(m["view"].get("notices") or m.get("notices") or [])


def test_the_lobby_lists_an_offered_policy_for_its_game_and_size(policy: str) -> None:
    with kit.client(_offered(policy)) as c:
        games = {g["name"]: g for g in c.get("/api/games").json()["games"]}
    dp = [p for p in games["deerpark"]["computer_players"] if p["name"] == "dp4"]
    assert dp == [
        {
            "name": "dp4",
            "label": "trained (dp4)",
            "description": "plays a policy trained with python -m hucklebuck.learn,"
            " offered by this server as dp4",
            "players": 4,
        }
    ]
    assert all(p["name"] != "dp4" for p in games["hucklebuck"]["computer_players"])
    assert "path" not in str(dp) and policy not in str(games)  # the host's file is never shown
    assert computer_label("dp4") == "computer: trained (dp4)"


def test_a_table_with_trained_policy_seats_plays_a_whole_game(policy: str) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "computer", "player": "dp4"},
             {"kind": "computer", "player": "random"}, {"kind": "computer", "player": "dp4"}]  # fmt: skip
    reports: list[str] = []
    with kit.client(_offered(policy), report=reports.append) as c:
        t = kit.new_table(c, "deerpark", seats)
        assert [s["player"] for s in t["seats"]] == [None, "dp4", "random", "dp4"]
        notices: list[str] = []
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            while True:
                m = kit.receive_state(ws)
                view = m["view"]
                notices += _notices(m)
                if view["game_over"]:
                    break
                if view["to_act"] == 0 and view["legal"]:
                    ws.send_json({"type": "act", "action": view["legal"][0]["id"], "seq": m["seq"]})
        summary = c.get(f"/api/tables/{t['id']}").json()
    assert summary["over"] and summary["winners"] == view["game_over"]["winners"]
    shown = {s["seat"]: (s["player"], s["player_text"]) for s in view["seats"]}
    assert shown[1] == shown[3] == ("dp4", "computer: trained (dp4)")
    assert not [n for n in notices if "could not decide" in n or "player plays" in n], notices
    assert not reports, reports


def test_a_seat_of_a_policy_plays_the_networks_move(policy: str) -> None:
    # The pool's decision for a "dp4" seat is the network's, read through the one tensor function.
    offers = load_offers([("dp4", policy)])
    net = Network.load(policy)
    game = DeerParkGame(4, seed=11)
    for _ in range(12):
        obs = game.observation(game.to_act)
        action, note = bots.choose_or_fall_back("dp4", GameKind.DEERPARK, 5, obs, offers=offers)
        assert note is None and action == LearnedPlayer(net).choose(obs)
        game.apply(action)


@pytest.mark.parametrize(
    ("player", "words"),
    [
        ("/tmp/dp4.npz", "never a file"),
        ("../weights/dp4.npz", "never a file"),
        ("dp5", "unknown computer player 'dp5' (use mc, mc-solver, heuristic, random, mc-blind; "
         "or a trained policy this server offers: dp4, learned-dp4)"),
        ("learned", "unknown computer player 'learned'"),
        (["dp4"], "player is the name of a computer player"),
    ],
)  # fmt: skip
def test_a_client_names_only_a_policy_the_server_offers(policy: str, player: Any, words: str) -> None:
    with kit.client(_offered(policy)) as c:
        seats = kit.humans_and_bots(1, 2) + [{"kind": "computer", "player": player}]
        r = c.post("/api/tables", json={"game": "deerpark", "players": 4, "seats": seats})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
        assert words in r.json()["error"]["message"], r.json()
        assert c.app_ref.state.manager.tables == {}  # nothing made


def test_a_policy_sits_only_at_its_own_game_and_table_size(policy: str) -> None:
    with kit.client(_offered(policy)) as c:
        three = c.post("/api/tables", json={"game": "deerpark", "players": 3,
                                            "seats": kit.humans_and_bots(1, 2, "dp4")})  # fmt: skip
        assert three.status_code == 400
        said = three.json()["error"]["message"]
        assert "seat 1: the trained policy 'dp4' plays Deer Park Euchre with 4 players, not Deer Park" in said
        assert said.endswith("not Deer Park Euchre with 3")
        other = c.post("/api/tables", json={"game": "hucklebuck", "players": 4,
                                            "seats": kit.humans_and_bots(1, 3, "dp4")})  # fmt: skip
        assert other.status_code == 400 and "not Hucklebuck with 4" in other.json()["error"]["message"]
    with kit.client() as c:  # a server offering nothing knows no "dp4"
        r = c.post(
            "/api/tables", json={"game": "deerpark", "players": 4, "seats": kit.humans_and_bots(1, 3, "dp4")}
        )
        assert r.status_code == 400 and "unknown computer player 'dp4'" in r.json()["error"]["message"]


def _until_to_act(ws: Any, seat: int) -> dict[str, Any]:
    m = kit.receive_state(ws)
    while m["view"]["to_act"] != seat or not m["view"]["legal"]:
        m = kit.receive_state(ws)
    return m


def test_a_restart_keeps_a_policy_seat_and_says_so_when_the_policy_is_gone(
    policy: str, tmp_path: Any
) -> None:
    db = str(tmp_path / "tables.sqlite")
    with kit.client(_offered(policy, db=db, grace=PATIENT)) as c:
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3, "dp4"))
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            before = _until_to_act(ws, 0)
    # Restarted with the same offer: the seats are still the policy's, and they play it.
    reports: list[str] = []
    with kit.client(_offered(policy, db=db, grace=PATIENT), report=reports.append) as c:
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = _until_to_act(ws, 0)
            assert m["seq"] == before["seq"]
            assert [s["player"] for s in m["view"]["seats"]][1:] == ["dp4"] * 3
            ws.send_json({"type": "act", "action": m["view"]["legal"][0]["id"], "seq": m["seq"]})
            again = _until_to_act(ws, 0)  # the policy's seats moved round to the person again
            assert again["seq"] > m["seq"]
            assert not [n for n in _notices(again) if "player plays" in n or "could not decide" in n]
    assert not reports, reports
    # Restarted without it: the server says so, to its operator and at the table; the heuristic
    # player keeps the seats going, and the seats still name the policy for a later restart.
    reports = []
    with kit.client(kit.config(db=db, grace=PATIENT), report=reports.append) as c:
        with c.websocket_connect(kit.ws_url(t, 0)) as ws:
            m = _until_to_act(ws, 0)
            said = [n for n in _notices(m) if "dp4" in n]
            assert said[-1].startswith("Computer 2, Computer 3 and Computer 4: "), said
            assert said and "the trained policy 'dp4' is not offered by this server, so the heuristic " \
                "player plays them" in said[-1], _notices(m)  # fmt: skip
            assert [s["player"] for s in m["view"]["seats"]][1:] == ["dp4"] * 3
            ws.send_json({"type": "act", "action": m["view"]["legal"][0]["id"], "seq": m["seq"]})
            assert _until_to_act(ws, 0)["seq"] > m["seq"]
    assert reports == [
        f"table {t['id']}, seat 2, seat 3 and seat 4: the trained policy 'dp4' is not offered by this server"
        " (start it with --learned dp4=PATH); the heuristic player plays them"
    ]


def test_every_offered_checkpoint_is_checked_when_the_server_starts(policy: str, tmp_path: Any) -> None:
    missing = str(tmp_path / "gone.npz")
    with pytest.raises(LearnedOfferError, match=f"trained policy 'dp4': there is no file {missing}"):
        create_app(kit.config(learned=(("dp4", missing),)))
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(b"PK\x03\x04 not a checkpoint at all")
    with pytest.raises(
        LearnedOfferError, match=f"{damaged} is not a checkpoint of python -m hucklebuck.learn"
    ):
        create_app(kit.config(learned=(("dp4", str(damaged)),)))
    text = tmp_path / "notes.npz"  # not an archive at all
    text.write_text("just some words\n")
    with pytest.raises(LearnedOfferError, match=r"is not a checkpoint .* \(not an .npz archive\)"):
        load_offers([("dp4", str(text))])
    np.savez(str(tmp_path / "other.npz"), weights=np.zeros(3))
    with pytest.raises(
        LearnedOfferError, match=r"damaged or of another kind: meta is not a file in the archive\)"
    ):
        load_offers([("dp4", str(tmp_path / "other.npz"))])
    net = Network.load(policy)
    net.params["w1"] = net.params["w1"][:10]
    net.save(str(tmp_path / "cut.npz"))
    with pytest.raises(LearnedOfferError, match="does not fit Deer Park Euchre with 4 players"):
        load_offers([("dp4", str(tmp_path / "cut.npz"))])
    with pytest.raises(LearnedOfferError, match="given to two trained policies"):
        load_offers([("dp4", policy), ("dp4", policy)])
    with pytest.raises(LearnedOfferError, match="name of a built-in computer player"):
        load_offers([("heuristic", policy)])
    with pytest.raises(LearnedOfferError, match="cannot name a trained policy"):
        load_offers([("Dp 4", policy)])
    offers = load_offers(
        [("dp4", policy), ("other", _save(str(tmp_path / "h3.npz"), GameKind.HUCKLEBUCK, 3))]
    )
    assert {(o.name, o.game, o.players) for o in offers.values()} == {
        ("dp4", GameKind.DEERPARK, 4),
        ("other", GameKind.HUCKLEBUCK, 3),
        ("learned-dp4", GameKind.DEERPARK, 4),  # shipped with the library, offered by every server
    }


def test_serve_says_which_checkpoint_is_wrong(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from hucklebuck.cli import main

    missing = str(tmp_path / "gone.npz")
    assert main(["serve", "--db", ":memory:", "--port", "0", "--learned", f"dp4={missing}"]) == 2
    err = capsys.readouterr().err
    assert f"trained policy 'dp4': there is no file {missing}" in err and "Traceback" not in err
    with pytest.raises(SystemExit):
        main(["serve", "--port", "0", "--learned", "just-a-path.npz"])
    assert "say NAME=PATH" in capsys.readouterr().err


def test_without_numpy_offering_a_policy_names_the_extra(policy: str) -> None:
    # NumPy made unimportable: the server without offers imports no NumPy, and an offer says what to install.
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import hucklebuck, hucklebuck.server.app, hucklebuck.server.learned\n"
        "from hucklebuck.players import make_player\n"
        "try:\n"
        f"    make_player('learned', 'deerpark', path={policy!r})\n"
        "except ImportError as exc:\n"
        "    print(exc, file=sys.stderr)\n"
        "from hucklebuck.cli import main\n"
        f"sys.exit(main(['serve', '--db', ':memory:', '--port', '0', '--learned', 'dp4={policy}']))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env=os.environ | {"PYTHONWARNINGS": "ignore"})  # fmt: skip
    assert out.returncode == 2, out.stderr
    assert "the 'learned' player needs NumPy: pip install 'hucklebuck[learn]'" in out.stderr
    assert "offering a trained policy needs NumPy, which is not installed: pip install 'hucklebuck[learn]'" \
        in out.stderr and "Traceback" not in out.stderr  # fmt: skip
    clean = subprocess.run(
        [sys.executable, "-c", "import sys, hucklebuck.server.app, hucklebuck.server.learned; "
         "assert 'numpy' not in sys.modules, 'numpy imported'"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert clean.returncode == 0, clean.stderr


def test_weights_shipped_with_the_library_are_a_player_kind_everywhere(
    policy: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A file learned-NAME.npz in the package's weights folder is the kind learned-NAME.
    import shutil

    import hucklebuck.players as players
    from hucklebuck.players import make_player

    assert set(players.shipped_learned_kinds()) == {"learned-dp4"}  # the library's own
    shutil.copy(policy, tmp_path / "learned-dp4.npz")
    monkeypatch.setattr(players, "SHIPPED_WEIGHTS", str(tmp_path))
    assert players.shipped_learned_kinds() == {"learned-dp4": str(tmp_path / "learned-dp4.npz")}
    assert isinstance(make_player("learned-dp4", "deerpark"), LearnedPlayer)
    with kit.client() as c:  # offered without --learned
        games = {g["name"]: g for g in c.get("/api/games").json()["games"]}
        assert "learned-dp4" in [p["name"] for p in games["deerpark"]["computer_players"]]
        t = kit.new_table(c, "deerpark", kit.humans_and_bots(1, 3, "learned-dp4"))
        assert [s["player"] for s in t["seats"]][1:] == ["learned-dp4"] * 3
    with pytest.raises(LearnedOfferError, match="kept for weights shipped with the library"):
        load_offers([("learned-mine", policy)])


def test_the_shipped_policy_plays_deer_park_at_four_and_says_what_it_is() -> None:
    from hucklebuck.games import DeerParkGame
    from hucklebuck.players import make_player, shipped_learned_kinds
    from hucklebuck.words.people import computer_label

    path = shipped_learned_kinds()["learned-dp4"]
    player = make_player("learned-dp4", "deerpark")
    assert isinstance(player, LearnedPlayer) and player.network.meta["players"] == 4
    training = player.network.meta["training"]
    assert training["cpu_seconds"] <= 3600 and training["evaluation"]["low"] > 0.5
    assert "/tmp" not in open(path, "rb").read().decode("latin-1")  # no path of the machine it was made on
    assert computer_label("learned-dp4") == "computer: trained"
    game = DeerParkGame(4, seed=5)
    while not game.is_over:
        seat = game.to_act
        if seat is None:
            game.next_hand()
            continue
        action = player.choose(game.observation(seat))
        assert game.is_legal(action)
        game.apply(action)
    with kit.client() as c:  # every server with NumPy offers it, in words a person reads
        games = {g["name"]: g for g in c.get("/api/games").json()["games"]}
        offered = {p["name"]: p for p in games["deerpark"]["computer_players"]}
        assert offered["learned-dp4"]["label"] == "trained"
