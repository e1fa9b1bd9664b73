"""Write the JSON Schemas of protocol version 3 (hucklebuck/conformance/schemas/).

Run ``python conformance/tools/build_schemas.py`` from the repository root; the
JSON files it writes are what ships, this script is how they are authored.
An optional argument names another output folder (the tests use it to check
that the shipped files are up to date).
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from schemas_case_file import case_file
from schemas_common import (
    BASE,
    D,
    cards,
    common,
    game_fields,
    hand_common_props,
    ref,
    view_game_fields,
    view_game_props,
    view_props,
)

from hucklebuck.conformance.spec import OPS

OUT = Path(
    sys.argv[1]
    if len(sys.argv) > 1
    else Path(__file__).resolve().parents[2] / "hucklebuck/conformance/schemas"
)


req_defs = dict(common)
req_defs.update(
    {
        "options_hucklebuck": {
            "type": ["object", "null"],
            "description": "Protocol options of Hucklebuck; other names are extensions.",
            "properties": {
                "target": {"enum": [15, 11]},
                "all_pass": {"enum": ["dealer_scores_5", "dealer_must_bid"]},
                "moon_at_zero": {"enum": ["reset_to_zero", "win", "score_normally"]},
                "lone_moon_bidder": {"enum": ["scores_5", "wins_game"]},
                "bidder_zero_trick_penalty_stacks": {"type": "boolean"},
                "tie_break": {"enum": ["highest_then_bidder", "bidder_first", "shared"]},
                "exchange_order": {"enum": ["bidder_left_bidder_last", "dealer_left_dealer_last"]},
                "auction_reentry": {"type": "boolean"},
            },
        },
        "options_buckem": {
            "type": ["object", "null"],
            "description": "Protocol options of Buck 'Em; other names are extensions.",
            "properties": {
                "ante": {"type": "integer", "minimum": 1},
                "short_handed": {"type": "boolean"},
                "short_handed_trump": {"enum": ["flip", "removed_card"]},
                "scare_cards": {"type": "boolean"},
                "deuce_swap": {"type": "boolean"},
                "simultaneous_declare": {"type": "boolean"},
                "pot_limit": {"type": ["integer", "null"], "minimum": 1},
                "odd_chip": {"enum": ["buckup", "carry"]},
                "split": {"enum": ["equal", "proportional"]},
                "rake_hand": {"enum": ["as_dealt", "after_swap"]},
                "after_void_round_ante": {"type": "boolean"},
            },
        },
        "options_deerpark": {
            "type": ["object", "null"],
            "description": "Protocol options of Deer Park Euchre; other names are extensions.",
            "properties": {
                "club_turnup_pickup": {"type": "boolean"},
                "round2_excludes_turned_suit": {"type": "boolean"},
                "failed_contract_tricks_count": {"type": "boolean"},
                "first_lead": {"enum": ["eldest", "maker"]},
                "lock_at": {"type": "integer"},
                "tie_break": {"enum": ["distance_then_maker", "shared"]},
            },
        },
        "restock": {
            "type": "array",
            "items": cards(1),
            "description": "The order of each re-formed stock, top first, in the order they are needed.",
        },
        "deal_hands": {
            "type": "array",
            "minItems": 3,
            "maxItems": 8,
            "items": cards(0, 5),
            "description": "One list of five cards per seat, in seat order; [] for a seat that is out.",
        },
        "deal_hucklebuck": {
            "type": "object",
            "required": ["hands", "stock"],
            "description": "Fields the protocol does not name are ignored.",
            "properties": {"hands": ref("deal_hands"), "stock": cards(), "restock": ref("restock")},
        },
        "deal_buckem": {
            "type": "object",
            "required": ["hands", "upcard", "stock"],
            "description": "Fields the protocol does not name are ignored.",
            "properties": {
                "hands": ref("deal_hands"),
                "upcard": ref("card"),
                "stock": cards(),
                "scare": {
                    "type": "array",
                    "items": ref("card"),
                    "description": "One card per seat, from that seat's hand (with scare_cards).",
                },
                "restock": ref("restock"),
            },
        },
        "deal_deerpark": {
            "type": "object",
            "required": ["hands", "kitty"],
            "description": "Fields the protocol does not name are ignored.",
            "properties": {
                "hands": ref("deal_hands"),
                "kitty": cards(0, 5, description="Top first; the first card is turned up."),
            },
        },
        "start_hucklebuck": {
            "type": ["object", "null"],
            "additionalProperties": False,
            "properties": {"dealer": ref("seat"), "scores": ref("ints"), "out": ref("seats")},
        },
        "start_deerpark": {
            "type": ["object", "null"],
            "additionalProperties": False,
            "properties": {"dealer": ref("seat"), "scores": ref("ints")},
        },
        "start_buckem": {
            "type": ["object", "null"],
            "additionalProperties": False,
            "properties": {
                "dealer": ref("seat"),
                "bankrolls": ref("ints"),
                "pot": {"type": "integer", "minimum": 0},
                "pot_units": {"type": "integer", "minimum": 0},
                "ante_due": {"type": "boolean"},
            },
        },
        "base": {
            "type": "object",
            "required": ["op"],
            "properties": {
                "id": {"description": "Any JSON value; the answer echoes it."},
                "op": {"enum": list(OPS)},
            },
        },
    }
)


def per_game(prefix):
    return [
        {
            "if": {"properties": {"game": {"const": g}}, "required": ["game"]},
            "then": {"properties": prefix(g)},
        }
        for g in ("hucklebuck", "buckem", "deerpark")
    ]


req_defs.update(
    {
        "hello": {
            "type": "object",
            "required": ["op"],
            "properties": {"id": True, "op": {"const": "hello"}},
            "additionalProperties": False,
        },
        "deck": {
            "type": "object",
            "required": ["op", "game", "players"],
            "additionalProperties": False,
            "properties": {
                "id": True,
                "op": {"const": "deck"},
                "game": ref("game"),
                "players": ref("players"),
                "options": {"type": ["object", "null"], "description": "null or missing: every default"},
            },
            "allOf": per_game(lambda g: {"options": ref(f"options_{g}")}),
        },
        "trick_winner": {
            "type": "object",
            "required": ["op", "game", "trump", "plays"],
            "additionalProperties": False,
            "properties": {
                "id": True,
                "op": {"const": "trick_winner"},
                "game": ref("game"),
                "trump": ref("suit"),
                "plays": cards(2, 8, description="Cards in play order, leader first."),
            },
        },
        "legal_plays": {
            "type": "object",
            "required": ["op", "game", "trump", "hand"],
            "additionalProperties": False,
            "properties": {
                "id": True,
                "op": {"const": "legal_plays"},
                "game": ref("game"),
                "trump": ref("suit"),
                "hand": cards(1, 5),
                "trick": cards(0, 7, description="Cards already played, leader first."),
            },
        },
        "play": {
            "type": "object",
            "required": ["op", "game", "players", "hands"],
            "additionalProperties": False,
            "properties": {
                "id": True,
                "op": {"const": "play"},
                "game": ref("game"),
                "players": ref("players"),
                "options": {"type": ["object", "null"], "description": "null or missing: every default"},
                "start": {"type": ["object", "null"], "description": "null or missing: every default"},
                "hands": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                        "type": "object",
                        "required": ["deal"],
                        "additionalProperties": False,
                        "properties": {
                            "deal": {"type": "object"},
                            "actions": {
                                "type": "array",
                                "items": {
                                    "type": "string",
                                    "description": 'an action: "<seat> <verb> [args]", e.g. "1 bid 3"',
                                },
                            },
                        },
                    },
                },
            },
            "allOf": per_game(
                lambda g: {
                    "options": ref(f"options_{g}"),
                    "start": ref(f"start_{g}"),
                    "hands": {"items": {"properties": {"deal": ref(f"deal_{g}")}}},
                }
            ),
        },
        "solve": {
            "type": "object",
            "required": ["op", "game", "trump", "hands", "leader", "seat"],
            "additionalProperties": False,
            "properties": {
                "id": True,
                "op": {"const": "solve"},
                "game": ref("game"),
                "trump": ref("suit"),
                "hands": {"type": "array", "minItems": 2, "maxItems": 8, "items": cards(0, 5)},
                "leader": ref("seat"),
                "seat": ref("seat"),
            },
        },
    }
)
observe = json.loads(json.dumps(req_defs["play"]))
observe["required"] = ["op", "game", "players", "hands", "seat"]
observe["properties"]["op"] = {"const": "observe"}
observe["properties"]["seat"] = {
    "oneOf": [ref("seat"), {"type": "null"}],
    "description": "Whose view: a seat, or null for an onlooker.",
}
observe["description"] = "A play request plus seat: that seat's view after the last listed action."
req_defs["observe"] = observe
request = {
    "$schema": D,
    "$id": BASE + "request.schema.json",
    "title": "A request of the hucklebuck conformance protocol, version 3",
    "description": (
        "One line sent to an adapter. A request that matches this schema can still be impossible "
        "(a duplicate card across fields, a deal that is not the right pack): the adapter answers "
        "bad_request then."
    ),
    "allOf": [ref("base")]
    + [{"if": {"properties": {"op": {"const": op}}, "required": ["op"]}, "then": ref(op)} for op in OPS],
    "$defs": req_defs,
}

ans_defs = dict(common)
trick = {
    "type": "object",
    "required": ["leader", "cards", "winner"],
    "additionalProperties": False,
    "properties": {"leader": ref("seat"), "cards": cards(2, 8), "winner": ref("seat")},
}
ans_defs.update(
    {
        "trick": trick,
        "hand": {
            "type": "object",
            "description": "The report of one hand (HAND).",
            "required": ["complete", "restock", "dealer", "trump", "tricks", "tricks_won"],
            "properties": hand_common_props,
            "if": {"properties": {"complete": {"const": False}}},
            "then": {"required": ["to_act", "legal"]},
            "else": {
                "not": {
                    "anyOf": [
                        {"required": ["to_act"]},
                        {"required": ["legal"]},
                        {"required": ["current_trick"]},
                    ]
                }
            },
            "anyOf": [{"required": f, "title": g} for g, f in game_fields.items()],
        },
        "final": {
            "type": "object",
            "description": "The state after the last hand reported (FINAL).",
            "required": ["game_over", "winners", "dealer"],
            "properties": {
                "game_over": {"type": "boolean"},
                "winners": ref("seats"),
                "dealer": ref("seat"),
                "scores": ref("ints"),
                "out": ref("seats"),
                "bankrolls": ref("ints"),
                "pot": {"type": "integer", "minimum": 0},
                "pot_units": {"type": "integer", "minimum": 0},
                "ante_due": {"type": "boolean"},
            },
            "anyOf": [
                {"required": ["scores", "out"]},
                {"required": ["bankrolls", "pot", "pot_units", "ante_due"]},
                {"required": ["scores"]},
            ],
        },
        "result_hello": {
            "type": "object",
            "required": ["name", "version", "protocol", "games", "ops"],
            "properties": {
                "name": {"type": "string"},
                "version": {"type": "string"},
                "protocol": {"const": 2},
                "games": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                "ops": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                "extensions": {
                    "type": "array",
                    "uniqueItems": True,
                    "items": {"type": "string", "pattern": "^[a-z]+\\.[a-z0-9_]+(=[a-z0-9_]+)?$"},
                    "description": "Extension options supported, as '<game>.<option>'.",
                },
            },
        },
        "result_deck": cards(20, 52, description="The pack, sorted (suits C, D, H, S; ranks 2 to A)."),
        "result_trick_winner": {
            "type": "integer",
            "minimum": 0,
            "maximum": 7,
            "description": "Index into plays of the winning card.",
        },
        "result_legal_plays": cards(1, 5, description="The playable cards of the hand, sorted."),
        "result_play": {
            "type": "object",
            "required": ["hands", "final"],
            "additionalProperties": False,
            "properties": {
                "hands": {"type": "array", "minItems": 1, "items": ref("hand")},
                "final": ref("final"),
            },
        },
        "result_solve": {"type": "integer", "minimum": 0, "maximum": 5},
        "result_observe": {
            "type": "object",
            "description": "What one seat (or an onlooker) may know: the view defined on the protocol page.",
            "required": list(view_props),
            "properties": view_props,
            "allOf": [
                {
                    "if": {"properties": {"game": {"const": g}}, "required": ["game"]},
                    "then": {"required": fields, "properties": {k: view_game_props[k] for k in fields}},
                }
                for g, fields in view_game_fields.items()
            ],
        },
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"enum": ["bad_request", "illegal_action", "unsupported"]},
                "message": {"type": "string"},
                "hand": {"type": "integer", "minimum": 0},
                "action": {"type": "integer", "minimum": 0},
            },
            "if": {"properties": {"code": {"const": "illegal_action"}}},
            "then": {"required": ["hand", "action"]},
            "dependentRequired": {"action": ["hand"]},
        },
        "answer": {
            "type": "object",
            "required": ["id", "ok"],
            "additionalProperties": False,
            "properties": {"id": True, "ok": {"type": "boolean"}, "result": True, "error": ref("error")},
            "if": {"properties": {"ok": {"const": True}}},
            "then": {"required": ["result"], "not": {"required": ["error"]}},
            "else": {"required": ["error"], "not": {"required": ["result"]}},
        },
    }
)
for op in OPS:
    ans_defs[f"answer_{op}"] = {
        "description": f"An answer to a {op} request.",
        "allOf": [ref("answer")],
        "if": {"properties": {"ok": {"const": True}}, "required": ["ok"]},
        "then": {"properties": {"result": ref(f"result_{op}")}},
    }
answer = {
    "$schema": D,
    "$id": BASE + "answer.schema.json",
    "title": "An answer of the hucklebuck conformance protocol, version 3",
    "description": (
        "One line an adapter writes. The top level checks the envelope; "
        "#/$defs/answer_<op> also checks the result of that op."
    ),
    "$ref": "#/$defs/answer",
    "$defs": ans_defs,
}


def _open(schema: object) -> object:
    """``schema`` without ``additionalProperties: false``: an answer may carry extra fields."""
    if isinstance(schema, dict):
        return {k: _open(v) for k, v in schema.items() if not (k == "additionalProperties" and v is False)}
    if isinstance(schema, list):
        return [_open(v) for v in schema]
    return schema


answer = _open(answer)  # a copy: the request schema shares definitions and stays strict

for name, s in (("request", request), ("answer", answer), ("case-file", case_file)):
    (OUT / f"{name}.schema.json").write_text(json.dumps(s, indent=1) + "\n")
