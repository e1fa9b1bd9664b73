"""The JSON Schemas (draft 2020-12) of the conformance protocol, shipped with the package.

* ``request`` (``request.schema.json``): any request; each op's fields under
  ``#/$defs/<op>``;
* ``answer`` (``answer.schema.json``): the answer envelope; ``#/$defs/answer_<op>``
  also checks that op's result;
* ``case-file`` (``case-file.schema.json``): a file of cases; its requests
  refer to ``request.schema.json``.

The schemas' ``$id`` values are names (under the reserved ``.invalid`` domain),
not addresses: load the three files together.  ``python -m
hucklebuck.conformance schemas`` prints where they are.  :func:`validator`
builds a validator with the third-party ``jsonschema`` package, which is a
development dependency only (``pip install jsonschema``).

>>> sorted(schema_paths())
['answer', 'case-file', 'request']
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any, Final

__all__ = ["SCHEMA_DIR", "AnswerChecker", "load_schema", "schema_paths", "validator"]

#: The folder holding the bundled schema files.
SCHEMA_DIR: Final = Path(__file__).resolve().parent / "schemas"
_NAMES: Final = ("request", "answer", "case-file")


def schema_paths() -> dict[str, Path]:
    """Name -> path of each bundled schema file."""
    return {name: SCHEMA_DIR / f"{name}.schema.json" for name in _NAMES}


def load_schema(name: str) -> dict[str, Any]:
    """The schema called ``name`` (``request``, ``answer`` or ``case-file``), decoded."""
    paths = schema_paths()
    if name not in paths:
        raise KeyError(f"no schema {json.dumps(name)} (the schemas are {', '.join(paths)})")
    data: dict[str, Any] = json.loads(paths[name].read_text(encoding="utf-8"))
    return data


def validator(name: str, definition: str | None = None) -> Any:
    """A ``jsonschema`` validator for schema ``name``, or for one of its
    ``$defs`` (``validator("answer", "answer_play")``), with the other schema
    files registered so references between them resolve.

    Needs the ``jsonschema`` package (a development dependency).
    """
    try:
        jsonschema = importlib.import_module("jsonschema")
        from referencing import Registry, Resource
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "checking answers against the schemas needs the jsonschema package: pip install jsonschema"
        ) from None
    schemas = {n: load_schema(n) for n in _NAMES}
    registry: Registry[Any] = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in schemas.values()
    )
    schema = schemas[name]
    if definition is not None:
        if definition not in schema.get("$defs", {}):
            raise KeyError(f"schema {json.dumps(name)} has no definition {json.dumps(definition)}")
        schema = {"$ref": f"{schema['$id']}#/$defs/{definition}"}
    return jsonschema.Draft202012Validator(schema, registry=registry)


class AnswerChecker:
    """Checks answers against ``answer.schema.json`` (``#/$defs/answer_<op>`` for
    the operations of protocol version 3, the envelope for any other).

    Needs the ``jsonschema`` package; building one without it raises ImportError.
    """

    def __init__(self) -> None:
        """Build the validators once."""
        from .spec import OPS

        self._generic = validator("answer")
        self._by_op = {op: validator("answer", f"answer_{op}") for op in OPS}

    def problem(self, op: object, answer: Any) -> str | None:
        """None when ``answer`` (to a request of ``op``) matches the schema, else
        the first mismatch as ``schema: PATH: MESSAGE``."""
        v = self._by_op.get(op, self._generic) if isinstance(op, str) else self._generic
        errors = sorted(v.iter_errors(answer), key=lambda e: list(e.absolute_path))
        if not errors:
            return None
        deepest = max(errors[0].context or [errors[0]], key=lambda e: len(e.absolute_path))
        return f"schema: {deepest.json_path}: {deepest.message[:200]}"
