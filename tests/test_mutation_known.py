"""The hand-written mutants of the mutation check (``hucklebuck.bench.mutation.KNOWN``)
still apply to the code, and the conformance suite alone catches every rule
mutant among them: each one is loaded over its module in this process, the
bundled suite is run, and the module is put back."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from hucklebuck.bench.mutation import KNOWN, MODULES
from hucklebuck.conformance import InProcessAdapter, load_cases, run_cases

ROOT = Path(__file__).resolve().parents[1]
RULES = {  # the rule modules whose functions the games call through the module
    "hucklebuck_scoring": "hucklebuck.games._hucklebuck_scoring",
    "deerpark_scoring": "hucklebuck.games._deerpark_scoring",
    "buckem_settle": "hucklebuck.games._buckem_settle",
}
REASONS = ("reason text", "descriptions")  # changes the protocol cannot see


@pytest.mark.single_core
@pytest.mark.parametrize(("module", "what", "old", "new"), KNOWN, ids=[k[1] for k in KNOWN])
def test_each_known_mutant_applies_once(module: str, what: str, old: str, new: str) -> None:
    source = (ROOT / MODULES[module][0]).read_text(encoding="utf-8")
    assert source.count(old) == 1, what
    compile(source.replace(old, new), MODULES[module][0], "exec")


RULE_MUTANTS = [k for k in KNOWN if k[0] in RULES and not any(r in k[1] for r in REASONS)]


@pytest.mark.single_core
@pytest.mark.parametrize(("module", "what", "old", "new"), RULE_MUTANTS, ids=[k[1] for k in RULE_MUTANTS])
def test_the_suite_alone_catches_each_known_rule_mutant(
    core_name: str, module: str, what: str, old: str, new: str
) -> None:
    mod = importlib.import_module(RULES[module])
    path = ROOT / MODULES[module][0]
    source = path.read_text(encoding="utf-8")
    cases = load_cases()
    try:
        exec(compile(source.replace(old, new), str(path), "exec"), mod.__dict__)
        report = run_cases(cases, InProcessAdapter(core_name))
    finally:
        exec(compile(source, str(path), "exec"), mod.__dict__)
    assert report.failed, f"the conformance suite does not catch: {what}"
    assert run_cases(cases, InProcessAdapter(core_name)).failed == []  # put back
