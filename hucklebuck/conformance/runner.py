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

import json
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .adapter import strict_loads
from .protocol import PROTOCOL, handle
from .report import Report
from .spec import case_extensions

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

#: After this many adapter failures (timeouts, exits) in one run, the
#: remaining cases are not sent and fail as "not run".
MAX_RESTARTS = 3


class RunnerError(Exception):
    """The run cannot give a trustworthy result (exit status 2 on the command line)."""


class CaseFileError(RunnerError):
    """A case file or folder cannot be read as a suite."""


def bundled_suite_dir() -> Path:
    """Where the suite lives: inside an installed package, or the source tree."""
    here = Path(__file__).resolve().parent
    installed = here / "suite"
    if (installed / "cases").is_dir():
        return installed
    return here.parents[1] / "conformance"


def suite_info(suite: Path | None = None) -> dict[str, Any]:
    """The suite's version record (``suite.json``): suite version and protocol."""
    path = (suite or bundled_suite_dir()) / "suite.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@dataclass(frozen=True)
class Case:
    """One conformance case."""

    id: str
    title: str
    source: tuple[str, ...]
    decisions: tuple[str, ...]
    request: dict[str, Any]
    expect: Any
    file: str
    declared_extensions: tuple[str, ...] = ()

    @property
    def game(self) -> str | None:
        """The game the request names."""
        g = self.request.get("game")
        return g if isinstance(g, str) else None

    @property
    def option_names(self) -> set[str]:
        """Option names the request sets."""
        opts = self.request.get("options")
        return set(opts) if isinstance(opts, dict) else set()

    @property
    def extensions(self) -> set[str]:
        """Extensions (``"<game>.<option>"``) the adapter must announce for this case to run."""
        return case_extensions(self.request, self.declared_extensions)


def _case_files(paths: Sequence[Path | str]) -> list[Path]:
    roots = [Path(p) for p in paths] or [bundled_suite_dir() / "cases"]
    files: list[Path] = []
    for root in roots:
        if root.is_dir():
            found = sorted(root.rglob("*.json"))
            if not found:
                raise CaseFileError(f"no case files (*.json) under {root}")
            files.extend(found)
        elif root.is_file():
            files.append(root)
        else:
            raise CaseFileError(f"cannot read case file {root}: no such file or folder")
    return files


def _read_case_file(f: Path) -> list[Any]:
    try:
        data = strict_loads(f.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise CaseFileError(f"cannot read case file {f}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CaseFileError(f"cannot read case file {f}: not UTF-8") from None
    except (ValueError, RecursionError) as exc:
        raise CaseFileError(f"cannot read case file {f}: not JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise CaseFileError(f"cannot read case file {f}: it must be an object with a 'cases' list")
    cases: list[Any] = data["cases"]
    return cases


def load_cases(paths: Sequence[Path | str] = ()) -> list[Case]:
    """Load case files (``{"cases": [...]}``) from files or folders (default: the bundled suite).

    Raises :class:`CaseFileError` naming the file when one cannot be read.
    """
    cases: list[Case] = []
    for f in _case_files(paths):
        for i, raw in enumerate(_read_case_file(f)):
            if (
                not isinstance(raw, dict)
                or not isinstance(raw.get("id"), str)
                or not isinstance(raw.get("request"), dict)
                or "expect" not in raw
            ):
                raise CaseFileError(
                    f"case file {f}: case #{i} needs an 'id', a 'request' object and 'expect'"
                )
            exts = raw.get("extensions", ())
            cases.append(
                Case(
                    id=raw["id"],
                    title=str(raw.get("title", "")),
                    source=tuple(raw.get("source", ())),
                    decisions=tuple(raw.get("decisions", ())),
                    request=raw["request"],
                    expect=raw["expect"],
                    file=str(f),
                    declared_extensions=tuple(exts) if isinstance(exts, list) else (),
                )
            )
    return cases


def match(pattern: Any, actual: Any, path: str = "$") -> str | None:
    """None if ``actual`` matches ``pattern``, else a description of the first mismatch."""
    if isinstance(pattern, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {json.dumps(actual)}"
        for key, sub in pattern.items():
            if key not in actual:
                return f"{path}.{key}: missing (expected {json.dumps(sub)})"
            found = match(sub, actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(pattern, list):
        if not isinstance(actual, list) or len(actual) != len(pattern):
            return f"{path}: expected {json.dumps(pattern)}, got {json.dumps(actual)}"
        for i, (p, a) in enumerate(zip(pattern, actual, strict=True)):
            found = match(p, a, f"{path}[{i}]")
            if found:
                return found
        return None
    if type(pattern) is not type(actual) and not (
        isinstance(pattern, (int, float))
        and isinstance(actual, (int, float))
        and not isinstance(pattern, bool)
        and not isinstance(actual, bool)
    ):
        return f"{path}: expected {json.dumps(pattern)}, got {json.dumps(actual)}"
    if pattern != actual:
        return f"{path}: expected {json.dumps(pattern)}, got {json.dumps(actual)}"
    return None


class AdapterFailure(Exception):
    """The adapter timed out, died, or wrote something that is not an answer."""


class Adapter(Protocol):
    """Something that answers protocol requests."""

    def request(self, req: dict[str, Any]) -> dict[str, Any]:
        """Send one request and return its answer."""
        ...

    def close(self) -> None:
        """Stop the adapter."""
        ...


class InProcessAdapter:
    """Answers with :func:`hucklebuck.conformance.protocol.handle` on a chosen core."""

    def __init__(self, backend: str | None = None) -> None:
        """``backend``: ``"c"``, ``"python"`` or None for the active core."""
        self.backend = backend

    def request(self, req: dict[str, Any]) -> dict[str, Any]:
        """Answer one request (it goes through JSON, as over the wire)."""
        from .._core import using

        wire = json.loads(json.dumps(req))
        if self.backend is None:
            return json.loads(json.dumps(handle(wire), allow_nan=False))  # type: ignore[no-any-return]
        with using(self.backend):
            return json.loads(json.dumps(handle(wire), allow_nan=False))  # type: ignore[no-any-return]

    def close(self) -> None:
        """Nothing to stop."""


class SubprocessAdapter:
    """Runs an adapter command and talks JSON Lines to it, with a timeout per request.

    Raises :class:`RunnerError` when the command cannot be started at all.
    """

    def __init__(self, command: str, timeout: float = 10.0) -> None:
        """Start ``command`` (split like a shell would)."""
        self.command = command
        self.timeout = timeout
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise RunnerError(f"cannot read the adapter command {command!r}: {exc}") from None
        if not self.argv:
            raise RunnerError("the adapter command is empty")
        self._start()

    def _start(self) -> None:
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as exc:
            why = exc.strerror or str(exc)
            raise RunnerError(f"cannot start the adapter {self.command!r}: {why}") from None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True).start()

    @staticmethod
    def _read(proc: subprocess.Popen[bytes], lines: queue.Queue[bytes | None]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    def restart(self) -> None:
        """Kill the adapter (a hung one would not read its end of input) and start it again."""
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
        except OSError:
            pass
        self.proc.kill()
        self.proc.wait()
        self._start()

    def request(self, req: dict[str, Any]) -> dict[str, Any]:
        """Send one request and wait for its answer line."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(req).encode("utf-8") + b"\n")
            self.proc.stdin.flush()
        except OSError as exc:
            try:
                status = self.proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                raise AdapterFailure(f"the adapter is not accepting input ({exc})") from None
            raise AdapterFailure(f"the adapter exited (status {status})") from None
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise AdapterFailure(f"timeout: no answer within {self.timeout:g} s") from None
        if line is None:
            try:
                code = str(self.proc.wait(timeout=1))
            except subprocess.TimeoutExpired:
                code = "unknown: it closed its output"
            raise AdapterFailure(f"the adapter exited (status {code})")
        try:
            answer = strict_loads(line.decode("utf-8"))
        except (ValueError, RecursionError):
            bad = line[:80]
            raise AdapterFailure(f"the adapter wrote a line that is not standard JSON: {bad!r}") from None
        if not isinstance(answer, dict):
            raise AdapterFailure(f"the adapter's answer is not an object: {line[:80]!r}")
        return answer

    def close(self) -> None:
        """Close stdin and stop the process."""
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def check_hello(adapter: Adapter, protocol: int) -> dict[str, Any]:
    """Send ``hello`` and return its result; :class:`RunnerError` if the adapter
    does not answer it, or speaks another protocol version."""
    try:
        hello = adapter.request({"id": "hello", "op": "hello"})
    except AdapterFailure as exc:
        raise RunnerError(f"the adapter did not answer hello: {exc}") from None
    result = hello.get("result") if hello.get("ok") is True else None
    if not isinstance(result, dict):
        raise RunnerError(f"the adapter's answer to hello is not a success: {json.dumps(hello)[:200]}")
    if result.get("protocol") != protocol:
        got = json.dumps(result.get("protocol"))
        raise RunnerError(f"protocol mismatch: the suite is protocol {protocol}, the adapter answered {got}")
    return result


def _judge(case: Case, answer: dict[str, Any]) -> tuple[str, str]:
    """``(status, message)`` for one answer."""
    expect = case.expect
    expect_error = isinstance(expect, dict) and set(expect) == {"error"}
    if answer.get("ok") is False:
        err = answer.get("error") or {}
        if not expect_error and isinstance(err, dict) and err.get("code") == "unsupported":
            return "skipped", f"unsupported: {err.get('message', '')}"
        if not expect_error:
            problem = f"$: expected a result, got error {json.dumps(err)}"
        else:
            problem = match(expect["error"], err, "$.error") or ""
    elif answer.get("ok") is not True:
        problem = f"$.ok: expected true or false, got {json.dumps(answer.get('ok'))}"
    elif expect_error:
        got = json.dumps(answer.get("result"))
        problem = f"$: expected error {json.dumps(expect['error'])}, got result {got}"
    else:
        problem = match(expect, answer.get("result")) or ""
    if answer.get("id") != case.id:
        problem = problem or f"$.id: expected {case.id!r}, got {answer.get('id')!r}"
    return ("failed", problem) if problem else ("passed", "")


def _skip_reason(case: Case, games: set[str], ops: set[str], exts: set[str]) -> str | None:
    op = case.request.get("op")
    if games and case.game is not None and case.game not in games:
        return f"game {case.game} not supported"
    expects_unsupported = (
        isinstance(case.expect, dict)
        and isinstance(case.expect.get("error"), dict)
        and case.expect["error"].get("code") == "unsupported"
    )
    if ops and op not in ops and not expects_unsupported:
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
) -> Report:
    """Run cases against an adapter; ``log`` (a callable) receives failure lines.

    Raises :class:`RunnerError` when the adapter does not answer ``hello`` with
    this protocol version.  A timeout or an adapter that dies fails that case
    (the message names it); a subprocess adapter is then restarted, up to
    :data:`MAX_RESTARTS` times, after which the remaining cases fail as not run.
    With ``check_schema`` (needs the ``jsonschema`` package) an answer that does
    not match the answer schema of its op fails even when it matches the case.
    """
    say = log or (lambda _line: None)
    checker = None
    if check_schema:
        from .schemas import AnswerChecker

        try:
            checker = AnswerChecker()
        except ImportError as exc:
            raise RunnerError(str(exc)) from None
    hello = check_hello(adapter, protocol)
    report = Report(protocol=protocol, adapter=hello)
    games = {g for g in hello.get("games") or [] if isinstance(g, str)}
    ops = {o for o in hello.get("ops") or [] if isinstance(o, str)}
    exts = {e for e in hello.get("extensions") or [] if isinstance(e, str)}
    failures = 0
    dead: str | None = None
    for c in cases:
        if dead is not None:
            report.add(c.id, "failed", dead, c.file)
            continue
        reason = _skip_reason(c, games, ops, exts)
        if reason is not None:
            report.add(c.id, "skipped", reason, c.file)
            continue
        began = time.perf_counter()
        try:
            answer = adapter.request(dict(c.request, id=c.id))
        except AdapterFailure as exc:
            failures += 1
            problem = f"adapter failure on case {c.id}: {exc}"
            report.add(c.id, "failed", problem, c.file, time.perf_counter() - began)
            say(f"FAIL {c.id}: {problem}")
            restart = getattr(adapter, "restart", None)
            if failures > MAX_RESTARTS or restart is None:
                dead = f"not run: the adapter failed {failures} time(s), last on case {c.id}"
            else:
                try:
                    restart()
                except RunnerError as err:
                    dead = f"not run: {err}"
            continue
        status, problem = _judge(c, answer)
        if checker is not None and status != "failed":
            shape = checker.problem(c.request.get("op"), answer)
            if shape is not None:
                status, problem = "failed", shape
        report.add(c.id, status, problem, c.file, time.perf_counter() - began)  # type: ignore[arg-type]
        if status == "failed":
            say(f"FAIL {c.id}: {problem}  [{c.file}]")
    return report
