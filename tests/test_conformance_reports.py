"""The runner tells the whole truth, and its reports agree: the summary line,
the JSON report and the JUnit XML report count passed, failed, skipped and
not-run cases alike; the adapter's stderr is kept with the case it came with;
the ``unsupported`` exemption is only for cases of unknown operations; every
message is in JSON notation."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from hucklebuck.conformance import InProcessAdapter, load_cases, run_cases
from hucklebuck.conformance.report import Report

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PY = sys.executable
pytestmark = pytest.mark.single_core


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "hucklebuck.conformance", *args], capture_output=True, text=True, timeout=timeout
    )


def junit_counts(path: Path) -> dict[str, int]:
    (ts,) = ET.parse(path).getroot().findall("testsuite")
    counts = {k: int(ts.get(k) or 0) for k in ("tests", "failures", "skipped", "errors")}
    return counts


def agree(out: subprocess.CompletedProcess[str], json_path: Path, xml_path: Path) -> dict[str, int]:
    """The summary line, the JSON counts and the JUnit counts say the same; the counts."""
    data = json.loads(json_path.read_text())
    c = data["counts"]
    line = f"{c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped, {c['not_run']} not run"
    assert out.stdout.splitlines()[-1] == line == data["summary"]
    assert c["total"] == c["passed"] + c["failed"] + c["skipped"] + c["not_run"] == len(data["cases"])
    j = junit_counts(xml_path)
    assert (j["tests"], j["failures"], j["skipped"], j["errors"]) == (
        c["total"],
        c["failed"],
        c["skipped"],
        c["not_run"],
    )
    assert Report.from_dict(data).summary() == line
    return dict(c)


def test_a_dead_adapter_leaves_cases_not_run_and_skips_stay_skipped(tmp_path: Path) -> None:
    tricks = [c.id for c in load_cases() if c.id.startswith("hucklebuck/tricks/")][:6]
    others = ["deerpark/tricks/random-00", "buckem/tricks/random-00", "hucklebuck/deck/players-3"]
    args = [a for cid in tricks + others for a in ("--id-prefix", cid)]
    j, x = tmp_path / "r.json", tmp_path / "r.xml"
    out = cli("run", "--adapter", f"{PY} {FIXTURES / 'mortal_adapter.py'}", *args, "--json", str(j),
              "--junit-xml", str(x))  # fmt: skip
    assert out.returncode == 1, out.stderr
    counts = agree(out, j, x)
    # four deaths (three restarts), two tricks never sent; the other games and the deck op stay skipped
    assert counts == {"total": 9, "passed": 0, "failed": 4, "skipped": 3, "not_run": 2}
    assert out.stdout.count("\nFAIL ") + out.stdout.startswith("FAIL ") == 4
    assert "NOT RUN: 2 case(s): not run: the adapter failed 4 time(s)" in out.stdout
    cases = {c["id"]: c for c in json.loads(j.read_text())["cases"]}
    assert {cases[i]["status"] for i in tricks[4:]} == {"not_run"}
    assert {cases[i]["status"] for i in others} == {"skipped"}
    root = ET.parse(x).getroot()
    errors = [tc.get("name") for tc in root.iter("testcase") if tc.find("error") is not None]
    assert errors == tricks[4:]


def test_the_adapters_stderr_is_shown_with_its_case_and_in_both_reports(tmp_path: Path) -> None:
    first = next(c.id for c in load_cases() if c.id.startswith("hucklebuck/tricks/"))
    j, x = tmp_path / "r.json", tmp_path / "r.xml"
    out = cli("run", "--adapter", f"{PY} {FIXTURES / 'mortal_adapter.py'}", "--id-prefix", first,
              "--json", str(j), "--junit-xml", str(x))  # fmt: skip
    said = f"mortal adapter: giving up on {first}"
    assert f"  adapter stderr:\n    {said}" in out.stdout
    agree(out, j, x)
    (case,) = json.loads(j.read_text())["cases"]
    assert case["stderr"] == said + "\n"
    tc = next(ET.parse(x).getroot().iter("testcase"))
    assert (tc.findtext("system-err") or "").strip() == said


def test_unsupported_is_a_skip_only_for_an_unknown_operation() -> None:
    class NoPlay(InProcessAdapter):
        """Our core, offering every op but play (and answering play unsupported)."""

        def request(self, req: dict[str, Any]) -> dict[str, Any]:
            if req["op"] == "play":
                return {"id": req["id"], "ok": False, "error": {"code": "unsupported", "message": "no play"}}
            answer = super().request(req)
            if req["op"] == "hello":
                answer["result"]["ops"].remove("play")
            return answer

    wanted = ["deerpark/errors/option-first-lead", "protocol/ops/unknown-op", "protocol/ops/to-string"]
    cases = [c for c in load_cases() if c.id in wanted]
    assert len(cases) == 3 and cases[0].expect == {"error": {"code": "unsupported"}}
    report = run_cases(cases, NoPlay())
    assert report.skipped == [("deerpark/errors/option-first-lead", "op play not supported")]
    assert sorted(report.passed) == ["protocol/ops/to-string", "protocol/ops/unknown-op"]


def test_cases_of_unknown_or_missing_games_run_whatever_games_the_adapter_lists() -> None:
    class HucklebuckOnly(InProcessAdapter):
        def request(self, req: dict[str, Any]) -> dict[str, Any]:
            answer = super().request(req)
            if req["op"] == "hello":
                answer["result"]["games"] = ["hucklebuck"]
            return answer

    cases = [c for c in load_cases() if c.id.startswith("protocol/games/")]
    report = run_cases(cases, HucklebuckOnly())
    assert report.skipped == [] and report.failed == [] and len(report.passed) == len(cases) >= 9


def test_messages_are_in_json_notation() -> None:
    case = next(c for c in load_cases() if c.id.startswith("hucklebuck/tricks/"))
    out = cli("run", "--adapter", f"{PY} {FIXTURES / 'nan_adapter.py'}", "--id-prefix", case.id)
    line = next(x for x in out.stdout.splitlines() if x.startswith("FAIL "))
    assert 'not standard JSON: "' in line and "b'" not in line, line
    report = run_cases([c for c in load_cases() if c.id == "protocol/framing/missing-op"], WrongNull())
    (message,) = [m for _, m in report.failed]
    assert message.startswith('$.id: expected null, got "protocol/framing/missing-op"'), message
    assert "None" not in message


class WrongNull(InProcessAdapter):
    """Echoes the id of a request without op (the protocol says null)."""

    def exchange_raw(self, line: bytes, probe: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        answers, after = super().exchange_raw(line, probe)
        for a in answers:
            a["id"] = json.loads(line).get("id")
        return answers, after


def test_the_header_names_the_core_and_help_states_defaults() -> None:
    out = cli("run", "--backend", "python", "--id-prefix", "hucklebuck/tricks/random-00")
    assert out.stdout.splitlines()[0].endswith("1 cases against our python core, in-process"), out.stdout
    out = cli("run", "--adapter", f"{PY} -m hucklebuck.conformance adapter --backend python",
              "--id-prefix", "hucklebuck/tricks/random-00")  # fmt: skip
    assert "(hucklebuck " in out.stdout.splitlines()[0] and ", python core)" in out.stdout.splitlines()[0]
    helptext = cli("run", "--help").stdout
    assert "(default: 10)" in helptext and "default: the bundled suite" in helptext


def test_check_schema_without_jsonschema_names_the_package() -> None:
    code = (
        "import sys; sys.modules['jsonschema'] = None\n"
        "from hucklebuck.conformance.__main__ import main\n"
        "sys.exit(main(['run', '--check-schema', '--id-prefix', 'hucklebuck/tricks/random-00']))"
    )
    out = subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.strip().endswith("needs the jsonschema package: pip install jsonschema"), out.stderr
