"""The JSON Schemas shipped with the package: every bundled case file matches the
case-file schema, every well-formed case request the request schema, and every
answer our adapter gives to every bundled case the answer schema of its op (on
both cores).  The schemas also refuse what they should."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hucklebuck.conformance import InProcessAdapter, load_cases, load_schema, schema_paths
from hucklebuck.conformance.protocol import OPS
from hucklebuck.conformance.runner import bundled_suite_dir
from hucklebuck.conformance.schemas import validator

pytest.importorskip("jsonschema", reason="jsonschema is a development dependency (the dev extra)")
ROOT = Path(__file__).resolve().parents[1]


def errors(v: Any, instance: Any) -> list[str]:
    return [f"{e.json_path}: {e.message[:200]}" for e in v.iter_errors(instance)]


@pytest.mark.single_core
def test_schemas_are_valid_draft_2020_12_and_listed() -> None:
    import jsonschema

    paths = schema_paths()
    assert sorted(paths) == ["answer", "case-file", "request"]
    assert set(OPS) <= set(load_schema("request")["$defs"])
    assert {f"answer_{op}" for op in OPS} <= set(load_schema("answer")["$defs"])
    for name, path in paths.items():
        assert path.is_file()
        schema = load_schema(name)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        jsonschema.Draft202012Validator.check_schema(schema)
    cmd = [sys.executable, "-m", "hucklebuck.conformance", "schemas"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    listed = dict(line.split("\t") for line in out.stdout.splitlines())
    assert listed == {k: str(v) for k, v in paths.items()}


@pytest.mark.single_core
def test_schemas_ship_as_package_data() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"hucklebuck.conformance" = ["schemas/*.json"]' in pyproject
    assert '"jsonschema' in pyproject.split("dev = [", 1)[1].split("]", 1)[0]
    assert "recursive-include hucklebuck/conformance/schemas *.json" in (ROOT / "MANIFEST.in").read_text()


@pytest.mark.single_core
def test_shipped_schemas_are_what_the_build_script_writes(tmp_path: Path) -> None:
    script = ROOT / "conformance" / "tools" / "build_schemas.py"
    if not script.is_file():
        pytest.skip("not a source checkout")
    subprocess.run([sys.executable, str(script), str(tmp_path)], check=True, timeout=60)
    for name, path in schema_paths().items():
        assert json.loads((tmp_path / path.name).read_text()) == load_schema(name), name


@pytest.mark.single_core
def test_every_bundled_case_file_matches_the_case_file_schema() -> None:
    v = validator("case-file")
    files = sorted((bundled_suite_dir() / "cases").rglob("*.json"))
    assert len(files) >= 30
    for f in files:
        assert errors(v, json.loads(f.read_text(encoding="utf-8"))) == [], f


@pytest.mark.single_core
def test_well_formed_case_requests_match_the_request_schema() -> None:
    v = validator("request")
    checked = 0
    for case in load_cases():
        code = case.expect.get("error", {}).get("code") if isinstance(case.expect, dict) else None
        if code in ("bad_request", "unsupported") or case.raw is not None or case.declared_extensions:
            continue  # edges on purpose, a raw line (no request object), an extension (not in the schema)
        assert errors(v, dict(case.request, id=case.id)) == [], case.id
        checked += 1
    assert checked >= 450


def test_every_answer_to_every_case_matches_the_answer_schema(core_name: str) -> None:
    validators = {op: validator("answer", f"answer_{op}") for op in OPS}
    generic = validator("answer")
    adapter = InProcessAdapter(core_name)
    for case in load_cases():
        answer = adapter.request(dict(case.request, id=case.id))
        op = case.request.get("op")
        v = validators.get(op, generic) if isinstance(op, str) else generic
        assert errors(v, answer) == [], (case.id, answer)


@pytest.mark.single_core
def test_the_schemas_refuse_what_they_should() -> None:
    req = validator("request")
    trick = {"op": "trick_winner", "game": "hucklebuck", "trump": "S", "plays": ["AS", "KS"]}
    assert errors(req, trick) == []
    assert errors(req, {"op": "trick_winner", "game": "hucklebuck", "trump": "S", "plays": ["10S", "KS"]})
    assert errors(req, {"op": "trick_winner", "game": "hucklebuck", "trump": "S", "cards": ["AS", "KS"]})
    assert errors(req, {"op": "deck", "game": "buckem", "players": 5, "options": {"ante": 0}})
    assert errors(req, {"op": "deck", "game": "hucklebuck", "players": 4, "options": {"target": 12}})
    assert errors(req, {"op": "teleport"})
    ans = validator("answer", "answer_play")
    assert errors(ans, {"id": 1, "ok": True})  # no result
    assert errors(ans, {"id": 1, "ok": False, "error": {"code": "illegal_action", "message": "x"}})
    assert errors(ans, {"id": 1, "ok": False, "error": {"code": "oops", "message": "x"}})
    hand = {"complete": True, "restock": [], "dealer": 0, "trump": "S", "tricks": [], "tricks_won": [0, 0, 0],
            "maker": 1, "requirement": 3, "delta": [5, -5, 5], "scores": [25, 15, 25]}  # fmt: skip
    final = {"game_over": False, "winners": [], "dealer": 1, "scores": [25, 15, 25]}
    good = {"id": 1, "ok": True, "result": {"hands": [hand], "final": final}}
    assert errors(ans, good) == []
    assert errors(ans, {**good, "result": {"hands": [{**hand, "dealer": None}], "final": final}})
    cut = {**hand, "complete": False}  # a cut hand must say who acts and what is legal
    assert errors(ans, {**good, "result": {"hands": [cut], "final": final}})
    assert errors(validator("answer", "answer_trick_winner"), {"id": 1, "ok": True, "result": "1"})
    cases = validator("case-file")
    one = {"id": "hucklebuck/x/y", "title": "t", "source": ["S2: x"], "decisions": ["DEF #3"],
           "request": {"op": "hello"}, "expect": {}}  # fmt: skip
    assert errors(cases, {"cases": [one]}) == []
    assert errors(cases, {"cases": [{**one, "request": {"op": "hello", "id": 3}}]})  # ids are the runner's
    assert errors(cases, {"cases": [{**one, "source": [], "decisions": []}]})  # cites nothing
    assert errors(cases, {"cases": [{**one, "decisions": ["#3"]}]})
