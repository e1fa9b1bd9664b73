"""The conformance runner: feeds case requests to an adapter and matches answers.

An adapter is a subprocess speaking the protocol (``--adapter "CMD"``) or one of
our cores in-process.  Matching: an object pattern matches when each of its
keys matches; a list only a list of the same length, item by item; anything
else by equality (``true`` is not ``1``).

Problems that make a run meaningless (a case file that cannot be read, an
adapter that cannot be started or that does not answer ``hello`` with our
protocol version) raise :class:`RunnerError`; the command line turns it into
one line on stderr and exit status 2.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from .casefile import (
    Case,
    CaseFileError,
    RunnerError,
    _case_files,
    bundled_suite_dir,
    load_cases,
    match,
    show,
    suite_info,
)
from .connection import Adapter, AdapterFailure, InProcessAdapter, SubprocessAdapter
from .fields import field_rules
from .protocol import PROTOCOL
from .report import Report
from .spec import GAMES, OPS

__all__ = [
    "AdapterFailure",
    "Case",
    "CaseFileError",
    "InProcessAdapter",
    "Report",
    "RunnerError",
    "SubprocessAdapter",
    "bundled_suite_dir",
    "load_cases",
    "match",
    "run_cases",
    "suite_info",
]

_ = _case_files  # re-exported for the lint

#: After this many adapter failures (timeouts, exits) in one run, the
#: remaining cases are not sent: they are reported as not run.
MAX_RESTARTS = 3


def check_hello(adapter: Adapter, protocol: int) -> dict[str, Any]:
    """Send ``hello`` and return its result; :class:`RunnerError` if the adapter
    does not answer it, or speaks another protocol version."""
    try:
        hello = adapter.request({"id": "hello", "op": "hello"})
    except AdapterFailure as exc:
        raise RunnerError(f"the adapter did not answer hello: {exc}{_last_words(adapter)}") from None
    result = hello.get("result") if hello.get("ok") is True else None
    if not isinstance(result, dict):
        raise RunnerError(f"the adapter's answer to hello is not a success: {show(hello)[:200]}")
    if result.get("protocol") != protocol:
        got = show(result.get("protocol"))
        raise RunnerError(f"protocol mismatch: the suite is protocol {protocol}, the adapter answered {got}")
    return result


def _last_words(adapter: Adapter) -> str:
    """``; its standard error ended: ...`` (one line), or nothing."""
    take = getattr(adapter, "take_stderr", None)
    text = take(0.5) if take is not None else ""
    lines = [x for x in text.splitlines() if x.strip()]
    return f"; its standard error ended: {show(lines[-1][:300])}" if lines else ""


def _expected_error(case: Case) -> dict[str, Any] | None:
    e = case.expect
    if isinstance(e, dict) and set(e) == {"error"} and isinstance(e["error"], dict):
        return e["error"]
    return None


def _judge_answer(case: Case, answer: dict[str, Any], want_id: Any) -> tuple[str, str]:
    """``(status, problem)`` for the answer to one case."""
    expect_error = _expected_error(case)
    if answer.get("ok") is False:
        err = answer.get("error") or {}
        code = err.get("code") if isinstance(err, dict) else None
        if code == "unsupported" and (expect_error is None or expect_error.get("code") != "unsupported"):
            needs = f" (the case needs {', '.join(case.needs)})" if case.needs else ""
            if expect_error is None or needs:  # refused at the options: the case needs what is not offered
                return "skipped", f"unsupported: {err.get('message', '')}{needs}"
        if expect_error is None:
            problem = f"$: expected a result, got error {show(err)}"
        else:
            problem = match(expect_error, err, "$.error") or ""
    elif answer.get("ok") is not True:
        problem = f"$.ok: expected true or false, got {show(answer.get('ok'))}"
    elif expect_error is not None:
        got = show(answer.get("result"))
        problem = f"$: expected error {show(expect_error)}, got result {got}"
    else:
        problem = match(case.expect, answer.get("result")) or ""
    if "id" not in answer:
        problem = problem or f"$.id: missing (expected {show(want_id)})"
    elif answer.get("id") != want_id or type(answer.get("id")) is not type(want_id):
        problem = problem or f"$.id: expected {show(want_id)}, got {show(answer.get('id'))}"
    return ("failed", problem) if problem else ("passed", "")


def _judge_raw(
    case: Case, answers: list[dict[str, Any]], probe: dict[str, Any], probe_id: str
) -> tuple[str, str]:
    """``(status, problem)`` for a raw line: its answers, then the probe's."""
    if case.no_answer:
        status, problem = (
            ("passed", "") if not answers else ("failed", f"expected no answer, got {show(answers[0])[:200]}")
        )
    elif len(answers) != 1:
        status, problem = "failed", f"expected one answer, got {len(answers)}"
    else:
        status, problem = _judge_answer(case, answers[0], case.answer_id)
        if status == "skipped":  # a raw line is never the adapter's to skip
            status, problem = "failed", f"$: expected a result, got error {show(answers[0].get('error'))}"
    if status == "passed" and not (probe.get("ok") is True and probe.get("id") == probe_id):
        status, problem = "failed", f"the next request (hello) was not answered: got {show(probe)[:200]}"
    return status, problem


def _skip_reason(case: Case, games: set[str], ops: set[str], exts: set[str]) -> str | None:
    """Why the adapter is not asked this case (None: it is).

    A raw line is asked of every adapter.  A case of a game the adapter does not
    list is skipped, and so is one of an operation it does not list, but never
    one whose game or op is not in the protocol at all: those cases check that
    the adapter answers ``unsupported``, so the exemption is only theirs.
    """
    if case.raw is not None:
        return None
    op, game = case.op, case.game
    if games and game in GAMES and game not in games:
        return f"game {game} not supported"
    if games and case.group in GAMES and case.group not in games:
        return f"game {case.group} not supported"
    if ops and op in OPS and op not in ops:
        return f"op {op} not supported"
    missing = sorted(case.extensions - exts)
    if missing:
        return f"needs extension {', '.join(missing)}, which the adapter did not announce"
    return None


def run_cases(
    cases: Iterable[Case],
    adapter: Adapter,
    *,
    protocol: int = PROTOCOL,
    log: Callable[[str], object] | None = None,
    check_schema: bool = False,
    hello: dict[str, Any] | None = None,
) -> Report:
    """Run cases against an adapter; ``log`` (a callable) receives failure lines.

    Raises :class:`RunnerError` when the adapter does not answer ``hello`` with
    this protocol version (``hello``: its result, when the caller already asked).
    A timeout or an adapter that dies fails that case (the message names it); a
    subprocess adapter is then restarted, up to :data:`MAX_RESTARTS` times, after
    which the remaining cases are *not run* (those the adapter would skip are
    still skipped).  A failure names the case's rule (its first citation) and
    shows what the adapter wrote to standard error meanwhile.  With
    ``check_schema`` (needs the ``jsonschema`` package) an answer that does not
    match the answer schema of its op fails even when it matches the case.
    """
    say = log or (lambda _line: None)
    checker = None
    if check_schema:
        from .schemas import AnswerChecker

        try:
            checker = AnswerChecker()
        except ImportError as exc:
            raise RunnerError(str(exc)) from None
    if hello is None:
        hello = check_hello(adapter, protocol)
    report = Report(protocol=protocol, adapter=hello)
    games = {g for g in hello.get("games") or [] if isinstance(g, str)}
    ops = {o for o in hello.get("ops") or [] if isinstance(o, str)}
    exts = {e for e in hello.get("extensions") or [] if isinstance(e, str)}
    take_stderr: Callable[[float], str] = getattr(adapter, "take_stderr", lambda _settle: "")
    take_stderr(0.0)  # what came before the first case (hello) is not a case's
    failures = 0
    dead: str | None = None
    not_run = 0
    for c in cases:
        reason = _skip_reason(c, games, ops, exts)
        if reason is not None:
            report.add(c.id, "skipped", reason, c.file)
            continue
        if dead is not None:
            report.add(c.id, "not_run", dead, c.file)
            not_run += 1
            continue
        began = time.perf_counter()
        try:
            if c.raw is not None:
                probe_id = f"{c.id} (next request)"
                answers, probe = adapter.exchange_raw(c.raw, {"id": probe_id, "op": "hello"})  # type: ignore[attr-defined]
                status, problem = _judge_raw(c, answers, probe, probe_id)
                answer = answers[0] if len(answers) == 1 else None
            else:
                answer = adapter.request(dict(c.request, id=c.id))
                status, problem = _judge_answer(c, answer, c.id)
        except AdapterFailure as exc:
            failures += 1
            problem = f"adapter failure on case {c.id}: {exc} (rule: {c.rule})"
            stderr = take_stderr(0.5)
            report.add(c.id, "failed", problem, c.file, time.perf_counter() - began, stderr)
            say(f"FAIL {c.id}: {problem}" + _indented(stderr))
            restart = getattr(adapter, "restart", None)
            if failures > MAX_RESTARTS or restart is None:
                dead = f"not run: the adapter failed {failures} time(s), last on case {c.id}"
            else:
                try:
                    restart()
                except RunnerError as err:
                    dead = f"not run: {err}"
            continue
        if checker is not None and status != "failed" and answer is not None:
            shape = checker.problem(c.op, answer)
            if shape is not None:
                status, problem = "failed", shape
        if status == "failed":
            problem = _with_rules(c, problem)
        stderr = take_stderr(0.05 if status == "failed" else 0.0)
        report.add(c.id, status, problem, c.file, time.perf_counter() - began, stderr)  # type: ignore[arg-type]
        if status == "failed":
            say(f"FAIL {c.id}: {problem}  [{c.file}]" + _indented(stderr))
    if not_run:
        say(f"NOT RUN: {not_run} case(s): {dead}")
    return report


def _with_rules(case: Case, problem: str) -> str:
    """``problem`` followed by the rules to read first: those of the field that differs
    (:func:`~hucklebuck.conformance.fields.field_rules`), then the case's own rule."""
    found = field_rules(case.game or case.group, problem)
    if found is None:
        return f"{problem} (rule: {case.rule})"
    name, rules = found
    return f"{problem} (rules of the field {name}: {', '.join(rules)}; the case's rule: {case.rule})"


def _indented(stderr: str) -> str:
    if not stderr.strip():
        return ""
    return "\n  adapter stderr:\n" + "\n".join(f"    {line}" for line in stderr.rstrip("\n").splitlines())
