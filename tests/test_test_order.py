"""The order the suite starts its tests in (``order_kit.py``): the longest units of work first, so a
parallel run does not end with one long module running alone; and every test still runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from order_kit import SCOPE_SECONDS, ordered, seconds, unit_of

pytestmark = pytest.mark.single_core

TESTS = Path(__file__).resolve().parent


def _suite_like() -> list[str]:
    """Node ids shaped like this suite's, in pytest's collection order (files by name): two tests per
    module, and a test in each class the table lists, beside the module's own."""
    ids: list[str] = []
    for path in sorted(TESTS.glob("test_*.py")):
        ids += [f"tests/{path.name}::test_a[c]", f"tests/{path.name}::test_b[python]"]
        for unit in SCOPE_SECONDS:
            if unit.startswith(path.name + "::"):
                ids.append(f"tests/{unit}::test_c[c]")
    return ids + ["docs/rules/hucklebuck.rst::hucklebuck.rst", "hucklebuck/cards.py::hucklebuck.cards.Card"]


def _units_in_order(ids: list[str], order: list[int]) -> list[str]:
    units: list[str] = []
    for i in order:
        if not units or units[-1] != unit_of(ids[i]):
            units.append(unit_of(ids[i]))
    return units


def test_every_unit_the_table_names_is_in_the_suite() -> None:
    """A renamed or removed module or class would lose its place without a word: the table must not
    name one that is gone."""
    for unit in SCOPE_SECONDS:
        name, _, cls = unit.partition("::")
        path = TESTS / name
        assert path.is_file(), f"order_kit.SCOPE_SECONDS names {name}, which is not in tests/"
        if cls:
            assert re.search(rf"^class {cls}\b", path.read_text(encoding="utf-8"), re.M), unit


def test_a_parallel_run_hands_out_the_longest_units_first() -> None:
    ids = _suite_like()
    order = ordered(ids, by_unit=True)
    assert sorted(order) == list(range(len(ids)))  # every test, once
    units = _units_in_order(ids, order)
    assert len(units) == len(set(units))  # each unit's tests stay together
    assert units[0] == "tests/test_docs.py"  # the longest: the docs built from scratch
    weights = [seconds(u) for u in units]
    assert weights == sorted(weights, reverse=True)
    listed = [u for u in units if seconds(u) > 0]
    assert len(listed) == len(SCOPE_SECONDS)
    # a class is a unit of its own, placed by its own length (a whole game in the browser)
    assert units.index("tests/test_browser_table.py::TestDeerPark") < units.index("tests/test_tournament.py")
    # what the table does not list keeps its collected order, after everything it lists
    rest = units[len(listed) :]
    assert rest == [u for u in _units_in_order(ids, list(range(len(ids)))) if seconds(u) == 0]
    assert rest[-1] == "hucklebuck/cards.py"


def test_a_run_in_one_process_keeps_each_module_together() -> None:
    """Without workers the order is by module, each module's tests (its classes too) in one stretch,
    so its module-wide fixtures (a browser, a server) are built once."""
    ids = _suite_like()
    order = ordered(ids, by_unit=False)
    assert sorted(order) == list(range(len(ids)))
    modules = [ids[i].split("::", 1)[0] for i in order]
    stretches = [m for k, m in enumerate(modules) if k == 0 or modules[k - 1] != m]
    assert len(stretches) == len(set(stretches))
    assert stretches[0] == "tests/test_browser_table.py"  # its three games and the rest: the longest module
    within = [ids[i] for i in order if ids[i].startswith("tests/test_browser_table.py")]
    assert within == [i for i in ids if i.startswith("tests/test_browser_table.py")]  # as collected
