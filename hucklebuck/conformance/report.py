"""The outcome of a conformance run, and the files it can be written to.

A :class:`Report` holds one :class:`CaseResult` per case that was selected:
``passed``, ``failed`` (with the first mismatching path, or what went wrong
with the adapter) or ``skipped`` (the adapter answered ``unsupported``, or did
not announce the op, game or extension the case needs).  It can be written as a
JUnit XML file (one ``testcase`` per case) and as JSON, which
:meth:`Report.from_dict` reads back.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

__all__ = ["REPORT_FORMAT", "CaseResult", "Report"]

#: Version of the JSON report's layout.
REPORT_FORMAT: Final = 1

Status = Literal["passed", "failed", "skipped"]


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one case."""

    id: str
    status: Status
    message: str = ""
    file: str = ""
    seconds: float = 0.0


@dataclass
class Report:
    """The outcome of a run: one result per selected case, in run order."""

    results: list[CaseResult] = field(default_factory=list)
    suite: str = ""
    protocol: int = 1
    adapter: dict[str, Any] = field(default_factory=dict)
    target: str = ""

    def add(
        self, case_id: str, status: Status, message: str = "", file: str = "", seconds: float = 0.0
    ) -> None:
        """Record the outcome of one case."""
        self.results.append(CaseResult(case_id, status, message, file, round(seconds, 6)))

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

    def summary(self) -> str:
        """The closing line: ``N passed, N failed`` (``, N skipped``)."""
        line = f"{len(self.passed)} passed, {len(self.failed)} failed"
        if self.skipped:
            line += f", {len(self.skipped)} skipped"
        return line

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """The JSON report: run facts, counts and one entry per case."""
        return {
            "format": REPORT_FORMAT,
            "suite": self.suite,
            "protocol": self.protocol,
            "target": self.target,
            "adapter": self.adapter,
            "counts": {
                "total": len(self.results),
                "passed": len(self.passed),
                "failed": len(self.failed),
                "skipped": len(self.skipped),
            },
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
        classed by its ``<game>.<area>``; failures carry the first mismatch and
        skips the reason."""
        total = sum(r.seconds for r in self.results)
        root = ET.Element("testsuites")
        suite = ET.SubElement(
            root,
            "testsuite",
            {
                "name": "hucklebuck-conformance",
                "tests": str(len(self.results)),
                "failures": str(len(self.failed)),
                "errors": "0",
                "skipped": str(len(self.skipped)),
                "time": f"{total:.3f}",
            },
        )
        props = ET.SubElement(suite, "properties")
        for name, value in (("suite", self.suite), ("protocol", str(self.protocol)), ("target", self.target)):
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
        ET.indent(root)
        return ET.ElementTree(root)

    def write_junit(self, path: str | Path) -> None:
        """Write the JUnit XML report to ``path``."""
        self.to_junit().write(str(path), encoding="utf-8", xml_declaration=True)
