"""Connections to an adapter: a subprocess speaking the protocol, or our core in-process.

Both send a request object (:meth:`~SubprocessAdapter.request`) or the exact
bytes of one raw line followed by a ``hello`` probe
(:meth:`~SubprocessAdapter.exchange_raw`), and keep what the adapter wrote to
its standard error since it was last asked (:meth:`~SubprocessAdapter.take_stderr`).
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import threading
import time
from typing import Any, Protocol

from .adapter import answer_line, encode_answer, strict_loads
from .casefile import RunnerError, show
from .protocol import handle

__all__ = ["Adapter", "AdapterFailure", "InProcessAdapter", "SubprocessAdapter"]

#: At most this many characters of an adapter's standard error are kept per case (the end of it).
STDERR_KEEP = 8000
#: The longest answer line read (16 MiB, the newline not counted): an adapter that writes more
#: without a newline is stopped, and its request fails with "answer line too long".
MAX_LINE = 16 * 1024 * 1024
_TOO_LONG = b"\0too long"  # put in the line queue in place of an over-long line (no real line is this)


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


def _decode_answer(line: bytes) -> dict[str, Any]:
    try:
        answer = strict_loads(line.decode("utf-8"))
    except (ValueError, RecursionError):
        bad = line[:80].decode("utf-8", "replace").rstrip("\n")
        raise AdapterFailure(f"the adapter wrote a line that is not standard JSON: {show(bad)}") from None
    if not isinstance(answer, dict):
        bad = line[:80].decode("utf-8", "replace").rstrip("\n")
        raise AdapterFailure(f"the adapter's answer is not an object: {show(bad)}")
    return answer


class InProcessAdapter:
    """Answers with :func:`hucklebuck.conformance.protocol.handle` on a chosen core."""

    def __init__(self, backend: str | None = None) -> None:
        """``backend``: ``"c"``, ``"python"`` or None for the active core."""
        self.backend = backend

    @property
    def core(self) -> str:
        """The name of the core that answers."""
        from .._core import get_core

        return self.backend or get_core().name

    def request(self, req: dict[str, Any]) -> dict[str, Any]:
        """Answer one request (it goes through JSON, as over the wire)."""
        return self.request_line(req)[1]

    def request_line(self, req: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """Answer one request: the answer line as the reference adapter writes it, and its value."""
        from .._core import using

        wire = json.loads(json.dumps(req))
        if self.backend is None:
            text = encode_answer(handle(wire))
        else:
            with using(self.backend):
                text = encode_answer(handle(wire))
        return text, json.loads(text)

    def exchange_raw(self, line: bytes, probe: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The answers to one raw line (none or one), then the answer to ``probe``."""
        from .._core import using

        if self.backend is None:
            text = answer_line(line)
        else:
            with using(self.backend):
                text = answer_line(line)
        answers = [] if text is None else [_decode_answer(text.encode("ascii"))]
        return answers, self.request(probe)

    def take_stderr(self, settle: float = 0.0) -> str:
        """In-process, nothing is written to standard error."""
        return ""

    def close(self) -> None:
        """Nothing to stop."""


class SubprocessAdapter:
    """Runs an adapter command and talks JSON Lines to it, with a timeout per request.

    What the adapter writes to standard error is kept (the last
    :data:`STDERR_KEEP` characters since :meth:`take_stderr` was last called).
    Raises :class:`RunnerError` when the command cannot be started at all.
    """

    def __init__(self, command: str, timeout: float = 10.0) -> None:
        """Start ``command`` (split like a shell would)."""
        self.command = command
        self.timeout = timeout
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise RunnerError(f"cannot read the adapter command {show(command)}: {exc}") from None
        if not self.argv:
            raise RunnerError("the adapter command is empty")
        self._err = bytearray()
        self._err_lock = threading.Lock()
        self._start()

    def _start(self) -> None:
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
        except OSError as exc:
            why = exc.strerror or str(exc)
            raise RunnerError(f"cannot start the adapter {show(self.command)}: {why}") from None
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True).start()
        self._err_reader = threading.Thread(target=self._read_err, args=(self.proc,), daemon=True)
        self._err_reader.start()

    @staticmethod
    def _read(proc: subprocess.Popen[bytes], lines: queue.Queue[bytes | None]) -> None:
        """Read answer lines of at most :data:`MAX_LINE` bytes; stop the adapter at a longer one."""
        assert proc.stdout is not None
        read = proc.stdout.readline
        while True:
            line = read(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE and not (len(line) == MAX_LINE + 1 and line.endswith(b"\n")):
                lines.put(_TOO_LONG)
                proc.kill()
                return
            lines.put(line)
        lines.put(None)

    def _read_err(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stderr is not None
        fd = proc.stderr.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self._err_lock:
                self._err += chunk
                if len(self._err) > 4 * STDERR_KEEP:
                    del self._err[: len(self._err) - 2 * STDERR_KEEP]

    def take_stderr(self, settle: float = 0.0) -> str:
        """What the adapter wrote to standard error since the last call (its end,
        when long).  ``settle``: seconds to wait first for what is still on its way
        (the whole of it, if the adapter has exited)."""
        if settle > 0:
            if self.proc.poll() is not None:
                self._err_reader.join(timeout=max(settle, 1.0))
            else:
                time.sleep(settle)
        with self._err_lock:
            data = bytes(self._err)
            self._err.clear()
        text = data.decode("utf-8", "replace")
        if len(text) > STDERR_KEEP:
            text = f"[... {len(text) - STDERR_KEEP} characters left out]\n" + text[-STDERR_KEEP:]
        return text

    def restart(self) -> None:
        """Kill the adapter (a hung one would not read its end of input) and start it again."""
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
        except OSError:
            pass
        self.proc.kill()
        self.proc.wait()
        self._err_reader.join(timeout=1.0)
        self._start()

    def _write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except OSError as exc:
            try:
                status = self.proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                raise AdapterFailure(f"the adapter is not accepting input ({exc})") from None
            raise AdapterFailure(f"the adapter exited (status {status})") from None

    def _next_line(self, deadline: float) -> bytes:
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AdapterFailure(f"timeout: no answer within {self.timeout:g} s") from None
        if line is None:
            self.lines.put(None)  # stays closed for whoever reads next
            try:
                code = str(self.proc.wait(timeout=1))
            except subprocess.TimeoutExpired:
                code = "unknown: it closed its output"
            raise AdapterFailure(f"the adapter exited (status {code})")
        if line is _TOO_LONG:
            self.lines.put(None)  # the adapter was stopped: it stays closed for whoever reads next
            mib = MAX_LINE // (1024 * 1024)
            raise AdapterFailure(
                f"answer line too long: more than {mib} MiB without a newline (the adapter was stopped)"
            )
        return line

    def request(self, req: dict[str, Any]) -> dict[str, Any]:
        """Send one request and wait for its answer line."""
        return self.request_line(req)[1]

    def request_line(self, req: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """Send one request; its answer line as the adapter wrote it (without the line
        end, undecodable bytes replaced) and its value."""
        self._write(json.dumps(req).encode("utf-8") + b"\n")
        line = self._next_line(time.monotonic() + self.timeout)
        return line.rstrip(b"\r\n").decode("utf-8", "replace"), _decode_answer(line)

    def exchange_raw(self, line: bytes, probe: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Send one raw line and then ``probe``; return the answers that came
        before the probe's (an adapter should write none or one) and the probe's.

        A line that is empty or white space is due no answer, any other one.
        When the last answer read is not the probe's, a second more is read (the
        adapter answered a line it should not have), to stay in step.
        """
        self._write(line + b"\n" + json.dumps(probe).encode("utf-8") + b"\n")
        deadline = time.monotonic() + self.timeout
        expected = 1 if not line.strip() else 2
        got = [_decode_answer(self._next_line(deadline)) for _ in range(expected)]
        grace = time.monotonic() + min(1.0, self.timeout)
        while got[-1].get("id") != probe["id"] and len(got) <= expected + 1:
            try:  # one more answer than due: read on until the probe's, to stay in step
                got.append(_decode_answer(self._next_line(grace)))
            except AdapterFailure:
                break
        return got[:-1], got[-1]

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
