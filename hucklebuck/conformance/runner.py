"""The conformance runner: feeds case requests to an adapter and matches answers.

An adapter is a subprocess speaking the protocol (``--adapter "CMD"``) or one of
our cores in-process.  Matching follows protocol section 5: an object pattern
matches when each of its keys matches; a list only a list of the same length,
item by item; anything else by equality.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .protocol import handle

__all__ = [
    "AdapterFailure",
    "Case",
    "InProcessAdapter",
    "Report",
    "SubprocessAdapter",
    "bundled_suite_dir",
    "load_cases",
    "match",
    "run_cases",
    "suite_info",
]


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


def load_cases(paths: Sequence[Path | str] = ()) -> list[Case]:
    """Load case files (``{"cases": [...]}``) from files or folders (default: the bundled suite)."""
    roots = [Path(p) for p in paths] or [bundled_suite_dir() / "cases"]
    files: list[Path] = []
    for root in roots:
        files.extend(sorted(root.rglob("*.json")) if root.is_dir() else [root])
    cases: list[Case] = []
    for f in files:
        data = json.loads(f.read_text(encoding="utf-8"))
        for raw in data["cases"]:
            cases.append(
                Case(
                    id=raw["id"],
                    title=raw.get("title", ""),
                    source=tuple(raw.get("source", ())),
                    decisions=tuple(raw.get("decisions", ())),
                    request=raw["request"],
                    expect=raw["expect"],
                    file=str(f),
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
            return json.loads(json.dumps(handle(wire)))  # type: ignore[no-any-return]
        with using(self.backend):
            return json.loads(json.dumps(handle(wire)))  # type: ignore[no-any-return]

    def close(self) -> None:
        """Nothing to stop."""


class SubprocessAdapter:
    """Runs an adapter command and talks JSON Lines to it, with a timeout per request."""

    def __init__(self, command: str, timeout: float = 10.0) -> None:
        """Start ``command`` (split like a shell would)."""
        self.command = command
        self.timeout = timeout
        self.proc = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def request(self, req: dict[str, Any]) -> dict[str, Any]:
        """Send one request and wait for its answer line."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise AdapterFailure(f"the adapter is not accepting input ({exc})") from None
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise AdapterFailure(f"no answer within {self.timeout:g} s (timeout)") from None
        if line is None:
            raise AdapterFailure(f"the adapter exited (status {self.proc.poll()})")
        try:
            answer = json.loads(line)
        except ValueError:
            raise AdapterFailure(f"the adapter wrote a line that is not JSON: {line[:80]!r}") from None
        if not isinstance(answer, dict):
            raise AdapterFailure(f"the adapter's answer is not an object: {line[:80]!r}")
        return answer

    def close(self) -> None:
        """Close stdin and stop the process."""
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
            self.proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


@dataclass
class Report:
    """The outcome of a run."""

    passed: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def summary(self) -> str:
        """The closing line: ``N passed, N failed`` (``, N skipped``)."""
        line = f"{len(self.passed)} passed, {len(self.failed)} failed"
        if self.skipped:
            line += f", {len(self.skipped)} skipped"
        return line


def run_cases(
    cases: Iterable[Case],
    adapter: Adapter,
    *,
    protocol: int = 1,
    log: Any = None,
) -> Report:
    """Run cases against an adapter; ``log`` (a callable) receives failure lines."""
    report = Report()
    say = log or (lambda _line: None)
    cases = list(cases)
    try:
        hello = adapter.request({"id": "hello", "op": "hello"})
    except AdapterFailure as exc:
        for c in cases:
            report.failed.append((c.id, f"adapter failed on hello: {exc}"))
        say(f"adapter failed on hello: {exc}")
        return report
    result = hello.get("result") if hello.get("ok") else None
    if not isinstance(result, dict) or result.get("protocol") != protocol:
        got = result.get("protocol") if isinstance(result, dict) else hello
        for c in cases:
            report.failed.append((c.id, f"protocol mismatch: suite {protocol}, adapter {got}"))
        say(f"protocol mismatch: the suite is protocol {protocol}, the adapter answered {got}")
        return report
    games = set(result.get("games") or [])
    ops = set(result.get("ops") or [])
    dead: str | None = None
    for c in cases:
        op = c.request.get("op")
        if dead is not None:
            report.failed.append((c.id, dead))
            continue
        if games and c.game is not None and c.game not in games:
            report.skipped.append((c.id, f"game {c.game} not supported"))
            continue
        expects_unsupported = (
            isinstance(c.expect, dict) and c.expect.get("error", {}).get("code") == "unsupported"
        )
        if ops and op not in ops and not expects_unsupported:
            report.skipped.append((c.id, f"op {op} not supported"))
            continue
        req = dict(c.request, id=c.id)
        try:
            answer = adapter.request(req)
        except AdapterFailure as exc:
            dead = f"adapter failure: {exc}"
            report.failed.append((c.id, dead))
            say(f"FAIL {c.id}: {dead}")
            continue
        expect = c.expect
        expect_error = isinstance(expect, dict) and set(expect) == {"error"}
        if answer.get("ok") is False:
            err = answer.get("error") or {}
            if not expect_error and err.get("code") == "unsupported":
                report.skipped.append((c.id, f"unsupported: {err.get('message', '')}"))
                continue
            if not expect_error:
                problem = f"$: expected a result, got error {json.dumps(err)}"
            else:
                problem = match(expect["error"], err, "$.error") or ""
        elif expect_error:
            got = json.dumps(answer.get("result"))
            problem = f"$: expected error {json.dumps(expect['error'])}, got result {got}"
        else:
            problem = match(expect, answer.get("result")) or ""
        if answer.get("id") != c.id:
            problem = problem or f"$.id: expected {c.id!r}, got {answer.get('id')!r}"
        if problem:
            report.failed.append((c.id, problem))
            say(f"FAIL {c.id}: {problem}  [{c.file}]")
        else:
            report.passed.append(c.id)
    return report
