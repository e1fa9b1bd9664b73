"""Definitions that the request and answer schemas share, and the pieces of a hand's and a view's answer.

Part of ``build_schemas.py`` (which writes the shipped JSON Schemas); kept apart to keep each file short.
"""

BASE = "https://hucklebuck.invalid/conformance/protocol-3/"
D = "https://json-schema.org/draft/2020-12/schema"


def ref(name):
    return {"$ref": f"#/$defs/{name}"}


card = {
    "type": "string",
    "pattern": "^[2-9TJQKA][CDHS]$",
    "description": "A card: rank 2-9, T, J, Q, K or A, then suit C, D, H or S (upper case).",
}


def cards(lo=0, hi=None, **kw):
    return {
        "type": "array",
        "items": ref("card"),
        "uniqueItems": True,
        "minItems": lo,
        **({"maxItems": hi} if hi is not None else {}),
        **kw,
    }


seat = {"type": "integer", "minimum": 0, "maximum": 7, "description": "A seat, 0-based, clockwise."}
intlist = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 8}
common = {
    "card": card,
    "suit": {"enum": ["C", "D", "H", "S"], "description": "A suit letter."},
    "game": {"enum": ["hucklebuck", "buckem", "deerpark"]},
    "players": {
        "type": "integer",
        "description": "Player count: 3-7 for hucklebuck and deerpark, 5-8 for buckem.",
    },
    "seat": seat,
    "seats": {"type": "array", "items": ref("seat"), "uniqueItems": True},
    "ints": intlist,
}


nullable_seat = {"type": ["integer", "null"], "minimum": 0, "maximum": 7}
hand_common_props = {
    "complete": {"type": "boolean"},
    "to_act": ref("seat"),
    "legal": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": True},
    "current_trick": {
        "type": "object",
        "required": ["leader", "cards"],
        "additionalProperties": False,
        "properties": {"leader": ref("seat"), "cards": cards(1, 7)},
    },
    "restock": {"type": "array", "items": cards(1)},
    "dealer": ref("seat"),
    "trump": {"oneOf": [ref("suit"), {"type": "null"}]},
    "tricks": {"type": "array", "items": ref("trick"), "maxItems": 5},
    "tricks_won": ref("ints"),
    "delta": ref("ints"),
    # hucklebuck
    "bidder": nullable_seat,
    "bid": {"type": ["integer", "null"], "minimum": 2, "maximum": 5},
    "active": ref("seats"),
    "scores": ref("ints"),
    "out": ref("seats"),
    # buckem
    "stayers": ref("seats"),
    "raked": nullable_seat,
    "winners": ref("seats"),
    "burned": ref("seats"),
    "payouts": ref("ints"),
    "bankrolls": ref("ints"),
    "pot": {"type": "integer", "minimum": 0},
    "pot_units": {"type": "integer", "minimum": 0},
    "ante_due": {"type": "boolean"},
    # deerpark
    "maker": nullable_seat,
    "requirement": {"type": ["integer", "null"], "minimum": 1, "maximum": 5},
}
game_fields = {
    "hucklebuck": ["bidder", "bid", "active", "delta", "scores", "out"],
    "buckem": [
        "stayers",
        "raked",
        "winners",
        "burned",
        "payouts",
        "delta",
        "bankrolls",
        "pot",
        "pot_units",
        "ante_due",
    ],
    "deerpark": ["maker", "requirement", "delta", "scores"],
}
seat_or_null = {"oneOf": [ref("seat"), {"type": "null"}]}
view_props = {
    "game": ref("game"),
    "players": {"type": "integer", "minimum": 3, "maximum": 8},
    "seat": seat_or_null,
    "hand_number": {"type": "integer", "minimum": 1},
    "dealer": ref("seat"),
    "phase": {
        "enum": [
            "auction",
            "trump",
            "declare",
            "exchange",
            "order",
            "call",
            "dealer_discard",
            "stay_fold",
            "draw",
            "play",
            "hand_over",
            "game_over",
        ]
    },
    "to_act": seat_or_null,
    "hand": {
        "oneOf": [cards(0, 6), {"type": "null"}],
        "description": "The seat's own cards; null for an onlooker.",
    },
    "hand_sizes": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 6}, "minItems": 3},
    "trump": {"oneOf": [ref("suit"), {"type": "null"}]},
    "history": {"type": "array", "items": {"type": "string"}},
    "current_trick": {
        "oneOf": [
            {
                "type": "object",
                "required": ["leader", "cards"],
                "additionalProperties": False,
                "properties": {"leader": ref("seat"), "cards": cards(1, 7)},
            },
            {"type": "null"},
        ]
    },
    "tricks": {"type": "array", "items": ref("trick"), "maxItems": 5},
    "tricks_won": ref("ints"),
    "legal": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
    "game_over": {"type": "boolean"},
    "winners": ref("seats"),
}
view_game_props = {
    "scores": ref("ints"),
    "out": ref("seats"),
    "bidder": nullable_seat,
    "bid": {"type": ["integer", "null"], "minimum": 2, "maximum": 5},
    "declarations": {
        "type": "array",
        "items": {
            "type": "object",
            "required": ["seat", "exchange"],
            "additionalProperties": False,
            "properties": {
                "seat": ref("seat"),
                "exchange": {"type": ["integer", "null"], "minimum": 0, "maximum": 5},
            },
        },
    },
    "stock_size": {"type": "integer", "minimum": 0},
    "turned": ref("card"),
    "maker": nullable_seat,
    "requirement": {"type": ["integer", "null"], "minimum": 1, "maximum": 5},
    "locked": ref("seats"),
    "bankrolls": ref("ints"),
    "pot": {"type": "integer", "minimum": 0},
    "pot_units": {"type": "integer", "minimum": 0},
    "upcard": ref("card"),
    "swapped_upcard": {"oneOf": [ref("card"), {"type": "null"}]},
    "scare": {"type": "array", "items": {"oneOf": [ref("card"), {"type": "null"}]}},
    "decisions": {
        "type": "array",
        "items": {
            "type": "object",
            "required": ["seat", "decision"],
            "additionalProperties": False,
            "properties": {"seat": ref("seat"), "decision": {"enum": ["stay", "stay swap", "fold"]}},
        },
    },
    "rake_shown": cards(0, 5),
}
view_game_fields = {
    "hucklebuck": ["scores", "out", "bidder", "bid", "declarations", "stock_size"],
    "deerpark": ["scores", "turned", "maker", "requirement", "locked"],
    "buckem": [
        "bankrolls",
        "pot",
        "pot_units",
        "upcard",
        "swapped_upcard",
        "scare",
        "decisions",
        "stock_size",
        "rake_shown",
    ],
}
