"""The lint keeps each case citing its own rule, and checks raw-line cases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hucklebuck.conformance.casefile import CaseFileError, load_cases
from hucklebuck.conformance.lint import lint
from hucklebuck.conformance.spec import PROTOCOL_SECTIONS

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.single_core

CARDS = "protocol: notation, cards: two upper-case characters, rank then suit"


def case(cid: str, source: list[str], request: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": cid, "title": "t", "source": source, "decisions": []}
    if request is not None:
        out["request"] = request
    return out | kw


def problems_of(tmp: Path, group: str, cases: list[dict[str, Any]]) -> str:
    d = tmp / group
    d.mkdir(exist_ok=True)
    (d / "x.json").write_text(json.dumps({"cases": cases}))
    return "\n".join(lint([d]))


def test_a_protocol_citation_shared_by_cases_testing_different_rules_is_refused(tmp_path: Path) -> None:
    # the old generated error cases: every one cited the card notation, whatever it tested
    tw = {"op": "trick_winner", "game": "hucklebuck", "trump": "S"}
    bad = {"error": {"code": "bad_request"}}
    cases = [
        case("hucklebuck/errors/ten", [CARDS], tw | {"plays": ["10H", "AS"]}, expect=bad),
        case("hucklebuck/errors/op", [CARDS], {"op": "shuffle", "game": "hucklebuck", "plays": ["th"]},
             expect={"error": {"code": "unsupported"}}),
        case("hucklebuck/errors/one-card", [CARDS], tw | {"plays": ["AS"]}, expect=bad),
    ]  # fmt: skip
    found = problems_of(tmp_path, "hucklebuck", cases)
    assert f'citation "{CARDS}" is shared by cases that test different rules' in found
    assert "bad_request: hucklebuck/errors/ten" in found and "unsupported: hucklebuck/errors/op" in found
    # ... and the one-card case cites the notation although every card of it is well written
    assert (
        'hucklebuck/errors/one-card: cites "protocol: notation, cards", but its request does not show it '
        "(expected: a card that is not in the notation)"
    ) in found
    assert "hucklebuck/errors/ten: cites" not in found


def test_a_protocol_citation_must_name_a_section_and_a_rule(tmp_path: Path) -> None:
    req = {"op": "trick_winner", "game": "hucklebuck", "trump": "S", "plays": ["AS", "KS"]}
    cases = [
        case("hucklebuck/errors/a", ["protocol: solve"], req, expect=0),
        case("hucklebuck/errors/b", ["protocol: cards are two characters"], req, expect=0),
        case(
            "hucklebuck/errors/c",
            ["protocol: trick_winner: the highest card of the suit led wins"],
            req,
            expect=0,
        ),
    ]
    found = problems_of(tmp_path, "hucklebuck", cases)
    assert 'hucklebuck/errors/a: citation "protocol: solve" must read' in found
    assert 'hucklebuck/errors/b: citation "protocol: cards are two characters" must read' in found
    assert "hucklebuck/errors/c: citation" not in found


def test_the_citable_sections_are_headings_of_the_protocol_page() -> None:
    text = (ROOT / "docs" / "protocol.rst").read_text(encoding="utf-8")
    headings = {
        line.replace("(optional)", "").strip().strip("`").lower()
        for line, under in zip(text.splitlines(), text.splitlines()[1:], strict=False)
        if under and set(under) <= set("-~=") and len(under) >= len(line.strip()) > 0
    }
    assert set(PROTOCOL_SECTIONS) <= headings, set(PROTOCOL_SECTIONS) - headings


def test_raw_line_cases_are_checked(tmp_path: Path) -> None:
    framing = "protocol: transport and framing: a line that is not JSON gets bad_request with id null"
    bad = {"error": {"code": "bad_request"}}
    cases = [
        case("protocol/framing/ok", [framing], raw="nope", expect=bad),
        case("protocol/framing/both", [framing], {"op": "hello"}, raw="nope", expect=bad),
        case("protocol/framing/b64", [framing], raw_b64="!!", expect=bad),
        case("protocol/framing/newline", [framing], raw="a\nb", expect=bad),
        case("protocol/framing/silent", [framing], raw="x", no_answer=True),
        case("protocol/framing/no-expect", [framing], raw="x"),
        case("protocol/framing/uncited", ["protocol: solve: x"], raw="x", expect=bad),
        case("protocol/ops/not-raw", [framing], {"op": "hello"}, expect={}),
    ]
    found = problems_of(tmp_path, "protocol", cases)
    assert "protocol/framing/ok:" not in found
    assert 'framing/both: give exactly one of "request", "raw" and "raw_b64"' in found
    assert 'framing/b64: "raw_b64" is not base64' in found
    assert "framing/newline: a raw line cannot hold a newline" in found
    assert 'framing/silent: "no_answer" is only for an empty or white-space line' in found
    assert 'framing/no-expect: needs "expect" (or "no_answer": true)' in found
    assert "framing/uncited: a raw line must cite the protocol's framing" in found
    assert 'ops/not-raw: cites "protocol: transport and framing", but its request does not show it' in found
    with pytest.raises(CaseFileError, match=r'case #2: "raw_b64" is not base64'):
        load_cases([tmp_path / "protocol"])  # the runner refuses the file too, naming the first bad case
