"""Cases of the protocol itself: raw lines (``protocol/framing``), the check of
``op`` (``protocol/ops``) and of ``game`` (``protocol/games``), and, per game,
the request shape (``<game>/shape``), the order of checks (``<game>/order``)
and the documented defaults (``<game>/defaults``).

Every expected answer here is the protocol page's: the error codes of
"Requests and answers" and "The order of checks", and for the defaults the
answer of the same request with the default written out (the packs and legal
plays from ``reference.py``).
"""

from __future__ import annotations

import base64
import json
from typing import Any

from reference import buckem_pack, deerpark_pack, full_pack, legal, sort_cards, winner

from .buckem import TOP, bk, bk_deal
from .common import add, err
from .deerpark import DPB, dp, dp_deal
from .hucklebuck import SUITED, hb, hb_deal

P = "protocol"
FRAMING = "protocol: transport and framing: "
REQ = "protocol: requests and answers: "
ORDER = "protocol: the order of checks: "
NULL_ID = {"error": {"code": "bad_request"}}


def add_raw(
    slug: str,
    title: str,
    source: str,
    line: str | bytes,
    expect: Any = NULL_ID,
    *,
    answer_id: Any = None,
    no_answer: bool = False,
) -> None:
    """A raw-line case: ``line`` is sent as it is (bytes that are not UTF-8 go as base64)."""
    from .common import CASES

    case: dict[str, Any] = {"id": f"{P}/framing/{slug}", "title": title, "source": [source], "decisions": []}
    if isinstance(line, bytes):
        case["raw_b64"] = base64.b64encode(line).decode("ascii")
    else:
        case["raw"] = line
    if no_answer:
        case["no_answer"] = True
    else:
        case["expect"] = expect
        if answer_id is not None:
            case["answer_id"] = answer_id
    CASES[P].setdefault("framing", []).append(case)


def framing() -> None:
    blank = FRAMING + "a line that is empty or holds only white space gets no answer"
    add_raw("empty-line", "an empty line gets no answer", blank, "", no_answer=True)
    add_raw("white-space-line", "a line of spaces and a tab gets no answer", blank, "  \t  ", no_answer=True)
    utf8 = FRAMING + "a line that is not UTF-8 gets bad_request with id null"
    for slug, junk in [
        ("not-utf8-byte-ff", b"\xff"),
        ("not-utf8-lone-continuation", b"\x80"),
        ("not-utf8-overlong-slash", b"\xc0\xaf"),
        ("not-utf8-surrogate", b"\xed\xa0\x80"),
        ("not-utf8-truncated", b"\xe2\x82"),
    ]:
        line = b'{"id": "' + f"{P}/framing/{slug}".encode() + b'", "op": "hello", "note": "' + junk + b'"}'
        add_raw(slug, f"a hello whose note holds the bytes {junk.hex(' ')}: bad_request, id null", utf8, line)
    not_json = FRAMING + "a line that is not JSON gets bad_request with id null"
    for slug, line in [
        ("not-json-text", "this is not json"),
        ("not-json-truncated", '{"id": "protocol/framing/not-json-truncated", "op": "hello"'),
        ("not-json-single-quotes", "{'id': 'x', 'op': 'hello'}"),
        ("not-json-trailing-comma", '{"id": "protocol/framing/not-json-trailing-comma", "op": "hello",}'),
        ("not-json-two-values", '{"op": "hello"} {"op": "hello"}'),
    ]:
        add_raw(slug, f"{line[:40]!s}: bad_request, id null", not_json, line)
    standard = (
        FRAMING + "a line that is not standard JSON (NaN, Infinity, 1e400) gets bad_request with id null"
    )
    for slug, value in [
        ("nan", "NaN"),
        ("infinity", "Infinity"),
        ("minus-infinity", "-Infinity"),
        ("number-1e400", "1e400"),
        ("number-minus-1e400", "-1e400"),
    ]:
        line = f'{{"id": "{P}/framing/{slug}", "op": "hello", "n": {value}}}'
        add_raw(slug, f"a hello holding {value}: bad_request, id null", standard, line)
    deep = FRAMING + "a line nested deeper than the adapter can read gets bad_request with id null"
    depth = 50_000
    add_raw(
        "deep-list",
        f"a list nested {depth} deep (unreadable, or not an object): bad_request, id null",
        deep,
        "[" * depth + "]" * depth,
    )
    add_raw(
        "deep-inside-object-without-op",
        f"an object without op holding a list nested {depth} deep: bad_request, id null",
        deep,
        '{"x": ' + "[" * depth + "]" * depth + "}",
    )
    shape = FRAMING + "a line that is not an object with an op gets bad_request with id null"
    for slug, line in [
        ("list", '[{"op": "hello"}]'),
        ("string", '"hello"'),
        ("number", "5"),
        ("null", "null"),
        ("true", "true"),
        ("missing-op", '{"id": "protocol/framing/missing-op"}'),
        ("missing-op-with-game", '{"id": "protocol/framing/missing-op-with-game", "game": "hucklebuck"}'),
    ]:
        add_raw(slug, f"{line}: bad_request, id null", shape, line)
    echo = REQ + "the answer echoes the id unchanged (null when the request had none)"
    add_raw("no-id", "a hello without id: answered, id null", echo, '{"op": "hello"}', {"protocol": 3})
    add_raw(
        "id-object",
        "an id may be any JSON value: an object is echoed unchanged",
        echo,
        '{"op": "hello", "id": {"a": [1, "b", null]}}',
        {"protocol": 3},
        answer_id={"a": [1, "b", None]},
    )
    add_raw(
        "id-number", "a number id is echoed", echo, '{"op": "hello", "id": 7}', {"protocol": 3}, answer_id=7
    )
    add_raw(
        "surrounding-white-space",
        "white space around the object is JSON too: answered",
        FRAMING + "requests are JSON objects, one per line",
        ' \t{"op": "hello", "id": "x"}  ',
        {"protocol": 3},
        answer_id="x",
    )


def ops() -> None:
    unknown = REQ + "an unknown op is unsupported"
    for slug, op in [
        ("unknown-op", "shuffle"),
        ("to-string", "toString"),
        ("constructor", "constructor"),
        ("dunder-class", "__class__"),
        ("dunder-proto", "__proto__"),
        ("has-own-property", "hasOwnProperty"),
        ("value-of", "valueOf"),
        ("hello-upper-case", "HELLO"),
        ("op-number", 5),
        ("op-null", None),
        ("op-list", ["hello"]),
    ]:
        add(
            P,
            "ops",
            slug,
            f"op {json.dumps(op)} is not an operation of the protocol: unsupported, id echoed",
            [unknown],
            [],
            {"op": op},
            err("unsupported"),
        )
    add(
        P,
        "ops",
        "op-before-game",
        "an unknown op with a game that is not a string: the op decides (unsupported)",
        [ORDER + "the op is checked before the game"],
        [],
        {"op": "shuffle", "game": 5},
        err("unsupported"),
    )


def games() -> None:
    plays = {"trump": "S", "plays": ["AH", "2S"]}
    must = ORDER + "the game must be present and a string (bad_request)"
    for slug, extra in [
        ("missing-game", {}),
        ("game-number", {"game": 1}),
        ("game-null", {"game": None}),
        ("game-list", {"game": ["hucklebuck"]}),
        ("game-true", {"game": True}),
    ]:
        add(
            P,
            "games",
            slug,
            f"a trick_winner request with {'game ' + json.dumps(extra['game']) if extra else 'no game'}: "
            "bad_request",
            [must],
            [],
            {"op": "trick_winner", **extra, **plays},
            err("bad_request"),
        )
    known = ORDER + "an unknown game is unsupported"
    for slug, game in [("unknown-game", "chess"), ("game-capitalised", "Hucklebuck"), ("game-empty", "")]:
        add(
            P,
            "games",
            slug,
            f'game "{game}" is not a game of the protocol: unsupported',
            [known],
            [],
            {"op": "trick_winner", "game": game, **plays},
            err("unsupported"),
        )
    add(
        P,
        "games",
        "game-before-shape",
        "an unknown game and an unreadable card: the game decides (unsupported)",
        [ORDER + "the game is checked before the rest of the request"],
        [],
        {"op": "trick_winner", "game": "chess", "trump": "S", "plays": ["10H", "AS"]},
        err("unsupported"),
    )
    add(
        P,
        "games",
        "missing-game-before-shape",
        "no game and no trump: the game decides, with bad_request (an adapter must not say unsupported)",
        [must],
        [],
        {"op": "legal_plays", "hand": ["AS"]},
        err("bad_request"),
    )


def shape(game: str) -> None:
    missing = REQ + "a missing field or one of the wrong JSON type is bad_request"
    tw = {"op": "trick_winner", "game": game, "trump": "S", "plays": ["AH", "2S"]}
    lp = {"op": "legal_plays", "game": game, "trump": "S", "hand": ["AH", "2S"], "trick": ["KH"]}
    for slug, req in [
        ("trick-missing-trump", {k: v for k, v in tw.items() if k != "trump"}),
        ("trick-trump-lower-case", tw | {"trump": "s"}),
        ("trick-trump-number", tw | {"trump": 3}),
        ("trick-trump-two-letters", tw | {"trump": "SS"}),
        ("trick-missing-plays", {k: v for k, v in tw.items() if k != "plays"}),
        ("trick-plays-string", tw | {"plays": "AH 2S"}),
        ("legal-missing-trump", {k: v for k, v in lp.items() if k != "trump"}),
        ("legal-missing-hand", {k: v for k, v in lp.items() if k != "hand"}),
        ("legal-trick-null", lp | {"trick": None}),
        ("deck-missing-players", {"op": "deck", "game": game}),
        ("deck-players-string", {"op": "deck", "game": game, "players": "5"}),
        ("deck-players-true", {"op": "deck", "game": game, "players": True}),
        ("deck-players-float", {"op": "deck", "game": game, "players": 5.5}),
        ("deck-options-list", {"op": "deck", "game": game, "players": 5, "options": []}),
    ]:
        add(
            game,
            "shape",
            slug,
            f"{slug.replace('-', ' ')}: bad_request",
            [missing],
            [],
            req,
            err("bad_request"),
        )
    pack = full_pack() if game != "deerpark" else deerpark_pack(7)
    eight = [c for c in pack if c[1] != "S"][:8]
    nine = eight + ["AS"]
    add(
        game,
        "shape",
        "trick-eight-cards",
        "a trick of eight cards, the most there can be: answered",
        ["protocol: trick_winner: plays holds 2 to 8 cards"],
        [],
        {"op": "trick_winner", "game": game, "trump": "S", "plays": eight},
        winner(game, "S", eight),
    )
    add(
        game,
        "shape",
        "trick-nine-cards",
        "a trick of nine cards: bad_request",
        ["protocol: trick_winner: plays holds 2 to 8 cards"],
        [],
        {"op": "trick_winner", "game": game, "trump": "S", "plays": nine},
        err("bad_request"),
    )
    hand = ["AS", "KS"]
    add(
        game,
        "shape",
        "legal-trick-seven-cards",
        "seven cards already on the table, the most there can be: answered",
        ["protocol: legal_plays: trick holds 0 to 7 cards"],
        [],
        {"op": "legal_plays", "game": game, "trump": "S", "hand": hand, "trick": eight[:7]},
        legal(game, "S", hand, eight[:7]),
    )
    add(
        game,
        "shape",
        "legal-trick-eight-cards",
        "eight cards already on the table: bad_request",
        ["protocol: legal_plays: trick holds 0 to 7 cards"],
        [],
        {"op": "legal_plays", "game": game, "trump": "S", "hand": hand, "trick": eight},
        err("bad_request"),
    )
    add(
        game,
        "shape",
        "legal-empty-hand",
        "a hand of no cards: bad_request",
        ["protocol: legal_plays: hand holds 1 to 5 cards"],
        [],
        {"op": "legal_plays", "game": game, "trump": "S", "hand": [], "trick": ["KH"]},
        err("bad_request"),
    )


def defaults(game: str) -> None:
    hand = ["QH", "AS", "2C", "KS"]
    for slug, trump in [("legal-trick-default", "S"), ("legal-trick-default-hearts", "H")]:
        add(
            game,
            "defaults",
            slug,
            "legal_plays without trick: the trick defaults to [] (a lead: every card of the hand, sorted)",
            ["protocol: legal_plays: trick defaults to []"],
            [],
            {"op": "legal_plays", "game": game, "trump": trump, "hand": hand},
            legal(game, trump, hand, []),
        )
    n = {"hucklebuck": 4, "buckem": 6, "deerpark": 4}[game]
    cards = (
        full_pack()
        if game == "hucklebuck"
        else buckem_pack(n, False)
        if game == "buckem"
        else deerpark_pack(n)
    )
    opts = "protocol: options: a missing or null options means every default"
    for slug, extra in [("deck-options-missing", {}), ("deck-options-null", {"options": None})]:
        add(
            game,
            "defaults",
            slug,
            f"deck at {n} players with {'no options' if not extra else 'options null'}: the default pack",
            [opts],
            [],
            {"op": "deck", "game": game, "players": n, **extra},
            sort_cards(cards),
        )
    req = first_decision(game)
    add(
        game,
        "defaults",
        "play-without-start-options-actions",
        "a play request without options or start, its hand without actions: the default position, cut at the "
        "first decision",
        ["protocol: play: options, start and actions default to {}, {} and []"],
        [],
        req,
        expected_first_cut(game),
    )


def first_decision(game: str) -> dict[str, Any]:
    deal = (
        hb_deal(SUITED)
        if game == "hucklebuck"
        else bk_deal(TOP, "9S")
        if game == "buckem"
        else dp_deal(DPB, "AS")
    )
    return {"op": "play", "game": game, "players": len(deal["hands"]), "hands": [{"deal": deal}]}


def expected_first_cut(game: str) -> dict[str, Any]:
    if game == "hucklebuck":
        legal_ = ["1 bid 2", "1 bid 3", "1 bid 4", "1 bid 5", "1 pass"]
        state = {"scores": [0, 0, 0], "out": []}
        hand = {"bidder": None, "bid": None, "delta": [0, 0, 0]} | state
    elif game == "deerpark":
        legal_ = ["1 order", "1 pass"]
        state = {"scores": [20, 20, 20]}
        hand = {"maker": None, "requirement": None, "delta": [0, 0, 0]} | state
    else:  # everyone antes 1 from a bankroll of 0: a pot of 5 chips, one unit (one round of antes)
        legal_ = ["1 fold", "1 stay"]
        state = {"bankrolls": [-1] * 5, "pot": 5, "pot_units": 1, "ante_due": False}
        hand = {"delta": [-1] * 5} | state
    first = {"complete": False, "to_act": 1, "legal": legal_, "dealer": 0, "tricks": []} | hand
    return {"hands": [first], "final": {"game_over": False, "winners": [], "dealer": 0} | state}


def order(game: str) -> None:
    if game == "hucklebuck":
        play, illegal, unlisted = (lambda acts, **kw: hb(SUITED, acts, **kw)), "2 pass", {"target": 12}
    elif game == "deerpark":
        play, illegal, unlisted = (
            (lambda acts, **kw: dp(DPB, "AS", acts, **kw)),
            "2 pass",
            {"first_lead": "left"},
        )
    else:
        play, illegal, unlisted = (
            (lambda acts, **kw: bk(TOP, "9S", acts, **kw)),
            "2 stay",
            {"split": "thirds"},
        )
    n = {"hucklebuck": 3, "deerpark": 3, "buckem": 5}[game]
    add(
        game,
        "order",
        "shape-before-options",
        "a player count of the wrong type and an option value the list does not name: bad_request",
        [ORDER + "the rest of the shape is checked before the options"],
        [],
        {"op": "deck", "game": game, "players": str(n), "options": unlisted},
        err("bad_request"),
    )
    add(
        game,
        "order",
        "options-before-start",
        "an option value the list does not name and a dealer who cannot be: unsupported",
        [ORDER + "the options are checked before the start position"],
        [],
        play([], options=unlisted, start={"dealer": 99}),
        err("unsupported"),
    )
    bad = play([illegal])
    bad["hands"][0]["deal"]["hands"][0] = bad["hands"][0]["deal"]["hands"][0][:4]
    add(
        game,
        "order",
        "deal-before-actions",
        "a deal with a four-card hand, then an action out of turn: the deal decides (bad_request)",
        [ORDER + "each hand's deal is checked before its actions"],
        [],
        bad,
        err("bad_request"),
    )
    add(
        game,
        "order",
        "illegal-before-unreadable",
        "an action out of turn, then an unreadable one: the first decides (illegal_action at action 0)",
        [ORDER + "each action in order: an illegal action before an unreadable one is illegal_action"],
        [],
        play([illegal, "x pass"]),
        err("illegal_action", hand=0, action=0),
    )
    add(
        game,
        "order",
        "unreadable-before-illegal",
        "an unreadable action, then one out of turn: the first decides (bad_request at action 0)",
        [ORDER + "each action in order: an unreadable action before an illegal one is bad_request"],
        [],
        play(["one pass", illegal]),
        err("bad_request", hand=0, action=0),
    )
    later = play([illegal])
    twice = json.loads(json.dumps(later["hands"][0]["deal"]))
    twice["hands"][0][0] = twice["hands"][1][0]  # a card in two hands: well-formed, impossible
    later["hands"].append({"deal": twice, "actions": []})
    add(
        game,
        "order",
        "action-before-next-deal",
        "an illegal action in hand 0 and a deal with a card in two hands for hand 1: hand 0 decides "
        "(illegal_action)",
        [ORDER + "each hand's deal is checked when that hand starts"],
        [],
        later,
        err("illegal_action", hand=0, action=0),
    )


def build() -> None:
    """Add the cases of this file."""
    framing()
    ops()
    games()
    for game in ("hucklebuck", "buckem", "deerpark"):
        shape(game)
        order(game)
        defaults(game)
