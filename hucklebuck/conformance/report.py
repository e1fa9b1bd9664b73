"""The outcome of a conformance run, and the files it can be written to.

A :class:`Report` holds one :class:`CaseResult` per case that was selected:
``passed``, ``failed`` (with the first mismatching path, or what went wrong
with the adapter), ``skipped`` (the adapter answered ``unsupported``, or did
not announce the op, game or extension the case needs) or ``not_run`` (the
adapter had died for good before the case's turn).  Each result keeps what the
adapter wrote to its standard error while the case ran.  The summary line, the
JSON report and the JUnit XML report count the four statuses alike:
``N passed, N failed, N skipped, N not run``; JUnit has no "not run", so such
a case is an ``error`` there (``errors`` counts them).  :meth:`Report.from_dict`
reads the JSON back.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from .protocol import PROTOCOL

__all__ = ["REPORT_FORMAT", "CaseResult", "Report"]

#: Version of the JSON report's layout.
REPORT_FORMAT: Final = 2

Status = Literal["passed", "failed", "skipped", "not_run"]

#: The statuses in the order the summary line names them, with their words.
STATUS_WORDS: Final[dict[str, str]] = {
    "passed": "passed",
    "failed": "failed",
    "skipped": "skipped",
    "not_run": "not run",
}


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one case."""

    id: str
    status: Status
    message: str = ""
    file: str = ""
    seconds: float = 0.0
    #: What the adapter wrote to standard error while this case ran.
    stderr: str = ""


@dataclass
class Report:
    """The outcome of a run: one result per selected case, in run order."""

    results: list[CaseResult] = field(default_factory=list)
    suite: str = ""
    protocol: int = PROTOCOL
    adapter: dict[str, Any] = field(default_factory=dict)
    target: str = ""

    def add(
        self,
        case_id: str,
        status: Status,
        message: str = "",
        file: str = "",
        seconds: float = 0.0,
        stderr: str = "",
    ) -> None:
        """Record the outcome of one case."""
        self.results.append(CaseResult(case_id, status, message, file, round(seconds, 6), stderr))

    @property
    def passed(self) -> list[str]:
        """Ids of the cases that passed."""
        return [r.id for r in self.results if r.status == "passed"]

    @property
    def failed(self) -> list[tuple[str, str]]:
        """``(id, first mismatch)`` of each failed case."""
        return [(r.id, r.message) for r in self.results if r.status == "failed"]

    @property
    def skipped(self) -> list[tuple[str, str]]:
        """``(id, reason)`` of each skipped case."""
        return [(r.id, r.message) for r in self.results if r.status == "skipped"]

    @property
    def not_run(self) -> list[tuple[str, str]]:
        """``(id, why)`` of each case that was not run (the adapter had died for good)."""
        return [(r.id, r.message) for r in self.results if r.status == "not_run"]

    def counts(self) -> dict[str, int]:
        """How many cases ended in each status (every status named, zeros included)."""
        return {s: sum(r.status == s for r in self.results) for s in STATUS_WORDS}

    def summary(self) -> str:
        """The closing line: ``N passed, N failed, N skipped, N not run``."""
        counts = self.counts()
        return ", ".join(f"{counts[s]} {word}" for s, word in STATUS_WORDS.items())

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """The JSON report: run facts, counts and one entry per case."""
        return {
            "format": REPORT_FORMAT,
            "suite": self.suite,
            "protocol": self.protocol,
            "target": self.target,
            "adapter": self.adapter,
            "counts": {"total": len(self.results), **self.counts()},
            "summary": self.summary(),
            "cases": [asdict(r) for r in self.results],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Report:
        """Read back what :meth:`to_dict` wrote."""
        if data.get("format") != REPORT_FORMAT:
            raise ValueError(f"not a conformance report of format {REPORT_FORMAT}")
        return cls(
            results=[CaseResult(**r) for r in data["cases"]],
            suite=data.get("suite", ""),
            protocol=data.get("protocol", 1),
            adapter=data.get("adapter", {}),
            target=data.get("target", ""),
        )

    def write_json(self, path: str | Path) -> None:
        """Write the JSON report to ``path``."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=1, allow_nan=False) + "\n", encoding="utf-8")

    # ----------------------------------------------------------------- JUnit
    def to_junit(self) -> ET.ElementTree:
        """A JUnit XML tree: one ``testcase`` per case, named by its id and
        classed by its ``<game>.<area>``; failures carry the first mismatch,
        skips the reason, cases not run an ``error`` saying why, and every case
        the adapter's standard error under ``system-err``."""
        total = sum(r.seconds for r in self.results)
        root = ET.Element("testsuites")
        suite = ET.SubElement(
            root,
            "testsuite",
            {
                "name": "hucklebuck-conformance",
                "tests": str(len(self.results)),
                "failures": str(len(self.failed)),
                "errors": str(len(self.not_run)),
                "skipped": str(len(self.skipped)),
                "time": f"{total:.3f}",
            },
        )
        props = ET.SubElement(suite, "properties")
        facts = (
            ("suite", self.suite),
            ("protocol", str(self.protocol)),
            ("target", self.target),
            ("summary", self.summary()),
        )
        for name, value in facts:
            ET.SubElement(props, "property", {"name": name, "value": value})
        for r in self.results:
            group = ".".join(r.id.split("/")[:2])
            tc = ET.SubElement(
                suite,
                "testcase",
                {"classname": group, "name": r.id, "file": r.file, "time": f"{r.seconds:.3f}"},
            )
            if r.status == "failed":
                ET.SubElement(tc, "failure", {"message": r.message, "type": "mismatch"}).text = r.message
            elif r.status == "skipped":
                ET.SubElement(tc, "skipped", {"message": r.message})
            elif r.status == "not_run":
                ET.SubElement(tc, "error", {"message": r.message, "type": "not run"}).text = r.message
            if r.stderr:
                ET.SubElement(tc, "system-err").text = r.stderr
        ET.indent(root)
        return ET.ElementTree(root)

    def write_junit(self, path: str | Path) -> None:
        """Write the JUnit XML report to ``path``."""
        self.to_junit().write(str(path), encoding="utf-8", xml_declaration=True)
