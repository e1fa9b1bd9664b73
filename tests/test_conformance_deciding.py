"""The deciding boundaries: every declared boundary has a case naming it, the
lint fails when that case goes, and an option value's case really decides it
(its answer changes when the option is left at the default)."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from hucklebuck.conformance import match
from hucklebuck.conformance.deciding import BOUNDARIES, NOT_DECIDABLE
from hucklebuck.conformance.lint import coverage, coverage_lines, lint
from hucklebuck.conformance.protocol import handle
from hucklebuck.conformance.runner import bundled_suite_dir
from hucklebuck.conformance.spec import OPTION_VALUES

CASES = bundled_suite_dir() / "cases"


def raw_cases() -> list[tuple[Path, dict[str, Any]]]:
    out = []
    for f in sorted(CASES.rglob("*.json")):
        out.extend((f, c) for c in json.loads(f.read_text(encoding="utf-8"))["cases"])
    return out


def answer(request: dict[str, Any]) -> Any:
    a = handle(request)
    return a["result"] if a["ok"] else {"error": a["error"]}


def copy_without(tmp: Path, drop: set[str]) -> Path:
    """A copy of the suite without the cases whose ids are in ``drop``."""
    out = tmp / "cases"
    shutil.copytree(CASES, out)
    for f in out.rglob("*.json"):
        data = json.loads(f.read_text(encoding="utf-8"))
        kept = [c for c in data["cases"] if c["id"] not in drop]
        if len(kept) != len(data["cases"]):
            f.write_text(json.dumps({"cases": kept}), encoding="utf-8")
    return out


@pytest.mark.single_core
def test_every_boundary_has_a_case_and_every_option_value_is_declared() -> None:
    cov = coverage()
    assert cov.undecided() == []
    assert set(cov.deciding) == set(BOUNDARIES)
    values = {
        f"{g}.{n}={str(v).lower()}" for g, o in OPTION_VALUES.items() for n, vs in o.items() for v in vs[1:]
    }
    assert values == {b for b in BOUNDARIES if "." in b.split("/")[0]} | set(NOT_DECIDABLE)
    assert f"deciding boundaries with a case: {len(BOUNDARIES)} of {len(BOUNDARIES)}" in coverage_lines()


@pytest.mark.single_core
def test_lint_fails_when_a_deciding_case_is_removed(tmp_path: Path) -> None:
    # Remove, one boundary at a time, every case naming it: the lint must name that boundary.
    by_boundary: dict[str, set[str]] = {}
    for _, c in raw_cases():
        for name in c.get("deciding", []):
            by_boundary.setdefault(name, set()).add(c["id"])
    assert set(by_boundary) == set(BOUNDARIES)
    for i, (name, ids) in enumerate(sorted(by_boundary.items())):
        problems = lint([copy_without(tmp_path / str(i), ids)])
        assert any("no case names these deciding boundaries" in p and f"{name} (" in p for p in problems), (
            name
        )


@pytest.mark.single_core
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"deciding": ["hucklebuck/def-99-nothing"]}, "is not a declared boundary"),
        ({"deciding": ["buckem/def-46-one-chip-left"]}, "belongs to another game"),
        ({"decisions": ["DEF #9"]}, "does not cite DEF #17"),
        ({"request_options": {}}, "does not set tie_break"),
        ({"deciding": "hucklebuck/def-17-bidder-first-lone-non-bidder"}, "must be a list of boundary names"),
    ],
)
def test_lint_checks_what_a_case_names(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    case = next(c for _, c in raw_cases() if c["id"] == "hucklebuck/end/bidder-first-lone-non-bidder")
    case = copy.deepcopy(case)
    if "request_options" in change:
        case["request"]["options"] = change.pop("request_options")
    case.update(change)
    d = tmp_path / "hucklebuck"
    d.mkdir()
    (d / "end.json").write_text(json.dumps({"cases": [case]}), encoding="utf-8")
    assert any(message in p for p in lint([d])), lint([d])


def option_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """The cases naming an option value's boundary (``"<game>.<option>=<value>"``)."""
    out = []
    for _, c in raw_cases():
        out.extend((name, c["id"], c) for name in c.get("deciding", []) if "." in name.split("/")[0])
    return out


@pytest.mark.single_core
@pytest.mark.parametrize(("name", "case_id", "case"), option_cases(), ids=[c[1] for c in option_cases()])
def test_an_option_value_case_passes_and_its_answer_changes_at_the_default(
    name: str, case_id: str, case: dict[str, Any]
) -> None:
    assert match(case["expect"], answer(case["request"])) is None
    req = copy.deepcopy(case["request"])
    option = BOUNDARIES[name].option
    assert option is not None
    req["options"].pop(option[0])
    assert match(case["expect"], answer(req)) is not None, f"{case_id} does not decide {name}"
