"""The conformance runner as a CI would use it: each way a run cannot be trusted
ends with one stderr line and exit status 2; per-case timeouts name the case;
the JUnit and JSON reports; extensions the adapter did not announce are skipped."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from hucklebuck.conformance import Case, InProcessAdapter, Report, load_cases, run_cases
from hucklebuck.conformance.runner import (
    MAX_RESTARTS,
    AdapterFailure,
    CaseFileError,
    RunnerError,
    SubprocessAdapter,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PY = sys.executable
pytestmark = pytest.mark.single_core


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "hucklebuck.conformance", *args], capture_output=True, text=True, timeout=timeout
    )


def assert_refused(out: subprocess.CompletedProcess[str], message: str) -> None:
    """Exit status 2, exactly one stderr line, which is ``message``; no traceback."""
    assert out.returncode == 2, (out.returncode, out.stdout[-500:], out.stderr[-500:])
    assert out.stderr.splitlines() == [message], out.stderr
    assert "Traceback" not in out.stdout + out.stderr


# --------------------------------------------------------------- exit status 2
def test_a_selection_that_matches_nothing_is_an_error() -> None:
    out = cli("run", "--id-prefix", "hucklebuk/")
    assert_refused(out, "error: no case matches the selection (--id-prefix hucklebuk/)")
    assert_refused(
        cli("run", "--game", "deerpark", "--id-prefix", "hucklebuck/"),
        "error: no case matches the selection (--game deerpark --id-prefix hucklebuck/)",
    )


def test_an_unknown_game_is_an_error() -> None:
    out = cli("run", "--game", "euchre")
    assert_refused(out, 'error: unknown game "euchre" (the games are hucklebuck, buckem, deerpark)')


def test_unreadable_case_files_are_errors(tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent"
    expected = f"error: cannot read case file {missing}: no such file or folder"
    assert_refused(cli("run", str(missing)), expected)
    assert_refused(cli("lint", str(missing)), expected)
    broken = tmp_path / "broken.json"
    broken.write_text('{"cases": [')
    out = cli("run", str(broken))
    assert out.returncode == 2 and out.stderr.startswith(f"error: cannot read case file {broken}: not JSON (")
    assert len(out.stderr.splitlines()) == 1
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"cases": [], "note": "\xe9"}')
    assert_refused(cli("run", str(latin)), f"error: cannot read case file {latin}: not UTF-8")
    shape = tmp_path / "shape.json"
    shape.write_text("[1, 2]")
    out = cli("run", str(shape))
    assert_refused(out, f'error: cannot read case file {shape}: it must be an object with a "cases" list')
    nan = tmp_path / "nan.json"
    nan.write_text('{"cases": [{"id": "hucklebuck/x/y", "request": {"op": "hello"}, "expect": NaN}]}')
    out = cli("run", str(nan))
    assert out.returncode == 2 and "not JSON (NaN is not a JSON number)" in out.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    assert_refused(cli("run", str(empty)), f"error: no case files (*.json) under {empty}")
    with pytest.raises(CaseFileError, match="no such file or folder"):
        load_cases([missing])


def test_an_adapter_that_cannot_start_is_an_error() -> None:
    assert_refused(
        cli("run", "--adapter", "no-such-adapter-program-xyz"),
        'error: cannot start the adapter "no-such-adapter-program-xyz": No such file or directory',
    )
    assert_refused(cli("run", "--adapter", "'unbalanced"), (
        'error: cannot read the adapter command "\'unbalanced": No closing quotation'
    ))  # fmt: skip


def test_an_adapter_that_exits_at_once_is_an_error() -> None:
    out = cli("run", "--adapter", f"{PY} -c pass")
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1
    assert out.stderr.startswith("error: the adapter did not answer hello: the adapter exited (status 0)")


def test_an_adapter_of_another_protocol_version_is_refused() -> None:
    assert_refused(
        cli("run", "--adapter", f"{PY} {FIXTURES / 'old_protocol_adapter.py'}"),
        "error: protocol mismatch: the suite is protocol 3, the adapter answered 2",
    )


# ------------------------------------------------------------ timeouts, deaths
def test_a_timeout_fails_that_case_by_name_and_the_run_goes_on() -> None:
    cases = [c for c in load_cases() if c.id.startswith("hucklebuck/tricks/")][:2]
    prefixes = [arg for c in cases for arg in ("--id-prefix", c.id)]
    out = cli("run", "--adapter", f"{PY} {FIXTURES / 'slow_adapter.py'}", "--timeout", "0.5", *prefixes)
    assert out.returncode == 1, out.stderr
    for c in cases:  # each case is tried (the adapter is restarted) and named
        assert f"FAIL {c.id}: adapter failure on case {c.id}: timeout: no answer within 0.5 s" in out.stdout
    assert out.stdout.splitlines()[-1] == "0 passed, 2 failed, 0 skipped, 0 not run"


def test_after_too_many_adapter_failures_the_rest_is_not_run() -> None:
    cases = [c for c in load_cases() if c.group == "hucklebuck"][: 2 * MAX_RESTARTS + 3]
    adapter = SubprocessAdapter(f"{PY} {FIXTURES / 'dying_adapter.py'}", timeout=120)
    try:
        report = run_cases(cases, adapter)
    finally:
        adapter.close()
    failed = [m for _, m in report.failed]
    # the dying adapter answers one request and exits: the first case sees it
    # exit; each restart answers the next case as if it were hello (a mismatch)
    assert failed[0].startswith(
        f"adapter failure on case {cases[0].id}: the adapter exited (status 0) (rule: "
    )
    assert failed[1].startswith("$")  # the restarted adapter answered as if to hello
    assert len(failed) == 2 * (MAX_RESTARTS + 1) - 1
    assert [i for i, _ in report.not_run] == [c.id for c in cases[len(failed) :]]
    why = f"not run: the adapter failed {MAX_RESTARTS + 1} time(s), last on case {cases[len(failed) - 1].id}"
    assert {m for _, m in report.not_run} == {why}
    assert (
        report.summary() == f"0 passed, {len(failed)} failed, 0 skipped, {len(cases) - len(failed)} not run"
    )


def test_an_adapter_writing_nan_fails_the_case() -> None:
    cases = [c for c in load_cases() if c.id.startswith("hucklebuck/tricks/")][:1]
    adapter = SubprocessAdapter(f"{PY} {FIXTURES / 'nan_adapter.py'}", timeout=120)
    try:
        report = run_cases(cases, adapter)
    finally:
        adapter.close()
    assert "not standard JSON" in report.failed[0][1] and "NaN" in report.failed[0][1]


# ---------------------------------------------------------------- reports
def small_suite(tmp_path: Path) -> Path:
    """Four cases: one passes, one fails, two are skipped (unsupported; extension)."""
    base = {"op": "trick_winner", "game": "hucklebuck", "trump": "S", "plays": ["AH", "2S"]}
    cases: list[dict[str, Any]] = [
        {"id": "hucklebuck/tricks/passes", "title": "t", "source": ["S2: x"], "decisions": [],
         "request": base, "expect": 1},
        {"id": "hucklebuck/tricks/fails", "title": "t", "source": ["S2: x"], "decisions": [],
         "request": base, "expect": 0},
        {"id": "hucklebuck/deck/unsupported", "title": "t", "source": ["S2: x"], "decisions": [],
         "request": {"op": "deck", "game": "hucklebuck", "players": 4, "options": {"target": 12}},
         "expect": ["2C"]},
        {"id": "hucklebuck/deck/needs-extension", "title": "t", "source": ["S2: x"], "decisions": [],
         "extensions": ["hucklebuck.no_such_extension"],
         "request": {"op": "deck", "game": "hucklebuck", "players": 4}, "expect": ["2C"]},
    ]  # fmt: skip
    folder = tmp_path / "hucklebuck"
    folder.mkdir()
    (folder / "small.json").write_text(json.dumps({"cases": cases}))
    return folder


def test_junit_report_has_one_testcase_per_case(tmp_path: Path) -> None:
    suite = small_suite(tmp_path)
    xml_path = tmp_path / "junit.xml"
    out = cli("run", str(suite), "--junit-xml", str(xml_path))
    assert out.returncode == 1
    assert out.stdout.splitlines()[-1] == "1 passed, 1 failed, 2 skipped, 0 not run"
    root = ET.parse(xml_path).getroot()
    (ts,) = root.findall("testsuite")
    assert (ts.get("tests"), ts.get("failures"), ts.get("skipped")) == ("4", "1", "2")
    cases = {tc.get("name"): tc for tc in ts.findall("testcase")}
    assert list(cases) == [
        "hucklebuck/tricks/passes",
        "hucklebuck/tricks/fails",
        "hucklebuck/deck/unsupported",
        "hucklebuck/deck/needs-extension",
    ]
    assert list(cases["hucklebuck/tricks/passes"]) == []
    failure = cases["hucklebuck/tricks/fails"].find("failure")
    assert failure is not None and failure.get("message") == "$: expected 0, got 1 (rule: S2: x)"
    skip = cases["hucklebuck/deck/unsupported"].find("skipped")
    assert skip is not None and (skip.get("message") or "").startswith("unsupported: ")
    ext = cases["hucklebuck/deck/needs-extension"].find("skipped")
    assert ext is not None and ext.get("message") == (
        "needs extension hucklebuck.no_such_extension, which the adapter did not announce"
    )
    assert cases["hucklebuck/tricks/fails"].get("classname") == "hucklebuck.tricks"


def test_json_report_round_trips(tmp_path: Path) -> None:
    suite = small_suite(tmp_path)
    path = tmp_path / "report.json"
    out = cli("run", str(suite), "--json", str(path), "--backend", "python")
    assert out.returncode == 1
    data = json.loads(path.read_text())
    assert data["counts"] == {"total": 4, "passed": 1, "failed": 1, "skipped": 2, "not_run": 0}
    assert data["protocol"] == 3 and data["adapter"]["name"] == "hucklebuck"
    assert data["target"] == "our python core, in-process"
    report = Report.from_dict(data)
    assert report.to_dict() == data
    assert report.summary() == out.stdout.splitlines()[-1]
    assert report.failed == [("hucklebuck/tricks/fails", "$: expected 0, got 1 (rule: S2: x)")]
    # to stdout: the report is the only thing there, the human lines go to stderr
    out = cli("run", str(suite), "--json", "-")
    assert json.loads(out.stdout)["counts"]["passed"] == 1
    assert out.stderr.splitlines()[-1] == "1 passed, 1 failed, 2 skipped, 0 not run"
    with pytest.raises(ValueError, match="not a conformance report"):
        Report.from_dict({"cases": []})


def test_a_clean_run_with_skips_exits_zero(tmp_path: Path) -> None:
    suite = small_suite(tmp_path)
    data = json.loads((suite / "small.json").read_text())
    del data["cases"][1]
    (suite / "small.json").write_text(json.dumps(data))
    out = cli("run", str(suite))
    assert out.returncode == 0 and out.stdout.splitlines()[-1] == "1 passed, 0 failed, 2 skipped, 0 not run"


# ------------------------------------------------------------- extensions
def test_hello_announces_extensions_and_cases_needing_them_run() -> None:
    hello = InProcessAdapter().request({"id": 1, "op": "hello"})["result"]
    assert "deerpark.eight_player_turnup" in hello["extensions"]
    assert "hucklebuck.in_the_hole_reset_applies_to" in hello["extensions"]
    assert not {e.split(".", 1)[1] for e in hello["extensions"]} & {"target", "ante", "lock_at"}
    needing = [c for c in load_cases() if c.extensions]
    assert {c.id for c in needing} >= {"deerpark/deck/players-8-extension"}
    report = run_cases(needing, InProcessAdapter())
    assert report.failed == [] and len(report.passed) == len(needing)


def test_cases_needing_an_unannounced_extension_are_skipped() -> None:
    class NoExtensions(InProcessAdapter):
        def request(self, req: dict[str, Any]) -> dict[str, Any]:
            answer = super().request(req)
            if req["op"] == "hello":
                del answer["result"]["extensions"]
            return answer

    needing = [c for c in load_cases() if c.extensions]
    report = run_cases(needing, NoExtensions())
    assert report.passed == [] and len(report.skipped) == len(needing)
    assert all("which the adapter did not announce" in why for _, why in report.skipped)


def test_runner_error_from_a_broken_hello() -> None:
    class Broken:
        def request(self, req: dict[str, Any]) -> dict[str, Any]:
            return {"id": req["id"], "ok": False, "error": {"code": "unsupported", "message": "no"}}

        def close(self) -> None:
            pass

    with pytest.raises(RunnerError, match="the adapter's answer to hello is not a success"):
        run_cases(load_cases()[:1], Broken())


def test_an_unavailable_core_is_an_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import hucklebuck
    from hucklebuck.conformance.__main__ import main

    monkeypatch.setattr(hucklebuck, "available", lambda: ("python",))
    assert main(["run", "--backend", "c", "--id-prefix", "deerpark/deck/"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: the c core is not available here: ")
    assert main(["adapter", "--backend", "c"]) == 2


def test_a_report_that_cannot_be_written_is_an_error(tmp_path: Path) -> None:
    target = tmp_path / "no-such-dir" / "report.json"
    out = cli("run", "--id-prefix", "deerpark/deck/players-3", "--json", str(target))
    assert_refused(out, f"error: No such file or directory: {target}")


def test_check_schema_fails_answers_of_the_wrong_shape() -> None:
    pytest.importorskip("jsonschema", reason="jsonschema is a development dependency (the dev extra)")
    prefix = "deerpark/scoring/maker-set"
    cmd = f"{PY} {FIXTURES / 'sloppy_adapter.py'}"
    out = cli("run", "--adapter", cmd, "--id-prefix", prefix)
    assert out.returncode == 0, out.stdout  # the case does not compare restock
    out = cli("run", "--adapter", cmd, "--id-prefix", prefix, "--check-schema")
    assert out.returncode == 1
    assert f"FAIL {prefix}: schema: $.result.hands[0].restock: None is not of type 'array'" in out.stdout
    out = cli("run", "--backend", "python", "--check-schema", "--id-prefix", "deerpark/scoring/", "--quiet")
    assert out.returncode == 0 and out.stdout.splitlines()[-1].endswith(
        " passed, 0 failed, 0 skipped, 0 not run"
    )


# ------------------------------------------------------------ answer lines
ENDLESS = (
    "import sys\n"
    "for i, line in enumerate(sys.stdin):\n"
    "    if i == 0:\n"
    "        sys.stdout.write('{\"id\":\"hello\",\"ok\":true,\"result\":{}}\\n')\n"
    "        sys.stdout.flush()\n"
    "        continue\n"
    "    chunk = 'x' * (1 << 20)\n"
    "    for _ in range(24):\n"
    "        sys.stdout.write(chunk)\n"
    "    sys.stdout.flush()\n"
)


def test_an_answer_line_too_long_stops_the_adapter_and_says_so(tmp_path: Path) -> None:
    """24 MiB without a newline: the runner reads no more than 16 MiB of it, stops the
    adapter and names the fault (not a timeout)."""
    script = tmp_path / "endless.py"
    script.write_text(ENDLESS)
    adapter = SubprocessAdapter(f"{PY} {script}", timeout=120)
    try:
        assert adapter.request({"id": "hello", "op": "hello"})["ok"] is True
        with pytest.raises(AdapterFailure, match=r"^answer line too long: more than 16 MiB without a newlin"):
            adapter.request({"id": 1, "op": "hello"})
        assert adapter.proc.wait(timeout=60) != 0  # stopped, not left writing
        with pytest.raises(AdapterFailure):  # and it stays closed
            adapter.request({"id": 2, "op": "hello"})
    finally:
        adapter.close()


def test_a_case_is_skipped_when_the_adapter_refuses_an_option_it_needs() -> None:
    """An adapter that does not offer short_handed_trump=removed_card or
    simultaneous_declare answers unsupported at step 5 of the order of checks: the
    cases that need them are skipped, even those that expect another error."""
    cases = [c for c in load_cases() if c.group == "buckem"]
    must = next(c for c in cases if c.id == "buckem/short/removed-card-must-be-removed")
    assert must.expect["error"]["code"] == "bad_request"
    adapter = SubprocessAdapter(f"{PY} {FIXTURES / 'leaky_adapter.py'} refuse-options", timeout=30)
    try:
        report = run_cases(cases, adapter)
    finally:
        adapter.close()
    assert report.failed == [], report.failed[:3]
    assert must.needs == ["short_handed=true", "short_handed_trump=removed_card"]
    skipped = dict(report.skipped)
    assert "the case needs short_handed=true, short_handed_trump=removed_card" in skipped[must.id]
    assert any("simultaneous_declare=true" in why for why in skipped.values())


def test_the_lint_wants_needs_to_list_the_options_a_case_sets(tmp_path: Path) -> None:
    case = {
        "id": "buckem/x/needs", "title": "t", "source": ["S3: x"], "decisions": [],
        "request": {"op": "play", "game": "buckem", "players": 5, "options": {"ante": 2}, "hands": []},
        "expect": {},
    }  # fmt: skip
    f = tmp_path / "x.json"
    f.write_text(json.dumps({"cases": [case]}))
    out = cli("lint", "--quiet", str(f))
    assert '"needs" must list the non-default options the request sets: ["ante=2"]' in out.stdout
    f.write_text(json.dumps({"cases": [dict(case, needs=["ante=2"])]}))
    assert '"needs"' not in cli("lint", "--quiet", str(f)).stdout


def test_a_failure_names_the_rules_of_the_field_that_differs() -> None:
    """A whole-hand case citing a scoring rule first: when the dealer differs, the
    failure names the dealer's rules (DEF #31, the deal skips a player who is out) first."""
    case = next(c for c in load_cases() if c.id == "hucklebuck/end/out-at-minus-25")
    assert case.rule.startswith("S0: a player who scores -25")
    expect = json.loads(json.dumps(case.expect))
    expect["hands"][1]["dealer"] = 1  # the old dealer's left, as if the out player were not skipped
    wrong = Case(**{**case.__dict__, "expect": expect})
    report = run_cases([wrong], InProcessAdapter())
    (_, message), = report.failed  # fmt: skip
    head = "$.hands[1].dealer: expected 1, got 2 (rules of the field dealer: DEF #3, DEF #31"
    assert message.startswith(head)
    assert message.endswith(f"the case's rule: {case.rule})")
