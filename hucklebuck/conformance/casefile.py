"""Case files of the conformance suite: reading them, and matching answers.

A case is one request and the answer the rules require (see the protocol
page, "Cases").  Most cases give the request as an object, and the runner
sends it as one JSON line with the case id as its ``id``.  A *raw-line* case
gives the exact bytes of one input line instead, so that the suite can check
the framing rules (lines that are not UTF-8, not JSON, not an object): either
``"raw"`` (a string, sent as UTF-8) or ``"raw_b64"`` (the bytes, base64).  It
expects an answer whose ``id`` is ``"answer_id"`` (default ``null``), or, with
``"no_answer": true``, no answer at all.  Whatever the line, the adapter must
then answer the next request: the runner sends a ``hello`` after every raw line
and checks that it gets its answer.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .adapter import strict_loads
from .spec import case_extensions, option_needs

__all__ = [
    "Case",
    "CaseFileError",
    "RunnerError",
    "bundled_suite_dir",
    "load_cases",
    "match",
    "show",
    "suite_info",
]


class RunnerError(Exception):
    """The run cannot give a trustworthy result (exit status 2 on the command line)."""


class CaseFileError(RunnerError):
    """A case file or folder cannot be read as a suite."""


def show(value: Any) -> str:
    """``value`` in JSON notation, as every message of the runner shows values."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return json.dumps(str(value), ensure_ascii=False)


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
    """One conformance case (a request case, or a raw-line case when ``raw`` is set)."""

    id: str
    title: str
    source: tuple[str, ...]
    decisions: tuple[str, ...]
    request: dict[str, Any]
    expect: Any
    file: str
    declared_extensions: tuple[str, ...] = ()
    #: The bytes of a raw-line case (without the ending newline); None for a request case.
    raw: bytes | None = None
    #: A raw-line case that must get no answer (an empty or white-space line).
    no_answer: bool = False
    #: The ``id`` the answer to a raw line must carry.
    answer_id: Any = None
    #: What the case file says the case needs (``"needs"``): ``"<option>=<value>"`` items.
    declared_needs: tuple[str, ...] = ()

    @property
    def group(self) -> str:
        """The first part of the id: a game, or ``protocol``."""
        return self.id.split("/")[0]

    @property
    def op(self) -> str | None:
        """The operation the request names (None for a raw line or a non-string op)."""
        op = self.request.get("op")
        return op if isinstance(op, str) else None

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

    @property
    def needs(self) -> list[str]:
        """The non-default protocol options (``"<option>=<value>"``) and the extensions
        this case needs: an adapter that refuses one of them as ``unsupported`` has
        the case skipped, whatever answer the case expects (but ``unsupported`` itself)."""
        own = set(self.declared_needs) | set(option_needs(self.request))
        return sorted(own) + sorted(self.extensions)

    @property
    def rule(self) -> str:
        """The rule the case checks, as a failure names it: its first citation."""
        cited = [*self.source, *self.decisions]
        return cited[0] if cited else "(no rule cited)"


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
        raise CaseFileError(f'cannot read case file {f}: it must be an object with a "cases" list')
    cases: list[Any] = data["cases"]
    return cases


def raw_bytes(raw: dict[str, Any]) -> bytes | None:
    """The line a raw-line case sends (None when it is a request case).

    Raises :class:`ValueError` when ``raw`` / ``raw_b64`` cannot be read.
    """
    if "raw" in raw:
        if not isinstance(raw["raw"], str):
            raise ValueError('"raw" must be a string')
        return raw["raw"].encode("utf-8")
    if "raw_b64" in raw:
        if not isinstance(raw["raw_b64"], str):
            raise ValueError('"raw_b64" must be a base64 string')
        try:
            return base64.b64decode(raw["raw_b64"], validate=True)
        except (binascii.Error, ValueError):
            raise ValueError('"raw_b64" is not base64') from None
    return None


def _case(f: Path, i: int, raw: Any) -> Case:
    where = f"case file {f}: case #{i}"
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
        raise CaseFileError(f'{where} needs an "id"')
    try:
        line = raw_bytes(raw)
    except ValueError as exc:
        raise CaseFileError(f"{where}: {exc}") from None
    if line is None and not isinstance(raw.get("request"), dict):
        raise CaseFileError(f'{where} needs a "request" object, or a raw line ("raw" or "raw_b64")')
    if line is not None and b"\n" in line:
        raise CaseFileError(f"{where}: a raw line cannot hold a newline")
    no_answer = line is not None and raw.get("no_answer") is True
    if "expect" not in raw and not no_answer:
        raise CaseFileError(f'{where} needs "expect" (or, for a raw line, "no_answer": true)')
    exts = raw.get("extensions", ())
    needs = raw.get("needs", ())
    return Case(
        id=raw["id"],
        title=str(raw.get("title", "")),
        source=tuple(raw.get("source", ())),
        decisions=tuple(raw.get("decisions", ())),
        request=raw["request"] if line is None else {},
        expect=raw.get("expect"),
        file=str(f),
        declared_extensions=tuple(exts) if isinstance(exts, list) else (),
        raw=line,
        no_answer=no_answer,
        answer_id=raw.get("answer_id"),
        declared_needs=tuple(n for n in needs if isinstance(n, str)) if isinstance(needs, list) else (),
    )


def load_cases(paths: Sequence[Path | str] = ()) -> list[Case]:
    """Load case files (``{"cases": [...]}``) from files or folders (default: the bundled suite).

    Raises :class:`CaseFileError` naming the file when one cannot be read.
    """
    return [_case(f, i, raw) for f in _case_files(paths) for i, raw in enumerate(_read_case_file(f))]


def match(pattern: Any, actual: Any, path: str = "$") -> str | None:
    """None if ``actual`` matches ``pattern``, else a description of the first mismatch."""
    if isinstance(pattern, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {show(actual)}"
        for key, sub in pattern.items():
            if key not in actual:
                return f"{path}.{key}: missing (expected {show(sub)})"
            found = match(sub, actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(pattern, list):
        if not isinstance(actual, list) or len(actual) != len(pattern):
            return f"{path}: expected {show(pattern)}, got {show(actual)}"
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
        return f"{path}: expected {show(pattern)}, got {show(actual)}"
    if pattern != actual:
        return f"{path}: expected {show(pattern)}, got {show(actual)}"
    return None
