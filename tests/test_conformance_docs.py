"""The protocol page's worked examples are real: each request is the request of
the case it names, the answer shown is the adapter's answer (on both cores,
in-process and through the adapter process), and every operation has one.
The conformance pages point at nothing outside the project."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hucklebuck import __version__
from hucklebuck.conformance import InProcessAdapter, load_cases, match
from hucklebuck.conformance.protocol import OPS

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGE = DOCS / "protocol.rst"


def examples() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """``(case id or "hello", request, answer)`` for each ``.. example:`` on the page."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        m = re.match(r"^\.\. example: (\S+)$", line)
        if not m:
            continue
        blocks: list[str] = []
        j = i + 1
        while len(blocks) < 2:
            assert j < len(lines), f"example {m.group(1)} lacks its two code blocks"
            if lines[j].startswith(".. code-block:: json"):
                j += 2
                body = []
                while j < len(lines) and (lines[j].startswith("   ") or not lines[j].strip()):
                    body.append(lines[j])
                    j += 1
                blocks.append("\n".join(body))
            else:
                j += 1
        out.append((m.group(1), json.loads(blocks[0]), json.loads(blocks[1])))
    return out


def without_message(answer: dict[str, Any]) -> dict[str, Any]:
    if answer.get("ok") is False:
        return {**answer, "error": {k: v for k, v in answer["error"].items() if k != "message"}}
    return answer


def check(shown: dict[str, Any], actual: dict[str, Any]) -> None:
    if shown.get("ok") and isinstance(shown["result"], dict) and "protocol" in shown["result"]:  # hello
        assert shown["result"]["version"] == __version__
        assert match(shown, actual) is None, actual  # ours adds "core"
    else:
        assert without_message(actual) == without_message(shown)


@pytest.mark.single_core
def test_every_op_has_a_worked_example_from_a_real_case() -> None:
    found = examples()
    assert {req["op"] for _, req, _ in found} == set(OPS)
    cases = {c.id: c for c in load_cases()}
    for name, req, answer in found:
        assert answer["id"] == req["id"]
        if name == "hello":
            continue
        case = cases[name]
        assert {k: v for k, v in req.items() if k != "id"} == case.request, name
        expect = case.expect
        if isinstance(expect, dict) and set(expect) == {"error"}:
            assert match(expect["error"], answer["error"]) is None, name
        else:
            assert match(expect, answer["result"]) is None, name


def test_worked_examples_in_process(core_name: str) -> None:
    adapter = InProcessAdapter(core_name)
    for _, req, shown in examples():
        check(shown, adapter.request(req))


def test_worked_examples_through_the_adapter_process(core_name: str) -> None:
    found = examples()
    out = subprocess.run(
        [sys.executable, "-m", "hucklebuck.conformance", "adapter", "--backend", core_name],
        input="\n".join(json.dumps(req) for _, req, _ in found) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == len(found), out.stderr
    for (_, _, shown), actual in zip(found, answers, strict=True):
        check(shown, actual)


@pytest.mark.single_core
def test_docs_and_docstrings_point_at_nothing_outside_the_project() -> None:
    root = Path(__file__).resolve().parents[1]
    texts = [root / "README.md", *sorted(DOCS.rglob("*.rst")), *sorted((root / "hucklebuck").rglob("*.py"))]
    texts += sorted((root / "conformance" / "cases").rglob("*.json"))
    for path in texts:
        text = path.read_text(encoding="utf-8")
        for bad in ("conformance-protocol.md", "rules-decisions", "../shared", "shared folder"):
            assert bad not in text, (path, bad)


@pytest.mark.single_core
def test_the_solve_budget_on_the_page_is_the_adapters() -> None:
    from hucklebuck.conformance import protocol

    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    nodes = f"{protocol.SOLVE_NODES:,}"
    assert f"more than {nodes} search nodes or about {protocol.SOLVE_SECONDS:g} seconds" in text


@pytest.mark.single_core
def test_the_node_example_is_described_truthfully() -> None:
    page = (DOCS / "conformance.rst").read_text(encoding="utf-8")
    source = DOCS.parent / "conformance" / "adapters" / "node" / "adapter.js"
    said = int(page.split("Node.js one of about ")[1].split(" lines")[0])
    actual = len(source.read_text(encoding="utf-8").splitlines())
    assert abs(actual - said) <= said // 10, (said, actual)
    hello = source.read_text(encoding="utf-8").split('["hello", () => (')[1].split("})],")[0]
    assert "games: MY_GAMES" in hello and 'ops: ["hello", "trick_winner", "legal_plays"]' in hello
    assert "announces Hucklebuck only and the operations ``hello``, ``trick_winner`` and" in page


@pytest.mark.single_core
def test_the_versions_agree_and_the_pages_say_what_changed() -> None:
    """The package, the protocol and the suite versions are stated alike everywhere; the
    protocol page's history and the changelog name the current ones; the conformance
    page says that one crashing operation takes every later case down as not run."""
    from hucklebuck.conformance import PROTOCOL
    from hucklebuck.conformance.runner import suite_info

    root = DOCS.parent
    info = suite_info()
    assert info["protocol"] == PROTOCOL == 3 and info["suite"] == "2.0.0" and __version__ == "0.2.0"
    assert f'version = "{__version__}"' in (root / "pyproject.toml").read_text()
    page = PAGE.read_text(encoding="utf-8")
    assert f"The conformance protocol (version {PROTOCOL})" in page and f"*Version {PROTOCOL}* (" in page
    assert f"suite {info['suite']}; package {__version__}" in page
    changelog = (root / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"library {__version__}, protocol {PROTOCOL}, suite {info['suite']}" in changelog
    running = " ".join((DOCS / "conformance.rst").read_text(encoding="utf-8").split())
    assert "takes **every later case down as not run**" in running
