"""The schema of a case file of the conformance suite (part of ``build_schemas.py``)."""

from schemas_common import BASE, D

from hucklebuck.conformance.spec import GROUPS

not_edge = {
    "properties": {
        "expect": {
            "type": "object",
            "required": ["error"],
            "properties": {
                "error": {
                    "type": "object",
                    "required": ["code"],
                    "properties": {"code": {"enum": ["bad_request", "unsupported"]}},
                }
            },
        }
    },
    "required": ["expect"],
}
case_file = {
    "$schema": D,
    "$id": BASE + "case-file.schema.json",
    "title": "A case file of the hucklebuck conformance suite",
    "type": "object",
    "required": ["cases"],
    "additionalProperties": False,
    "properties": {"cases": {"type": "array", "items": {"$ref": "#/$defs/case"}}},
    "$defs": {
        "case": {
            "type": "object",
            "required": ["id", "title", "source", "decisions"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": "^(" + "|".join(GROUPS) + ")/[a-z0-9-]+/[a-z0-9-]+$"},
                "title": {"type": "string", "minLength": 1},
                "source": {
                    "type": "array",
                    "items": {"type": "string", "pattern": "^(S0|S2|S3|S4|protocol)[ :,]"},
                },
                "decisions": {"type": "array", "items": {"type": "string", "pattern": "^DEF #[0-9]+$"}},
                "deciding": {
                    "type": "array",
                    "items": {"type": "string", "pattern": "^(hucklebuck|buckem|deerpark)[./][a-z0-9_=#-]+$"},
                },
                "extensions": {
                    "type": "array",
                    "items": {"type": "string", "pattern": "^[a-z]+\\.[a-z0-9_]+(=[a-z0-9_]+)?$"},
                },
                "needs": {
                    "type": "array",
                    "items": {"type": "string", "pattern": "^[a-z0-9_]+=\\S+$"},
                    "description": "The protocol options the case sets to a value other than the default, "
                    "as option=value (the value as JSON, a string bare): an adapter that answers unsupported "
                    "to the case has it skipped.",
                },
                "request": {
                    "type": "object",
                    "required": ["op"],
                    "not": {"required": ["id"]},
                },
                "raw": {
                    "type": "string",
                    "pattern": "^[^\\n]*$",
                    "description": "A raw-line case: the line to send, as UTF-8, without its newline.",
                },
                "raw_b64": {
                    "type": "string",
                    "contentEncoding": "base64",
                    "description": "A raw-line case: the bytes of the line (no newline), in base64.",
                },
                "no_answer": {
                    "const": True,
                    "description": "A raw line that must get no answer (an empty or white-space line).",
                },
                "answer_id": {"description": "The id the answer to a raw line must carry (default null)."},
                "expect": {
                    "description": 'A pattern for the result, or {"error": {...}} for an expected failure.'
                },
            },
            "allOf": [
                {
                    "anyOf": [
                        {"properties": {"source": {"minItems": 1}}},
                        {"properties": {"decisions": {"minItems": 1}}},
                    ]
                },
                {
                    "oneOf": [
                        {
                            "required": ["request", "expect"],
                            "not": {"anyOf": [{"required": ["no_answer"]}, {"required": ["answer_id"]}]},
                        },
                        {
                            "required": ["raw"],
                            "not": {"anyOf": [{"required": ["request"]}, {"required": ["raw_b64"]}]},
                        },
                        {
                            "required": ["raw_b64"],
                            "not": {"anyOf": [{"required": ["request"]}, {"required": ["raw"]}]},
                        },
                    ]
                },
                {
                    "oneOf": [
                        {"required": ["expect"], "not": {"required": ["no_answer"]}},
                        {
                            "required": ["no_answer"],
                            "not": {"anyOf": [{"required": ["expect"]}, {"required": ["answer_id"]}]},
                        },
                    ]
                },
            ],
            "if": {
                "anyOf": [
                    not_edge,
                    {"required": ["extensions"], "properties": {"extensions": {"minItems": 1}}},
                ]
            },
            "then": True,
            "else": {"properties": {"request": {"$ref": "request.schema.json"}}},
        }
    },
}
