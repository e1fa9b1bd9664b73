"""Lint of the conformance cases: shape, unique ids, citations, and coverage.

Coverage means three things: every rule decision (``DEF #n``) that a request can
observe is cited by at least one case, every value of every protocol option is
set by at least one case, and every deciding boundary declared in
:mod:`~hucklebuck.conformance.deciding` (a rule's or an option value's case that
separates two outcomes) is named by a case under ``"deciding"``.
:func:`coverage_lines` says what is covered.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from .casefile import CaseFileError, _case_files, show
from .citations import CitationIndex, check_raw
from .deciding import BOUNDARIES, NOT_DECIDABLE
from .spec import (
    DEFS,
    GAMES,
    GROUPS,
    NOT_OBSERVABLE,
    OPTION_VALUES,
    PROTOCOL_OPTIONS,
    PROTOCOL_SECTIONS,
    option_needs,
)

__all__ = ["Coverage", "coverage", "coverage_lines", "lint"]

MIN_CASES: Final = 150
ID_RE: Final = re.compile(r"^(" + "|".join(GROUPS) + r")/[a-z0-9-]+/[a-z0-9-]+$")
DEF_RE: Final = re.compile(r"^DEF #\d+$")
PROTOCOL_NUMBER_RE: Final = re.compile(r"^protocol:? *[0-9§]")
SOURCE_RE: Final = re.compile(r"^(S0|S2|S3|S4|protocol)[ :,]")


CASE_KEYS: Final = {
    "id", "title", "source", "decisions", "deciding", "request", "expect", "extensions", "needs",
    "raw", "raw_b64", "no_answer", "answer_id",
}  # fmt: skip


@dataclass
class Coverage:
    """What a set of cases covers."""

    #: DEF number -> ids of the cases citing it.
    decisions: dict[int, list[str]] = field(default_factory=dict)
    #: ``(game, option, value)`` -> number of cases setting it (``"int"``: a
    #: non-default integer).
    option_values: Counter[tuple[str, str, Any]] = field(default_factory=Counter)
    #: Deciding boundary -> ids of the cases naming it.
    deciding: dict[str, list[str]] = field(default_factory=dict)
    #: Section of the protocol page -> ids of the cases citing it first.
    protocol_sections: dict[str, list[str]] = field(default_factory=dict)

    def uncited(self) -> list[int]:
        """Observable decisions no case cites."""
        return [d for d in DEFS if d not in self.decisions and d not in NOT_OBSERVABLE]

    def unexercised(self) -> list[tuple[str, str, Any]]:
        """Non-default protocol option values no case sets."""
        out = []
        for game, options in OPTION_VALUES.items():
            for name, values in options.items():
                for v in values[1:]:
                    if not self.option_values[(game, name, v)]:
                        out.append((game, name, v))
        return out

    def undecided(self) -> list[str]:
        """Declared deciding boundaries no case names."""
        return [b for b in BOUNDARIES if b not in self.deciding]

    def note(self, case_id: str, game: str, case: dict[str, Any]) -> None:
        """Count what one (well-formed) case covers."""
        source = case.get("source")
        if isinstance(source, list) and source and isinstance(source[0], str):
            for section in PROTOCOL_SECTIONS:
                if source[0].startswith((f"protocol: {section}:", f"protocol: {section},")):
                    self.protocol_sections.setdefault(section, []).append(case_id)
        for name in case.get("deciding", []):
            if isinstance(name, str) and name in BOUNDARIES:
                self.deciding.setdefault(name, []).append(case_id)
        for d in case.get("decisions", []):
            if isinstance(d, str) and DEF_RE.match(d):
                self.decisions.setdefault(int(d.split("#")[1]), []).append(case_id)
        req = case.get("request")
        opts = req.get("options") if isinstance(req, dict) else None
        if not isinstance(opts, dict):
            return
        for name, value in opts.items():
            values = OPTION_VALUES.get(game, {}).get(name)
            if values is None:
                continue
            default = values[0]
            if value in values[1:] and type(value) is type(default if default is not None else value):
                self.option_values[(game, name, value)] += 1
            elif "int" in values and type(value) is int and value != default:
                self.option_values[(game, name, "int")] += 1


def _show(value: Any) -> str:
    return "<an integer>" if value == "int" else json.dumps(value)


def _check_case(
    f: Path, case: dict[str, Any], where: str, problems: list[str], citations: CitationIndex
) -> str | None:
    """Check one case; its group (a game, or ``protocol``) when it is well-formed enough to count."""
    extra = set(case) - CASE_KEYS
    if extra:
        problems.append(f"{where}: unknown keys {show(sorted(extra))}")
    cid = case.get("id")
    if not isinstance(cid, str) or not ID_RE.match(cid):
        problems.append(
            f'{where}: id {show(cid)} must look like "<group>/<area>/<slug>" (group: {", ".join(GROUPS)})'
        )
        return None
    where = f"{f}: {cid}"
    game = cid.split("/")[0]
    if f.parent.name != game:
        problems.append(f"{where}: lives under {f.parent.name}/, not {game}/")
    citations.note(cid, case, where, problems)
    if not isinstance(case.get("title"), str) or not case["title"]:
        problems.append(f"{where}: needs a title")
    source = case.get("source", [])
    decisions = case.get("decisions", [])
    if not isinstance(source, list) or not all(isinstance(s, str) and SOURCE_RE.match(s) for s in source):
        problems.append(
            f'{where}: "source" must be a list of citations starting with S0, S2, S3, S4 or protocol'
        )
    if not isinstance(decisions, list) or not all(isinstance(d, str) and DEF_RE.match(d) for d in decisions):
        problems.append(f'{where}: "decisions" must be a list like ["DEF #18"]')
    elif any(int(d.split("#")[1]) not in DEFS for d in decisions):
        problems.append(f'{where}: "decisions" cites a DEF number outside 1..{DEFS[-1]}')
    if isinstance(source, list) and any(isinstance(s, str) and PROTOCOL_NUMBER_RE.match(s) for s in source):
        problems.append(f"{where}: cite the protocol page by topic ('protocol: options'), not by a number")
    if not source and not decisions:
        problems.append(f"{where}: cites neither a source nor a decision")
    _check_deciding(case, game, where, problems)
    exts = case.get("extensions", [])
    if not isinstance(exts, list) or not all(isinstance(e, str) for e in exts):
        problems.append(f'{where}: "extensions" must be a list of names like "deerpark.eight_player_turnup"')
    if check_raw(case, where, problems):
        return game
    req = case.get("request")
    if not isinstance(req, dict) or "op" not in req or (game in GAMES and not isinstance(req["op"], str)):
        problems.append(f'{where}: "request" must be an object with an "op"')
        return None
    if "id" in req:
        problems.append(f"{where}: the runner sets the request id; do not write one")
    if "expect" not in case:
        problems.append(f'{where}: needs "expect"')
    if game in GAMES and req.get("game") not in (None, game):
        problems.append(f"{where}: request game {show(req.get('game'))} differs from the id's")
    needs = option_needs(req)
    if case.get("needs", []) != needs:
        problems.append(f'{where}: "needs" must list the non-default options the request sets: {show(needs)}')
    return game


def _sets(case: dict[str, Any], name: str, value: Any) -> bool:
    req = case.get("request")
    opts = req.get("options") if isinstance(req, dict) else None
    if not isinstance(opts, dict) or name not in opts:
        return False
    got = opts[name]
    if value == "int":
        return type(got) is int
    return bool(got == value and type(got) is type(value))


def _check_deciding(case: dict[str, Any], game: str, where: str, problems: list[str]) -> None:
    """A case naming a boundary must cite its decision and set its option."""
    names = case.get("deciding", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        problems.append(f'{where}: "deciding" must be a list of boundary names')
        return
    cited = {d for d in case.get("decisions", []) if isinstance(d, str)}
    for name in names:
        b = BOUNDARIES.get(name)
        if b is None:
            problems.append(f'{where}: "deciding" names {show(name)}, which is not a declared boundary')
            continue
        if name.split("/")[0].split(".")[0] != game:
            problems.append(f"{where}: boundary {name} belongs to another game")
        if b.defs and not cited & {f"DEF #{d}" for d in b.defs}:
            need = " or ".join(f"DEF #{d}" for d in b.defs)
            problems.append(f"{where}: names boundary {name} but does not cite {need}")
        if b.option is not None and not _sets(case, *b.option):
            problems.append(f"{where}: names boundary {name} but does not set {b.option[0]}")


def _scan(paths: Sequence[Path | str]) -> tuple[list[str], Coverage, Counter[str]]:
    files = _case_files(paths)
    problems: list[str] = []
    ids: Counter[str] = Counter()
    per_game: Counter[str] = Counter()
    cov = Coverage()
    citations = CitationIndex()
    for f in files:
        try:
            data = json.loads(f.read_bytes().decode("utf-8"))
        except OSError as exc:
            raise CaseFileError(f"cannot read case file {f}: {exc.strerror or exc}") from None
        except (ValueError, RecursionError) as exc:
            problems.append(f"{f}: not JSON ({exc})")
            continue
        if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
            problems.append(f"{f}: must be an object with a 'cases' list")
            continue
        for i, case in enumerate(data["cases"]):
            if not isinstance(case, dict):
                problems.append(f"{f}#{i}: a case must be an object")
                continue
            game = _check_case(f, case, f"{f}#{i}", problems, citations)
            if game is None:
                continue
            ids[case["id"]] += 1
            per_game[game] += 1
            cov.note(case["id"], game, case)
    for cid, count in ids.items():
        if count > 1:
            problems.append(f"duplicate id {cid} ({count} times)")
    problems.extend(citations.problems())
    return problems, cov, per_game


def lint(paths: Sequence[Path | str] = ()) -> list[str]:
    """Return the problems found (an empty list when the suite is clean).

    Raises :class:`~hucklebuck.conformance.runner.CaseFileError` when a path
    does not exist or holds no case file.
    """
    problems, cov, per_game = _scan(paths)
    for game in PROTOCOL_OPTIONS:
        missing = [f"{name}={_show(v)}" for g, name, v in cov.unexercised() if g == game]
        if missing:
            problems.append(f"{game}: no case sets these option values: {', '.join(missing)}")
        if per_game[game] < MIN_CASES:
            problems.append(f"{game}: {per_game[game]} cases, fewer than {MIN_CASES}")
    undecided = cov.undecided()
    if undecided:
        problems.append(
            "no case names these deciding boundaries: "
            + "; ".join(f"{b} ({BOUNDARIES[b].what})" for b in undecided)
        )
    uncited = cov.uncited()
    if uncited:
        problems.append(
            "no case cites these observable decisions: " + ", ".join(f"DEF #{d}" for d in uncited)
        )
    return problems


def coverage(paths: Sequence[Path | str] = ()) -> Coverage:
    """What the cases under ``paths`` (default: the bundled suite) cover."""
    return _scan(paths)[1]


def coverage_lines(paths: Sequence[Path | str] = ()) -> list[str]:
    """A human summary of :func:`coverage`, as ``lint`` prints it."""
    _, cov, per_game = _scan(paths)
    observable = [d for d in DEFS if d not in NOT_OBSERVABLE]
    cited = [d for d in observable if d in cov.decisions]
    values = [(g, n, v) for g, opts in OPTION_VALUES.items() for n, vs in opts.items() for v in vs[1:]]
    unex = cov.unexercised()
    lines = [
        f"cases: {sum(per_game.values())} (" + ", ".join(f"{g} {per_game[g]}" for g in GROUPS) + ")",
        f"decisions cited: {len(cited)} of {len(observable)} observable ({len(DEFS)} in all)",
    ]
    for d, why in NOT_OBSERVABLE.items():
        lines.append(f"  DEF #{d} is not observable: {why}")
    if len(cited) < len(observable):
        lines.append("  not cited: " + ", ".join(f"DEF #{d}" for d in cov.uncited()))
    cited_sections = [s for s in PROTOCOL_SECTIONS if s in cov.protocol_sections]
    lines.append(
        f"protocol sections that cases cite first: {len(cited_sections)} of {len(PROTOCOL_SECTIONS)} ("
        + ", ".join(f"{s} {len(cov.protocol_sections[s])}" for s in cited_sections)
        + ")"
    )
    lines.append(f"non-default option values set: {len(values) - len(unex)} of {len(values)}")
    undecided = cov.undecided()
    lines.append(f"deciding boundaries with a case: {len(BOUNDARIES) - len(undecided)} of {len(BOUNDARIES)}")
    if undecided:
        lines.append("  no case: " + ", ".join(undecided))
    for name, why in NOT_DECIDABLE.items():
        lines.append(f"  {name} has no deciding case: {why}")
    if unex:
        lines.append("  not set: " + ", ".join(f"{g}.{n}={_show(v)}" for g, n, v in unex))
    return lines
